#!/usr/bin/env python3
"""Make small, real multi-host JAX CPU profiles for jaxprof's tests.

Usage:
    python3 testdata/make-multihost.py [--hosts=P] [--steps=N] [OUTDIR]

OUTDIR defaults to the folder that holds this script (testdata/).
Requirement: `pip install jax jaxlib` (the CPU build is enough).

Runs P processes (default 4) on this machine, joined by
jax.distributed.initialize() with cross-process CPU collectives (gloo),
each with one CPU device.  They train a tiny MLP data-parallel: each
process takes its own batch inside a `load_batch` TraceAnnotation, computes
its gradients, and the gradients and the loss are averaged over all
processes (lax.pmean: an XLA all-reduce across the processes), inside a
StepTraceAnnotation per step.  Each process profiles itself, so each writes
its own XSpace.  Two scenarios, one log dir each:

  multihost-straggler/plugins/profile/2026_02_01_00_00_00/
      host0.xplane.pb ... host<P-1>.xplane.pb
        host2 sleeps STRAGGLER_SLEEP_S in load_batch every step: the others
        wait for it in the all-reduce.
  multihost-even/plugins/profile/2026_02_01_00_00_00/
      host0.xplane.pb ... host<P-1>.xplane.pb
        every process does the same work.

The files are what jax.profiler.trace() writes; afterwards only names
change: the run folder (JAX names it by local time) gets a fixed name and
each file is named host<i>.xplane.pb after its process index.  The
hostname recorded inside every file is the machine's: the same in all of
them.  Compilation happens before the trace starts (one warm-up step), so
the profiles hold the steps alone.
"""

import os
import shutil
import socket
import subprocess
import sys
import time

RUN_NAME = "2026_02_01_00_00_00"
SCENARIOS = ("straggler", "even")
STRAGGLER = 2                   # the process index that sleeps
STRAGGLER_SLEEP_S = 0.030

BATCH = 16
IN_DIM = 8
WIDTH = 32
OUT_DIM = 4
LR = 0.05


def profile_options(jax):
    """Host tracer at 2 (XLA's CPU ops), Python tracer off (file size)."""
    opts = jax.profiler.ProfileOptions()
    opts.host_tracer_level = 2
    opts.python_tracer_level = 0
    return opts


def use_gloo(jax):
    """Cross-process CPU collectives; newer jax has gloo as its default."""
    try:
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    except (AttributeError, KeyError, ValueError):
        pass


def worker(scenario, pid, nprocs, port, steps, logdir):
    import numpy as np
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    try:
        from jax import shard_map
    except ImportError:
        from jax.experimental.shard_map import shard_map

    use_gloo(jax)
    jax.distributed.initialize(coordinator_address=f"localhost:{port}",
                               num_processes=nprocs, process_id=pid)
    mesh = Mesh(np.array(jax.devices()), ("hosts",))
    replicated = NamedSharding(mesh, P())
    by_host = NamedSharding(mesh, P("hosts"))

    def loss_fn(params, x, y):
        (w1, b1), (w2, b2) = params
        h = jax.nn.relu(x @ w1 + b1)
        logp = jax.nn.log_softmax(h @ w2 + b2)
        return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, OUT_DIM), axis=-1))

    def local_step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = jax.lax.pmean(grads, "hosts")
        loss = jax.lax.pmean(loss, "hosts")
        params = jax.tree_util.tree_map(lambda p, g: p - LR * g, params,
                                        grads)
        return params, loss

    train_step = jax.jit(shard_map(
        local_step, mesh=mesh, in_specs=(P(), P("hosts"), P("hosts")),
        out_specs=(P(), P())))

    init = np.random.default_rng(0)
    host_params = [
        (init.standard_normal((IN_DIM, WIDTH)).astype(np.float32) / 3,
         np.zeros((WIDTH,), np.float32)),
        (init.standard_normal((WIDTH, OUT_DIM)).astype(np.float32) / 6,
         np.zeros((OUT_DIM,), np.float32)),
    ]
    params = jax.tree_util.tree_map(
        lambda a: jax.make_array_from_callback(a.shape, replicated,
                                               lambda idx: a[idx]),
        host_params)
    rng = np.random.default_rng(pid + 1)

    def load_batch():
        with jax.profiler.TraceAnnotation("load_batch"):
            if scenario == "straggler" and pid == STRAGGLER:
                time.sleep(STRAGGLER_SLEEP_S)   # a slow data loader
            x = rng.standard_normal((BATCH, IN_DIM)).astype(np.float32)
            y = rng.integers(0, OUT_DIM, size=(BATCH,)).astype(np.int32)
        return (jax.make_array_from_process_local_data(by_host, x),
                jax.make_array_from_process_local_data(by_host, y))

    def step(params):
        x, y = load_batch()
        params, loss = train_step(params, x, y)
        return params, float(np.asarray(loss.addressable_data(0)))

    params, _ = step(params)            # compiles, outside the trace
    with jax.profiler.trace(logdir, profiler_options=profile_options(jax)):
        for i in range(steps):
            with jax.profiler.StepTraceAnnotation("train", step_num=i):
                params, loss = step(params)
    print(f"{scenario} host{pid}: final loss {loss:.4f}", flush=True)
    jax.distributed.shutdown()


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def run_scenario(scenario, nprocs, steps, outdir):
    """Runs the processes; returns the run folder holding their files."""
    top = os.path.join(outdir, f"multihost-{scenario}")
    work = os.path.join(outdir, f".multihost-{scenario}.work")
    for d in (top, work):
        if os.path.exists(d):
            shutil.rmtree(d)
    port = free_port()
    procs = [subprocess.Popen(
        [sys.executable, "-c", BOOTSTRAP, os.path.abspath(__file__),
         "--worker", scenario, str(pid), str(nprocs), str(port), str(steps),
         os.path.join(work, f"p{pid}")]) for pid in range(nprocs)]
    if any(p.wait() != 0 for p in procs):
        sys.exit(f"{scenario}: a process failed")
    run = os.path.join(top, "plugins", "profile", RUN_NAME)
    os.makedirs(run)
    for pid in range(nprocs):
        found = []
        for dirpath, _, files in os.walk(os.path.join(work, f"p{pid}")):
            found += [os.path.join(dirpath, f) for f in files
                      if f.endswith(".xplane.pb")]
        if len(found) != 1:
            sys.exit(f"{scenario}: process {pid} wrote {found}")
        shutil.move(found[0], os.path.join(run, f"host{pid}.xplane.pb"))
    shutil.rmtree(work)
    return run


def main(argv):
    nprocs, steps, outdir = 4, 10, os.path.dirname(os.path.abspath(__file__))
    for a in argv:
        if a.startswith("--hosts="):
            nprocs = int(a[len("--hosts="):])
        elif a.startswith("--steps="):
            steps = int(a[len("--steps="):])
        else:
            outdir = os.path.abspath(a)
    import jax
    print(f"jax {jax.__version__}, {nprocs} processes, {steps} steps")
    for scenario in SCENARIOS:
        run = run_scenario(scenario, nprocs, steps, outdir)
        total = 0
        for f in sorted(os.listdir(run)):
            size = os.path.getsize(os.path.join(run, f))
            total += size
            print(f"{size:9d}  {os.path.relpath(os.path.join(run, f), outdir)}")
        print(f"{total:9d}  total")


# As in make-profiles.py: the source file name JAX records in the HLO is
# this, relative to the repository, so the profiles do not carry the
# maker's disk layout; the script runs itself again under that name.
SOURCE_NAME = "testdata/make-multihost.py"
BOOTSTRAP = (
    "import sys\n"
    "path = sys.argv.pop(1)\n"
    "sys.argv[0] = path\n"
    "with open(path) as f:\n"
    "    code = compile(f.read(), %r, 'exec')\n"
    "exec(code, {'__name__': '__main__', '__file__': path,\n"
    "            '_COMPILED_AS': %r})\n" % (SOURCE_NAME, SOURCE_NAME))

if __name__ == "__main__":
    if globals().get("_COMPILED_AS") != SOURCE_NAME:
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, "-c", BOOTSTRAP,
                                  os.path.abspath(__file__)] + sys.argv[1:])
    elif len(sys.argv) > 1 and sys.argv[1] == "--worker":
        scenario, pid, nprocs, port, steps, logdir = sys.argv[2:8]
        worker(scenario, int(pid), int(nprocs), int(port), int(steps), logdir)
    else:
        main(sys.argv[1:])
