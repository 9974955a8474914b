#!/usr/bin/env python3
"""A large real GPU profile for bench/xspace-speed.sh and json-speed.sh:
one warm training run, STEPS steps long, of the model that
../shared/gpu/make_gpu_profiles.py profiles (its scenario "long", longer).

    python3 bench/gpu-long-profile.py OUTDIR [STEPS] [--cold]   (default 500)

Run it where there is a GPU and JAX; GPU_SCRIPTS names the folder of
make_gpu_profiles.py when it is not ../shared/gpu beside the tree.  It
writes OUTDIR/long<STEPS>/plugins/profile/<run>/<host>.xplane.pb and its
perfetto_trace.json.gz (500 steps on an H100 with JAX 0.11: 36 MB and
7.7 MB).  With XLA_FLAGS=--xla_gpu_enable_command_buffer= the steps run
without CUDA graphs (300 steps: 24.8 MB).  Measure with CORPUS=OUTDIR
bench/xspace-speed.sh, and keep the profile out of the repository.

With --cold the step is compiled inside the trace, as in the corpus's
cmdbuf-train: XLA's compile and autotuning add host events on threads of
their own, and JAX's tracing of the step about 750,000 Python frames on
the python3 line (300 steps on an H100: 39 MB, 1.06 million python3
events).  It writes OUTDIR/cold<STEPS>.  make_gpu_profiles.py's own
scenario "recompile" (three compiles, 12 steps) gives 48 MB, 2.2 million.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    "GPU_SCRIPTS", os.path.join(here, "..", "..", "shared", "gpu")))
cold = "--cold" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != "--cold"]
if len(args) not in (1, 2):
    sys.exit(__doc__)
out, steps = args[0], int(args[1]) if len(args) == 2 else 500
sys.argv = [sys.argv[0], out]  # make_gpu_profiles reads OUTDIR at import
import make_gpu_profiles  # noqa: E402

make_gpu_profiles.run("%s%d" % ("cold" if cold else "long", steps),
                      steps=steps, warm=not cold)
