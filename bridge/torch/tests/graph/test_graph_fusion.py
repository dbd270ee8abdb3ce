"""Fusion into the header's fused functions: the custom operators compute what
they replace (forward and backward, on the CPU); in llama, qwen2 and Mistral
every RMSNorm becomes one diopiRMSNorm and one diopiRMSNormBackward, every q/k
rotation one diopiRotaryEmbedding forward and one backward, and a step makes at
least 40% fewer DIOPI calls than unfused; a library without the fused
functions gets the unfused graph, and both match eager CPU."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import forked
from device_paths import LIB, ROOT
needs_device = pytest.mark.needs_device


def _grads(fn, *xs):
    xs = [x.detach().clone().requires_grad_() for x in xs]
    out = fn(*xs)
    g = torch.randn(out.shape, generator=torch.Generator().manual_seed(3), dtype=out.dtype)
    (out * g).sum().backward()
    return out.detach(), [x.grad for x in xs]


def _close(a, b, tol=1e-5):
    assert a.shape == b.shape and torch.allclose(a, b, atol=tol, rtol=tol), (a - b).abs().max()


def test_fused_operators_compute_what_they_replace():
    from diopi_torch.ops import fused  # noqa: F401
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(2, 3, 8, generator=gen, dtype=torch.float64)
    w = torch.randn(8, generator=gen, dtype=torch.float64)

    def hf_rms(x, w):
        return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))
    for a, b in zip(_grads(lambda x, w: torch.ops.diopi.rms_norm(x, [8], w, 1e-6)[0], x, w), _grads(hf_rms, x, w)):
        for u, v in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
            _close(u, v)
    # Rotary: HF's rotate-half form with cos/sin = cos/sin of cat(f, f); the fused form takes the halves.
    q = torch.randn(2, 4, 5, 8, generator=gen, dtype=torch.float64)
    f = torch.randn(1, 1, 5, 4, generator=gen, dtype=torch.float64)
    cos, sin = torch.cat([f, f], -1).cos(), torch.cat([f, f], -1).sin()

    def hf_rot(q):
        return q * cos + torch.cat([-q[..., 4:], q[..., :4]], -1) * sin
    fused_rot = _grads(lambda q: torch.ops.diopi.rotary_embedding(q, cos[..., :4], sin[..., :4], False, False), q)
    ref_rot = _grads(hf_rot, q)
    _close(fused_rot[0], ref_rot[0])
    _close(fused_rot[1][0], ref_rot[1][0])
    # Attention, causal and grouped-query, in the header's (batch, seq, heads, dim) layout.
    qa = torch.randn(2, 6, 4, 8, generator=gen, dtype=torch.float64)
    ka = torch.randn(2, 6, 2, 8, generator=gen, dtype=torch.float64)
    va = torch.randn(2, 6, 2, 8, generator=gen, dtype=torch.float64)
    for causal in (False, True):
        def sdpa(q, k, v):
            return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                  is_causal=causal, scale=0.3, enable_gqa=True).transpose(1, 2)

        def fa(q, k, v):
            return torch.ops.diopi.flash_attention(q, k, v, 0.3, causal)[0]
        (o1, g1), (o2, g2) = _grads(fa, qa, ka, va), _grads(sdpa, qa, ka, va)
        _close(o1, o2)
        for u, v in zip(g1, g2):
            _close(u, v)
    # Linear with and without bias; cross-entropy with ignored targets.
    xl = torch.randn(2, 3, 5, generator=gen, dtype=torch.float64)
    wl = torch.randn(4, 5, generator=gen, dtype=torch.float64)
    bl = torch.randn(4, generator=gen, dtype=torch.float64)
    for bias in (bl, None):
        a = _grads(lambda x, w: torch.ops.diopi.linear(x, w, bias), xl, wl)
        b = _grads(lambda x, w: F.linear(x, w, bias), xl, wl)
        _close(a[0], b[0])
        for u, v in zip(a[1], b[1]):
            _close(u, v)
    logits = torch.randn(6, 7, generator=gen, dtype=torch.float64)
    target = torch.tensor([1, 3, -100, 6, 0, -100])
    cw = torch.rand(7, generator=gen, dtype=torch.float64) + 0.5
    for red, name in ((0, "none"), (1, "mean"), (2, "sum")):
        for weight, smoothing in ((None, 0.0), (cw, 0.1)):
            a = _grads(lambda x: torch.ops.diopi.cross_entropy(x, target, weight, red, -100, smoothing), logits)
            b = _grads(lambda x: F.cross_entropy(x, target, weight, reduction=name, label_smoothing=smoothing), logits)
            _close(a[0], b[0])
            _close(a[1][0], b[1][0])


STEP = """
    import json, sys, torch, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import recipes
    from diopi_torch.suite import models as suite
    from diopi_torch.suite import compare as checks
    graph.register()
    diopi_torch.load(sys.argv[1])
    spec = sys.argv[2]
    model = suite.parse_model(spec)
    m = suite.build(model)
    batch = suite.inputs(model, m)
    ref = recipes.train(recipes.RECIPES["fp32"], m, [batch], torch.device("cpu"))
    out = {"rms_modules": sum(type(x).__name__.endswith("RMSNorm") for x in m.modules()),
           "layers": m.config.num_hidden_layers}
    for fusion in (True, False):
        torch._dynamo.reset()
        diopi_torch.reset_stats()
        graph.OPTIONS["fusion"] = fusion
        dev = recipes.train(recipes.compiled(recipes.RECIPES["fp32"]), m, [batch], torch.device("diopi"))
        st = diopi_torch.stats()
        g = st.pop("graph")
        functions = {}
        for op, v in st.items():
            if op.startswith("diopi::"):
                for fn, n in v["functions"].items():
                    functions[fn] = functions.get(fn, 0) + n
        out["fused" if fusion else "unfused"] = {
            "match": all(checks.compare(dev[k], ref[k], 1e-4)[0] for k in ("forward", "backward")),
            "step": checks.compare_step(dev["step"], ref["step"], dev["backward"], ref["backward"], 1e-4, 1)[0],
            "diopi_calls": g["diopi_calls"], "patterns": g["fused"], "functions": functions}
    print(json.dumps(out))
"""

MODELS = ["llama", "qwen2",
          "hf:MistralForCausalLM:hidden_size=64,num_hidden_layers=2,num_attention_heads=4,num_key_value_heads=2,"
          "intermediate_size=128"]


def _run(lib, spec, tmp_path):
    proc = forked.run([sys.executable, "-c", textwrap.dedent(STEP), lib, spec], capture_output=True, text=True,
                      cwd=ROOT, timeout=900, env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@needs_device
@pytest.mark.parametrize("spec", MODELS, ids=["llama", "qwen2", "mistral"])
def test_llama_family_fusion_counts(spec, tmp_path):
    out = _run(LIB, spec, tmp_path)
    fused, unfused = out["fused"], out["unfused"]
    assert fused["match"] and fused["step"] and unfused["match"] and unfused["step"], out
    fns = fused["functions"]
    norms, layers = out["rms_modules"], out["layers"]
    assert norms == 2 * layers + 1
    assert fns.get("diopiRMSNorm") == norms and fns.get("diopiRMSNormBackward") == norms, fns
    assert fns.get("diopiRotaryEmbedding") == 2 * 2 * layers, fns  # q and k of each layer, forward and backward
    assert unfused["patterns"] == {} and unfused["functions"] == {}
    assert fused["diopi_calls"] <= 0.6 * unfused["diopi_calls"], (fused["diopi_calls"], unfused["diopi_calls"])


@needs_device
def test_a_library_without_fused_functions_gets_the_unfused_graph(tmp_path):
    import shim
    from diopi_torch.graph import fusion
    omitted = {f for fns in fusion.PATTERNS.values() for f in fns}
    lib = shim.build_shim(str(tmp_path), LIB, omit=omitted, name="libnofused.so")
    out = _run(lib, "llama", tmp_path)
    assert out["fused"]["patterns"] == {} and out["fused"]["functions"] == {}, out
    assert out["fused"]["match"] and out["fused"]["step"], out
    assert out["fused"]["diopi_calls"] == out["unfused"]["diopi_calls"]
