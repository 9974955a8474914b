#!/bin/sh
# Names are data, not commands (issue 41.8): a generated trace whose op,
# module, annotation and step names carry terminal escapes (OSC title,
# clear screen, C1 CSI), markdown that would break out of a code span or
# a cell (a backtick and a newline, '|', an image, raw HTML) and long
# UTF-8 names.  Every report in every format: no control byte but the
# newline, valid UTF-8 (names cut on character boundaries), markdown
# tables keep their cells and no image or HTML gets through, JSON keeps
# the names exactly, HTML escapes them.
. "$(dirname "$0")/lib.sh"

python_has json || skip "no $PYTHON"
cd "$tmp"

# make DIR STEPS: a trace JSON in DIR; STEPS 1: a "Steps" line (else the
# steps come from the modules' runs).
make() {
	mkdir -p "$1"
	"$PYTHON" - "$1/hostile.trace.json" "$2" <<'PY' || fail "cannot write $1"
import json, sys
NAMES = ["osc\x1b]0;pwned\x07title", "clear\x1b[2J\x1b[H", "tick`\n# heading\n",
         "![x](https://evil.example/p.png)", "<img src=x onerror=alert(1)>",
         "\u65e5\u672c\u8a9e" * 40, "csi\u009b31m c1", "pipe|cell\x7fdel",
         "_em_ *b* [l](u) &lt; $x$", "``two`` ticks"]
# The top ops: the backtick-newline name (past the top-op rule's 25% of
# device time, so the summary advises on it), then the escapes.
RANK = {2: 300, 0: 70, 1: 60}
ev = []
def meta(pid, tid, what, name):
    ev.append({"ph": "M", "pid": pid, "tid": tid, "name": what,
               "args": {"name": name}})
meta(1, 0, "process_name", "/device:GPU:0")
meta(1, 1, "thread_name", "XLA Ops")
meta(1, 2, "thread_name", "XLA Modules")
if sys.argv[2] == "1":
    meta(1, 3, "thread_name", "Steps")
meta(2, 0, "process_name", "/host:CPU")
meta(2, 10, "thread_name", "python3")
t = 0
for step in range(6):
    if sys.argv[2] == "1":
        ev.append({"ph": "X", "pid": 1, "tid": 3, "name": NAMES[step] + str(step),
                   "ts": t, "dur": 1000})
    ev.append({"ph": "X", "pid": 1, "tid": 2, "ts": t, "dur": 900,
               "name": NAMES[step % 3] + "(1)"})
    ev.append({"ph": "X", "pid": 2, "tid": 10, "ts": t + 900, "dur": 90,
               "name": NAMES[(step + 3) % len(NAMES)]})
    u = t
    for i, n in enumerate(NAMES):
        ev.append({"ph": "X", "pid": 1, "tid": 1, "name": n, "ts": u,
                   "dur": RANK.get(i, 10 + 3 * i) + (step % 2) * i,
                   "args": {"hlo_module": NAMES[(i + 1) % len(NAMES)],
                            "hlo_op": n, "long_name": n + " = f32[] " + n,
                            "tf_op": NAMES[(i + 2) % len(NAMES)]}})
        u += 12 + 6 * i
    t += 1000
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
}
make a 1
make b 0

# safe FILE FORMAT WHAT: FILE, the output of WHAT in FORMAT, is safe.
safe() {
	"$PYTHON" - "$1" "$2" "$3" <<'PY' || fail "$3: unsafe output (above)"
import json, re, sys
path, fmt, what = sys.argv[1:4]
data = open(path, "rb").read()
bad = []
# CSV quotes a field holding a tab or line break (RFC 4180).
ctl = rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]" if fmt == "csv" else rb"[\x00-\x09\x0b-\x1f\x7f]"
for m in re.finditer(ctl + rb"|\xc2[\x80-\x9f]", data):
    bad.append("control byte %r at %d" % (m.group(), m.start()))
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    bad.append("invalid UTF-8: %s" % e)
    text = data.decode("utf-8", "replace")
if fmt == "markdown":
    # Unescaped: not after a backslash (markdown's escape).
    for raw in (r"!\[x\]\(", r"<img", r"\n# heading"):
        if re.search(r"(?<!\\)" + raw, text):
            bad.append("raw %r" % raw)
if fmt == "markdown":
    cols = None
    for line in text.split("\n"):
        if line.startswith("#") or line.startswith(">"):
            bad.append("a heading or quote: %r" % line[:60])
        if not line.startswith("|"):
            cols = None
            continue
        n = len(re.findall(r"(?<!\\)\|", line))
        if cols is None:
            cols = n
        elif n != cols:
            bad.append("a row of %d cell borders, not %d: %r" % (n, cols, line[:80]))
if fmt == "json" and text.strip():
    try:
        json.loads(text)
    except ValueError as e:
        bad.append("not JSON: %s" % e)
if fmt == "html":
    for m in re.finditer(r"<(/?)([a-zA-Z]+)", text):
        if m.group(2).lower() in ("img", "script", "iframe"):
            bad.append("an <%s> element" % m.group(2))
for b in bad[:5]:
    print("%s (%s): %s" % (what, fmt, b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# run WHAT...: jaxprof WHAT in every format, each output safe.
run_all() {
	for f in table csv json markdown; do
		if "$JAXPROF" "$@" --format=$f >out.$f 2>err.$f; then
			rc=0
		else
			rc=$?
		fi
		[ $rc -le 2 ] || { cat err.$f >&2; fail "jaxprof $* --format=$f exited with $rc"; }
		safe out.$f $f "jaxprof $*"
	done
}

test_case 'top (every group), summary, steps, idle, compile, transfers, memory, list'
for g in op module category framework-op source kernel; do
	run_all top --group=$g a
done
run_all top --tree a
run_all summary a
run_all summary b
run_all steps a
run_all steps b
run_all idle a
run_all compile a
run_all transfers a
run_all memory a
run_all list a

test_case 'diff and check, both ways'
run_all diff a b
run_all check --baseline=a b
jaxprof baseline save -o base.json a >/dev/null 2>&1 || fail "baseline save failed"
run_all check --baseline=base.json b
run_all diff base.json b

test_case 'summary --format=html'
"$JAXPROF" summary --format=html -o page.html a || fail "summary --format=html failed"
safe page.html html "summary --format=html"
grep -q '&#60;img src=x onerror=alert(1)&#62;' page.html ||
    fail "the <img> name is not shown escaped"

test_case 'the verdict and recommendations: names in code spans, markdown intact'
"$JAXPROF" summary --format=markdown a >sum.md || fail "summary failed"
# The top op: its backtick and newlines in a code span fenced longer.
grep -qF '. op ``tick`?# heading?`` takes ' sum.md ||
    fail "the top op's name is not in a code span of two backticks"
"$PYTHON" - sum.md <<'PY' || fail "a code span does not hold its name"
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
spans = re.findall(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text)
if not spans:
    sys.exit("no code spans")
for fence, body in spans:
    if "\n" in body:
        sys.exit("a code span over lines: %r" % body)
PY

test_case 'JSON keeps every name exactly; tables cut on character boundaries'
"$JAXPROF" top --format=json a >top.json || fail "top failed"
"$JAXPROF" top a >top.txt || fail "top failed"
"$PYTHON" - top.json top.txt <<'PY' || fail "names lost or cut badly (above)"
import json, sys
rows = json.load(open(sys.argv[1]))
names = {r["name"] for r in rows}
want = {"osc\x1b]0;pwned\x07title", "csi\u009b31m c1", "pipe|cell\x7fdel",
        "tick`\n# heading\n", "\u65e5\u672c\u8a9e" * 40}
if not want <= names:
    sys.exit("JSON lacks %r" % (want - names))
table = open(sys.argv[2], encoding="utf-8").read()
cut = "\u65e5\u672c\u8a9e" * 25 + "\u65e5\u672c..."
if cut not in table:
    sys.exit("the 120-character name is not cut to 77 characters and '...'")
if "osc?]0;pwned?title" not in table or "csi?31m c1" not in table:
    sys.exit("control characters are not shown as '?'")
PY

test_done
