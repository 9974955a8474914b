# summary-advice.py REPORT.json: the recommendations of a summary's json
# are advice by what it would save: only rules at their threshold, none
# that says again what the verdict says, most time to gain first, and
# each gain the measured time of its part a step (the breakdown's, the
# top line's or op's device time over the steps).  Prints what is wrong;
# exit 1 if anything is.
import json, sys

rep = json.load(open(sys.argv[1]))
v, recs, bad = rep["verdict"], rep["recommendations"], []
part = {"host": "host_idle", "launch": "launch_idle", "compile": "compile_idle",
        "transfers": "transfer", "collectives": "collective", "sync": "sync_idle"}
said = {"compute": {"top-line"}, "recompile": {"compile"},
        "few-ops": {"top-op"}, "no-steps": {"top-op"}}.get(v["rule"], set())
if len(recs) > 5:
    bad.append("%d recommendations" % len(recs))
for r in recs:
    if r["value"] < r["threshold"]:
        bad.append("%s below its threshold is advice" % r["rule"])
    if r["rule"] == v["rule"] or r["rule"] in said:
        bad.append("the verdict is repeated as advice: %s" % r["rule"])
    if r["rule"] in part:
        want = rep["breakdown"][part[r["rule"]]]["per_step_us"]
    elif r["rule"] == "top-line":
        want = rep["top_lines"][0]["total_us"] / rep["steps"]
    elif r["rule"] == "top-op":
        want = rep["top_ops"][0]["total_us"] / rep["steps"]
    elif r["rule"] == "recompile":
        want = rep["compiles"][0]["total_us"] / rep["steps"]
    if abs(r.get("saves_per_step_us", -1) - want) > 0.01 + 1e-6 * want:
        bad.append("%s saves %r us a step, its part takes %.3f" %
                   (r["rule"], r.get("saves_per_step_us"), want))
    if "; fixing it could save up to " not in r["text"] or not r["text"].endswith(" a step"):
        bad.append("%s does not say what it saves: %s" % (r["rule"], r["text"]))
saves = [r.get("saves_per_step_us", -1) for r in recs]
if saves != sorted(saves, reverse=True):
    bad.append("advice not by time to gain: %r" % saves)
print("\n".join(bad))
sys.exit(1 if bad else 0)
