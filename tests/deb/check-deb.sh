#!/bin/sh
# make check-deb: the package make deb built works from a scratch root
# (dpkg -x, nothing installed on the machine): starve runs, lists and
# checks its shipped profiles by name, its man pages render, and the
# completion, cited docs and ci/ files are in it. DEB: the .deb.
. "$top_srcdir/tests/lib.sh"
need_cmd dpkg-deb
[ -f "$DEB" ] || fail "no package ($DEB): make deb first"
R="$TMPDIR_TEST/root"
dpkg-deb -x "$DEB" "$R" || fail "dpkg-deb -x $DEB failed"
S="$R/usr/bin/starve"
[ -x "$S" ] || fail "no /usr/bin/starve in $DEB"
cd "$TMPDIR_TEST" || fail "cd"
env -u STARVE_DATADIR "$S" --version | grep -q '^starve ' || fail "starve --version"
env -u STARVE_DATADIR "$S" list > list.out || fail "starve list failed"
for p in "$top_srcdir"/profiles/*.yaml; do
	name=${p##*/}
	grep -q "$name" list.out || fail "starve list does not show $name"
done
env -u STARVE_DATADIR "$S" check sleep-hog-starvation >/dev/null ||
	fail "starve check sleep-hog-starvation (by name) failed"
for page in man1/starve.1 man5/starve-profile.5; do
	f=$(ls "$R/usr/share/man/$page"* 2>/dev/null | head -1)
	[ -n "$f" ] || fail "no $page"
	man -l "$f" >/dev/null 2>&1 || fail "$page does not render"
done
for f in usr/share/bash-completion/completions/starve usr/share/doc/starve/doc/ci-gating.md \
	usr/share/doc/starve/ci/lava/README.md usr/share/starve/ci/lava/qemu-job.yaml; do
	# dh_compress gzips the larger docs, as Debian does
	[ -f "$R/$f" ] || [ -f "$R/$f.gz" ] || fail "/$f is not in the package"
done
echo "check-deb: $(basename "$DEB") runs from a scratch root"
exit 0
