"""Baseline files and their manifest.

One pickle per C function (`<data>/cases/<func>.pkl`) holds all its cases.
Arrays are stored as plain values (dtype name, shape, raw bytes), so a
baseline contains only builtins: the loader admits no global at all, and a
pickle that tries to import or call anything is refused before it runs.
Every file is listed in `<data>/manifest.json` with its sha256; a file
whose hash differs, or that the manifest does not list, is refused.
Large generated inputs may be stored as a draw recipe plus digest and
regenerated on load (conformance/regen.py).

The manifest is read before any pickle, so everything in it is checked on
load: its shape (types, keys), each function's case index against the
index_sha256 recorded beside it, sizes against MAX_BYTES, and file paths,
which must stay inside the data folder.

A function is committed as a whole: its pickle goes to a new file named by
its content, then the manifest is atomically replaced by one that points to
it, then the file it replaces is removed. A writer killed at any moment
leaves a manifest that lists only complete files (at worst an unlisted
orphan, swept by the next gen_data).
"""
import hashlib
import io
import json
import os
import pickle
import re
import tempfile
import time

import numpy as np

from . import dtypes, regen, spec

SCHEMA = "diopi-conformance-baseline/1"
MANIFEST = "manifest.json"
CASES_DIR = "cases"


# No single array, case or baseline file is larger than this: a bigger
# number in a manifest or a record is a corrupt or hostile one, refused
# before anything is allocated for it.
MAX_BYTES = 1 << 34
MAX_RANK = 64
LAYOUTS = tuple(spec.LAYOUTS) + ("captured",)
_FUNC_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class BaselineError(Exception):
    """A baseline that must not be used: missing, altered, foreign or corrupt."""


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def checked_shape(shape, what="array"):
    """A shape as a tuple of ints, refused when malformed or beyond MAX_BYTES
    elements (so any element size times it is checked by the caller)."""
    if not isinstance(shape, (list, tuple)) or len(shape) > MAX_RANK or not all(_is_int(d) and d >= 0 for d in shape):
        raise BaselineError(f"{what} has a malformed shape {str(shape)[:80]}")
    n = 1
    for d in shape:
        n *= d
        if n > MAX_BYTES:
            raise BaselineError(f"{what} of shape {list(shape)} exceeds the size limit of {MAX_BYTES} bytes")
    return tuple(shape)


def _checked_nbytes(shape, dtype, what="array"):
    n = 1
    for d in checked_shape(shape, what):
        n *= d
    nbytes = n * dtypes.storage(dtype).itemsize
    if nbytes > MAX_BYTES:
        raise BaselineError(f"{what} of shape {list(shape)} ({dtype}) exceeds the size limit of {MAX_BYTES} bytes")
    return nbytes


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
    shape = value.get("shape")
    _checked_nbytes(shape, dtype)
    return tuple(shape), dtype


def is_spec(value):
    return isinstance(value, dict) and "__nd__" in value and value.get("data") is None


def is_encoded_array(value):
    return isinstance(value, dict) and "__nd__" in value


def decode_array(value):
    dtype = value["__nd__"]
    if dtype not in dtypes.NAMES:
        raise BaselineError(f"unknown dtype {dtype!r} in baseline")
    shape = value.get("shape")
    nbytes = _checked_nbytes(shape, dtype)
    shape = tuple(shape)
    data = value["data"]
    st = dtypes.storage(dtype)
    if not isinstance(data, bytes) or len(data) != nbytes:
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
def index_digest(index):
    """sha256 of a function's case index (canonical JSON): the rows run_test
    selects cases from before any pickle is read."""
    return sha256(json.dumps(index, separators=(",", ":"), sort_keys=True).encode())


def _inside(data_dir, rel, func):
    """The absolute path of `rel`, refused unless it names a file inside
    `data_dir` (no absolute paths, no "..", no symlink leading out)."""
    if not isinstance(rel, str) or not rel or "\0" in rel or os.path.isabs(rel) or "\\" in rel:
        raise BaselineError(f"{func}: manifest path {rel!r} is not a relative path inside the data folder")
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise BaselineError(f"{func}: manifest path {rel!r} leaves the data folder or is not normalized")
    root = os.path.realpath(data_dir)
    path = os.path.realpath(os.path.join(root, rel))
    if os.path.commonpath([root, path]) != root or path == root:
        raise BaselineError(f"{func}: manifest path {rel!r} resolves outside {data_dir}")
    return path


def _check_entry(data_dir, func, rec):
    """Refuses a manifest file record that is not what gen_data writes."""
    if not isinstance(func, str) or not _FUNC_NAME.fullmatch(func):
        raise BaselineError(f"manifest lists a function with a malformed name {str(func)[:80]!r}")
    if not isinstance(rec, dict):
        raise BaselineError(f"{func}: manifest record is a {type(rec).__name__}, not an object")
    for key, kind in (("path", str), ("sha256", str), ("cases", int), ("bytes", int), ("index", list), ("index_sha256", str)):
        if key not in rec:
            raise BaselineError(f"{func}: manifest record has no {key!r}")
        if not isinstance(rec[key], kind) or isinstance(rec[key], bool):
            raise BaselineError(f"{func}: manifest {key!r} is a {type(rec[key]).__name__}, expected {kind.__name__}")
    _inside(data_dir, rec["path"], func)
    if not _SHA256.fullmatch(rec["sha256"]):
        raise BaselineError(f"{func}: manifest sha256 is not a sha256 digest")
    if not 0 <= rec["bytes"] <= MAX_BYTES or not 0 <= rec["cases"] <= MAX_BYTES:
        raise BaselineError(f"{func}: manifest sizes out of range (bytes {rec['bytes']}, cases {rec['cases']})")
    index = rec["index"]
    if index_digest(index) != rec["index_sha256"]:
        raise BaselineError(f"{func}: case index in {MANIFEST} does not match its index_sha256 (modified); regenerate it")
    if len(index) != rec["cases"]:
        raise BaselineError(f"{func}: manifest index has {len(index)} rows for {rec['cases']} cases")
    for row in index:
        # name, dtype, layouts, bytes of case data[, seconds the reference took]
        if not (isinstance(row, list) and len(row) in (4, 5) and isinstance(row[0], str) and row[1] in dtypes.NAMES
                and isinstance(row[2], list) and all(lay in LAYOUTS for lay in row[2])
                and _is_int(row[3]) and 0 <= row[3] <= MAX_BYTES
                and (len(row) == 4 or (isinstance(row[4], (int, float)) and not isinstance(row[4], bool)
                                       and 0 <= row[4] < 1e6))):
            raise BaselineError(f"{func}: malformed case index row {str(row)[:120]} in {MANIFEST}")


def read_manifest(data_dir):
    """The manifest, checked whole: a malformed or altered one is refused
    with a BaselineError naming the problem."""
    path = os.path.join(data_dir, MANIFEST)
    if not os.path.exists(path):
        raise BaselineError(f"no baselines in {data_dir} (missing {MANIFEST}); run --mode gen_data first")
    try:
        with open(path, "rb") as f:
            man = json.loads(f.read())
    except OSError as e:
        raise BaselineError(f"cannot read {path}: {e.strerror}") from None
    except ValueError as e:  # bad JSON or bad UTF-8
        raise BaselineError(f"{path} is not valid JSON: {e}") from None
    if not isinstance(man, dict):
        raise BaselineError(f"{path} is a JSON {type(man).__name__}, not a {SCHEMA} manifest")
    if man.get("schema") != SCHEMA:
        raise BaselineError(f"{path} has schema {str(man.get('schema'))[:80]!r}, expected {SCHEMA!r}")
    files = man.get("files")
    if not isinstance(files, dict):
        raise BaselineError(f"{path}: 'files' is missing or not an object")
    try:
        for func, rec in files.items():
            _check_entry(data_dir, func, rec)
    except BaselineError as e:
        raise BaselineError(f"{path}: {e}") from None
    return man


def _atomic_write(path, blob):
    """Writes `blob` to `path` so that readers see the old file or the whole
    new one, also across a crash (data flushed before the rename)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_function(data_dir, func, cases):
    """Writes one function's cases to a new file named by its content;
    returns (relative path, sha256, bytes). Nothing points to the file until
    the manifest does (update_manifest / commit_function)."""
    if not _FUNC_NAME.fullmatch(func):
        raise ValueError(f"cannot store baselines of {func!r}: not a C function name")
    payload = {"schema": SCHEMA, "func": func, "cases": cases}
    blob = pickle.dumps(payload, protocol=4)
    digest = sha256(blob)
    rel = f"{CASES_DIR}/{func}-{digest[:16]}.pkl"
    _atomic_write(os.path.join(data_dir, rel), blob)
    return rel, digest, len(blob)


def _read_for_update(data_dir):
    path = os.path.join(data_dir, MANIFEST)
    if os.path.exists(path):
        try:
            return read_manifest(data_dir)
        except BaselineError:
            pass  # rewritten from what this run writes
    return {"schema": SCHEMA, "files": {}}


def update_manifest(data_dir, entries, info):
    """Merges `entries` (func -> file record) into the manifest, keeping the
    records of functions not regenerated this time; records each entry's
    index_sha256. Returns the manifest and the paths it no longer lists."""
    man = _read_for_update(data_dir)
    before = {rec["path"] for rec in man.get("files", {}).values()}
    man.update(info)
    man["schema"] = SCHEMA
    man["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for func, rec in entries.items():
        rec = dict(rec, index_sha256=index_digest(rec["index"]))
        _check_entry(data_dir, func, rec)  # never write what read_manifest would refuse
        man.setdefault("files", {})[func] = rec
    _atomic_write(os.path.join(data_dir, MANIFEST), json.dumps(man, indent=1, sort_keys=True).encode())
    return man, before - {rec["path"] for rec in man["files"].values()}


def commit_function(data_dir, func, cases, entry, info, batch=None):
    """Stores one function: its file, then the manifest pointing to it, then
    removes the file it replaced. `entry` holds the record's other fields
    (index, family, ...). With a `Batch`, the manifest is written by the
    batch (every few seconds and at its end) instead of now: a file the
    manifest does not list yet is unused, and swept if the writer dies.
    Returns the manifest record."""
    rel, digest, size = write_function(data_dir, func, cases)
    rec = dict(entry, path=rel, sha256=digest, bytes=size, cases=len(cases))
    if batch is not None:
        batch.add(func, rec)
        return rec
    _, dropped = update_manifest(data_dir, {func: rec}, info)
    for old in dropped:
        _remove_quietly(os.path.join(data_dir, old))
    return rec


class Batch:
    """Manifest updates of one gen_data run, written at most every
    `interval` seconds (rewriting the whole manifest after each of 400
    functions cost minutes) and on close."""

    def __init__(self, data_dir, info, interval=2.0):
        self.data_dir, self.info, self.interval = data_dir, info, interval
        self.pending, self.last = {}, time.monotonic()

    def add(self, func, rec):
        self.pending[func] = rec
        if time.monotonic() - self.last >= self.interval:
            self.flush()

    def flush(self):
        if self.pending:
            _, dropped = update_manifest(self.data_dir, self.pending, self.info)
            for old in dropped:
                _remove_quietly(os.path.join(self.data_dir, old))
            self.pending = {}
        self.last = time.monotonic()


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def sweep(data_dir):
    """Removes what an interrupted writer left: temporary files and case
    files the manifest does not list. Only for a writer holding the lock."""
    cases_dir = os.path.join(data_dir, CASES_DIR)
    if not os.path.isdir(cases_dir):
        return 0
    man = _read_for_update(data_dir)
    listed = {os.path.normpath(os.path.join(data_dir, rec["path"])) for rec in man["files"].values()}
    removed = 0
    for d in (data_dir, cases_dir):
        for name in os.listdir(d):
            path = os.path.normpath(os.path.join(d, name))
            stray = name.startswith(".tmp-") or (d == cases_dir and name.endswith(".pkl") and path not in listed)
            if stray and os.path.isfile(path):
                _remove_quietly(path)
                removed += 1
    return removed


def _check_record(func, i, rec, row):
    """A loaded case against its manifest index row, and the sizes in it."""
    if row is not None and (rec.get("name"), rec.get("dtype"), rec.get("layouts")) != tuple(row[:3]):
        raise BaselineError(f"case {i} ({str(rec.get('name'))[:80]}) does not match its row in the manifest's index")
    total = 0

    def walk(v):
        nonlocal total
        if is_encoded_array(v):
            dtype = v.get("__nd__")
            if dtype not in dtypes.NAMES:
                raise BaselineError(f"unknown dtype {str(dtype)[:40]!r} in baseline")
            total += _checked_nbytes(v.get("shape"), dtype, f"case {rec.get('name')}: array")
        elif isinstance(v, list):
            for x in v:
                walk(x)
    for part in ("inputs", "outputs"):
        values = rec.get(part)
        if not isinstance(values, dict):
            raise BaselineError(f"case {i}: {part} is not a mapping")
        for v in values.values():
            walk(v)
    recipe = rec.get("regen")
    if recipe is not None:
        regen.check_recipe(recipe)  # types and names
        for name, _, fields, dtype, shape, is_list in recipe:
            if not isinstance(name, str) or not isinstance(is_list, bool):
                raise BaselineError(f"case {rec.get('name')}: malformed input recipe")
            if not all(isinstance(v, int) or np.isfinite(v) for v in fields.values()):
                raise BaselineError(f"case {rec.get('name')}: input recipe has non-finite generator fields")
            for s in (shape if is_list else [shape]):  # the bytes are counted with the input's encoded array
                _checked_nbytes(s, dtype, f"case {rec.get('name')}: recipe for {name}")
    if total > MAX_BYTES:
        raise BaselineError(f"case {rec.get('name')} holds {total} bytes, beyond the size limit of {MAX_BYTES}")


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
    path = _inside(data_dir, rec["path"], func)
    try:
        with open(path, "rb") as f:
            # Asking read() for MAX_BYTES would allocate that much up front
            # (16 GiB: cheap with glibc's lazy mmap, seconds per file when
            # the sanitizer replay preloads ASan into the harness).
            size = os.fstat(f.fileno()).st_size
            if size > MAX_BYTES:
                raise BaselineError(f"{func}: {path} holds {size} bytes, beyond the size limit of {MAX_BYTES}")
            blob = f.read(size + 1)
    except OSError as e:
        raise BaselineError(f"{func}: cannot read {rec['path']}: {e.strerror}") from None
    if sha256(blob) != rec.get("sha256"):
        raise BaselineError(f"{func}: {path} does not match the sha256 in {MANIFEST} (modified or truncated); regenerate it")
    payload = loads(blob)
    if not isinstance(payload, dict) or payload.get("schema") != SCHEMA or payload.get("func") != func:
        raise BaselineError(f"{func}: {path} is not a {SCHEMA} file for {func}")
    cases = payload.get("cases")
    if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
        raise BaselineError(f"{func}: {path} holds no case list")
    index = rec.get("index")
    if index is not None and len(index) != len(cases):
        raise BaselineError(f"{func}: {path} holds {len(cases)} cases, the manifest's index {len(index)}")
    try:
        for i, c in enumerate(cases):
            _check_record(func, i, c, index[i] if index is not None else None)
            if lazy and c.get("regen") is not None:
                regen.check_recipe(c["regen"])
            else:
                regen.expand(c)
    except BaselineError as e:
        raise BaselineError(f"{func}: {path}: {e}") from None
    except (regen.RegenError, KeyError, TypeError, ValueError) as e:
        raise BaselineError(f"{func}: {path}: {e}") from None
    return cases


def total_size(data_dir):
    total = 0
    for root, _, files in os.walk(data_dir):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total
