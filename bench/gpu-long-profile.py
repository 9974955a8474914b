#!/usr/bin/env python3
"""A large real GPU profile for bench/xspace-speed.sh and json-speed.sh:
one warm training run, STEPS steps long, of the model that
../shared/gpu/make_gpu_profiles.py profiles (its scenario "long", longer).

    python3 bench/gpu-long-profile.py OUTDIR [STEPS]    (default 500)

Run it where there is a GPU and JAX; GPU_SCRIPTS names the folder of
make_gpu_profiles.py when it is not ../shared/gpu beside the tree.  It
writes OUTDIR/long<STEPS>/plugins/profile/<run>/<host>.xplane.pb and its
perfetto_trace.json.gz (500 steps on an H100 with JAX 0.11: 36 MB and
7.7 MB).  With XLA_FLAGS=--xla_gpu_enable_command_buffer= the steps run
without CUDA graphs (300 steps: 24.8 MB).  Measure with CORPUS=OUTDIR
bench/xspace-speed.sh, and keep the profile out of the repository.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    "GPU_SCRIPTS", os.path.join(here, "..", "..", "shared", "gpu")))
if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
out, steps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 500
sys.argv = [sys.argv[0], out]  # make_gpu_profiles reads OUTDIR at import
import make_gpu_profiles  # noqa: E402

make_gpu_profiles.run("long%d" % steps, steps=steps, warm=True)
