"""Splitting one run_test selection over N machines or jobs (`--shard K/N`).

A shard is every N-th case of the selection in its fixed order (functions
sorted by name, then the baseline's case order, then layout), starting at
the K-th. The order depends only on the baselines and the options, so N
shards run anywhere with the same arguments are disjoint and together are
the unsharded selection; round robin also spreads each function's cases,
and so its cost, evenly. The library's own checks (`library::...` rows)
are per library, not per case: shard 1 runs them.

Each shard records a digest of the whole selection, so that `--mode merge`
can refuse shards of different selections, baselines or device configs.
"""
import hashlib
import json
import re

_SPEC = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")
_OTHER_SEP = re.compile(r"\s*(\d+)\s*(?:[-:,.\\]|of|\s)\s*(\d+)\s*")  # 2-4, 2:4, 2 of 4


class ShardError(ValueError):
    pass


def parse(spec):
    """'K/N' -> (K, N) with 1 <= K <= N."""
    m = _SPEC.fullmatch(spec or "")
    if not m:
        other = _OTHER_SEP.fullmatch(spec or "")
        hint = f"; did you mean --shard {other.group(1)}/{other.group(2)}?" if other else ""
        raise ShardError(f"--shard expects K/N, e.g. 2/4 for the second of four shards, got {spec!r}{hint}")
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1 or not 1 <= k <= n:
        hint = f"; shards count from 1: did you mean --shard 1/{n}?" if k == 0 and n >= 1 else ""
        raise ShardError(f"--shard {spec.strip()}: needs 1 <= K <= N{hint}")
    return k, n


def take(selection, k, n):
    """The K-th of N shards of `selection` (a list in the run's fixed order)."""
    return [x for i, x in enumerate(selection) if i % n == k - 1]


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def selection_digest(keys, baselines, settings):
    """What must agree between shards of one run: the selected cases
    (case::layout, in order), the sha256 of each function's baseline file,
    and settings that change verdicts (device config digest, timeout)."""
    blob = json.dumps({"cases": list(keys), "baselines": baselines, "settings": settings}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()
