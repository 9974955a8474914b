#!/bin/sh
# The README's set-up: its first command works as root without sudo and as
# a user with sudo (run here against stand-ins for apt-get, sudo and the
# build, which record what they were asked); how to run jaxprof and read
# its pages before and after make install is said, and true; the man pages
# read well (balanced parentheses).
. "$(dirname "$0")/lib.sh"

first=$(awk '/^    / { sub(/^    /, ""); print; exit }' "$SRCDIR/README.md")

# A sandbox: bin/ holds the only commands on PATH; the cwd a checkout.
sandbox() {	# sandbox WITH_SUDO UID
	rm -rf "$tmp/sbx"
	mkdir -p "$tmp/sbx/bin" "$tmp/sbx/co"
	log=$tmp/sbx/log
	for c in autoreconf make; do
		printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$c" "$log" \
		    >"$tmp/sbx/bin/$c"
	done
	printf '#!/bin/sh\necho "${FAKE_UID:-%s}"\n' "$2" >"$tmp/sbx/bin/id"
	# apt-get as anyone but root fails, as it does.
	printf '#!/bin/sh\n[ "$(id -u)" -eq 0 ] || { echo "apt-get: permission denied" >&2; exit 100; }\necho "apt-get $1${2:+ $2}${3:+ $3}" >>"%s"\n' \
	    "$log" >"$tmp/sbx/bin/apt-get"
	if [ "$1" = yes ]; then
		printf '#!/bin/sh\nFAKE_UID=0 exec "$@"\n' >"$tmp/sbx/bin/sudo"
	fi
	printf '#!/bin/sh\necho "./configure $*" >>"%s"\n' "$log" \
	    >"$tmp/sbx/co/configure"
	printf '#!/bin/sh\necho "./jaxprof $*" >>"%s"\n' "$log" \
	    >"$tmp/sbx/co/jaxprof"
	chmod +x "$tmp/sbx/bin/"* "$tmp/sbx/co/"*
}

cat >"$tmp/want" <<'EOT'
apt-get update
apt-get install -y build-essential
autoreconf -fi
./configure 
make 
./jaxprof top testdata/jax-mlp
EOT

test_case 'the first command works as root without sudo'
sandbox no 0
expect_code 0 env -i PATH="$tmp/sbx/bin" HOME="$tmp" /bin/sh -c \
    "cd '$tmp/sbx/co' && $first"
diff -u "$tmp/want" "$log" || fail "the command did not run every step"

test_case 'the first command works as a user with sudo'
sandbox yes 1000
expect_code 0 env -i PATH="$tmp/sbx/bin" HOME="$tmp" /bin/sh -c \
    "cd '$tmp/sbx/co' && $first"
diff -u "$tmp/want" "$log" || fail "the command did not run every step"

test_case 'the README says how to run it and read the pages, before and after make install'
for s in '`./jaxprof`' '`man ./man/jaxprof-top.1`' '`make install`' \
    '`man jaxprof-top`'; do
	grep -qF -- "$s" "$SRCDIR/README.md" || fail "README does not say $s"
done

test_case 'before make install: man ./man/jaxprof-top.1 shows the page'
if command -v man >/dev/null 2>&1; then
	expect_code 0 env -u MANPATH MANPAGER=cat PAGER=cat MANWIDTH=80 \
	    sh -c "cd '$SRCDIR' && man ./man/jaxprof-top.1"
	expect_stdout_match 'jaxprof-top'
else
	note_skip "man ./man/jaxprof-top.1: no man"
fi

test_case 'after make install: jaxprof on the path, its pages where man looks'
builddir=$(dirname "$JAXPROF")
expect_code 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$builddir" \
    install DESTDIR="$tmp/inst"
prefix=$(sed -n 's/^prefix = //p' "$builddir/Makefile")
[ -x "$tmp/inst$prefix/bin/jaxprof" ] || fail "no $prefix/bin/jaxprof"
for f in "$SRCDIR"/man/*.1; do
	[ -f "$tmp/inst$prefix/share/man/man1/$(basename "$f")" ] ||
	    fail "make install does not install $(basename "$f")"
done
expect_code 0 "$tmp/inst$prefix/bin/jaxprof" --version

test_case 'the man pages have balanced parentheses'
if command -v mandoc >/dev/null 2>&1; then
	for f in "$SRCDIR"/man/*.1; do
		n=$(mandoc -Tascii "$f" | tr -cd '(' | wc -c)
		m=$(mandoc -Tascii "$f" | tr -cd ')' | wc -c)
		[ "$n" -eq "$m" ] ||
		    fail "$(basename "$f"): $n '(' but $m ')'"
	done
	mandoc -Tascii "$SRCDIR/man/jaxprof-check.1" | col -b >"$out"
	expect_stdout_match "\(\`5%' or \`5'\)"
else
	note_skip "the man page check: no mandoc (apt-get install mandoc)"
fi

test_done
