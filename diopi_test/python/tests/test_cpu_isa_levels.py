"""impl/cpu picks its kernels' instruction-set level once at load time (the
best the CPU has, capped by DIOPI_CPU_ISA). The slower levels must stay
correct even on a machine whose CPU never selects them: the functions with
per-level kernels are replayed at every level this CPU can run, and each
run's report names the level it judged (the library's version string)."""
import json
import os
import subprocess
import sys

import pytest

from support import run_main

torch = pytest.importorskip("torch", reason="making the baselines needs torch")

from conformance import paths  # noqa: E402

# Functions whose hot loops are compiled per level (GEMM, convolution,
# vectorised math, reductions, pooling, normalisation), by their snake names.
FUNCS = ["mm", "addmm", "bmm", "linear", "linear_backward", "conv2d", "conv2d_backward", "exp", "log", "sin", "tanh", "erf",
         "erfinv", "sigmoid", "gelu", "silu", "hardswish", "pow", "softmax", "log_softmax", "softmax_backward", "sum", "mean",
         "norm", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "max_pool2d_backward", "layer_norm", "batch_norm",
         "cross_entropy_loss", "bce_with_logits", "rms_norm", "cast_dtype", "copy_inp"]


def _cpu_lib():
    d = paths.default_lib_dir("cpu")
    lib = os.path.join(d, "libdiopi_impl.so")
    if not os.path.exists(lib):
        pytest.skip("needs impl/cpu built: bash scripts/build_impl.sh cpu")
    return lib


def _version(lib, env):
    """The library's version string, read in a child process (vendor code never runs in the test's own)."""
    code = ("import cffi,sys; f=cffi.FFI(); f.cdef('const char* diopiGetImplVersion(void);'); "
            "f.dlopen(sys.argv[2], f.RTLD_NOW | f.RTLD_GLOBAL); "  # the runtime functions the library calls
            "l=f.dlopen(sys.argv[1]); print(f.string(l.diopiGetImplVersion()).decode())")
    runtime = os.path.join(os.path.dirname(lib), "libdiopirt.so")
    proc = subprocess.run([sys.executable, "-c", code, lib, runtime], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip(), proc.stderr


def _levels(lib):
    """Levels this CPU can run: each cap up to the one chosen without a cap."""
    best, _ = _version(lib, {k: v for k, v in os.environ.items() if k != "DIOPI_CPU_ISA"})
    order = ["baseline", "avx2", "avx512"]
    top = next(level for level in order if f"({level})" in best)
    return order[:order.index(top) + 1]


@pytest.fixture(scope="module")
def isa_data(tmp_path_factory):
    # The main job's baselines hold every case; without them, make just these.
    if os.path.exists(os.path.join(paths.DEFAULT_DATA_DIR, "manifest.json")):
        return paths.DEFAULT_DATA_DIR
    data = tmp_path_factory.mktemp("isa-data")
    proc = run_main("--mode", "gen_data", "--data_dir", str(data), "--fname", *FUNCS, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return str(data)


def test_an_unknown_level_is_named_and_ignored():
    lib = _cpu_lib()
    version, err = _version(lib, dict(os.environ, DIOPI_CPU_ISA="avx9000"))
    assert "DIOPI_CPU_ISA=avx9000 is not baseline, avx2 or avx512" in err
    assert version.startswith("cpu-")


@pytest.mark.parametrize("level", ["baseline", "avx2", "avx512"])
def test_every_level_passes(level, isa_data, tmp_path):
    lib = _cpu_lib()
    levels = _levels(lib)
    if level not in levels:
        pytest.skip(f"this CPU cannot run the {level} kernels")
    if level == levels[-1] and len(levels) > 1:
        # Not a slower level: every other replay of impl/cpu judges these kernels (CI: fuzz, the impl/sim replay of
        # every case); the version check of a capped level below shows the cap is honoured.
        pytest.skip(f"{level} is the level this CPU selects without a cap: every other impl/cpu replay runs it")
    env = dict(os.environ, DIOPI_CPU_ISA=level)
    assert f"({level})" in _version(lib, env)[0]
    proc = run_main("--mode", "run_test", "--impl_lib", lib, "--data_dir", isa_data, "--report_dir", str(tmp_path), "--jobs", "2",
                    "--fname", *FUNCS, env=env, timeout=1800)
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    assert summary["library"]["version"].endswith(f"({level})")  # the report says which kernels it judged
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert summary["totals"]["passed"] > 1000, summary["totals"]
