"""Reads what `jaxprof export` wrote with an engine of its own and checks
it row for row against `jaxprof sql` on the same index, and each table's
columns against jaxprof-export(1).

    export_readers.py READER MAN DIR JAXPROF DB PATH...

READER: pyarrow, duckdb, spark (Parquet) or ndjson (Python's json).
Exit 0 when every table agrees, 1 with the first difference, 77 when
READER's module is missing."""
import json
import os
import re
import subprocess
import sys

# The index table each exported one reads, where the names differ.
SOURCE = {"devices": "planes", "memory_peaks": "memory_allocators"}


def man_tables(man):
    """{table: [(column, TYPE, required)]} and the schema version."""
    text = open(man, encoding="utf-8").read()
    version = re.search(r"^Schema version (\d+)\.$", text, re.M).group(1)
    tables = {}
    for name, body in re.findall(
            r"^\.It Cm (\w+)\n.*?\n\.Bd -literal -offset indent\n(.*?)\n\.Ed",
            text.split(".Sh TABLES", 1)[1].split(".Sh OPTIONS", 1)[0],
            re.M | re.S):
        cols = []
        for item in body.split(",\n"):
            words = item.split()
            cols.append((words[0], words[1], words[2:] == ["NOT", "NULL"]))
        tables[name] = cols
    return tables, version


def expected(jaxprof, db, paths, table, cols):
    """The table's rows as `jaxprof sql` reads them from the index."""
    src = SOURCE.get(table, table)
    key = "t.id" if table == "files" else "t.file_id"
    joins = f"{src} t JOIN files f ON f.id = {key} " \
            "JOIN selected s ON s.file_id = f.id"
    exprs = []
    for name, _, _ in cols:
        if name == "device" and table == "devices":
            exprs.append("t.name AS device")
        elif name == "device":
            exprs.append("p.name AS device")
            joins += " JOIN planes p ON p.id = t.plane"
        else:
            exprs.append(f"t.{name} AS {name}")
    sql = "SELECT f.run AS run, f.host AS host, " + ", ".join(exprs) + \
        " FROM " + joins
    out = subprocess.run([jaxprof, "sql", "--db=" + db, "--format=json",
                          sql] + paths, check=True, capture_output=True)
    return [[r["run"], r["host"]] + [r[n] for n, _, _ in cols]
            for r in json.loads(out.stdout)]


def norm(row, cols):
    """A row comparable across readers: booleans as 0/1, doubles at
    `jaxprof sql`'s 15 digits, an empty host as Hive's NULL."""
    out = [row[0], row[1] if row[1] not in ("", None) else None]
    for v, (_, typ, _) in zip(row[2:], cols):
        if v is None:
            out.append(None)
        elif typ == "BOOLEAN":
            out.append(int(v))
        elif typ == "DOUBLE":
            out.append(float("%.15g" % float(v)))
        else:
            out.append(v)
    return tuple(out)


def compare(table, cols, got, want):
    got = sorted((norm(r, cols) for r in got), key=repr)
    want = sorted((norm(r, cols) for r in want), key=repr)
    if got == want:
        return True
    print(f"{table}: {len(got)} rows read, {len(want)} from jaxprof sql")
    for g, w in zip(got, want):
        if g != w:
            print(f"  read: {g}\n  sql:  {w}")
            break
    return False


def check_schema_pyarrow(path, table, cols, version):
    """Each part's Parquet schema as the man page gives it."""
    import pyarrow.parquet as pq
    phys = {"INT64": "INT64", "DOUBLE": "DOUBLE", "STRING": "BYTE_ARRAY",
            "BOOLEAN": "BOOLEAN"}
    for root, _, files in os.walk(path):
        for f in files:
            meta = pq.ParquetFile(os.path.join(root, f)).metadata
            kv = meta.metadata
            assert kv[b"jaxprof.schema_version"] == version.encode(), kv
            assert kv[b"jaxprof.table"] == table.encode(), kv
            schema = meta.schema
            for i, (name, typ, required) in enumerate(cols):
                c = schema.column(i)
                assert c.name == name, (table, c.name, name)
                assert c.physical_type == phys[typ], (table, name)
                assert (c.max_definition_level == 0) == required, \
                    (table, name, "required" if required else "optional")
                if typ == "STRING":
                    assert str(c.logical_type) == "String", (table, name)


def read_pyarrow(dirs, tables):
    import pyarrow as pa
    import pyarrow.dataset as ds
    part = ds.partitioning(pa.schema([("run", pa.string()),
                                      ("host", pa.string())]),
                           flavor="hive")
    for table, cols in tables.items():
        t = ds.dataset(os.path.join(dirs, table), format="parquet",
                       partitioning=part).to_table()
        names = [n for n, _, _ in cols]
        assert t.column_names == names + ["run", "host"], t.column_names
        yield table, [[r["run"], r["host"]] + [r[n] for n in names]
                      for r in t.to_pylist()]


def read_duckdb(dirs, tables):
    import duckdb
    con = duckdb.connect()
    for table, cols in tables.items():
        glob = os.path.join(dirs, table, "*", "*", "*.parquet")
        names = [n for n, _, _ in cols]
        rel = con.sql(f"SELECT * FROM read_parquet('{glob}', "
                      "hive_partitioning = true, hive_types = "
                      "{'run': VARCHAR, 'host': VARCHAR})")
        assert rel.columns[:-2] == names and \
            sorted(rel.columns[-2:]) == ["host", "run"], rel.columns
        rows = rel.select(", ".join(["run", "host"] + names)).fetchall()
        yield table, [list(r) for r in rows]


def read_spark(dirs, tables):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]")
             .appName("jaxprof-export-test")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.sources.partitionColumnTypeInference"
                     ".enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for table, cols in tables.items():
            df = spark.read.parquet(os.path.join(dirs, table))
            names = [n for n, _, _ in cols]
            assert df.columns == names + ["run", "host"], df.columns
            yield table, [[r["run"], r["host"]] + [r[n] for n in names]
                          for r in df.collect()]
    finally:
        spark.stop()


def read_ndjson(dirs, tables):
    from urllib.parse import unquote
    for table, cols in tables.items():
        rows = []
        for root, _, files in os.walk(os.path.join(dirs, table)):
            parts = dict(p.split("=", 1) for p in
                         os.path.relpath(root, os.path.join(dirs, table))
                         .split(os.sep) if "=" in p)
            for f in files:
                assert f.endswith(".ndjson"), f
                for line in open(os.path.join(root, f), encoding="utf-8"):
                    r = json.loads(line)
                    assert list(r) == [n for n, _, _ in cols], list(r)
                    host = unquote(parts["host"])
                    rows.append([unquote(parts["run"]),
                                 None if host == "__HIVE_DEFAULT_PARTITION__"
                                 else host] + list(r.values()))
        yield table, rows


def main():
    reader, man, dirs, jaxprof, db = sys.argv[1:6]
    paths = sys.argv[6:]
    module = {"pyarrow": "pyarrow", "duckdb": "duckdb", "spark": "pyspark",
              "ndjson": "json"}[reader]
    try:
        __import__(module)
    except ImportError:
        print(f"no Python module {module}")
        return 77
    tables, version = man_tables(man)
    if reader == "pyarrow":
        for table, cols in tables.items():
            check_schema_pyarrow(os.path.join(dirs, table), table, cols,
                                 version)
    ok = True
    counts = []
    for table, rows in globals()["read_" + reader](dirs, tables):
        cols = tables[table]
        ok &= compare(table, cols, rows,
                      expected(jaxprof, db, paths, table, cols))
        counts.append(f"{table} {len(rows)}")
    print(f"{reader}: " + ", ".join(counts))
    return 0 if ok else 1


sys.exit(main())
