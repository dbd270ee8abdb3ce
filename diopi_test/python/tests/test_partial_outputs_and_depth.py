"""Outputs the header defines only in part (a stored `defined` mask limits the
comparison) and tolerances that grow with a composite's depth ("steps")."""
import numpy as np
import pytest

from conformance import checks, compare, store, tolerances


# ---------------------------------------------------------------- defined masks

def _expected(values, mask=None):
    enc = store.encode_array(np.asarray(values, dtype=np.float32), "float32")
    if mask is not None:
        enc["defined"] = store.encode_array(np.asarray(mask, dtype=bool), "bool")
    return enc


def test_undefined_elements_are_not_compared_nor_counted():
    exp = _expected([[1.0, 2.0, -np.inf], [4.0, -np.inf, -np.inf]], [[True, True, False], [True, False, False]])
    padding_garbage = np.array([[1.0, 2.0, 7.0], [4.0, np.nan, 0.0]], dtype=np.float32)
    assert checks.check_output("log_alpha", (padding_garbage, "float32"), exp, {}) == (None, None)

    wrong = np.array([[1.0, 2.5, 7.0], [4.0, 0.0, 0.0]], dtype=np.float32)
    msg, mm = checks.check_output("log_alpha", (wrong, "float32"), exp, {})
    assert mm.count == 1 and mm.total == 3  # out of the 3 defined elements, not 6
    assert mm.first_index == (0, 1) and "defined elements only" in msg


def test_without_a_mask_every_element_counts():
    exp = _expected([[1.0, -np.inf]])
    msg, mm = checks.check_output("x", (np.array([[1.0, 0.0]], dtype=np.float32), "float32"), exp, {})
    assert mm.count == 1 and mm.total == 2 and "defined" not in msg


def test_a_mask_that_does_not_fit_is_a_baseline_error():
    exp = _expected([1.0, 2.0], [True])
    with pytest.raises(store.BaselineError):
        checks.check_output("x", (np.zeros(2, dtype=np.float32), "float32"), exp, {})


def test_compare_exact_path_honours_the_mask():
    a = np.array([1, 9, 3], dtype=np.int64)
    e = np.array([1, 2, 4], dtype=np.int64)
    mm = compare.compare(a, e, "int64", None, np.array([True, False, True]))
    assert mm.count == 1 and mm.total == 2 and mm.first_index == (2,)
    assert compare.compare(a, e, "int64", None, np.array([True, False, False])) is None


# ---------------------------------------------------------------- depth of a composite

def test_steps_grow_both_bounds_with_the_square_root_and_terms_stay_as_they_were():
    atol, rtol = tolerances.DEFAULT["float16"]
    assert tolerances.resolve("float16", None, 64) == pytest.approx((atol * 4, rtol * 2))
    assert tolerances.resolve("float16", None, {"terms": 64}) == pytest.approx((atol * 4, rtol * 2))
    assert tolerances.resolve("float16", None, {"steps": 9}) == pytest.approx((atol * 3, rtol * 3))
    assert tolerances.resolve("float16", None, {"terms": 64, "steps": 4}) == pytest.approx((atol * 8, rtol * 4))
    assert tolerances.resolve("int32", None, {"steps": 9}) is None


def _adadelta_records(dtype):
    pytest.importorskip("torch", reason="the references need torch")
    from conformance import expand, gen_data
    from configs import optimizer_amp
    cases = expand.expand([("optimizer_amp", optimizer_amp.adadelta)], dtypes=[dtype])
    return [(c, gen_data.run_case(c)) for c in cases]


def _adadelta_in_place(dtype, param, grad, square_avg, acc_delta, lr, rho, eps, weight_decay):
    """A correct library that does the step with in-place tensor ops in the storage dtype, as torch.optim does:
    every operation rounds to float16."""
    import torch
    p, g, sq, acc = (torch.from_numpy(np.array(a)).to(dtype) for a in (param, grad, square_avg, acc_delta))
    lr, rho, eps, weight_decay = (float(np.float32(v)) for v in (lr, rho, eps, weight_decay))
    if weight_decay:
        g = g.add(p, alpha=weight_decay)
    sq.mul_(rho).addcmul_(g, g, value=1 - rho)
    std = sq.add(eps).sqrt_()
    delta = acc.add(eps).sqrt_().div_(std).mul_(g)
    acc.mul_(rho).addcmul_(delta, delta, value=1 - rho)
    p.add_(delta, alpha=-lr)
    return {"param": p, "square_avg": sq, "acc_delta": acc}


def test_adadelta_half_tolerance_passes_a_rounding_library_and_fails_one_off_by_one_percent():
    import torch
    records = _adadelta_records("float16")
    assert records
    failed_by_default, caught = 0, 0
    for case, rec in records:
        ins = {k: store.decode_array(v)[0] for k, v in rec["inputs"].items() if store.is_encoded_array(v)}
        if not ins["param"].size:
            continue
        out = _adadelta_in_place(torch.float16, ins["param"], ins["grad"], ins["square_avg"], ins["acc_delta"],
                                 **{k: case.params[k] for k in ("lr", "rho", "eps", "weight_decay")})
        for name, t in out.items():
            got = t.numpy()
            exp = rec["outputs"][name]
            msg, _ = checks.check_output(name, (got, "float16"), exp, rec["tol"], rec["accumulation"])
            assert msg is None, f"{case.name}: {msg}"
            if checks.check_output(name, (got, "float16"), exp, rec["tol"], None)[0]:
                failed_by_default += 1
            # 1% off in the same direction everywhere: a wrong constant, not rounding.
            off = (store.decode_array(exp)[0].astype(np.float32) * 1.01).astype(np.float16)
            if np.abs(store.decode_array(exp)[0].astype(np.float32)).max() > 0.6:
                assert checks.check_output(name, (off, "float16"), exp, rec["tol"], rec["accumulation"])[0], case.name
                caught += 1
    assert caught > 0
    # The depth is needed: the rounding library exceeds the one-rounding defaults somewhere.
    assert failed_by_default > 0
