"""Every error the README promises to word as CUDA does, raised on the
device and compared with CUDA's own text (the device's name in place of
CUDA's). CUDA's texts are written out below with the ATen or c10 source
that raises them; a promise added to the README belongs in this table.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device

# (README promise, code raising it on the device, exception type, CUDA's text up to where it names the
# machine's own figures). The comparison is a prefix: CUDA adds the GPU's capacity, or a hint, after it.
PROMISES = [
    ("operands on two devices raise PyTorch's same-device error",
     "torch.ones(2, 3, device='diopi') + torch.ones(2, 3)", "RuntimeError",
     # TensorIteratorBase::compute_types (ATen/TensorIterator.cpp)
     "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
    ("operands on two devices, a matrix product",
     "torch.mm(torch.ones(2, 3, device='diopi'), torch.ones(3, 2))", "RuntimeError",
     # c10::impl::common_device_check_failure (c10/core/impl/DeviceGuardImplInterface / the generated device checks)
     "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
    ("a device that does not exist",
     "torch.empty(2, device='diopi:5')", "RuntimeError",
     # c10/cuda/CUDAFunctions.cpp (cudaErrorInvalidDevice through C10_CUDA_CHECK)
     "CUDA error: invalid device ordinal"),
    ("out of memory is torch.OutOfMemoryError with the request",
     "torch.empty(1 << 50, device='diopi')", "OutOfMemoryError",
     # c10/cuda/CUDACachingAllocator.cpp
     "CUDA out of memory. Tried to allocate 4096.00 TiB"),
    ("binary_cross_entropy refused under autocast",
     "exec('with torch.autocast(\"diopi\", dtype=torch.bfloat16):\\n"
     "    torch.nn.functional.binary_cross_entropy(torch.rand(3, device=\"diopi\"), torch.rand(3, device=\"diopi\"))')",
     "RuntimeError",
     # aten/src/ATen/autocast_mode.cpp, binary_cross_entropy_banned
     "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
     "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
     "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
     "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
     "safe to autocast."),
    ("a convolution with the wrong number of input channels",
     "torch.nn.functional.conv2d(torch.randn(1, 5, 8, 8, device='diopi'), torch.randn(4, 3, 3, 3, device='diopi'))",
     "RuntimeError",
     # check_shape_forward (ATen/native/Convolution.cpp)
     "Given groups=1, weight of size [4, 3, 3, 3], expected input[1, 5, 8, 8] to have 3 channels, but got 5 channels "
     "instead"),
    ("a convolution kernel larger than its padded input",
     "torch.nn.functional.conv2d(torch.randn(1, 3, 2, 2, device='diopi'), torch.randn(4, 3, 3, 3, device='diopi'))",
     "RuntimeError",
     # check_shape_forward (ATen/native/Convolution.cpp)
     "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than "
     "actual input size"),
]


def _as_device(cuda_text):
    return cuda_text.replace("cuda:", "diopi:").replace("CUDA ", "diopi ")


def test_every_error_the_readme_promises_is_worded_as_on_cuda():
    code = textwrap.dedent(f"""
        import json, torch, diopi_torch
        diopi_torch.load({LIB!r})
        got = []
        for src in {[p[1] for p in PROMISES]!r}:
            try:
                eval(src)
                got.append(None)
            except Exception as e:
                got.append([type(e).__name__, str(e)])
        print(json.dumps(got))
    """)
    proc = forked.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_IMPL_LIB": ""}, preload=forked.TORCH)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    wrong = []
    for (promise, src, kind, cuda_text), raised in zip(PROMISES, got):
        want = _as_device(cuda_text)
        if raised is None:
            wrong.append(f"{promise}: `{src}` raised nothing; CUDA raises {kind}: {want!r}")
        elif raised[0] != kind or not raised[1].startswith(want):
            wrong.append(f"{promise}: `{src}` raised {raised[0]}: {raised[1][:300]!r}; CUDA raises {kind}: {want!r}")
    assert not wrong, "\n".join(wrong)
