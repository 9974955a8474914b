"""Checks a summary page as Chromium built it (--dump-dom) against the
summary's JSON: the charts are there and their numbers are the report's.
With the JSON of `jaxprof memory` and `jaxprof memory --group=timeline`
too, the memory charts' peaks and points are also theirs.

python3 summary-dom.py DOM.html SUMMARY.json [MEMORY.json TIMELINE.json]
Prints what differs and exits 1; exits 0 when all agree.
"""
import json
import re
import sys
from html.parser import HTMLParser

MAX_MEMORY_CHARTS = 8   # html-page.h


def path_points(d):
    """A memory chart's step path "Mx yHxVy...Hx" as its (x, y) points."""
    m = re.fullmatch(r"M([0-9.]+) ([0-9.]+)((?:H[0-9.]+V[0-9.]+)*)H([0-9.]+)", d)
    if m is None:
        return None
    pts = [(float(m.group(1)), float(m.group(2)))]
    pts += [(float(x), float(y)) for x, y in
            re.findall(r"H([0-9.]+)V([0-9.]+)", m.group(3))]
    return pts


def check_memory(dom, rep, mem, tl, check):
    """The memory charts against the summary's JSON (and memory's)."""
    svgs = [a for t, a, c in dom.elems if a.get("data-chart") == "memory"]
    allocs = rep.get("memory", [])
    check("memory charts", len(svgs), min(len(allocs), MAX_MEMORY_CHARTS))
    heads = [a for t, a, c in dom.elems if t == "h2"]
    if mem is not None:
        # The summary's allocators are memory's, in its order.
        keys = ("run", "host", "allocator", "peak_bytes", "peak_time_us",
                "step", "module", "op", "capacity_bytes")
        check("memory allocators", [[m[k] for k in keys] for m in allocs],
              [[m[k] for k in keys] for m in mem])
        for m in allocs:
            want = [(p["time_us"], p["bytes_in_use"]) for p in tl
                    if (p["run"], p["host"], p["allocator"]) ==
                    (m["run"], m["host"], m["allocator"])]
            check("timeline of " + m["allocator"],
                  [(p["time_us"], p["bytes_in_use"]) for p in m["timeline"]],
                  want)
    # Memory against its capacity: a line at it where it is known.
    check("memory capacity lines",
          [int(pa["data-bytes"]) for t, pa, c in dom.elems
           if t == "g" and pa.get("class") == "capacity" and c == "memory"],
          [m["capacity_bytes"] for m in allocs[:len(svgs)]
           if m["capacity_bytes"]])
    for i, (a, m) in enumerate(zip(svgs, allocs)):
        name = "memory chart %d (%s)" % (i, m["allocator"])
        check(name + " allocator", (a["data-run"], a["data-host"],
                                    a["data-allocator"]),
              (m["run"], m["host"], m["allocator"]))
        check(name + " points", int(a["data-points"]), len(m["timeline"]))
        peak = [pa for t, pa, c in dom.elems if t == "g" and
                pa.get("class") == "peak" and c == "memory"]
        paths = [pa for t, pa, c in dom.elems if t == "path" and
                 pa.get("class") == "in-use"]
        if i >= len(peak) or i >= len(paths):
            check(name + " peak and line", None, "present")
            continue
        p = peak[i]
        check(name + " peak", (int(p["data-bytes"]), float(p["data-time-us"]),
                               p["data-step"], p["data-module"], p["data-op"]),
              (m["peak_bytes"], m["peak_time_us"],
               "" if m["step"] is None else str(m["step"]),
               m["module"] or "", m["op"] or ""))
        # Each point where the JSON's numbers put it in the plot box.
        x0, y0, x1, y1 = (float(v) for v in a["data-box"].split())
        t0, t1 = float(a["data-start-us"]), float(a["data-end-us"])
        hi = float(a["data-max-bytes"])
        check(name + " scale", hi, float(max([m["peak_bytes"]] +
              [q["bytes_in_use"] for q in m["timeline"]] +
              [m["capacity_bytes"] or 0])))

        got = path_points(paths[i]["d"])
        if got is None:
            check(name + " path", paths[i]["d"][:40], "a step path")
            continue
        check(name + " path points", len(got), len(m["timeline"]))
        for (gx, gy), q in zip(got, m["timeline"]):
            wx = x0 + (q["time_us"] - t0) / (t1 - t0) * (x1 - x0)
            wy = y1 - q["bytes_in_use"] / hi * (y1 - y0)
            if abs(gx - wx) > 0.051 or abs(gy - wy) > 0.051:
                check(name + " point at %s us" % q["time_us"], (gx, gy),
                      (round(wx, 1), round(wy, 1)))
                break
    if not allocs:
        check("memory heading", [h for h in heads if h.get("id") == "memory"],
              [])


class Dom(HTMLParser):
    """The elements, as (tag, attrs, path of enclosing ids/charts)."""

    def __init__(self):
        super().__init__()
        self.elems = []
        self.stack = []
        self.texts = []     # (chart, the bar's data-name or None, text)
        self.bar = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        chart = a.get("data-chart") or (self.stack[-1] if self.stack else None)
        self.elems.append((tag, a, chart))
        if tag == "g" and a.get("class") == "bar":
            self.bar = a.get("data-name")
        if tag not in ("rect", "path", "line", "i", "br", "meta", "title"):
            self.stack.append(chart)

    def handle_endtag(self, tag):
        if tag == "g":
            self.bar = None
        if tag not in ("rect", "path", "line", "i", "br", "meta", "title") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        self.texts.append((self.stack[-1] if self.stack else None, self.bar,
                           data))


def main():
    dom = Dom()
    dom.feed(open(sys.argv[1], encoding="utf-8").read())
    rep = json.load(open(sys.argv[2], encoding="utf-8"))
    bad = []

    def check(what, got, want):
        if got == want:
            return
        if isinstance(got, list) and isinstance(want, list):
            i = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w),
                     min(len(got), len(want)))
            bad.append("%s: %d items on the page, %d in the json; item %d: "
                       "page %r, json %r" % (what, len(got), len(want), i,
                                             got[i] if i < len(got) else None,
                                             want[i] if i < len(want) else None))
        else:
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
        # One scale in both charts: a bar's length is its share of device time.
        scale = [float(a["data-scale-px"]) for t, a, c in dom.elems
                 if a.get("data-chart") == chart and "data-scale-px" in a]
        widths = [float(a["width"]) for t, a, c in dom.elems
                  if c == chart and t == "rect"]
        check(chart + " scale (data-scale-px)", len(scale), 1)
        if scale:
            # json's percent has 2 decimals, the width 1: 0.1 px apart at most
            check(chart + " bar lengths off by over 0.1 px",
                  [i for i, (w, r) in enumerate(zip(widths, rep[key]))
                   if abs(w - r["percent"] / 100 * scale[0]) > 0.1], [])
            check(chart + " bars", len(widths), len(rep[key]))

    # One scale across both charts: 1% draws as long in each.
    scales = {float(a["data-scale-px"]) for t, a, c in dom.elems
              if a.get("data-chart") in ("ops", "lines")}
    check("one scale for ops and lines", len(scales) <= 1, True)
    # Each bar's label is its whole name, first text of the bar.
    for chart in ("ops", "lines"):
        first = {}
        for c, bar, text in dom.texts:
            if c == chart and bar is not None and bar not in first:
                first[bar] = text
        check(chart + " labels cut",
              [n for n, t in first.items() if not t.startswith(n)], [])
    # The verdict once: in its box, nowhere else, no advice repeating it.
    verdict_text = re.sub(r"`([^`]*)`", r"\1", rep["verdict"]["text"])
    page_text = "".join(t for c, b, t in dom.texts)
    check("the verdict's text on the page", page_text.count(verdict_text), 1)
    check("advice repeating the verdict",
          [r["rule"] for r in rep["recommendations"]
           if re.sub(r"`([^`]*)`", r"\1", r["text"]) == verdict_text], [])

    # The timeline names its bars in the picture: each label its span's
    # name, whole or its head and an ellipsis.
    if rep["series"]:
        raw = open(sys.argv[1], encoding="utf-8").read()
        tl = raw[raw.find('data-chart="timeline"'):]
        tl = tl[:tl.find("</svg>")]
        spans = re.findall(r'<title>([^<]*) [0-9.]+ [mun]?s</title></rect>'
                           r'<text class="label"[^>]*>([^<]*)</text>', tl)
        check("timeline labels in the picture", len(spans) > 0, True)
        check("timeline labels not their span's name",
              [(n, l) for n, l in spans if l != n and not
               (l.endswith("\u2026") and n.startswith(l[:-1]))], [])

    fns = [(a["data-function"], int(a["data-count"]))
           for t, a, c in dom.elems if c == "compile" and a.get("class") == "fn"]
    check("compile", fns, [(c["function"], c["count"]) for c in rep["compiles"]])

    recs = [a["data-rule"] for t, a, c in dom.elems
            if t == "li" and "data-rule" in a]
    check("recommendations", recs, [r["rule"] for r in rep["recommendations"]])

    mem = tl = None
    if len(sys.argv) > 4:
        mem = json.load(open(sys.argv[3], encoding="utf-8"))
        tl = json.load(open(sys.argv[4], encoding="utf-8"))
    check_memory(dom, rep, mem, tl, check)

    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
