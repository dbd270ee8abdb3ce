"""What every test of the `diopi` device imports: the paths it runs against and
the planted library's builder (conftest.py holds the pytest hooks; a module of
its own, because two folders of this tree have a conftest.py and `import
conftest` finds whichever was loaded last).

    from device_paths import ROOT, LIB, EXT

The planted library (planted/planted.c) is impl/torch with one wrong kernel
(diopiSilu) and one slow one (diopiRsqrt).
"""
import os
import subprocess

TESTS = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.dirname(TESTS)
ROOT = os.path.dirname(os.path.dirname(BRIDGE))
PLANTED_SRC = os.path.join(TESTS, "planted")
TORCH_LIB = os.path.join(ROOT, "build", "torch", "lib")          # impl/torch (scripts/build_impl.sh torch)
LIB = os.path.join(TORCH_LIB, "libdiopi_impl.so")
EXT = os.path.join(ROOT, "build", "bridge", "libdiopi_torch.so")  # the device (scripts/build_bridge.sh)
CPU_LIB = os.path.join(ROOT, "build", "cpu", "lib", "libdiopi_impl.so")

NEEDS_DEVICE = "needs build/torch (scripts/build_impl.sh torch) and build/bridge (scripts/build_bridge.sh)"


def device_missing():
    """Why the device's tests cannot run here, or None when they can."""
    missing = [p for p in (LIB, EXT) if not os.path.exists(p)]
    return f"{NEEDS_DEVICE}; missing: {', '.join(missing)}" if missing else None



def build_planted(out_dir, source="planted.c", link_impl=True):
    """Compiles planted/<source> into out_dir; with `link_impl`, linked to impl/torch (the calls it does not
    plant go there). The device's own headers (csrc) are on the include path for the probes of its hooks."""
    out = os.path.join(str(out_dir), "lib" + os.path.splitext(source)[0] + ".so")
    cmd = ["cc", "-shared", "-fPIC", "-O1", os.path.join(PLANTED_SRC, source), "-o", out,
           "-I", os.path.join(ROOT, "proto", "include"), "-I", os.path.join(BRIDGE, "csrc")]
    if link_impl:
        cmd += ["-L", TORCH_LIB, "-Wl,--no-as-needed", "-ldiopi_impl", f"-Wl,-rpath,{TORCH_LIB}",
                "-Wl,--allow-shlib-undefined", "-ldl"]
    subprocess.run(cmd, check=True)
    return out
