#!/usr/bin/env python3
"""Make small, real JAX CPU profiles for jaxprof's tests.

Usage:
    python3 testdata/make-profiles.py [OUTDIR]

OUTDIR defaults to the folder that holds this script (testdata/).
Requirement: `pip install jax jaxlib` (CPU build is enough). Nothing else.

Writes one TensorBoard-style log dir, OUTDIR/jax-mlp/, holding two runs:

  jax-mlp/plugins/profile/2026_01_01_00_00_00/   run 1: MLP training, 6 steps
      testhost.xplane.pb
      testhost.trace.json.gz
      perfetto_trace.json.gz
  jax-mlp/plugins/profile/2026_01_01_00_00_01/   run 2: short inference, 3 steps
      (same three files)

The files are what jax.profiler.trace() writes. The only changes made
afterwards are renames: the run folders (JAX names them by local time) get
fixed names, and the host prefix of the file names becomes "testhost".
File contents are not touched, so the hostname recorded inside the XSpace and
the JSON is the real name of the machine that ran this script.  Source file
names inside them (the HLO's stack frames) are "testdata/make-profiles.py",
relative to the repository, whichever folder the checkout is in: the script
compiles itself under that name (SOURCE_NAME below).

Compilation is deliberately kept inside the traces: no jitted function is
called before its trace starts.
"""

import os
import shutil
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp

RUN_NAMES = ["2026_01_01_00_00_00", "2026_01_01_00_00_01"]
HOST = "testhost"

BATCH = 32
IN_DIM = 16
WIDTH = 64
OUT_DIM = 10
TRAIN_STEPS = 6
INFER_STEPS = 3
LR = 0.05


def profile_options():
    """Host tracer on, Python function tracer off (it bloats the files)."""
    opts = jax.profiler.ProfileOptions()
    opts.host_tracer_level = 2
    opts.python_tracer_level = 0
    return opts


# ---------------------------------------------------------------- model ----

def init_params(rng):
    """Plain numpy init, so nothing is compiled before tracing starts."""
    sizes = [IN_DIM, WIDTH, WIDTH, OUT_DIM]
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        w = rng.standard_normal((fan_in, fan_out)).astype(np.float32)
        w /= np.sqrt(fan_in)
        b = np.zeros((fan_out,), np.float32)
        params.append((w, b))
    return params


def mlp(params, x):
    h = x
    for i, (w, b) in enumerate(params[:-1]):
        with jax.named_scope(f"dense{i}"):
            h = jax.nn.relu(h @ w + b)
    w, b = params[-1]
    with jax.named_scope("logits"):
        return h @ w + b


def loss_fn(params, x, y):
    logits = mlp(params, x)
    with jax.named_scope("loss"):
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, OUT_DIM), axis=-1))


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    with jax.named_scope("sgd_update"):
        params = jax.tree_util.tree_map(lambda p, g: p - LR * g, params, grads)
    return params, loss


@jax.jit
def normalize(x):
    """Called with two input shapes in run 1, so it is compiled twice."""
    with jax.named_scope("normalize"):
        mu = jnp.mean(x, axis=0, keepdims=True)
        sd = jnp.std(x, axis=0, keepdims=True)
        return (x - mu) / (sd + 1e-6)


@jax.jit
def predict(params, x):
    with jax.named_scope("predict"):
        return jnp.argmax(mlp(params, x), axis=-1)


def load_batch(rng, n):
    with jax.profiler.TraceAnnotation("data_loading", batch_size=n):
        x = rng.standard_normal((n, IN_DIM)).astype(np.float32)
        y = rng.integers(0, OUT_DIM, size=(n,)).astype(np.int32)
    return x, y


# ----------------------------------------------------------------- runs ----

def run_train(logdir, params, rng):
    """Run 1: 6 training steps. Compiles train_step once, normalize twice."""
    with jax.profiler.trace(logdir, create_perfetto_trace=True,
                            profiler_options=profile_options()):
        for i in range(TRAIN_STEPS):
            with jax.profiler.StepTraceAnnotation("train", step_num=i):
                x, y = load_batch(rng, BATCH)
                x, y = jax.device_put((x, y))
                x = normalize(x)                      # shape (32, 16)
                params, loss = train_step(params, x, y)
                loss = jax.device_get(loss)
        # A smaller evaluation batch: normalize sees a new shape -> recompile.
        with jax.profiler.TraceAnnotation("eval_batch"):
            xe, _ = load_batch(rng, BATCH // 4)
            xe = normalize(jax.device_put(xe))        # shape (8, 16)
            jax.device_get(xe)
    print(f"run 1: final training loss {float(loss):.4f}")
    return params


def run_infer(logdir, params, rng):
    """Run 2: a short inference loop. Compiles predict once."""
    with jax.profiler.trace(logdir, create_perfetto_trace=True,
                            profiler_options=profile_options()):
        for i in range(INFER_STEPS):
            with jax.profiler.StepTraceAnnotation("infer", step_num=i):
                x, _ = load_batch(rng, BATCH)
                pred = predict(params, jax.device_put(x))
                jax.device_get(pred)


def list_runs(logdir):
    root = os.path.join(logdir, "plugins", "profile")
    if not os.path.isdir(root):
        return []
    return sorted(d for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d)))


def rename_outputs(logdir):
    root = os.path.join(logdir, "plugins", "profile")
    runs = list_runs(logdir)
    if len(runs) != 2:
        sys.exit(f"expected 2 run folders in {root}, found {runs}")
    for old, new in zip(runs, RUN_NAMES):
        src = os.path.join(root, old)
        dst = os.path.join(root, new)
        if old != new:
            os.rename(src, dst)
        for fname in os.listdir(dst):
            for suffix in (".xplane.pb", ".trace.json.gz"):
                if fname.endswith(suffix) and fname != HOST + suffix:
                    os.rename(os.path.join(dst, fname),
                              os.path.join(dst, HOST + suffix))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else here)
    logdir = os.path.join(outdir, "jax-mlp")
    if os.path.exists(logdir):
        shutil.rmtree(logdir)
    os.makedirs(logdir)

    print(f"jax {jax.__version__}, backend {jax.default_backend()}")
    rng = np.random.default_rng(0)
    params = jax.device_put(init_params(rng))  # no compilation involved

    params = run_train(logdir, params, rng)
    if len(list_runs(logdir)) != 1:
        sys.exit("run 1 did not produce exactly one run folder")
    time.sleep(1.1)   # run folders are named by time, 1 s resolution
    run_infer(logdir, params, rng)
    rename_outputs(logdir)

    total = 0
    for dirpath, _, files in sorted(os.walk(logdir)):
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            size = os.path.getsize(p)
            total += size
            print(f"{size:9d}  {os.path.relpath(p, outdir)}")
    print(f"{total:9d}  total")


# The source file name JAX records for this script's functions (in the HLO
# of every jitted program): relative to the repository, so the profiles do
# not carry the maker's disk layout.  Python names code by the absolute
# path of the script it runs, so the script runs itself again in a fresh
# interpreter (python -c: no frame of it names a file), compiled under this
# name.
SOURCE_NAME = "testdata/make-profiles.py"
BOOTSTRAP = (
    "import sys\n"
    "path = sys.argv.pop(1)\n"
    "sys.argv[0] = path\n"
    "with open(path) as f:\n"
    "    code = compile(f.read(), %r, 'exec')\n"
    "exec(code, {'__name__': '__main__', '__file__': path,\n"
    "            '_COMPILED_AS': %r})\n" % (SOURCE_NAME, SOURCE_NAME))

if __name__ == "__main__":
    if globals().get("_COMPILED_AS") == SOURCE_NAME:
        main()
    else:
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, "-c", BOOTSTRAP,
                                  os.path.abspath(__file__)] + sys.argv[1:])
