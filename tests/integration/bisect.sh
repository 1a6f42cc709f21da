#!/bin/sh
# starve bisect against tests/vm/fake-qemu (no kernel boots; a guest sends
# tests/compare/base.json, or slower.json for an image named "slower", whose
# probe's wakeup_p99 is a regression): over five images it names the first
# slower one after booting four (the ends and two), exit 1; killed with
# SIGKILL while a guest runs, --resume finishes without booting the finished
# kernels again; an image that is not a kernel is skipped for a neighbour,
# and when nothing between the last good and the first bad can be tested the
# answer is undecided (exit 4), naming the range and what was skipped; a
# step the data cannot decide gets more boots, then is skipped, never
# guessed; no change (equivalent ends) is exit 0; usage errors are 2.
. "$top_srcdir/tests/lib.sh"
t=$TMPDIR_TEST
top=$(cd "$top_srcdir" && pwd)
profile=$top/tests/profiles/run/quick.yaml
mkdir -p "$t/bin" "$t/tmp" "$t/img"
# qemu: the fake; a kernel named *k3* hangs while $t/hang exists
cat > "$t/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
case "\$*" in *k3-*) [ -e "$t/hang" ] && export FAKE_QEMU=hang ;; esac
exec "$top/tests/vm/fake-qemu" "\$@"
EOS
chmod +x "$t/bin/qemu-system-x86_64"
PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/cache TMPDIR=$t/tmp \
	FAKE_QEMU_LOG=$t/qemu.log FAKE_QEMU_RESULTS=$top/tests/compare
export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE TMPDIR FAKE_QEMU_LOG FAKE_QEMU_RESULTS

for i in 1 2 3; do "$top/tests/vm/make-fake-image" "$t/img/k$i-base.img" "6.99.$i"; done
for i in 4 5; do "$top/tests/vm/make-fake-image" "$t/img/k$i-slower.img" "6.99.$i"; done
boots() { grep -c '^argv:' "$t/qemu.log" 2>/dev/null || echo 0; }

# The search: five kernels, four boots, the first slower one named.
"$STARVE" bisect -o "$t/out" --kernel "$t/img" "$profile" -- --accel tcg > "$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "bisect over five images: exit $rc, expected 1"
grep -q "^first bad: $t/img/k4-slower.img$" "$t/stdout" || fail "first bad not k4"
grep -q "^last good: $t/img/k3-base.img$" "$t/stdout" || fail "last good not k3"
[ "$(boots)" = 4 ] || fail "$(boots) kernels booted, expected 4"
grep -Eq "^step [0-9]: kernel 5/5 .*: bad: probe wakeup_p99 \+20.6% p_holm" "$t/stdout" ||
	fail "a step does not say its deciding figure"
grep -q "last good .* against first bad" "$t/stdout" || fail "no evidence at the end"
[ "$(grep -c '^step ' "$t/out/bisect.log")" = 4 ] || fail "the log has not four steps"

# SIGKILL while kernel 3 boots, then --resume: kernels 1 and 5 are not booted again.
rm -f "$t/qemu.log"
: > "$t/hang"
"$STARVE" bisect -o "$t/res" --kernel "$t/img" "$profile" -- --accel tcg > "$t/stdout" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$t/qemu.log.pid" ] && break; sleep 0.1; done
[ -s "$t/qemu.log.pid" ] || { kill -9 $pid; fail "kernel 3 never booted"; }
kill -9 $pid
wait $pid 2>/dev/null
qemu=$(cat "$t/qemu.log.pid")
for _ in $(seq 50); do kill -0 "$qemu" 2>/dev/null || break; sleep 0.1; done
kill -0 "$qemu" 2>/dev/null && { kill -9 "$qemu"; fail "the guest outlived a killed bisect"; }
[ "$(boots)" = 3 ] || fail "before the kill: $(boots) boots, expected 3"
rm -f "$t/hang" "$t/qemu.log"
"$STARVE" bisect --resume "$t/res" > "$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "resumed: exit $rc, expected 1"
grep -q "^first bad: $t/img/k4-slower.img$" "$t/stdout" || fail "resumed: first bad not k4"
[ "$(grep -c '(from the log)$' "$t/stdout")" = 2 ] || fail "resumed: not two steps from the log"
grep -q 'k1-base.img\|k5-slower.img' "$t/qemu.log" && fail "resumed: a finished kernel booted again"
[ "$(boots)" = 2 ] || fail "resumed: $(boots) boots, expected 2 (kernels 3 and 4)"

# SIGTERM while kernel 3 boots: the search stops there (exit 3), kernel 3's
# step is not logged as untestable, and nothing else boots.
rm -f "$t/qemu.log" "$t/qemu.log.pid"
: > "$t/hang"
"$STARVE" bisect -o "$t/term" --kernel "$t/img" "$profile" -- --accel tcg > "$t/stdout" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$t/qemu.log.pid" ] && break; sleep 0.1; done
[ -s "$t/qemu.log.pid" ] || { kill -9 $pid; fail "SIGTERM: kernel 3 never booted"; }
kill -TERM $pid
wait $pid
rc=$?
rm -f "$t/hang"
[ $rc = 3 ] || { cat "$t/stdout"; fail "SIGTERM during a boot: exit $rc, expected 3"; }
grep -q "interrupted while .*k3-base.img booted" "$t/stdout" || fail "$(cat "$t/stdout")"
[ "$(boots)" = 3 ] || fail "SIGTERM: $(boots) boots, expected 3 (no kernel after the signal)"
grep -q '^step 2 ' "$t/term/bisect.log" && fail "SIGTERM: the interrupted kernel was logged"

# An image that is not a kernel: skipped, its neighbour tried.
mkdir -p "$t/six"
for i in 1 2 4; do cp "$t/img/k$(( i < 4 ? i : 3 ))-base.img" "$t/six/k$i-base.img"; done
head -c 4096 /dev/zero > "$t/six/k3-zeros.img"
cp "$t/img/k4-slower.img" "$t/six/k5-slower.img"
cp "$t/img/k5-slower.img" "$t/six/k6-slower.img"
"$STARVE" bisect -o "$t/skip" --kernel "$t/six" "$profile" > "$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "with an untestable kernel: exit $rc, expected 1"
grep -q "k3-zeros.img: cannot be tested, skipped" "$t/stdout" || fail "the skip is not said"
grep -q "^first bad: $t/six/k5-slower.img$" "$t/stdout" || fail "with a skip: first bad not k5"

# Nothing testable between the last good and the first bad: undecided.
"$STARVE" bisect -o "$t/und" --kernel "$t/img/k1-base.img" --kernel "$t/six/k3-zeros.img" \
	--kernel "$t/img/k4-slower.img" "$profile" > "$t/stdout" 2>&1
rc=$?
[ $rc = 4 ] || { cat "$t/stdout"; fail "undecidable: exit $rc, expected 4"; }
grep -q "^undecided: the first bad kernel is after .*k1-base.img and at or before .*k4-slower.img" \
	"$t/stdout" || fail "undecided is not said: $(cat "$t/stdout")"
grep -q "^  .*k3-zeros.img: cannot be tested" "$t/stdout" || fail "the skipped kernel is not listed"

# No change between the ends: exit 0 after two boots.
rm -f "$t/qemu.log"
expect_exit 0 "$STARVE" bisect -o "$t/same" --kernel "$t/img/k1-base.img" \
	--kernel "$t/img/k2-base.img" --kernel "$t/img/k3-base.img" "$profile" > "$t/stdout"
grep -q "^no change: .*k3-base.img is equivalent to .*k1-base.img" "$t/stdout" ||
	fail "no change is not said: $(cat "$t/stdout")"
[ "$(boots)" = 2 ] || fail "no change: $(boots) boots, expected 2"

# Usage errors: exit 2, nothing booted.
rm -f "$t/qemu.log"
expect_exit 2 "$STARVE" bisect -o "$t/u" --kernel "$t/img" --metric cpu_share "$profile" 2> "$t/err"
grep -q "want LOAD.METRIC" "$t/err" || fail "$(cat "$t/err")"
expect_exit 2 "$STARVE" bisect -o "$t/u" --kernel "$t/img" --alpha 2 "$profile" 2> "$t/err"
expect_exit 2 "$STARVE" bisect -o "$t/u" --kernel "$t/img/k1-base.img" "$profile" 2> "$t/err"
expect_exit 2 "$STARVE" bisect --resume "$t/nosuch" 2> "$t/err"
[ ! -e "$t/qemu.log" ] || fail "a usage error booted a kernel"

# --list: the order, nothing booted. A directory in version order (k10 after
# k9); a Debian range from apt-cache's names, in Debian version order, when
# this machine's package lists have the cloud kernels.
rm -f "$t/qemu.log"
mkdir -p "$t/order"
for k in k10 k9 k1; do : > "$t/order/$k.img"; done
: > "$t/order/config-6.99.1"
"$STARVE" bisect --list --kernel "$t/order" "$profile" > "$t/stdout" || fail "--list: exit $?"
printf '%s\n' "$t/order/k1.img" "$t/order/k9.img" "$t/order/k10.img" | cmp -s - "$t/stdout" ||
	fail "--list of a directory: $(cat "$t/stdout")"
a=linux-image-6.1.0-57-cloud-amd64 b=linux-image-6.12.100+deb12-cloud-amd64
if apt-cache pkgnames linux-image- 2>/dev/null | grep -qx "$b"; then
	"$STARVE" bisect --list --kernel "$a..$b" "$profile" > "$t/stdout" || fail "--list $a..$b: exit $?"
	printf '%s\n' "$a" "$b" | cmp -s - "$t/stdout" || fail "--list $a..$b: $(cat "$t/stdout")"
	"$STARVE" bisect --list --kernel "linux-image-6.1.0-47-cloud-amd64..$b" "$profile" > "$t/stdout"
	[ "$(head -1 "$t/stdout")" = linux-image-6.1.0-47-cloud-amd64 ] &&
		[ "$(sed -n 11p "$t/stdout")" = "$a" ] && [ "$(tail -1 "$t/stdout")" = "$b" ] &&
		! grep -q -- '-dbg$\|-unsigned$' "$t/stdout" || fail "Debian range: $(cat "$t/stdout")"
else
	echo "note: apt-cache does not know $b: the Debian range is not checked"
fi
expect_exit 2 "$STARVE" bisect --list --kernel "linux-image-6.1.0-57-cloud-amd64..linux-image-6.1.0-9-rt-amd64" "$profile" 2> "$t/err"
grep -q "of one flavour" "$t/err" || fail "$(cat "$t/err")"
[ ! -e "$t/qemu.log" ] || fail "--list booted a kernel"

# Until decided, the default: alpha spent over the planned looks
# (--max-repeat 15 over 5 runs a boot: 3 looks at 0.0167 each). The marginal
# kernels' wakeup_p99 (p_holm 0.020 at 5 runs a side) is undecided at the
# first look, so each boots again beside the first kernel and is bad at 10
# runs against 10; the base kernel is decided equivalent at once. 8 boots.
mkdir -p "$t/img2"
for i in 1 2 3; do cp "$t/img/k$i-base.img" "$t/img2/"; done
for i in 4 5; do "$top/tests/vm/make-fake-image" "$t/img2/k$i-marginal.img" "6.99.$i"; done
rm -f "$t/qemu.log"
"$STARVE" bisect --max-repeat 15 -o "$t/ud" --kernel "$t/img2" "$profile" > "$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "until decided: exit $rc, expected 1"
grep -q "^first bad: $t/img2/k4-marginal.img$" "$t/stdout" || fail "until decided: first bad not k4"
grep -q "k5-marginal.img: .* (undecided: interval past the margin), 5 runs against 5: look 2 of 3$" \
	"$t/stdout" || fail "until decided: no second look said"
grep -q "k5-marginal.img: bad: .*, 10 runs against 10$" "$t/stdout" ||
	fail "until decided: the runs each side took are not said"
grep -q "k3-base.img: good: .*, 5 runs against 5$" "$t/stdout" ||
	fail "until decided: an unchanged kernel took more than one look"
[ "$(boots)" = 8 ] || fail "until decided: $(boots) boots, expected 8"
[ -d "$t/ud/k04-base-2" ] || fail "until decided: the first kernel did not boot beside the look"
# --once: one look, at alpha 0.01 the last kernel is neither changed nor
# the same: undecided, never "good" or "bad", exit 4
"$STARVE" bisect --once --alpha 0.01 -o "$t/ud2" --kernel "$t/img2" \
	"$profile" > "$t/stdout" 2>&1
rc=$?
[ $rc = 4 ] || { cat "$t/stdout"; fail "--once, undecided: exit $rc, expected 4"; }
grep -q "^undecided: .*k5-marginal.img against .* could not be decided within the budget" "$t/stdout" ||
	fail "--once, undecided: not said: $(cat "$t/stdout")"
expect_exit 2 "$STARVE" bisect --once --until-decided -o "$t/ud3" --kernel "$t/img2" "$profile" \
	2>/dev/null

# A metric no run measured decides nothing: undecided, not "no change" (exit 4).
"$STARVE" bisect --metric victim.nosuch -o "$t/nosuch" --kernel "$t/img/k1-base.img" \
	--kernel "$t/img/k4-slower.img" "$profile" > "$t/stdout" 2>&1
rc=$?
[ $rc = 4 ] || { cat "$t/stdout"; fail "--metric victim.nosuch: exit $rc, expected 4"; }
grep -q "victim.nosuch was not measured" "$t/stdout" || fail "$(cat "$t/stdout")"
exit 0
