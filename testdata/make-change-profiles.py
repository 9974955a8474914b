#!/usr/bin/env python3
"""Profiles of one program before and after code changes, for diff and check.

Usage:
    python3 testdata/make-change-profiles.py OUTDIR [SCENARIO...]

Requirement: `pip install jax jaxlib` (the CPU build is enough).

Writes one TensorBoard-style log dir per scenario, OUTDIR/<scenario>/, each
one run (plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb) of STEPS
training steps of a small transformer-like model, compiled before the trace:

  base      the program
  again     the same program, traced a second time (timing noise only)
  extra     a code change: each layer does extra work (at EXTRA_LINE);
            XLA renumbers every instruction of the new compile
  slower    another change: layer 0's MLP is 1.5 times wider, so its
            matmuls (at MLP_LINE) take about 1.5 times as long

The default is all four.  OUTDIR/<scenario>/truth.json says what was done,
with the source lines of the changed code, for the tests to look for.
Source file names in the HLO are "testdata/make-change-profiles.py" (the
script compiles itself under that name, see SOURCE_NAME).
"""

import json
import os
import shutil
import sys

import numpy as np

import jax
import jax.numpy as jnp

RUN = "2026_01_01_00_00_00"
HOST = "testhost"
B, T, D, L = 8, 128, 256, 2
STEPS = 10
SCENARIOS = ("base", "again", "extra", "slower")


def init(rng, wide, extra):
    """Numpy init: nothing is compiled but the step."""
    def w(*shape):
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)
    layers = []
    for i in range(L):
        f = 6 * D if wide and i == 0 else 4 * D
        layers.append({"qkv": w(D, 3 * D), "o": w(D, D), "w1": w(D, f),
                       "w2": w(f, D)})
    for lp in layers if extra else []:
        lp["e1"], lp["e2"] = w(D, 4 * D), w(4 * D, D)
    return {"emb": w(256, D), "layers": layers}


def block(lp, x, extra):
    with jax.named_scope("attention"):
        q, k, v = jnp.split(x @ lp["qkv"], 3, axis=-1)
        a = jax.nn.softmax(jnp.einsum("btd,bsd->bts", q, k) / np.sqrt(D))
        x = x + jnp.einsum("bts,bsd->btd", a, v) @ lp["o"]
    with jax.named_scope("mlp"):
        x = x + jax.nn.gelu(x @ lp["w1"]) @ lp["w2"]          # MLP_LINE
    if extra:
        with jax.named_scope("extra_work"):
            y = x
            for _ in range(4):
                y = jnp.tanh(y @ lp["e1"]) @ lp["e2"]      # EXTRA_LINE
            x = x + 1e-3 * y
    return x


def make_step(extra):
    def loss_fn(p, ids):
        h = p["emb"][ids]
        for lp in p["layers"]:
            h = block(lp, h, extra)
        return jnp.mean(h * h)

    @jax.jit
    def train_step(p, ids):
        loss, g = jax.value_and_grad(loss_fn)(p, ids)
        return jax.tree_util.tree_map(lambda a, b: a - 1e-3 * b, p, g), loss
    return train_step


def line_of(marker):
    """The line of this script that ends with the marker comment."""
    with open(SOURCE_NAME) as f:
        for n, text in enumerate(f, 1):
            if text.rstrip().endswith("# " + marker):
                return n
    sys.exit(f"no line marked {marker}")


def run(outdir, name):
    logdir = os.path.join(outdir, name)
    if os.path.exists(logdir):
        shutil.rmtree(logdir)
    rng = np.random.default_rng(0)
    p = jax.device_put(init(rng, name == "slower", name == "extra"))
    step = make_step(name == "extra")
    ids = jax.device_put(rng.integers(0, 256, (B, T)).astype(np.int32))
    p, loss = step(p, ids)                  # compiled before the trace
    jax.block_until_ready(loss)
    with jax.profiler.trace(logdir):
        for i in range(STEPS):
            with jax.profiler.StepTraceAnnotation("train", step_num=i):
                p, loss = step(p, ids)
                jax.block_until_ready(loss)
    root = os.path.join(logdir, "plugins", "profile")
    (made,) = os.listdir(root)
    os.rename(os.path.join(root, made), os.path.join(root, RUN))
    for f in os.listdir(os.path.join(root, RUN)):
        if f.endswith(".xplane.pb"):
            os.rename(os.path.join(root, RUN, f),
                      os.path.join(root, RUN, HOST + ".xplane.pb"))
    truth = {"scenario": name, "steps": STEPS, "jax": jax.__version__,
             "source": SOURCE_NAME,
             "extra_line": line_of("EXTRA_LINE") if name == "extra" else None,
             "mlp_line": line_of("MLP_LINE"),
             "slower_factor": 1.5 if name == "slower" else None}
    with open(os.path.join(logdir, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    print(name, "done", flush=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or SCENARIOS
    for name in names:
        if name not in SCENARIOS:
            sys.exit(f"unknown scenario {name!r} (choose from {SCENARIOS})")
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        run(outdir, name)


# The source file name JAX records for the model's functions: relative to
# the repository, not the maker's disk layout.  Python names code by the
# script's absolute path, so the script compiles itself again under this
# name, from the repository root, and runs that.
SOURCE_NAME = "testdata/make-change-profiles.py"

if __name__ == "__main__":
    if globals().get("_COMPILED_AS") == SOURCE_NAME:
        main()
    else:
        if len(sys.argv) > 1:
            sys.argv[1] = os.path.abspath(sys.argv[1])
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              ".."))
        with open(SOURCE_NAME) as f:
            code = compile(f.read(), SOURCE_NAME, "exec")
        exec(code, {"__name__": "__main__", "_COMPILED_AS": SOURCE_NAME})
