"""Baseline safety: altered, truncated, foreign or code-carrying baselines
are refused before anything in them runs; regeneration is deterministic and
keeps other functions' baselines."""
import os
import pickle

import numpy as np
import pytest

from conformance import store
from support import save_cases


def _make(tmp_path, func="diopiAdd", n=3):
    cases = [{"name": f"c{i}", "inputs": {"input": store.encode_array(np.arange(4, dtype=np.float32) + i, "float32")},
              "outputs": {}} for i in range(n)]
    return os.path.join(str(tmp_path), save_cases(tmp_path, func, cases)["path"])


def test_round_trip(tmp_path):
    _make(tmp_path)
    cases = store.load_function(str(tmp_path), "diopiAdd")
    arr, dtype = store.decode_array(cases[1]["inputs"]["input"])
    assert dtype == "float32" and arr.tolist() == [1, 2, 3, 4]


def test_flipped_byte_is_refused(tmp_path):
    path = _make(tmp_path)
    blob = bytearray(open(path, "rb").read())
    blob[len(blob) // 2] ^= 0x01
    open(path, "wb").write(bytes(blob))
    with pytest.raises(store.BaselineError, match="does not match the sha256"):
        store.load_function(str(tmp_path), "diopiAdd")


def test_truncated_file_is_refused(tmp_path):
    path = _make(tmp_path)
    blob = open(path, "rb").read()
    open(path, "wb").write(blob[: len(blob) // 3])
    with pytest.raises(store.BaselineError, match="sha256"):
        store.load_function(str(tmp_path), "diopiAdd")


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


def test_code_carrying_pickle_is_refused_even_with_a_matching_hash(tmp_path, monkeypatch):
    """An attacker who also rewrites the manifest still cannot run code."""
    monkeypatch.chdir(tmp_path)
    blob = pickle.dumps({"schema": store.SCHEMA, "func": "diopiAdd", "cases": [_Evil()]})
    os.makedirs(tmp_path / "cases")
    (tmp_path / "cases" / "diopiAdd.pkl").write_bytes(blob)
    store.update_manifest(str(tmp_path), {"diopiAdd": {"path": "cases/diopiAdd.pkl", "sha256": store.sha256(blob), "cases": 0,
                                                      "bytes": len(blob), "index": []}}, {})
    with pytest.raises(store.BaselineError, match="only plain data"):
        store.load_function(str(tmp_path), "diopiAdd")
    assert not (tmp_path / "PWNED").exists()


def test_foreign_pickle_of_plain_data_is_refused(tmp_path):
    blob = pickle.dumps({"hello": "world"})
    os.makedirs(tmp_path / "cases")
    (tmp_path / "cases" / "diopiAdd.pkl").write_bytes(blob)
    store.update_manifest(str(tmp_path), {"diopiAdd": {"path": "cases/diopiAdd.pkl", "sha256": store.sha256(blob), "cases": 0,
                                                      "bytes": len(blob), "index": []}}, {})
    with pytest.raises(store.BaselineError, match="is not a"):
        store.load_function(str(tmp_path), "diopiAdd")


def test_unlisted_function_and_missing_manifest_are_refused(tmp_path):
    with pytest.raises(store.BaselineError, match="gen_data"):
        store.read_manifest(str(tmp_path))
    _make(tmp_path)
    with pytest.raises(store.BaselineError, match="not listed"):
        store.load_function(str(tmp_path), "diopiSub")


def test_array_payload_must_match_its_shape(tmp_path):
    enc = store.encode_array(np.zeros(4, dtype=np.float32), "float32")
    enc["shape"] = [5]
    with pytest.raises(store.BaselineError, match="payload"):
        store.decode_array(enc)


def test_regenerating_one_function_keeps_the_others(tmp_path):
    _make(tmp_path, "diopiAdd")
    _make(tmp_path, "diopiSub")
    _make(tmp_path, "diopiAdd", n=5)
    man = store.read_manifest(str(tmp_path))
    assert set(man["files"]) == {"diopiAdd", "diopiSub"}
    assert len(store.load_function(str(tmp_path), "diopiAdd")) == 5
    assert len(store.load_function(str(tmp_path), "diopiSub")) == 3
