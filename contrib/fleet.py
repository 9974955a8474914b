"""What both fleet drivers share (contrib/README.md): finding the host
files, reading a query of contrib/sql/, and writing and printing a result.
The engines differ only in how they run the exports and the SQL."""
import csv
import json
import os

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sql")

# The queries, by the name of their file in contrib/sql/ and of the result
# files they give; the straggler table last: it is the one printed.
QUERIES = ("top_ops", "stragglers")

# The tables of `jaxprof export` the queries read.
TABLES = ("steps", "step_collectives", "step_annotations", "ops")


def host_files(logdir):
    """The XSpace files under logdir, one per host and run, as absolute
    paths in a fixed order."""
    found = []
    for root, dirs, files in os.walk(os.path.abspath(logdir)):
        dirs.sort()
        found += [os.path.join(root, f) for f in sorted(files)
                  if f.endswith((".xplane.pb", ".xplane.pb.gz"))]
    return found


def query(name):
    """The text of contrib/sql/<name>.sql, one statement without its ';'
    (Spark SQL takes no terminator)."""
    with open(os.path.join(SQL_DIR, name + ".sql")) as f:
        return f.read().strip().rstrip(";")


def cell(v):
    """A value as the CSV and the printed table write it."""
    return ("true" if v is True else "false" if v is False
            else "" if v is None else v)


def write_rows(rows, columns, out, name):
    """rows as OUTDIR/name.csv and OUTDIR/name.json (a list of objects)."""
    with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[cell(v) for v in r] for r in rows])
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump([dict(zip(columns, r)) for r in rows], f, indent=1)
        f.write("\n")


def print_table(rows, columns):
    """rows as aligned text on stdout."""
    cells = [columns] + [[str(cell(v)) for v in r] for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(columns))]
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths)).rstrip())
