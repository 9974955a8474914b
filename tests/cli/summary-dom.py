"""Checks a summary page as Chromium built it (--dump-dom) against the
summary's JSON: the charts are there and their numbers are the report's.

python3 summary-dom.py DOM.html SUMMARY.json
Prints what differs and exits 1; exits 0 when all agree.
"""
import json
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    """The elements, as (tag, attrs, path of enclosing ids/charts)."""

    def __init__(self):
        super().__init__()
        self.elems = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        chart = a.get("data-chart") or (self.stack[-1] if self.stack else None)
        self.elems.append((tag, a, chart))
        if tag not in ("rect", "path", "line", "i", "br", "meta", "title"):
            self.stack.append(chart)

    def handle_endtag(self, tag):
        if tag not in ("rect", "path", "line", "i", "br", "meta", "title") and self.stack:
            self.stack.pop()


def main():
    dom = Dom()
    dom.feed(open(sys.argv[1], encoding="utf-8").read())
    rep = json.load(open(sys.argv[2], encoding="utf-8"))
    bad = []

    def check(what, got, want):
        if got != want:
            bad.append("%s: page %r, json %r" % (what, got, want))

    charts = {a["data-chart"] for t, a, c in dom.elems if "data-chart" in a}
    want = {"breakdown", "ops", "lines", "compile"}
    if rep["series"]:
        want |= {"steps", "timeline"}
    if not rep["top_ops"]:
        want -= {"ops", "lines"}
    check("charts", sorted(charts & want), sorted(want))

    verdict = [a for t, a, c in dom.elems if a.get("id") == "verdict"]
    check("verdict rule", verdict[0].get("data-rule") if verdict else None,
          rep["verdict"]["rule"])

    parts = {a["data-part"]: a["data-percent"] for t, a, c in dom.elems
             if c == "breakdown" and t == "rect"}
    for k, v in rep["breakdown"].items():
        if v["percent"] > 0:
            check("breakdown " + k, float(parts.get(k, "nan")), v["percent"])

    if rep["series"]:
        series = rep["series"][0]["steps"]
        steps = [a for t, a, c in dom.elems if c == "steps" and
                 a.get("class") == "step"]
        per = int([a for t, a, c in dom.elems
                   if a.get("data-chart") == "steps"][0]["data-per-bar"])
        if per == 1:
            check("step bars", len(steps), len(series))
            for s, a in zip(series, steps):
                check("step %d" % s["step"], float(a["data-duration-us"]),
                      s["duration_us"])

    for chart, key in (("ops", "top_ops"), ("lines", "top_lines")):
        got = [(a["data-name"], float(a["data-percent"]))
               for t, a, c in dom.elems if c == chart and a.get("class") == "bar"]
        check(chart, got, [(r["name"], r["percent"]) for r in rep[key]])

    fns = [(a["data-function"], int(a["data-count"]))
           for t, a, c in dom.elems if c == "compile" and a.get("class") == "fn"]
    check("compile", fns, [(c["function"], c["count"]) for c in rep["compiles"]])

    recs = [a["data-rule"] for t, a, c in dom.elems
            if t == "li" and "data-rule" in a]
    check("recommendations", recs, [r["rule"] for r in rep["recommendations"]])

    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
