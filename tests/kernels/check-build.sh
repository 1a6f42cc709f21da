#!/bin/sh
# check-build.sh: starve build on a real kernel (`make check-build`, opt-in,
# not part of make check; about 6-12 minutes of kernel build on 2 CPUs, then
# a boot under qemu): Debian's linux-source-6.12 made into a git repository,
#  1. `starve build TREE`: every option of the shipped fragment survives
#     olddefconfig (exit 0), the image is in the cache;
#  2. the same request again builds nothing and prints the same image;
#  3. `starve vm --kernel TREE smoke` boots it (from the cache) with every
#     vCPU up, and the guest's `starve env` finds BTF, the sched tracepoints,
#     schedstats, and sched_ext where pahole is 1.25 or later.
# CHECK_BUILD_TREE=DIR uses that git kernel tree instead of unpacking the
# source (kept between runs in $builddir/check-build-linux otherwise);
# STARVE_BUILD_CACHE is respected. Exit 0 pass, 1 fail, 77 nothing to build.
. "$top_srcdir/tests/lib.sh"
need_cmd git
need_cmd make
need_cmd gcc
need_cmd flex
need_cmd bison
need_cmd pahole
need_cmd bc
need_cmd qemu-system-x86_64
need_cmd jq
command -v busybox >/dev/null || [ -x /bin/busybox ] || skip "needs busybox (apt-get install busybox-static)"
src=/usr/src/linux-source-6.12.tar.xz
tree=${CHECK_BUILD_TREE:-$PWD/check-build-linux}
step() { echo "== $* ($(date +%T))"; }

if [ ! -d "$tree/.git" ]; then
	[ -f "$src" ] || skip "needs $src (apt-get install linux-source-6.12) or CHECK_BUILD_TREE"
	step "0. unpacking $src into $tree"
	mkdir -p "$tree" && tar xJf "$src" -C "$tree" --strip-components=1 || fail "cannot unpack $src"
	# Debian's .gitignore ends by ignoring everything at the top level
	sed -i '/^# Debian packaging/,$d' "$tree/.gitignore"
	git -C "$tree" init -q && git -C "$tree" add . &&
		git -C "$tree" -c user.name=starve -c user.email=starve@localhost commit -q \
			-m 'Debian linux-source-6.12' || fail "cannot make $tree a git repository"
fi

step "1. starve build $tree"
t0=$(date +%s)
nice -n 19 "$STARVE" build "$tree" >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err"
rc=$?
cat "$TMPDIR_TEST/err"
[ "$rc" = 0 ] || fail "starve build exited $rc"
image=$(cat "$TMPDIR_TEST/out")
echo "built in $(($(date +%s) - t0)) s: $image"
[ -s "$image" ] || fail "no image at '$image'"

step "2. the same request again"
t0=$(date +%s)
"$STARVE" build -q "$tree" >"$TMPDIR_TEST/out2" 2>"$TMPDIR_TEST/err2" || fail "second build failed"
[ "$(cat "$TMPDIR_TEST/out2")" = "$image" ] || fail "a second request gave another image"
grep -q "cached" "$TMPDIR_TEST/err2" || fail "the second request built: $(cat "$TMPDIR_TEST/err2")"
echo "answered in $(($(date +%s) - t0)) s"

step "3. starve vm --kernel $tree smoke"
out=$TMPDIR_TEST/vm
"$STARVE" vm -q --cpus 2 --kernel "$tree" --label built smoke -o "$out" >"$TMPDIR_TEST/vm.out" 2>&1
rc=$?
cat "$TMPDIR_TEST/vm.out"
judged "$rc" || fail "starve vm exited $rc"
env=$out/built/env.json
check_json "$env" '.topology.pus == 2' "the guest did not bring up both vCPUs"
check_json "$env" '.features.btf' "the guest has no BTF"
# pahole before 1.25 leaves sched_ext's struct_ops stubs out of BTF: it is
# built in but does not register (starve build warns; Debian 12 has 1.24)
pahole=$(pahole --version | sed -n 's/^v1\.\([0-9]*\).*/\1/p')
if [ "${pahole:-0}" -ge 25 ]; then
	check_json "$env" '.features.sched_ext' "the guest has no sched_ext"
else
	echo "pahole 1.$pahole: sched_ext not expected to register (needs pahole 1.25)"
fi
check_json "$env" '.features.sched_events and .features.schedstats' \
	"the guest has no sched tracepoints or schedstats"
jq -c '{pus: .topology.pus, features}' "$env"
exit 0
