#!/bin/sh
# make check-lava: LAVA itself runs starve. Installs Debian's lava-dispatcher
# (with cpio, busybox-static, qemu-system-x86), fetches a Debian kernel into
# the cache `starve vm` keeps its kernels in, builds the initramfs with
# ci/lava/make-initramfs.sh, renders a qemu device (TCG) from the qemu device
# type lava-server ships, fills in ci/lava/qemu-job.yaml and runs it with
# lava-run. The guest runs tests/fleet/rt-throttle-lava.yaml (rt-throttle
# with an expectation that must fail) through ci/lava/starve.yaml; then the
# test cases LAVA recorded must equal starve's verdicts in the guest's own
# result.json, expectation by expectation, and its KCIDB must validate.
#
# lava-run without a server keeps no results database: the test cases are the
# "results" records of its log, which this test saves as output.yaml in the
# output directory (what lava-server stores as the job log). Root; about a
# minute after the install. LAVA_KERNEL (6.1-cloud, the default, 6.12-cloud or
# a linux-image-* package), LAVA_OUT (default ./lava-out), STARVE_KERNEL_CACHE.
. "$top_srcdir/tests/lib.sh"
need_root
FLEET=$top_srcdir/tests/fleet
OUT=${LAVA_OUT:-$PWD/lava-out}
W=$TMPDIR_TEST
t0=$(date +%s)
phase_t=$t0
# phase WHAT: how long the step before took, for the report
phase() {
	now=$(date +%s)
	echo "check-lava: $1: $((now - phase_t)) s"
	phase_t=$now
}

# ---- 1. what LAVA needs, from Debian ----
pkgs="lava-dispatcher cpio busybox-static qemu-system-x86 jq"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	need_cmd apt-get
	kb0=$(dpkg-query -W -f='${Installed-Size}\n' | awk '{ s += $1 } END { print s }')
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
		> "$W/apt.log" 2>&1 || { tail -20 "$W/apt.log"; fail "apt-get install$missing failed"; }
	kb1=$(dpkg-query -W -f='${Installed-Size}\n' | awk '{ s += $1 } END { print s }')
	echo "check-lava: installed$missing: $(( (kb1 - kb0) / 1024 )) MiB"
	phase "install"
fi
command -v lava-run >/dev/null || fail "lava-dispatcher is installed but there is no lava-run"

# ---- 2. the kernel (the lab's cache) and the initramfs ----
# deb_unpack PKG DIR PATH: PATH of Debian's package PKG, downloaded (never
# installed) and unpacked into DIR, unless DIR has it already.
deb_unpack() {
	[ -e "$2/$3" ] && return 0
	rm -rf "$2/deb" && mkdir -p "$2/deb" &&
		(cd "$2/deb" && apt-get download -q -o APT::Sandbox::User=root "$1" >/dev/null 2>&1) &&
		dpkg-deb --fsys-tarfile "$2"/deb/*.deb | tar -x -C "$2" "./$3" &&
		rm -rf "$2/deb"
}
# the cache and the package names of `starve vm --kernel` (doc/kernels.md)
KCACHE=${STARVE_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/starve/kernels}
kernel=${LAVA_KERNEL:-6.1-cloud}
case $kernel in
6.1-cloud) meta=linux-image-cloud-amd64 ;;
6.12-cloud) meta=linux-image-6.12-cloud-amd64 ;;
linux-image-*) meta=$kernel ;;
*) fail "LAVA_KERNEL=$kernel: 6.1-cloud, 6.12-cloud or a linux-image-* package" ;;
esac
pkg=$(apt-cache depends "$meta" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
pkg=${pkg:-$meta}
deb_unpack "$pkg" "$KCACHE/$pkg" boot/ || fail "cannot fetch $pkg (apt-get update?)"
vmlinuz=$(ls "$KCACHE/$pkg"/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$vmlinuz" ] || fail "$pkg has no /boot/vmlinuz-*"
"$top_srcdir/ci/lava/make-initramfs.sh" -s "$STARVE" -o "$W/ramdisk.cpio.gz" \
	"$FLEET/rt-throttle-lava.yaml" >/dev/null || fail "make-initramfs.sh failed"
phase "kernel $pkg and initramfs"

# ---- 3. the job, the test definition's repository, the device ----
# The definition comes from a git repository as in a lab: the checkout's
# ci/ as it is now, committed into a scratch repository.
mkdir -p "$W/repo/ci" && cp -R "$top_srcdir/ci/lava" "$W/repo/ci/" &&
	git -C "$W/repo" init -q && git -C "$W/repo" add -A &&
	git -C "$W/repo" -c user.name=check-lava -c user.email=check-lava@localhost \
		commit -q -m "ci/lava for check-lava" || fail "cannot make the test definition repository"
sed -e "s|@KERNEL_URL@|file://$vmlinuz|" -e "s|@RAMDISK_URL@|file://$W/ramdisk.cpio.gz|" \
	-e "s|@STARVE_REPO@|file://$W/repo|" -e "s|@PROFILE@|rt-throttle-lava|" \
	-e "s|@KERNEL_NAME@|$kernel|" -e "s|@STARVE_ARGS@||" -e "s|@LOG_RESULT@|true|" \
	"$top_srcdir/ci/lava/qemu-job.yaml" > "$W/job.yaml"
! grep -v '^#' "$W/job.yaml" | grep '@[A-Z_]*@' || fail "a placeholder of qemu-job.yaml was left unfilled"
# LAVA's own job schema accepts the template as shipped (its placeholders
# are quoted strings) and as filled in
/usr/bin/python3 - "$top_srcdir/ci/lava/qemu-job.yaml" "$W/job.yaml" <<'PY' ||
import sys, yaml
from lava_common.schemas import validate
for path in sys.argv[1:]:
    with open(path) as f:
        validate(yaml.safe_load(f), strict=True, extra_context_variables=[])
PY
	fail "qemu-job.yaml does not pass LAVA's job schema"
# The device: lava-server's qemu device type (a 400 kB package, unpacked,
# never installed) rendered with the device dictionary and the job's context,
# as lava-server renders it when it schedules the job.
tdir=$KCACHE/lava-server
deb_unpack lava-server "$tdir" usr/share/lava-server/device-types/ ||
	fail "cannot fetch lava-server's device types (apt-get download lava-server)"
/usr/bin/python3 - "$tdir/usr/share/lava-server/device-types" "$FLEET/qemu-tcg.jinja2" "$W/job.yaml" > "$W/device.yaml" <<'PY' ||
import sys, jinja2, yaml
templates, device, job = sys.argv[1:4]
env = jinja2.Environment(loader=jinja2.FileSystemLoader([templates]), trim_blocks=True,
                         autoescape=False)
context = yaml.safe_load(open(job))["context"]
context.update(scheduled_device_name="qemu-starve-01", scheduled_device_type="qemu")
print(env.from_string(open(device).read()).render(**context))
PY
	fail "cannot render the qemu device (python3-jinja2 and lava-server's templates)"
phase "job, definition repository and device"

# ---- 4. lava-run ----
rm -rf "$OUT" && mkdir -p "$OUT"
lava-run --validate --job-id 1 --output-dir "$OUT" --device "$W/device.yaml" "$W/job.yaml" \
	> "$OUT/validate.yaml" 2>&1 ||
	fail "lava-run --validate refused the job: $(grep '"lvl": "error"' "$OUT/validate.yaml")"
timeout 900 lava-run --job-id 1 --output-dir "$OUT" --device "$W/device.yaml" "$W/job.yaml" \
	> "$OUT/output.yaml" 2>&1
rc=$?
phase "lava-run (boot, starve in the guest)"
cp "$W/job.yaml" "$W/device.yaml" "$OUT/"
# its records as JSON lines (the log is YAML in flow style)
/usr/bin/python3 -c '
import sys, json, yaml
for line in open(sys.argv[1]):
    if line.startswith("{"):
        print(json.dumps(yaml.safe_load(line)))' "$OUT/output.yaml" > "$W/log.jsonl" ||
	fail "$OUT/output.yaml is not lava-run's log"
if [ $rc != 0 ]; then
	jq -r 'select(.lvl == "results" and .msg.result == "fail")
		| "lava-run: \(.msg.definition).\(.msg.case) failed: \(.msg.error_msg // .msg.extra // "")"' \
		"$W/log.jsonl" >&2
	fail "lava-run exited $rc (its log: $OUT/output.yaml)"
fi

# ---- 5. LAVA's record against starve's ----
# starve's result.json, sent through the log by the definition (LOG_RESULT);
# the shell's trace (set -x) of gzip and base64 comes between the markers too
jq -r 'select(.lvl == "target") | .msg' "$W/log.jsonl" | tr -d '\r' |
	sed -n '/^==== STARVE RESULT BEGIN ====$/,/^==== STARVE RESULT END ====$/p' |
	grep -E '^[A-Za-z0-9+/=]+$' | base64 -d | gunzip > "$OUT/result.json" 2>/dev/null ||
	fail "the guest's result.json did not come through the log intact"
"$STARVE" report "$OUT/result.json" > "$OUT/summary.txt" 2>&1
rc=$?
[ $rc = 1 ] || fail "starve report on the guest's result exited $rc, expected 1 (a failure was planted)"
jq -f "$FLEET/lava-cases.jq" "$OUT/result.json" > "$W/want.json"
jq -c 'select(.lvl == "results" and .msg.definition == "0_starve") | .msg
	| {set: (.set // null), case, result}
	  + (if .measurement then {measurement: (.measurement | tonumber)} else {} end)
	  + (if .units then {units} else {} end)' "$W/log.jsonl" > "$OUT/lava-results.jsonl"
. "$FLEET/lava-stubs.sh"
lava_same "$W/want.json" "$OUT/lava-results.jsonl" 2>"$W/diff" ||
	fail "LAVA's test cases differ from starve's verdicts: $(cat "$W/diff")"
jq -se 'any(.set == "throttled" and .case == "victim.cpu_share.above-2" and .result == "fail")' \
	"$OUT/lava-results.jsonl" >/dev/null || fail "LAVA did not record the planted failure as a fail"
jq -se 'any(.lvl == "results" and .msg.definition == "lava" and .msg.case == "0_starve"
	and .msg.result == "pass")' "$W/log.jsonl" >/dev/null ||
	fail "LAVA's record of the test definition itself is not a pass"
echo "check-lava: LAVA recorded $(wc -l < "$OUT/lava-results.jsonl") test cases, as starve judged them:"
jq -r '"  \(.set // "-") \(.case) \(.result) \(.measurement // "") \(.units // "")"' \
	"$OUT/lava-results.jsonl"

# ---- 6. the guest's KCIDB ----
. "$FLEET/kcidb-lib.sh"
"$STARVE" report "$OUT/result.json" --kcidb "$OUT/result.kcidb.json" >/dev/null 2>&1
kcidb_same "$OUT/result.json" "$OUT/result.kcidb.json"
if [ -r "$KCIDB_SCHEMA" ] && [ -n "$(kcidb_validator)" ]; then
	kcidb_validate "$OUT/result.kcidb.json"
	echo "check-lava: the guest's result is valid KCIDB v5.3"
else
	echo "check-lava: the guest's KCIDB not validated (no schema or no node-ajv)"
fi
echo "check-lava: passed in $(( $(date +%s) - t0 )) s; LAVA's files in $OUT"
exit 0
