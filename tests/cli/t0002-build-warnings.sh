#!/bin/sh
# A clean build prints no warnings: autoconf says nothing about the order
# of configure.ac's macros, and ar is not given the 'u' modifier that
# Debian's ar warns about ("ar: 'u' modifier ignored").
. "$(dirname "$0")/lib.sh"

builddir=$(dirname "$JAXPROF")

test_case 'autoconf -Wall has no warning about configure.ac'
if ! command -v autoconf >/dev/null 2>&1 || [ ! -f "$SRCDIR/aclocal.m4" ]; then
	note_skip "autoconf: no autoconf, or no aclocal.m4 in '$SRCDIR'"
else
	(cd "$tmp" && autoconf -Wall -I "$SRCDIR" -o configure \
	    "$SRCDIR/configure.ac") >"$out" 2>"$err" || fail "autoconf failed"
	expect_stderr_empty
fi

test_case 'ar with the Makefile flags prints nothing'
ar=$(sed -n 's/^AR = //p' "$builddir/Makefile")
arflags=$(sed -n 's/^ARFLAGS = //p' "$builddir/Makefile")
[ -n "$ar" ] || fail "no AR in '$builddir/Makefile'"
cp "$builddir/src/lib/libjaxprof_a-err.o" "$tmp/err.o"
$ar $arflags "$tmp/t.a" "$tmp/err.o" >"$out" 2>"$err" || fail "ar failed"
expect_stderr_empty

test_done
