#!/bin/sh
# git bisect run with the recipe of starve(1) (bisect --git-step) on a tiny
# git repository whose commits each carry a kernel image at
# arch/x86/boot/bzImage: three "base" images, then "slower" ones from the
# known commit on, and one commit whose image is not a kernel. git bisect
# names the known commit; the recipe exits 125 (skip) on the commit without a
# kernel. Against tests/vm/fake-qemu by default (fast); with
# STARVE_BISECT_REAL="GOOD-IMAGE BAD-IMAGE PROFILE" (make check-bisect-git)
# the images are real kernels booted under qemu, which the profile must
# separate; STARVE_BISECT_OPTS and STARVE_BISECT_VM_OPTS are more options of
# bisect and of starve vm.
. "$top_srcdir/tests/lib.sh"
need_cmd git
t=$TMPDIR_TEST
top=$(cd "$top_srcdir" && pwd)
mkdir -p "$t/tmp"
TMPDIR=$t/tmp
export TMPDIR
if [ -n "${STARVE_BISECT_REAL:-}" ]; then
	set -- $STARVE_BISECT_REAL
	good=$1 bad=$2 profile=$3
	bisect_opts=${STARVE_BISECT_OPTS:-} vm_opts=${STARVE_BISECT_VM_OPTS:-}
else
	mkdir -p "$t/bin"
	ln -s "$top/tests/vm/fake-qemu" "$t/bin/qemu-system-x86_64"
	PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/cache \
		FAKE_QEMU_LOG=$t/qemu.log FAKE_QEMU_RESULTS=$top/tests/compare
	export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE FAKE_QEMU_LOG FAKE_QEMU_RESULTS
	good=$t/good.img bad=$t/bad.img profile=$top/tests/profiles/run/quick.yaml
	"$top/tests/vm/make-fake-image" "$good" 6.99.1
	"$top/tests/vm/make-fake-image" "$bad" 6.99.4-slower
	bisect_opts= vm_opts="--accel tcg"
fi
starve=$(cd "$(dirname "$STARVE")" && pwd)/$(basename "$STARVE")

# The repository: c1-c3 good, c4 the change, c5 not a kernel, c6-c7 bad.
r=$t/linux
mkdir -p "$r/arch/x86/boot"
cd "$r" || fail "cd $r"
git init -q . && git config user.email t@example.org && git config user.name test ||
	fail "git init"
printf 'bzImage:\n\ttest -s arch/x86/boot/bzImage\n' > Makefile
commit() {	# commit NAME IMAGE
	cp "$2" arch/x86/boot/bzImage
	git add -A && git commit -q -m "$1" || fail "commit $1"
	git rev-parse HEAD > "$t/$1.sha"
}
head -c 4096 /dev/zero > "$t/zeros.img"
for c in 1 2 3; do echo "$c" > version; commit c$c "$good"; done
commit c4 "$bad"
commit c5 "$t/zeros.img"
for c in 6 7; do echo "$c" > version; commit c$c "$bad"; done

# The baseline: c1's image under starve vm.
git checkout -q "$(cat "$t/c1.sha")"
"$starve" vm -q -o "$t/base" --kernel arch/x86/boot/bzImage "$profile" $vm_opts \
	> "$t/base.log" 2>&1 || judged $? || fail "baseline run: $(tail -5 "$t/base.log")"
git checkout -q master 2>/dev/null || git checkout -q main 2>/dev/null || git checkout -q -

# The recipe, as documented (the fake tree's make checks the image is there).
recipe="make -j\"\$(nproc)\" bzImage >/dev/null || exit 125; \"$starve\" bisect --git-step \
--baseline \"$t/base\" --kernel arch/x86/boot/bzImage \"$profile\" $bisect_opts -- $vm_opts"

# The commit without a kernel: skipped.
git checkout -q "$(cat "$t/c5.sha")"
sh -c "$recipe" > "$t/step.log" 2>&1
rc=$?
[ $rc = 125 ] || fail "the recipe on a commit whose image is not a kernel: exit $rc, expected 125: $(cat "$t/step.log")"
grep -q "^untestable" "$t/step.log" || fail "the skip is not said: $(cat "$t/step.log")"

git bisect start "$(cat "$t/c7.sha")" "$(cat "$t/c1.sha")" > /dev/null || fail "git bisect start"
git bisect run sh -c "$recipe" > "$t/bisect.log" 2>&1
rc=$?
cat "$t/bisect.log"
git bisect reset -q 2>/dev/null
[ $rc = 0 ] || fail "git bisect run: exit $rc"
grep -q "^$(cat "$t/c4.sha") is the first bad commit" "$t/bisect.log" ||
	fail "git bisect did not name c4 ($(cat "$t/c4.sha"))"
exit 0
