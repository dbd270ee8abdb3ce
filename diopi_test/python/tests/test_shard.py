"""--shard K/N: parsing, the partition it cuts, and one-line usage errors
(no baselines or library needed)."""
import pytest

from support import run_main

from conformance import shard


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_shards_are_disjoint_and_cover_the_selection(n):
    selection = [f"case{i}" for i in range(20)]
    parts = [shard.take(selection, k, n) for k in range(1, n + 1)]
    assert sorted(x for p in parts for x in p) == sorted(selection)
    assert sum(len(p) for p in parts) == len(selection)  # no case in two shards
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert shard.take(selection, 1, n) == shard.take(list(selection), 1, n)  # deterministic


def test_parse_accepts_k_of_n():
    assert shard.parse("2/4") == (2, 4)
    assert shard.parse(" 1 / 1 ") == (1, 1)


@pytest.mark.parametrize("value,hint", [
    ("0/2", "did you mean --shard 1/2?"), ("3/2", "1 <= K <= N"), ("2-4", "did you mean --shard 2/4?"),
    ("two", "expects K/N"), ("1/0", "1 <= K <= N"), ("", "expects K/N"),
])
def test_bad_shard_values_are_one_line_usage_errors(tmp_path, value, hint):
    with pytest.raises(shard.ShardError, match=hint.replace("?", r"\?")):
        shard.parse(value)
    r = run_main("--mode", "run_test", "--shard", value, "--data_dir", str(tmp_path / "data"), "--report_dir", str(tmp_path / "rep"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("error: --shard") and r.stderr.count("\n") == 1 and hint in r.stderr, r.stderr
    assert not (tmp_path / "rep").exists()


def test_shard_is_refused_outside_run_test():
    r = run_main("--mode", "coverage", "--shard", "1/2")
    assert r.returncode == 2 and r.stderr.startswith("error: --shard applies to --mode run_test"), r.stderr


@pytest.mark.parametrize("args,hint", [
    (["--mode", "merg"], "did you mean 'merge'?"),
    (["--mode", "run_test", "--shards", "1/2"], "did you mean --shard?"),
    (["--mode", "run_test", "stray"], "only --mode merge takes report directories"),
    (["--mode", "merge"], "needs the shards' report directories"),
    # A bad timeout or worker count stops before any case runs (-1 used to start a full run).
    (["--mode", "run_test", "--timeout", "-1"], "must be a positive, finite number of seconds"),
    (["--mode", "run_test", "--timeout", "inf"], "must be a positive, finite number of seconds"),
    (["--mode", "run_test", "--timeout", "soon"], "must be a number of seconds"),
    (["--mode", "run_test", "--jobs", "0"], "must be at least 1"),
    (["--mode", "run_test", "--jobs", "two"], "must be a whole number"),
])
def test_usage_errors_are_one_line_with_a_hint(args, hint):
    r = run_main(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1 and hint in r.stderr, r.stderr
