"""One session with every tool on a library, as test_tools.py reads it.

    python tools_session.py LIBRARY OUT_DIR

Builds the suite's llama (2 layers, hidden 64), warms the device up with
one training step (first calls of each kernel), then runs one forward and
backward under each tool in turn and writes what each produced into
OUT_DIR: the profiler's Chrome trace and device times, the op timer's
table (start/stop form) and JSON/CSV, a call log, the model against eager
CPU with and without the named fallback, and a capture of chosen calls.
One process, so the model is built once (a process serves one library).
"""
import copy
import json
import os
import sys

import torch

import diopi_torch
from diopi_torch.suite import recipes
from diopi_torch.suite import compare as checks
from diopi_torch.suite import models as suite

lib, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
diopi_torch.load(lib)
spec = suite.MODELS["llama"]
base = suite.build(spec)
batch = suite.inputs(spec, base)


def step(model, b):
    with recipes.NoDropout():
        result = model(**b)
        result.loss.backward()
    grads = {n: p.grad.detach().cpu().clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad(set_to_none=True)
    return {"logits": result.logits.detach().cpu(), "loss": result.loss.detach().cpu()}, grads


cpu_fwd, cpu_grads = step(copy.deepcopy(base), batch)
dev = copy.deepcopy(base).to(diopi_torch.BACKEND)
db = {k: v.to(diopi_torch.BACKEND) for k, v in batch.items()}
step(dev, db)  # warm-up: the first call of each kernel pays for its set-up, in every library
report = {}

# 1. Profiler: CPU events (DIOPI functions under their ATen operators) and the device's activity.
A = torch.profiler.ProfilerActivity
with torch.profiler.profile(activities=[A.CPU, A.PrivateUse1], record_shapes=True) as prof:
    step(dev, db)
prof.export_chrome_trace(os.path.join(out, "trace.json"))
report["device_time_us"] = {e.key: e.device_time_total for e in prof.key_averages() if e.key.startswith("diopi")}
report["supported_activities"] = sorted(str(a) for a in torch.profiler.supported_activities())

# 2. Op timer, start/stop form; and the context form around nothing on the device.
timer = diopi_torch.op_timer()
timer.start()
step(dev, db)
timer.stop()
timer.to_json(os.path.join(out, "timer.json"))
timer.to_csv(os.path.join(out, "timer.csv"))
with open(os.path.join(out, "timer.txt"), "w") as f:
    f.write(str(timer) + "\n")
with diopi_torch.op_timer() as empty:
    torch.ones(3).sum()
report["empty_timer_rows"] = len(empty.rows)

# 3. Call log.
with diopi_torch.log_calls(os.path.join(out, "calls.log")):
    step(dev, db)

# 4. Named fallback: the wrong operator sent to the CPU, by ATen name and by DIOPI name.
tol = 1e-4


def against_eager():
    fwd, grads = step(dev, db)
    ok_f, d_f, _ = checks.compare(fwd, cpu_fwd, tol)
    ok_b, d_b, _ = checks.compare(grads, cpu_grads, tol)
    return {"forward_match": ok_f, "backward_match": ok_b, "max_abs_diff": max(d_f, d_b)}


report["plain"] = against_eager()
for label, ops in (("named_aten", ["silu"]), ("named_diopi", ["diopiSilu"])):
    diopi_torch.reset_stats()
    with diopi_torch.fallback(ops=ops) as resolved:
        report[label] = against_eager()
    report[label]["resolved"] = resolved
    st = diopi_torch.stats()
    report[label]["silu"] = st.get("silu", {})
report["after_fallback_block"] = against_eager()
diopi_torch.reset_stats()
diopi_torch.set_fallback("error", ops=["silu"])  # a named fallback is allowed under the error mode
report["error_mode_named"] = against_eager()
report["error_mode_named"]["silu"] = diopi_torch.stats().get("silu", {})
diopi_torch.set_fallback("cpu", ops=[])

# 5. Capture of chosen calls (the wrong one among correct ones) with their module paths.
with diopi_torch.op_capture(os.path.join(out, "capture"), ops=["silu", "rsqrt", "diopiMm"], max_calls=40, model=dev) as cap:
    step(dev, db)
report["capture"] = cap.summary()
report["capture_text"] = str(cap)
# softmax -> _softmax, which the device reaches inside ATen's composite _safe_softmax: attention on PyTorch's
# math path (the device's own choice is one fused call).
from torch.nn.attention import SDPBackend, sdpa_kernel
with sdpa_kernel([SDPBackend.MATH]), diopi_torch.op_capture(os.path.join(out, "capture_softmax"), ops=["softmax"], max_calls=10) as cap:
    step(dev, db)
report["capture_softmax"] = cap.summary()

with open(os.path.join(out, "report.json"), "w") as f:
    json.dump(report, f, indent=1, default=str)
