"""Baseline files and their manifest.

One pickle per C function (`<data>/cases/<func>.pkl`) holds all its cases.
Arrays are stored as plain values (dtype name, shape, raw bytes), so a
baseline contains only builtins: the loader admits no global at all, and a
pickle that tries to import or call anything is refused before it runs.
Every file is listed in `<data>/manifest.json` with its sha256; a file
whose hash differs, or that the manifest does not list, is refused.
Large generated inputs may be stored as a draw recipe plus digest and
regenerated on load (conformance/regen.py).
"""
import hashlib
import io
import json
import os
import pickle
import tempfile
import time

import numpy as np

from . import dtypes, regen

SCHEMA = "diopi-conformance-baseline/1"
MANIFEST = "manifest.json"
CASES_DIR = "cases"


class BaselineError(Exception):
    """A baseline that must not be used: missing, altered, foreign or corrupt."""


# ---------------------------------------------------------------- encoding
def encode_array(array, dtype):
    a = np.asarray(array, order="C")  # keeps 0-d arrays 0-d
    if a.dtype != dtypes.storage(dtype):
        raise TypeError(f"array of numpy dtype {a.dtype} cannot hold {dtype}")
    return {"__nd__": dtype, "shape": list(a.shape), "data": a.tobytes()}


def encode_spec(array, dtype):
    """Shape and dtype only (outputs of random operators carry no values)."""
    return {"__nd__": dtype, "shape": list(np.shape(array)), "data": None}


def array_meta(value):
    """(shape, dtype) of an encoded array or spec."""
    dtype = value["__nd__"]
    if dtype not in dtypes.NAMES:
        raise BaselineError(f"unknown dtype {dtype!r} in baseline")
    return tuple(int(d) for d in value["shape"]), dtype


def is_spec(value):
    return isinstance(value, dict) and "__nd__" in value and value.get("data") is None


def is_encoded_array(value):
    return isinstance(value, dict) and "__nd__" in value


def decode_array(value):
    dtype = value["__nd__"]
    if dtype not in dtypes.NAMES:
        raise BaselineError(f"unknown dtype {dtype!r} in baseline")
    shape = tuple(int(d) for d in value["shape"])
    data = value["data"]
    st = dtypes.storage(dtype)
    if not isinstance(data, bytes) or len(data) != int(np.prod(shape, dtype=np.int64)) * st.itemsize:
        raise BaselineError("array payload does not match its shape")
    return np.frombuffer(data, dtype=st).reshape(shape), dtype


class _DataOnlyUnpickler(pickle.Unpickler):
    """Refuses every global: baselines are made of builtins only."""

    def find_class(self, module, name):
        raise BaselineError(f"baseline refers to {module}.{name}: only plain data is allowed")

    def persistent_load(self, pid):
        raise BaselineError("baseline uses persistent ids: only plain data is allowed")


def loads(blob):
    try:
        return _DataOnlyUnpickler(io.BytesIO(blob)).load()
    except BaselineError:
        raise
    except Exception as e:  # truncated or garbled pickles raise many kinds
        raise BaselineError(f"corrupt baseline: {type(e).__name__}: {e}") from None


def sha256(blob):
    return hashlib.sha256(blob).hexdigest()


# ---------------------------------------------------------------- manifest
def read_manifest(data_dir):
    path = os.path.join(data_dir, MANIFEST)
    if not os.path.exists(path):
        raise BaselineError(f"no baselines in {data_dir} (missing {MANIFEST}); run --mode gen_data first")
    try:
        with open(path) as f:
            man = json.load(f)
    except ValueError as e:
        raise BaselineError(f"{path} is not valid JSON: {e}") from None
    if man.get("schema") != SCHEMA:
        raise BaselineError(f"{path} has schema {man.get('schema')!r}, expected {SCHEMA!r}")
    return man


def _atomic_write(path, blob):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)


def write_function(data_dir, func, cases):
    """Writes one function's cases; returns (relative path, sha256, bytes)."""
    payload = {"schema": SCHEMA, "func": func, "cases": cases}
    blob = pickle.dumps(payload, protocol=4)
    rel = f"{CASES_DIR}/{func}.pkl"
    _atomic_write(os.path.join(data_dir, rel), blob)
    return rel, sha256(blob), len(blob)


def update_manifest(data_dir, entries, info):
    """Merges `entries` (func -> file record) into the manifest, keeping the
    records of functions not regenerated this time."""
    path = os.path.join(data_dir, MANIFEST)
    man = {"schema": SCHEMA, "files": {}}
    if os.path.exists(path):
        try:
            man = read_manifest(data_dir)
        except BaselineError:
            man = {"schema": SCHEMA, "files": {}}
    man.update(info)
    man["schema"] = SCHEMA
    man["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    man.setdefault("files", {}).update(entries)
    _atomic_write(path, json.dumps(man, indent=1, sort_keys=True).encode())
    return man


def load_function(data_dir, func, manifest=None, lazy=False):
    """The verified cases of one function. With `lazy`, inputs stored as
    recipes are only checked for form here, and drawn (and their digests
    checked) by regen.expanded(record) when the case runs: a model's
    function holds GiB of regenerated inputs, which the runner's workers
    need one case at a time."""
    manifest = manifest or read_manifest(data_dir)
    rec = manifest.get("files", {}).get(func)
    if rec is None:
        raise BaselineError(f"{func}: not listed in {MANIFEST}")
    path = os.path.join(data_dir, rec["path"])
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as e:
        raise BaselineError(f"{func}: cannot read {path}: {e.strerror}") from None
    if sha256(blob) != rec.get("sha256"):
        raise BaselineError(f"{func}: {path} does not match the sha256 in {MANIFEST} (modified or truncated); regenerate it")
    payload = loads(blob)
    if not isinstance(payload, dict) or payload.get("schema") != SCHEMA or payload.get("func") != func:
        raise BaselineError(f"{func}: {path} is not a {SCHEMA} file for {func}")
    cases = payload.get("cases")
    if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
        raise BaselineError(f"{func}: {path} holds no case list")
    try:
        for c in cases:
            if lazy and c.get("regen") is not None:
                regen.check_recipe(c["regen"])
            else:
                regen.expand(c)
    except (regen.RegenError, KeyError, TypeError, ValueError) as e:
        raise BaselineError(f"{func}: {path}: {e}") from None
    return cases


def total_size(data_dir):
    total = 0
    for root, _, files in os.walk(data_dir):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total
