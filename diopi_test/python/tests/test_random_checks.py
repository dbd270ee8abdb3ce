"""Property checks for random operators accept good samples and reject bad ones."""
import numpy as np

from conformance import random_checks as rc

RNG = np.random.default_rng(0)
N = 200_000


def f32(x):
    return (np.asarray(x, dtype=np.float32), "float32")


def test_uniform_range_and_moments():
    x = f32(RNG.uniform(-2, 3, N))
    assert rc.check_range(x, -2, 3) is None
    assert rc.check_moments(x, 0.5, 5 / np.sqrt(12)) is None
    assert rc.check_range(f32([3.0]), -2, 3) is not None          # upper bound excluded
    assert rc.check_moments(f32(RNG.uniform(-2, 3.2, N)), 0.5, 5 / np.sqrt(12)) is not None  # shifted


def test_normal_moments_catch_wrong_scale():
    assert rc.check_moments(f32(RNG.normal(3, 0.5, N)), 3, 0.5) is None
    assert rc.check_moments(f32(RNG.normal(3, 0.55, N)), 3, 0.5) is not None
    assert rc.check_moments(f32(RNG.normal(3.02, 0.5, N)), 3, 0.5) is not None


def test_standardized_with_tensor_parameters():
    mean = RNG.normal(0, 3, N)
    std = RNG.uniform(0.5, 2, N)
    good = f32(mean + std * RNG.normal(0, 1, N))
    assert rc.check_standardized(good, f32(mean), f32(std)) is None
    bad = f32(mean + 1.2 * std * RNG.normal(0, 1, N))
    assert rc.check_standardized(bad, f32(mean), f32(std)) is not None


def test_bernoulli_frequency_and_support():
    p = RNG.uniform(0, 1, N)
    assert rc.check_bernoulli(f32(RNG.random(N) < p), f32(p)) is None
    assert rc.check_bernoulli(f32(RNG.random(N) < 0.3), 0.3) is None
    assert rc.check_bernoulli(f32(RNG.random(N) < 0.32), 0.3) is not None
    assert rc.check_bernoulli(f32([0.5]), 0.3) is not None
    assert rc.check_bernoulli(f32([1.0]), 0.0) is not None


def test_permutation():
    assert rc.check_permutation((RNG.permutation(100), "int64"), 100) is None
    assert rc.check_permutation((np.array([0, 1, 1, 3]), "int64"), 4) is not None


def test_dropout_scaling_mask_and_rate():
    x = RNG.uniform(0.5, 2, N).astype(np.float32)
    keep = RNG.random(N) >= 0.3
    out = np.where(keep, x / 0.7, 0).astype(np.float32)
    assert rc.check_dropout(f32(out), f32(x), 0.3, (keep, "bool")) is None
    assert rc.check_dropout(f32(np.where(keep, x, 0)), f32(x), 0.3, (keep, "bool")) is not None   # unscaled
    keep2 = RNG.random(N) >= 0.4
    assert rc.check_dropout(f32(np.where(keep2, x / 0.7, 0)), f32(x), 0.3, (keep2, "bool")) is not None  # wrong rate
    assert rc.check_dropout(f32(out), f32(x), 0.3, (~keep, "bool")) is not None  # mask disagrees


def test_multinomial():
    probs = np.array([[0.0, 0.5, 0.5, 0.0]])
    assert rc.check_multinomial((np.array([[1, 2]]), "int64"), f32(probs), False) is None
    assert rc.check_multinomial((np.array([[1, 1]]), "int64"), f32(probs), False) is not None
    assert rc.check_multinomial((np.array([[0, 1]]), "int64"), f32(probs), True) is not None


def test_run_resolves_named_arguments():
    produced = {"out": f32([0.0, 1.0])}
    inputs = {"input": f32([0.5, 0.5])}
    assert rc.run([{"check": "bernoulli", "output": "out", "p": "$in:input"}], produced, inputs) == []
    problems = rc.run([{"check": "bernoulli", "output": "out", "p": "$in:nothing"}], produced, inputs)
    assert problems and "no input named nothing" in problems[0]
