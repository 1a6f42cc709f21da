#!/bin/sh
# `make install DESTDIR=D` installs a starve that works from D: every
# profile of profiles/ (so one missing from Makefile.am's list fails here),
# found by name; the docs --help, the man pages and the installed docs and
# profiles cite, at the paths they cite them by under $(docdir); the LAVA
# and KernelCI files under $(pkgdatadir)/ci; the bash completion.
. "$top_srcdir/tests/lib.sh"
need_cmd make
T="$TMPDIR_TEST"
# a make of its own, not a part of make check's (its jobserver and flags)
unset MAKEFLAGS MFLAGS MAKELEVEL
D="$T/root"
# the directories configure chose
dirs=$(printf 'show:\n\t@echo $(bindir) $(pkgdatadir) $(docdir) $(datadir)\n' |
	make -s --no-print-directory -C "$top_builddir" -f Makefile -f - show) || fail "no make variables"
set -- $dirs
bindir=$1 pkgdatadir=$2 docdir=$3 datadir=$4
make -s --no-print-directory -C "$top_builddir" install DESTDIR="$D" >"$T/install.log" 2>&1 ||
	fail "make install failed: $(tail -5 "$T/install.log")"
ls "$D$pkgdatadir/profiles" >"$T/installed" 2>&1 || fail "no profiles installed: $(tail -5 "$T/install.log")"

for p in "$top_srcdir"/profiles/*.yaml; do
	[ -f "$D$pkgdatadir/profiles/${p##*/}" ] ||
		fail "${p##*/} is not installed (add it to dist_profiles_DATA in Makefile.am)"
done
# the installed starve finds them by name, away from the source tree
(cd "$T" && env -u STARVE_DATADIR "$D$bindir/starve" check cfs-bandwidth) >"$T/check.out" 2>&1 ||
	fail "installed starve check cfs-bandwidth: $(cat "$T/check.out")"
n=$(cd "$T" && env -u STARVE_DATADIR "$D$bindir/starve" list | grep -c '\.yaml')
[ "$n" -ge "$(ls "$top_srcdir"/profiles/*.yaml | wc -l)" ] || fail "installed starve list shows $n profiles"

# every doc the man pages, --help and the installed docs, profiles and lab
# files cite, where they cite it (README.md, doc/kernels.md and
# profiles/known/ cite doc/known-regressions.md)
cited=$( (sed -n 's/^\.I \(doc\|ci\/[a-z]*\)\(\/[^ ]*\.md\)$/\1\2/p' "$top_srcdir"/doc/*.[15]
	"$D$bindir/starve" compare --help 2>&1 | grep -oE 'doc/[a-z-]+\.md'
	find "$D$docdir" "$D$pkgdatadir/profiles" "$D$pkgdatadir/ci" -type f \
		-exec grep -ohE 'doc/[a-z0-9-]+\.md' {} +) | sed 's/\\-/-/g' | sort -u)
[ -n "$cited" ] || fail "no cited doc found (the man page changed?)"
for d in $cited; do
	[ -f "$D$docdir/$d" ] || fail "$d is cited but not installed under $docdir"
done
for f in README.md starve.yaml qemu-job.yaml init make-initramfs.sh install-starve.sh; do
	[ -f "$D$pkgdatadir/ci/lava/$f" ] || fail "ci/lava/$f is not installed"
done
[ -x "$D$pkgdatadir/ci/lava/make-initramfs.sh" ] || fail "make-initramfs.sh is not executable"
[ -f "$D$pkgdatadir/ci/kernelci/README.md" ] || fail "ci/kernelci/README.md is not installed"
c="$D$datadir/bash-completion/completions/starve"
[ -f "$c" ] || fail "no bash completion installed"
grep -q 'complete -F _starve starve' "$c" || fail "the completion does not complete starve"
exit 0
