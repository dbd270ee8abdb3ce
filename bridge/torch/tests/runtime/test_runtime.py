"""The `diopi` device as a runtime real jobs use: mixed precision,
checkpointing, saving and loading, pinned memory, the caching allocator,
streams and events, several devices, random numbers, 1-d convolution.

Each test is one fresh interpreter (a process serves one vendor library) that
tries what a PyTorch user would try on CUDA and checks the answer and, where
it matters, which DIOPI functions served it.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT, build_planted

pytestmark = pytest.mark.needs_device


def run(code, lib=LIB, **env):
    src = f"import torch, diopi_torch\ndiopi_torch.load({lib!r})\n" + textwrap.dedent(code)
    proc = forked.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_IMPL_LIB": "", **env}, preload=forked.TORCH)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def _build(tmp_path_factory, source, name, link_impl):
    return build_planted(tmp_path_factory.mktemp(name), source, link_impl=link_impl)


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    return _build(tmp_path_factory, "runtime_probe.c", "probe", link_impl=True)


def test_mixed_precision_and_activation_checkpointing():
    run("""
        from torch.utils.checkpoint import checkpoint
        assert torch.diopi.get_amp_supported_dtype() == [torch.float16, torch.bfloat16] and torch.diopi.is_bf16_supported()
        m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.LayerNorm(8), torch.nn.Linear(8, 4)).to("diopi")
        x = torch.randn(3, 8, device="diopi")
        with torch.autocast("diopi", dtype=torch.bfloat16):
            h = m[0](x)
            y = m(x)
            s = torch.softmax(h, -1)
        # CUDA's lists: linear in bfloat16, layer norm and softmax in float32
        assert h.dtype == torch.bfloat16 and s.dtype == torch.float32 and y.dtype == torch.bfloat16, (h.dtype, s.dtype)
        y.float().sum().backward()
        assert all(p.grad is not None and p.grad.dtype == torch.float32 for p in m.parameters())
        # a model cast to bfloat16: layer norm's backward takes the statistics its forward saved
        mb = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.LayerNorm(8), torch.nn.BatchNorm1d(8)).to("diopi", torch.bfloat16)
        mb(x.bfloat16()).float().sum().backward()
        # activation checkpointing, both implementations
        for reentrant in (True, False):
            m.zero_grad()
            checkpoint(m, x.requires_grad_(), use_reentrant=reentrant).sum().backward()
            assert m[0].weight.grad is not None
        # GradScaler on the device runs its steps as DIOPI calls
        diopi_torch.reset_stats()
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("diopi")
        with torch.autocast("diopi", dtype=torch.float16):
            loss = m(x).float().square().mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        st = diopi_torch.stats()
        assert st["_amp_foreach_non_finite_check_and_unscale_"]["functions"] == {"diopiAmpForeachNonFiniteCheckAndUnscaleInp": 1}, st
        assert st["_amp_update_scale_"]["functions"] == {"diopiAmpUpdateScaleInp": 1}, st
        try:
            with torch.autocast("diopi", dtype=torch.bfloat16):
                torch.nn.functional.binary_cross_entropy(torch.rand(3, device="diopi"), torch.rand(3, device="diopi"))
            raise AssertionError("binary_cross_entropy under autocast must be refused, as on CUDA")
        except RuntimeError as e:
            assert "binary_cross_entropy_with_logits" in str(e)
        print("ok")
    """)


def test_fused_adam_and_adamw_with_a_grad_scaler_run_on_the_device():
    # diopiFusedAdamW has no grad_scale/found_inf: such calls (and every _fused_adam_) are decomposed on the
    # device; DIOPI_FALLBACK=error makes any CPU fallback raise.
    run("""
        import copy
        def same(a, b, tol):
            assert a.dtype == b.dtype and torch.allclose(a.float(), b.cpu().float(), atol=tol, rtol=tol, equal_nan=True), \\
                (a.dtype, (a.float() - b.cpu().float()).abs().max())
        # ATen's semantics, call by call: grads unscaled in place; found_inf == 1 skips the whole step (grads stay scaled)
        diopi_torch.reset_stats()
        for op in (torch._fused_adamw_, torch._fused_adam_):
            for dtype, tol in ((torch.float32, 1e-6), (torch.float16, 1e-3)):
                for amsgrad, maximize, found in ((False, False, 0.), (True, True, 0.), (True, False, 1.), (False, False, None)):
                    g = torch.Generator().manual_seed(1)
                    mk = lambda: torch.randn(4, 5, generator=g).to(dtype)
                    cpu = [[mk()], [mk() * 64], [mk()], [mk().abs()], [mk().abs()] if amsgrad else [], [torch.tensor(3.)]]
                    dev = [[t.to("diopi") for t in ts] for ts in cpu]
                    for ts, d in ((cpu, "cpu"), (dev, "diopi")):
                        op(*ts, lr=0.1, beta1=0.9, beta2=0.99, weight_decay=0.05, eps=1e-8, amsgrad=amsgrad, maximize=maximize,
                           grad_scale=torch.tensor(64., device=d),
                           found_inf=None if found is None else torch.tensor(found, device=d))
                    for a, b in zip(cpu, dev):
                        for x, y in zip(a, b):
                            same(x, y, tol)
                    if found == 1.:  # the skipped step left everything as it was
                        assert torch.equal(cpu[0][0], dev[0][0].cpu()) and torch.equal(cpu[1][0], dev[1][0].cpu())
        st = diopi_torch.stats()
        assert "_fused_adam_" not in st, st["_fused_adam_"]  # neither a fallback nor a DIOPI call of its own
        # one diopiFusedAdamW per parameter and call (of both operators), nothing on the CPU
        assert st["_fused_adamw_"]["functions"] == {"diopiFusedAdamW": 16} and st["_fused_adamw_"]["fallback"] == 0, st["_fused_adamw_"]
        # a float16 model trained with a GradScaler and fused AdamW, one step overflowing, against eager CPU
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)).half()
        md = copy.deepcopy(m).to("diopi")
        sides = [(m, torch.optim.AdamW(m.parameters(), lr=1e-2, fused=True), torch.amp.GradScaler("cpu", init_scale=2.**8), "cpu"),
                 (md, torch.optim.AdamW(md.parameters(), lr=1e-2, fused=True), torch.amp.GradScaler("diopi", init_scale=2.**8), "diopi")]
        diopi_torch.reset_stats()
        for step in range(4):
            x = torch.randn(5, 8).half()
            for mod, opt, scaler, d in sides:
                opt.zero_grad()
                loss = mod(x.to(d)).float().square().sum() * (float("inf") if step == 2 else 1.)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            if step == 2:
                assert sides[1][2].get_scale() == sides[0][2].get_scale() == 2.**7  # skipped on both sides
            for p, q in zip(m.parameters(), md.parameters()):
                same(p, q, 1e-3)
                same(p.grad, q.grad, 1e-3)
        assert [s["step"] for s in sides[1][1].state.values()] == [torch.tensor(3.)] * 4  # the skipped step not counted
        st = diopi_torch.stats()
        assert sum(v["fallback"] for v in st.values()) == 0, {k: v for k, v in st.items() if v["fallback"]}
        assert st["_fused_adamw_"]["functions"] == {"diopiFusedAdamW": 16}, st["_fused_adamw_"]
        print("ok")
    """, DIOPI_FALLBACK="error")


def test_save_load_state_dicts_and_pickle(tmp_path):
    path = tmp_path / "ckpt.pt"
    run(f"""
        import io, pickle
        torch.manual_seed(0)
        m = torch.nn.Linear(4, 3).to("diopi")
        opt = torch.optim.AdamW(m.parameters(), lr=0.1)
        m(torch.randn(2, 4, device="diopi")).sum().backward()
        opt.step()
        torch.save({{"model": m.state_dict(), "opt": opt.state_dict()}}, {str(path)!r})
        for kw in ({{"map_location": "diopi"}}, {{"map_location": "diopi", "weights_only": True}}, {{}}):
            state = torch.load({str(path)!r}, **kw)
            assert state["model"]["weight"].device == torch.device("diopi", 0), (kw, state["model"]["weight"].device)
            assert torch.equal(state["model"]["weight"].cpu(), m.weight.detach().cpu())
            m2 = torch.nn.Linear(4, 3).to("diopi")
            m2.load_state_dict(state["model"])
            opt2 = torch.optim.AdamW(m2.parameters(), lr=0.1)
            opt2.load_state_dict(state["opt"])
            exp_avg = opt2.state_dict()["state"][0]["exp_avg"]
            assert exp_avg.device.type == "diopi" and torch.equal(exp_avg.cpu(), opt.state_dict()["state"][0]["exp_avg"].cpu())
        cpu_state = torch.load({str(path)!r}, map_location="cpu", weights_only=True)
        assert cpu_state["model"]["bias"].device.type == "cpu"
        t = torch.arange(6., device="diopi").reshape(2, 3)
        back = pickle.loads(pickle.dumps(t))
        assert back.device == t.device and torch.equal(back.cpu(), t.cpu())
        buf = io.BytesIO(); torch.save(t, buf); buf.seek(0)
        assert torch.equal(torch.load(buf, map_location="diopi:0").cpu(), t.cpu())
        print("ok")
    """)
    # The checkpoint is an ordinary one: a process without diopi_torch reads it onto the CPU.
    proc = forked.run([sys.executable, "-c", f"import torch; s = torch.load({str(path)!r}, map_location='cpu', weights_only=True); "
                       "print(s['model']['weight'].shape, s['opt']['state'][0]['step'].device)"],
                      capture_output=True, text=True, timeout=300, preload=forked.TORCH)
    assert proc.returncode == 0 and "torch.Size([3, 4]) cpu" in proc.stdout, proc.stdout + proc.stderr


def test_pinned_memory_and_non_blocking_copies():
    run("""
        x = torch.arange(12.).reshape(3, 4)
        p = x.pin_memory()
        assert p.is_pinned() and not x.is_pinned() and torch.equal(p, x)
        d = p.to("diopi", non_blocking=True)
        torch.diopi.synchronize()
        assert torch.equal(d.cpu(), x)
        back = torch.empty(3, 4).pin_memory()
        back.copy_(d * 2, non_blocking=True)
        torch.diopi.current_stream().synchronize()
        assert torch.equal(back, x * 2)
        assert torch.equal(d.to("cpu", non_blocking=True), x)
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(16.).reshape(8, 2)), batch_size=4,
                                             num_workers=2, pin_memory=True)
        seen = []
        for (b,) in loader:
            assert b.is_pinned()
            seen.append(b.to("diopi", non_blocking=True).sum().item())
        assert seen == [28.0, 92.0], seen
        torch.accelerator.empty_host_cache()
        print("ok")
    """)


def test_caching_allocator_statistics_and_out_of_memory():
    run("""
        d = torch.diopi
        d.empty_cache(); d.reset_peak_memory_stats()
        base = d.memory_allocated()
        a = torch.empty(1000, device="diopi")             # 4000 bytes, rounded to 4096
        assert d.memory_allocated() - base == 4096, d.memory_allocated() - base
        assert torch.accelerator.memory_allocated() == d.memory_allocated()
        reserved = d.memory_reserved()
        assert reserved >= d.memory_allocated()
        del a
        assert d.memory_allocated() == base and d.memory_reserved() == reserved      # cached, not returned
        b = torch.empty(1000, device="diopi")                                       # the cached block again
        assert d.memory_reserved() == reserved and d.max_memory_allocated() == base + 4096
        del b
        d.empty_cache()
        assert d.memory_reserved() < reserved
        stats = d.memory_stats()
        assert stats["allocation.all.allocated"] >= 2 and stats["segment.all.freed"] >= 1, stats
        free, total = d.mem_get_info()
        assert 0 < free <= total
        try:
            torch.empty(1 << 50, device="diopi")
            raise AssertionError("no error")
        except torch.OutOfMemoryError as e:
            assert "Tried to allocate 4096.00 TiB on diopi:0" in str(e), str(e)
        assert d.memory_stats()["num_ooms"] == 1
        print("ok")
    """)


def test_vendor_runtime_streams_events_and_cache(probe):
    run(f"""
        import ctypes
        lib = ctypes.CDLL({probe!r})
        counters = lambda: (lambda a: (lib.probe_counters(a), list(a))[1])((ctypes.c_int64 * 11)())
        MALLOCS, FREES, STREAMS, SYNCS, RECORDS, WAITS, SETDEV, LASTDEV = range(8)
        assert diopi_torch.info()["runtime"] == "runtime probe" and torch.diopi.device_count() == 2
        x = torch.ones(4, device="diopi")
        x + x
        assert lib.probe_last_stream_id() == 0                                   # default stream: NULL
        s = torch.diopi.Stream()
        assert isinstance(s, torch.Stream) and s.device == torch.device("diopi", 0)
        with torch.diopi.stream(s):
            assert torch.diopi.current_stream() == s
            y = x + x
        sid = lib.probe_stream_id(ctypes.c_void_p(s.native_handle))
        assert sid > 0 and lib.probe_last_stream_id() == sid, (sid, lib.probe_last_stream_id())   # the call ran on s
        assert torch.diopi.current_stream().stream_id == 0
        t = torch.Stream(device="diopi")
        assert t.native_handle != 0
        before = counters()
        e1 = torch.Event(device="diopi", enable_timing=True); e1.record(s)
        e2 = torch.diopi.Event(enable_timing=True); e2.record()
        e2.wait(s); e2.synchronize(); assert e2.query() and e1.elapsed_time(e2) >= 0
        s.synchronize(); torch.diopi.synchronize()
        after = counters()
        assert after[RECORDS] - before[RECORDS] == 2 and after[WAITS] > before[WAITS] and after[SYNCS] > before[SYNCS], (before, after)
        # the caching allocator: the same sizes again take no vendor allocation
        for _ in range(3):
            z = torch.empty(256, 256, device="diopi"); del z
        m0 = counters()[MALLOCS]
        for _ in range(5):
            z = torch.empty(256, 256, device="diopi"); del z
        assert counters()[MALLOCS] == m0
        f0 = counters()[FREES]; torch.diopi.empty_cache(); assert counters()[FREES] > f0
        # the second device: the vendor is told, and the call runs there
        with torch.diopi.device(1):
            w = torch.ones(3, device="diopi")
            w + w
        assert w.device == torch.device("diopi", 1) and lib.probe_last_device() == 1
        assert counters()[LASTDEV] in (0, 1) and counters()[SETDEV] >= 1
        print("ok")
    """, lib=probe)


def test_several_devices_and_device_checks():
    run("""
        assert torch.diopi.device_count() == 2
        a = torch.ones(2, 3, device="diopi:1")
        assert a.device == torch.device("diopi", 1) and a.get_device() == 1
        try:
            torch.empty(2, device="diopi:2"); raise AssertionError("no error")
        except RuntimeError as e:
            assert "invalid device ordinal 2" in str(e), e
        try:
            torch.diopi.set_device(5); raise AssertionError("no error")
        except RuntimeError as e:
            assert "invalid device ordinal 5" in str(e), e
        torch.diopi.set_device(1)
        assert torch.empty(1, device="diopi").device.index == 1 and torch.diopi.current_device() == 1
        with torch.diopi.device(0):
            assert torch.empty(1, device="diopi").device.index == 0
        torch.diopi.set_device(0)
        b = torch.ones(2, 3, device="diopi:0")
        for bad in (lambda: a + b, lambda: b + torch.ones(2, 3), lambda: torch.cat([b, torch.ones(2, 3)]),
                    lambda: torch.cumprod(torch.stack([b, b]), 0) + a):
            try:
                bad(); raise AssertionError("mixed devices accepted")
            except RuntimeError as e:
                assert "Expected all tensors to be on the same device" in str(e), e
        assert torch.equal((b + torch.tensor(2.0)).cpu(), torch.full((2, 3), 3.0))     # a 0-dim host scalar is fine
        idx = torch.tensor([1, 0])
        assert torch.equal(b[idx].cpu(), torch.ones(2, 3))                                # host indices, as on CUDA
        c = b.to("diopi:1") * 2
        assert c.device.index == 1 and torch.equal(c.cpu(), torch.full((2, 3), 2.0))
        m = torch.nn.Linear(3, 2).to("diopi:1")
        m(a).sum().backward()                                         # autograd on the second device
        assert m.weight.grad.device.index == 1
        print("ok")
    """, DIOPI_HOST_DEVICES="2")


def test_random_numbers_on_the_device_generator():
    run("""
        import torch.nn.functional as F
        diopi_torch.reset_stats()
        torch.manual_seed(5)
        x = torch.ones(64, device="diopi")
        m1 = F.dropout(x, 0.5)
        u = torch.rand(4, device="diopi"); n = torch.randn(4, device="diopi")
        r = torch.randint(0, 10, (8,), device="diopi"); p = torch.randperm(6, device="diopi")
        b = torch.bernoulli(torch.full((8,), 0.3, device="diopi")); mn = torch.multinomial(torch.ones(5, device="diopi"), 3)
        st = diopi_torch.stats()
        served = {op: v["functions"] for op, v in st.items() if v["functions"]}
        for op, fn in [("native_dropout", "diopiDropout"), ("uniform_", "diopiUniformInp"), ("normal_", "diopiNormalInp"),
                       ("random_.from", "diopiRandomInp"), ("randperm", "diopiRandperm"), ("bernoulli", "diopiBernoulli"),
                       ("multinomial", "diopiMultinomial")]:
            assert served.get(op, {}).get(fn), (op, served)
            assert st[op]["fallback"] == 0
        torch.manual_seed(5)
        assert torch.equal(F.dropout(x, 0.5).cpu(), m1.cpu())                    # same seed, same mask
        state = torch.diopi.get_rng_state()
        a = torch.rand(5, device="diopi").cpu()
        torch.diopi.set_rng_state(state)
        assert torch.equal(torch.rand(5, device="diopi").cpu(), a)
        with torch.random.fork_rng(device_type="diopi"):
            torch.rand(100, device="diopi")
        torch.diopi.set_rng_state(state); torch.rand(5, device="diopi")
        after_fork = torch.rand(3, device="diopi").cpu()
        torch.diopi.set_rng_state(state); torch.rand(5, device="diopi")
        with torch.random.fork_rng(device_type="diopi"):
            torch.rand(100, device="diopi")
        assert torch.equal(torch.rand(3, device="diopi").cpu(), after_fork)    # fork_rng put the state back
        g = torch.Generator(device="diopi").manual_seed(3)
        assert torch.equal(torch.rand(4, device="diopi", generator=g).cpu(),
                           torch.rand(4, device="diopi", generator=torch.Generator(device="diopi").manual_seed(3)).cpu())
        print("ok")
    """)


def test_conv1d_runs_through_the_2d_functions_and_others_fall_back_counted():
    run("""
        import torch.nn.functional as F
        torch.manual_seed(0)
        x, w, b = torch.randn(2, 3, 10), torch.randn(4, 3, 3), torch.randn(4)
        xd, wd, bd = [t.to("diopi").requires_grad_() for t in (x, w, b)]
        for t in (x, w, b): t.requires_grad_()
        diopi_torch.reset_stats()
        yd = F.conv1d(xd, wd, bd, stride=2, padding=1, dilation=1)
        yd.square().sum().backward()
        y = F.conv1d(x, w, b, stride=2, padding=1); y.square().sum().backward()
        assert torch.allclose(yd.detach().cpu(), y.detach(), atol=1e-5)
        for a, c in ((xd, x), (wd, w), (bd, b)):
            assert torch.allclose(a.grad.cpu(), c.grad, atol=1e-4)
        st = diopi_torch.stats()
        assert st["convolution"]["functions"] == {"diopiConvolution2d": 1}, st["convolution"]
        assert st["convolution_backward"]["functions"] == {"diopiConvolution2dBackward": 1}, st["convolution_backward"]
        out = F.conv_transpose1d(xd.detach(), wd.detach().transpose(0, 1))        # no entry: counted fallback
        assert out.shape == (2, 4, 12) and diopi_torch.stats()["convolution_overrideable"]["fallback"] == 1
        print("ok")
    """)


def test_a_hooks_library_of_the_first_form_still_loads(tmp_path_factory):
    hooks = _build(tmp_path_factory, "legacy_hooks.c", "legacy", link_impl=False)
    proc = forked.run([sys.executable, "-c", textwrap.dedent(f"""
        import ctypes, torch, diopi_torch
        info = diopi_torch.load({LIB!r}, hooks={hooks!r})
        assert info["runtime"] == "legacy hooks" and info["devices"] == 1, info
        lib = ctypes.CDLL({hooks!r}); lib.legacy_mallocs.restype = ctypes.c_int64
        before = lib.legacy_mallocs()
        x = torch.arange(4., device="diopi") * 3
        assert torch.equal(x.cpu(), torch.arange(4.) * 3) and lib.legacy_mallocs() > before
        s = torch.diopi.Stream(); e = torch.diopi.Event(); e.record(s); e.synchronize()   # one stream, events emulated
        print("ok")
    """)], capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "DIOPI_IMPL_LIB": ""}, preload=forked.TORCH)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_moving_a_model_keeps_its_parameters_and_ties_as_on_cuda():
    run("""
        cpu, dev = torch.ones(2), torch.zeros(2, device="diopi")
        assert torch._has_compatible_shallow_copy_type(cpu, dev) and torch._has_compatible_shallow_copy_type(dev, cpu)
        assert not torch._has_compatible_shallow_copy_type(dev, torch.zeros(2).to_sparse())   # as CUDA: dense only
        p = torch.nn.Parameter(torch.arange(3.))
        p.data = torch.full((3,), 7., device="diopi")                                   # t.data = device tensor
        assert p.device.type == "diopi" and isinstance(p, torch.nn.Parameter) and p.cpu().tolist() == [7., 7., 7.]
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False))
        m[1].weight = m[0].weight                                                       # an LM head tied to its embedding
        ref = __import__("copy").deepcopy(m)
        params, w0 = list(m.parameters()), m[0].weight.detach().clone()
        opt = torch.optim.SGD(m.parameters(), lr=0.5)                                   # made before the move
        assert m.to("diopi") is m
        assert m[0].weight is m[1].weight and list(m.parameters())[0] is params[0]       # same Parameter, still tied
        assert m[0].weight.device.type == "diopi"
        ids = torch.tensor([1, 2, 3])
        ropt = torch.optim.SGD(ref.parameters(), lr=0.5)
        for model, o, x in ((m, opt, ids.to("diopi")), (ref, ropt, ids)):
            model(x).square().mean().backward(); o.step()
        assert m[0].weight.grad.device.type == "diopi"
        assert torch.allclose(m[0].weight.detach().cpu(), ref[0].weight.detach(), atol=1e-6)   # the optimizer stepped it
        assert not torch.equal(m[0].weight.detach().cpu(), w0)                               # and it moved
        back = m.to("cpu")
        assert back[0].weight is back[1].weight and back[0].weight is params[0] and params[0].device.type == "cpu"
        # with PyTorch's swap_tensors conversion the same holds
        torch.__future__.set_swap_module_params_on_conversion(True)
        w = m[0].weight
        m.to("diopi")
        assert m[0].weight is w and m[1].weight is w and w.device.type == "diopi"
        print("ok")
    """)


def test_device_capability_and_properties_from_the_vendor_runtime():
    run("""
        cap = torch.accelerator.get_device_capability("diopi:0")
        dtypes = cap["supported_dtypes"]
        # the standard's dtypes (diopiDtype_t), nothing it cannot name
        for t in (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.uint8, torch.int32,
                  torch.int64, torch.bool, torch.complex64):
            assert t in dtypes, (t, dtypes)
        for t in (torch.qint8, torch.float8_e4m3fn):
            assert t not in dtypes, (t, dtypes)
        assert torch.accelerator.get_device_capability() == cap
        p = torch.diopi.get_device_properties(0)
        free, total = torch.diopi.mem_get_info(0)
        assert p.name == torch.diopi.get_device_name(0) and "host memory" in p.name, p.name
        assert p.total_memory == total > 0 and "total_memory=" in repr(p)
        assert torch.diopi.get_device_properties("diopi:1").index == 1
        for bad in (lambda: torch.diopi.get_device_properties(2), lambda: torch.accelerator.get_device_capability("diopi:2")):
            try:
                bad(); raise AssertionError("no error")
            except (AssertionError, RuntimeError) as e:
                assert "Invalid device id" in str(e) or "invalid device ordinal 2" in str(e), e
        print("ok")
    """, DIOPI_HOST_DEVICES="2")


def test_a_forked_child_may_not_use_an_initialised_device_as_with_cuda():
    run("""
        import os
        def in_child(fn):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    msg = fn()
                except Exception as e:
                    msg = f"{type(e).__name__}: {e}"
                os.write(w, msg.encode()); os._exit(0)
            os.close(w)
            out = os.read(r, 4096).decode(); os.waitpid(pid, 0)
            return out
        # loaded but not yet used: a child may still use the device, as a child may use CUDA before it is initialised
        assert not torch.diopi._is_in_bad_fork()
        assert in_child(lambda: str(torch.ones(2, device="diopi").sum().item())) == "2.0"
        x = torch.ones(3, device="diopi")
        assert torch.diopi.is_initialized() and not torch.diopi._is_in_bad_fork()
        assert in_child(lambda: str(torch.diopi._is_in_bad_fork())) == "True"
        got = in_child(lambda: str(torch.zeros(1, device="diopi")))
        assert got == ("RuntimeError: Cannot re-initialize diopi in forked subprocess. To use diopi with "
                       "multiprocessing, you must use the 'spawn' start method"), got
        assert in_child(lambda: str(torch.ones(2).sum().item())) == "2.0"        # the CPU is fine in the child
        # A tensor the child inherited is refused too, by every way of using it (a kernel, an in-place kernel,
        # a copy to the host, a view's kernel), as a CUDA kernel on an inherited tensor fails in the child.
        for use in (lambda: x + 1, lambda: x.add_(1), lambda: x.cpu(), lambda: x[1:].sum().item()):
            got = in_child(lambda: str(use()))
            assert got.startswith("RuntimeError: Cannot re-initialize diopi in forked subprocess. To use diopi with "
                                  "multiprocessing, you must use the 'spawn' start method"), got
            assert "inherited" in got and "frame #" not in got, got
        assert in_child(lambda: str(x.shape)) == "torch.Size([3])"  # metadata is the host's: no device use
        assert not torch.diopi._is_in_bad_fork() and (x + 1).cpu().tolist() == [2., 2., 2.]
        # DataLoader workers (forked) that do not touch the device keep working
        data = torch.utils.data.TensorDataset(torch.arange(8.))
        got = [b.to("diopi").sum().item() for (b,) in torch.utils.data.DataLoader(data, batch_size=4, num_workers=2)]
        assert got == [6.0, 22.0], got
        print("ok")
    """)


def test_dynamo_has_an_interface_for_the_device_as_for_cuda():
    run("""
        import sys
        assert "torch._dynamo" not in sys.modules          # loading the device did not import Dynamo
        from torch._dynamo.device_interface import get_interface_for_device, get_registered_device_interfaces
        itf = get_interface_for_device("diopi")
        assert get_interface_for_device("diopi:1") is itf and get_interface_for_device(torch.device("diopi")) is itf
        assert ("diopi", itf) in list(get_registered_device_interfaces())
        assert itf.device_count() == 2 and itf.is_available() and itf.current_device() == 0
        s = itf.Stream(device="diopi")
        assert isinstance(s, torch.Stream) and s.device.type == "diopi"
        with itf.device(1):
            assert itf.current_device() == 1
        assert itf.exchange_device(1) == 0 and itf.current_device() == 1 and itf.exchange_device(0) == 1
        assert itf.get_raw_stream(0) == itf.current_stream().native_handle
        assert itf.get_device_properties(0).total_memory > 0 and itf.Worker.get_device_properties(0).name
        # compiled code using the device's streams and events is traced
        @torch.compile(backend="eager", fullgraph=True)
        def f(x):
            e = torch.Event(device="diopi")
            y = x * 2
            e.record()
            e.synchronize()
            return y + 1
        x = torch.arange(4., device="diopi")
        assert f(x).cpu().tolist() == [1., 3., 5., 7.]
        print("ok")
    """, DIOPI_HOST_DEVICES="2")


def test_the_classic_profiler_times_the_device():
    proc = run("""
        import time, warnings
        m = torch.nn.Linear(64, 64).to("diopi"); x = torch.randn(32, 64, device="diopi")
        m(x)
        t0 = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught, torch.autograd.profiler.profile(use_device="diopi") as prof:
            for _ in range(20):
                m(x).sum().backward()
        wall_us = (time.perf_counter() - t0) * 1e6
        assert not [w for w in caught if "not enabled" in str(w.message)], [str(w.message) for w in caught]
        def nested(e):  # impl/torch computes with ATen, whose own aten::addmm is an event inside the device's
            p = e.cpu_parent
            while p is not None:
                if p.name == "aten::addmm":
                    return True
                p = p.cpu_parent
            return False
        events = [e for e in prof.function_events if e.name == "aten::addmm" and not nested(e)]
        assert len(events) == 20, len(events)
        times = [e.device_time for e in events]
        # each a real duration: not negative, and together not longer than the whole profiled loop
        assert all(0 <= t for t in times) and 0 < sum(times) <= wall_us, (times, wall_us)
        total = {a.key: a for a in prof.key_averages()}["aten::addmm"]
        assert total.device_time_total >= sum(times) > 0, total.device_time_total
        print("ok")
    """)
    assert "used in profiler but not enabled" not in proc.stderr, proc.stderr[-2000:]


def test_errors_are_worded_as_pytorch_words_them():
    run("""
        x, t = torch.rand(3, device="diopi"), torch.rand(3, device="diopi")
        try:
            with torch.autocast("diopi", dtype=torch.bfloat16):
                torch.nn.functional.binary_cross_entropy(x, t)
            raise AssertionError("binary_cross_entropy under autocast must be refused, as on CUDA")
        except RuntimeError as e:
            assert str(e).startswith("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast."), e
            assert "binary_cross_entropy_with_logits and BCEWithLogits are\\nsafe to autocast." in str(e), e
        print("ok")
    """)
