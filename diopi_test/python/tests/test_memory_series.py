"""How run_test tells a leak from memory that is only held: the memory
series of conformance/runner.py (resident bytes after each replay of one
case) on series shaped like the ones real libraries give."""
import random

from conformance import runner

MIB = 1 << 20
N = runner.MEMORY_WARMUP + runner.MEMORY_REPEATS + runner.MEMORY_CONFIRM


def _series(resident_mib, calls_per_replay=1):
    return [(int(r * MIB), (i + 1) * calls_per_replay) for i, r in enumerate(resident_mib)]


def _noisy(values, seed=0, pages=8):
    rng = random.Random(seed)  # the allocator and the harness's own objects move a few pages either way
    return [v + rng.randint(-pages, pages) * 4096 / MIB for v in values]


def test_a_leak_of_one_mib_per_call_is_charged_with_its_slope():
    res = runner.memory_verdict(_series(_noisy([100 + i for i in range(N)])))
    assert res["verdict"] == "memory_growth"
    assert 0.95 * MIB < res["slope_bytes_per_call"] < 1.05 * MIB
    assert "grows by about 1.0 MiB per call" in res["message"]


def test_the_slope_is_per_library_call():
    # run_case may call the library twice per replay (a second sentinel): 2 MiB per replay is 1 MiB per call
    res = runner.memory_verdict(_series(_noisy([100 + 2 * i for i in range(N)]), calls_per_replay=2))
    assert res and 0.95 * MIB < res["slope_bytes_per_call"] < 1.05 * MIB


def test_memory_allocated_once_and_kept_is_no_leak():
    assert runner.memory_verdict(_series(_noisy([36] + [100] * (N - 1)))) is None
    assert not runner.memory_grows(_series(_noisy([36] + [100] * (N - 1)))[:runner.MEMORY_WARMUP + runner.MEMORY_REPEATS])


def test_a_heap_that_fragments_and_levels_off_is_no_leak():
    # masked_select's data-dependent outputs on impl/torch: quick growth over the first replays, then a plateau
    levels = [188, 196, 204, 212, 219, 225, 230, 233, 233, 233, 235, 236, 240, 240, 240, 241, 241, 241, 241, 242, 242, 242,
              242, 242, 242, 242]
    assert runner.memory_grows(_series(levels[:runner.MEMORY_WARMUP + runner.MEMORY_REPEATS]))  # looks like one at first
    assert runner.memory_verdict(_series(levels[:N])) is None


def test_a_slow_leak_below_the_threshold_is_not_charged():
    per_call = runner.MEMORY_SLOPE / MIB / 2
    assert runner.memory_verdict(_series(_noisy([100 + per_call * i for i in range(N)], pages=1))) is None


def test_a_series_cut_short_is_no_verdict():
    assert runner.memory_verdict(_series([100 + i for i in range(4)])) is None
    assert runner.memory_verdict([]) is None
