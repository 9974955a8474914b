#!/usr/bin/env python3
"""Time xprof's own converter on one XSpace: what TensorBoard/xprof runs
to show a profile's kernel or op tables (bench/top-python.sh runs it).

    top_xprof.py TOOL FILE.xplane.pb

TOOL is an xprof tool name (kernel_stats, framework_op_stats, hlo_stats).
Writes the tool's data to standard output.  xprof caches what it derives
next to the file (*.op_stats*.pb): the caller removes those between runs.
"""
import sys

from xprof.convert import raw_to_tool_data


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tool, path = sys.argv[1], sys.argv[2]
    data, _ = raw_to_tool_data.xspace_to_tool_data(
        [path], tool, {"use_saved_result": False})
    if not data:
        sys.exit("top_xprof.py: xprof gave no %s for %s" % (tool, path))
    sys.stdout.buffer.write(data if isinstance(data, bytes) else data.encode())


if __name__ == "__main__":
    main()
