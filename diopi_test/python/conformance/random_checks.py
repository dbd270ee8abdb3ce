"""Property checks for random operators (numpy only).

Random outputs have no value baseline. A random case records, at gen_data
time, a list of checks as plain data; run_test applies them to what the
library produced. Statistical bounds are wide (6 sigma) so that a correct
library fails with negligible probability, while a wrong distribution
(shifted mean, wrong scale, wrong support) on a large sample does not pass.
Every random case is also run twice with the same seed and must give
identical bytes.
"""
import numpy as np

from . import dtypes

SIGMAS = 6.0


def _values(produced):
    arr, dtype = produced
    return dtypes.to_values(arr, dtype).astype(np.float64), dtype


def _mean_bound(std, n):
    return SIGMAS * std / np.sqrt(max(n, 1))


def check_range(out, lo, hi, hi_inclusive=False, **_):
    x, _ = _values(out)
    bad = (x < lo) | ((x > hi) if hi_inclusive else (x >= hi))
    if bad.any():
        return f"{int(bad.sum())} values outside [{lo}, {hi}{']' if hi_inclusive else ')'}: e.g. {x[bad].flat[0]!r}"
    return None


def check_moments(out, mean, std, **_):
    """Sample mean and std against the distribution's (for n large)."""
    x, _ = _values(out)
    n = x.size
    if n < 2:
        return None
    m, s = float(x.mean()), float(x.std())
    if abs(m - mean) > _mean_bound(std, n) + 1e-6 * abs(mean):
        return f"sample mean {m:.5g} too far from {mean:.5g} (n={n})"
    # std of the sample std is about std / sqrt(2n) for near-normal data; allow more for others
    if abs(s - std) > SIGMAS * std * np.sqrt(2.0 / n) * 1.5 + 1e-6:
        return f"sample std {s:.5g} too far from {std:.5g} (n={n})"
    return None


def check_standardized(out, mean, std, **_):
    """(out - mean) / std must look standard normal (tensor mean/std)."""
    x, _ = _values(out)
    mu = np.broadcast_to(_values(mean)[0] if isinstance(mean, tuple) else np.float64(mean), x.shape)
    sd = np.broadcast_to(_values(std)[0] if isinstance(std, tuple) else np.float64(std), x.shape)
    ok = sd > 0
    if not np.array_equal(x[~ok], mu[~ok]):
        return "where std is 0 the output must equal the mean"
    z = (x[ok] - mu[ok]) / sd[ok]
    return check_moments((z, "float64"), 0.0, 1.0)


def check_values_in(out, values, **_):
    x, _ = _values(out)
    bad = ~np.isin(x, np.asarray(values, dtype=np.float64))
    if bad.any():
        return f"{int(bad.sum())} values not in {values}: e.g. {x[bad].flat[0]!r}"
    return None


def check_bernoulli(out, p, **_):
    """Values in {0, 1} with frequency matching p (scalar or tensor)."""
    msg = check_values_in(out, [0, 1])
    if msg:
        return msg
    x, _ = _values(out)
    probs = np.broadcast_to(_values(p)[0] if isinstance(p, tuple) else np.float64(p), x.shape)
    if np.any((probs == 0) & (x == 1)) or np.any((probs == 1) & (x == 0)):
        return "drew 1 where p is 0, or 0 where p is 1"
    n = x.size
    expected = probs.sum()
    sd = np.sqrt(max((probs * (1 - probs)).sum(), 1e-12))
    if abs(x.sum() - expected) > SIGMAS * sd + 1e-9 and n > 0:
        return f"{int(x.sum())} ones where about {expected:.1f} were expected (n={n})"
    return None


def check_permutation(out, n, **_):
    x, _ = _values(out)
    if x.shape != (n,) or not np.array_equal(np.sort(x), np.arange(n)):
        return f"not a permutation of 0..{n - 1}"
    return None


def check_dropout(out, input, p, mask=None, **_):
    """out is input scaled by 1/(1-p) where kept and 0 where dropped; the
    dropped fraction matches p."""
    x, dtype = _values(out)
    inp, _ = _values(input)
    if p >= 1.0:
        return None if not x.any() else "p = 1 must zero every element"
    kept = x != 0
    if mask is not None:
        m, _ = _values(mask)
        if not np.isin(m, [0, 1]).all():
            return "mask holds values other than 0 and 1"
        if np.any((m == 0) & kept):
            return "an element the mask drops is non-zero in out"
        kept = m == 1
    atol, rtol = {"float16": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2)}.get(dtype, (1e-6, 1e-5))
    want = np.where(kept, inp / (1.0 - p), 0.0)
    if not np.allclose(x, want, atol=atol, rtol=rtol):
        return "kept elements are not input / (1 - p)"
    n = x.size
    dropped = n - int(kept.sum())
    if n and abs(dropped - p * n) > SIGMAS * np.sqrt(n * p * (1 - p)) + 1:
        return f"dropped {dropped} of {n} elements, expected about {p * n:.0f}"
    return None


def check_multinomial(out, input, replacement, **_):
    idx, _ = _values(out)
    probs, _ = _values(input)
    probs2 = probs.reshape(-1, probs.shape[-1])
    idx2 = idx.reshape(probs2.shape[0], -1).astype(np.int64)
    if (idx2 < 0).any() or (idx2 >= probs2.shape[1]).any():
        return "sampled an index outside the categories"
    for row, p in zip(idx2, probs2):
        if (p[row] <= 0).any():
            return "sampled a category of probability 0"
        if not replacement and len(set(row.tolist())) != len(row):
            return "sampled a category twice without replacement"
    return None


CHECKS = {
    "range": check_range,
    "moments": check_moments,
    "standardized": check_standardized,
    "values_in": check_values_in,
    "bernoulli": check_bernoulli,
    "permutation": check_permutation,
    "dropout": check_dropout,
    "multinomial": check_multinomial,
}


def run(checks, produced, inputs):
    """Applies `checks` (list of dicts: check, output, and arguments). A string
    argument "$out:NAME" stands for what the library wrote to NAME, "$in:NAME"
    for the value the case passed in. Returns the problems found."""
    problems = []
    for c in checks:
        fn = CHECKS.get(c.get("check"))
        if fn is None:
            problems.append(f"unknown random check {c.get('check')!r}")
            continue
        kwargs = {}
        for k, v in c.items():
            if k in ("check", "output"):
                continue
            if isinstance(v, str) and v.startswith(("$out:", "$in:")):
                where, name = v[1:].split(":", 1)
                v = (produced if where == "out" else inputs).get(name)
                if v is None:
                    problems.append(f"random check {c['check']}: no {where}put named {name}")
                    break
            kwargs[k] = v
        else:
            out = produced.get(c["output"])
            if out is None:
                problems.append(f"{c['output']}: no output to check")
                continue
            msg = fn(out, **kwargs)
            if msg:
                problems.append(f"{c['output']}: {c['check']}: {msg}")
    return problems
