"""Checks diff's page as Chromium built it (--dump-dom) against diff's own
csv and json, grouped here independently: the headline's device time, the
step times, what got slower and what is new by framework op and by source
line, the memory peaks; every bar on its chart's scale, every label whole.

python3 diff-dom.py DOM.html DIFF.csv SUMMARY.json
Prints what differs and exits 1; exits 0 when all agree.
"""
import csv
import json
import re
import sys
from html.parser import HTMLParser

KINDS_SHOWN = 12        # DIFF_PAGE_KINDS, diff-page.h
SAME_PCT = 5.0          # DIFF_SAME_PCT, analyze-diff.h
ROUND_US = 0.0005       # each csv figure is rounded to the nanosecond


class Dom(HTMLParser):
    """Elements in order as (tag, attrs, chart, row), with each text."""

    def __init__(self):
        super().__init__()
        self.elems = []
        self.stack = []
        self.texts = []         # (row attrs or None, chart, text)
        self.row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        chart = a.get("data-chart") or (self.stack[-1] if self.stack else None)
        if tag == "g" and a.get("class") == "row":
            self.row = a
        self.elems.append((tag, a, chart, self.row))
        if tag not in ("rect", "br", "meta"):
            self.stack.append(chart)
        self.tag = tag

    def handle_endtag(self, tag):
        if tag == "g":
            self.row = None
        if tag not in ("rect", "br", "meta") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        chart = self.stack[-1] if self.stack else None
        self.texts.append((self.row, chart, data))


def what(framework_op, source, name, by_source):
    """op_what(): the framework op without its outer jit(...) scopes, at
    most its last two parts; the source line for the other chart."""
    if by_source:
        return source or name
    if not framework_op:
        return name
    parts = framework_op.split("/")
    while len(parts) > 1 and re.fullmatch(r"p?jit\(.+\)", parts[0]):
        parts.pop(0)
    return "/".join(parts[-2:])


def kinds(rows, by_source):
    """The slower (beyond SAME_PCT) and the new ops, summed by kind."""
    out = {}
    for r in rows:
        added = r["match"] == "added"
        paired = r["match"] not in ("added", "removed")
        base = float(r["base_normalized_us"] or 0)
        new = float(r["new_normalized_us"] or 0)
        if not added and not (paired and new > base * (1 + SAME_PCT / 100)):
            continue
        k = what(r["framework_op"], r["source"], r["name"], by_source)
        b, n, s, a, c = out.get(k, (0.0, 0.0, 0, 0, 0))
        out[k] = (b + base, n + new, s + (not added), a + added, c + 1)
    return out


def main():
    dom = Dom()
    dom.feed(open(sys.argv[1], encoding="utf-8").read())
    rows = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
    summary = {r["metric"]: r for r in
               json.load(open(sys.argv[3], encoding="utf-8"))}
    bad = []

    def near(what_, got, want, tol):
        if abs(got - want) > tol:
            bad.append("%s: page %r, csv/json %r" % (what_, got, want))

    def rows_of(chart):
        return [a for t, a, c, r in dom.elems if c == chart and t == "g" and
                a.get("class") == "row"]

    def scale_of(chart):
        s = [float(a["data-scale-px"]) for t, a, c, r in dom.elems
             if a.get("data-chart") == chart and "data-scale-px" in a]
        return s[0] if s else None

    # The headline: the ops' device time, per step as the csv normalises.
    head = [a for t, a, c, r in dom.elems if a.get("id") == "headline"]
    if len(head) != 1:
        bad.append("%d headlines" % len(head))
    else:
        for side in ("base", "new"):
            want = sum(float(r[side + "_normalized_us"] or 0) for r in rows)
            near("headline " + side, float(head[0]["data-%s-us" % side]),
                 want, ROUND_US * len(rows) + 0.001)

    # Step times: diff --summary's.
    steps = {a["data-name"]: a for a in rows_of("steps")}
    if summary["steps"]["base"] or summary["steps"]["new"]:
        for name, metric in (("median step", "step_median_us"),
                             ("p90 step", "step_p90_us")):
            if name not in steps:
                bad.append("no %s row" % name)
                continue
            for side in ("base", "new"):
                near("%s %s" % (name, side),
                     float(steps[name]["data-%s-us" % side]),
                     summary[metric][side], 0.0015)

    # Slower and new, by framework op and by source line.
    for chart, by_source in (("slower-framework-op", 0),
                             ("slower-source", 1)):
        want = kinds(rows, by_source)
        got = rows_of(chart)
        if len(got) != min(len(want), KINDS_SHOWN):
            bad.append("%s: %d rows, want %d" % (chart, len(got),
                                                 min(len(want), KINDS_SHOWN)))
        shown = set()
        deltas = []
        for a in got:
            k = a["data-name"]
            shown.add(k)
            if k not in want:
                bad.append("%s: %r is not slower or new in the csv" % (chart, k))
                continue
            b, n, s, ad, c = want[k]
            tol = ROUND_US * c + 0.001
            near(chart + " " + k + " before", float(a["data-base-us"]), b, tol)
            near(chart + " " + k + " after", float(a["data-new-us"]), n, tol)
            if (int(a["data-slower"]), int(a["data-added"])) != (s, ad):
                bad.append("%s %s: slower/added %s/%s, csv %d/%d" % (
                    chart, k, a["data-slower"], a["data-added"], s, ad))
            deltas.append(n - b)
        # The most added first; what is left out added no more.
        tol = ROUND_US * len(rows) + 0.001
        if any(x < y - tol for x, y in zip(deltas, deltas[1:])):
            bad.append(chart + ": not the most added first: %r" % deltas)
        if deltas:
            left = [k for k, v in want.items() if k not in shown and
                    v[1] - v[0] > min(deltas) + tol]
            if left:
                bad.append(chart + ": left out but added more: %r" % left)
    # One scale for both: the same time draws as long in each.
    s1, s2 = scale_of("slower-framework-op"), scale_of("slower-source")
    if s1 is not None and s2 is not None and s1 != s2:
        bad.append("the two charts' scales differ: %r, %r" % (s1, s2))

    # Memory peaks: diff --summary's rows (allocators, programs that moved).
    want = {}
    for m, r in summary.items():
        mm = re.fullmatch(r"memory_(allocator|program)_(.*)_bytes", m)
        if mm and (mm.group(1) == "allocator" or r["base"] != r["new"]):
            want[(mm.group(1), mm.group(2))] = (r["base"], r["new"])
    got = {(a["data-kind"], a["data-name"]):
           (float(a["data-base-bytes"]), float(a["data-new-bytes"]))
           for a in rows_of("memory")}
    if got != want:
        bad.append("memory: page %r, json %r" % (sorted(got.items()),
                                                 sorted(want.items())))

    # Every bar at its chart's scale; every label the whole name.
    for chart, unit in (("steps", "us"), ("slower-framework-op", "us"),
                        ("slower-source", "us"), ("memory", "bytes")):
        scale = scale_of(chart)
        for t, a, c, r in dom.elems:
            if c != chart or t != "rect" or r is None:
                continue
            side = "base" if a["class"] == "before" else "new"
            v = float(r["data-%s-%s" % (side, unit)])
            if abs(float(a["width"]) - v * scale) > 0.1:
                bad.append("%s %s %s: width %s, %g at the scale" % (
                    chart, r["data-name"], a["class"], a["width"], v * scale))
        labels = {}
        for r, c, text in dom.texts:
            if c == chart and r is not None and id(r) not in labels:
                labels[id(r)] = (r, text)
        for r, text in labels.values():
            name = r["data-name"] if chart != "memory" else \
                "%s %s" % (r["data-kind"], r["data-name"])
            if not text.startswith(name + " · "):
                bad.append("%s: label %r is not the whole %r" % (chart, text,
                                                                 name))

    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
