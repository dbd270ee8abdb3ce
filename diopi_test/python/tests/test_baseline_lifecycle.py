"""Baselines across their life: the manifest is checked whole before any
pickle is read (index digest, sizes, paths), a gen_data killed at any moment
leaves only complete, listed functions, the folder is locked while written,
a refused baseline is exit 3 with one line, and the names users type for
functions, dtypes and devices resolve or get a "did you mean"."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from conformance import expand, lock, store
from support import MAIN, PYTHON_DIR, run_main, save_cases


def _cases(n=3, dtype="float32"):
    return [{"name": f"add::{dtype}::{i}", "dtype": dtype, "layouts": ["contiguous", "noncontig"],
             "inputs": {"input": store.encode_array(np.arange(4, dtype=np.float32) + i, dtype)}, "outputs": {}}
            for i in range(n)]


def _manifest(d):
    return json.loads((d / store.MANIFEST).read_text())


def _write_manifest(d, man):
    (d / store.MANIFEST).write_text(json.dumps(man))


def _one_line_error(r, code):
    assert r.returncode == code, (r.returncode, r.stdout[-1000:], r.stderr[-2000:])
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr + r.stdout


# ------------------------------------------------------------ the index digest
def test_gen_data_style_commit_records_the_index_digest(tmp_path):
    save_cases(tmp_path, "diopiAdd", _cases())
    rec = store.read_manifest(str(tmp_path))["files"]["diopiAdd"]
    assert rec["index_sha256"] == store.index_digest(rec["index"])
    assert len(store.load_function(str(tmp_path), "diopiAdd")) == 3


@pytest.mark.parametrize("tamper", [
    lambda index: index[0].__setitem__(1, "float64"),               # another dtype
    lambda index: index[1].__setitem__(2, ["contiguous"]),          # a layout dropped
    lambda index: index.reverse(),                                  # rows swapped
    lambda index: index[2].__setitem__(3, index[2][3] + 1),         # payload size
])
def test_a_tampered_index_is_refused_on_read(tmp_path, tamper):
    save_cases(tmp_path, "diopiAdd", _cases())
    man = _manifest(tmp_path)
    tamper(man["files"]["diopiAdd"]["index"])
    _write_manifest(tmp_path, man)
    with pytest.raises(store.BaselineError, match="does not match its index_sha256") as e:
        store.read_manifest(str(tmp_path))
    assert "\n" not in str(e.value)


def test_an_index_rewritten_with_its_digest_still_has_to_describe_the_file(tmp_path):
    """Whoever also recomputes the digest is caught when the pickle (covered
    by its sha256) disagrees with the rows cases were selected by."""
    save_cases(tmp_path, "diopiAdd", _cases())
    man = _manifest(tmp_path)
    rec = man["files"]["diopiAdd"]
    rec["index"][0], rec["index"][1] = rec["index"][1], rec["index"][0]
    rec["index_sha256"] = store.index_digest(rec["index"])
    _write_manifest(tmp_path, man)
    store.read_manifest(str(tmp_path))  # consistent in itself
    with pytest.raises(store.BaselineError, match="does not match its row"):
        store.load_function(str(tmp_path), "diopiAdd")


# ------------------------------------------------------------ paths
@pytest.mark.parametrize("path", ["../x.pkl", "/etc/passwd", "cases/../../x.pkl", "cases//a.pkl", "./cases/a.pkl", "",
                                  "cases\\..\\..\\x.pkl", "."])
def test_manifest_paths_stay_inside_the_data_folder(tmp_path, path):
    save_cases(tmp_path, "diopiAdd", _cases())
    man = _manifest(tmp_path)
    man["files"]["diopiAdd"]["path"] = path
    _write_manifest(tmp_path, man)
    with pytest.raises(store.BaselineError, match="data folder|outside"):
        store.read_manifest(str(tmp_path))


def test_a_symlink_leading_out_of_the_folder_is_refused(tmp_path):
    data = tmp_path / "data"
    save_cases(data, "diopiAdd", _cases())
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (data / "cases" / "link").symlink_to(outside)
    man = _manifest(data)
    man["files"]["diopiAdd"]["path"] = "cases/link/x.pkl"
    _write_manifest(data, man)
    with pytest.raises(store.BaselineError, match="outside"):
        store.read_manifest(str(data))


# ------------------------------------------------------------ sizes and types
@pytest.mark.parametrize("shape,match", [
    ([-1, 4], "malformed shape"), ([2, True], "malformed shape"), ([2.0, 2], "malformed shape"), ("4", "malformed shape"),
    ([1 << 20, 1 << 20], "size limit"), ([1 << 17] * 3, "size limit"), ([1] * (store.MAX_RANK + 1), "malformed shape"),
])
def test_array_shapes_are_bounded_and_typed(shape, match):
    enc = store.encode_array(np.zeros(4, dtype=np.float32), "float32")
    enc["shape"] = shape
    with pytest.raises(store.BaselineError, match=match):
        store.decode_array(enc)
    with pytest.raises(store.BaselineError, match=match):
        store.array_meta(enc)


def test_a_shape_within_the_cap_in_elements_but_not_in_bytes_is_refused():
    n = store.MAX_BYTES // 4 + 1  # fits as elements, not as float32 bytes
    with pytest.raises(store.BaselineError, match="size limit"):
        store.array_meta({"__nd__": "float32", "shape": [n], "data": None})
    assert store.array_meta({"__nd__": "int8", "shape": [n], "data": None})[0] == (n,)


def _recipe_case(shape, fields=None):
    case = _cases(1)[0]
    case["inputs"]["input"] = {"__nd__": "float32", "shape": [4], "data": None, "sha256": "0" * 64}
    case["seed"] = 1
    case["regen"] = [["input", "randn", fields if fields is not None else {"scale": 1.0}, "float32", shape, False]]
    return case


@pytest.mark.parametrize("shape,fields,match", [
    ([1 << 40], None, "size limit"),
    ([-3], None, "malformed shape"),
    ([4], {"scale": float("nan")}, "non-finite"),
    ([4], {"scale": "1"}, "non-numeric"),
])
def test_recipes_are_bounded_and_typed_before_anything_is_drawn(tmp_path, shape, fields, match):
    save_cases(tmp_path, "diopiAdd", [_recipe_case(shape, fields)])
    with pytest.raises(store.BaselineError, match=match):
        store.load_function(str(tmp_path), "diopiAdd", lazy=True)


@pytest.mark.parametrize("field,value,match", [
    ("cases", "3", "expected int"), ("bytes", -1, "out of range"), ("bytes", store.MAX_BYTES + 1, "out of range"),
    ("sha256", "xyz", "not a sha256"), ("index", {}, "expected list"), ("cases", True, "expected int"),
])
def test_manifest_record_fields_have_their_types_and_ranges(tmp_path, field, value, match):
    save_cases(tmp_path, "diopiAdd", _cases())
    man = _manifest(tmp_path)
    man["files"]["diopiAdd"][field] = value
    _write_manifest(tmp_path, man)
    with pytest.raises(store.BaselineError, match=match):
        store.read_manifest(str(tmp_path))


def test_an_index_row_beyond_the_size_cap_is_refused_even_with_its_digest(tmp_path):
    save_cases(tmp_path, "diopiAdd", _cases())
    man = _manifest(tmp_path)
    rec = man["files"]["diopiAdd"]
    rec["index"][0][3] = store.MAX_BYTES + 1
    rec["index_sha256"] = store.index_digest(rec["index"])
    _write_manifest(tmp_path, man)
    with pytest.raises(store.BaselineError, match="malformed case index row"):
        store.read_manifest(str(tmp_path))


def _malformed(kind):
    def edit(d):
        man = _manifest(d)
        if kind == "bad json":
            (d / store.MANIFEST).write_text(json.dumps(man)[:-7])
            return
        if kind == "not utf-8":
            (d / store.MANIFEST).write_bytes(b"\xff\xfe{")
            return
        if kind == "a list":
            man = [man]
        elif kind == "foreign schema":
            man["schema"] = "someone-else/9"
        elif kind == "files missing":
            del man["files"]
        elif kind == "files a list":
            man["files"] = list(man["files"])
        elif kind == "record a string":
            man["files"]["diopiAdd"] = "cases/x.pkl"
        elif kind == "record without path":
            del man["files"]["diopiAdd"]["path"]
        elif kind == "record without index digest":
            del man["files"]["diopiAdd"]["index_sha256"]
        elif kind == "odd function name":
            man["files"]["../diopiAdd"] = man["files"].pop("diopiAdd")
        elif kind == "path escapes":
            man["files"]["diopiAdd"]["path"] = "../../outside.pkl"
        _write_manifest(d, man)
    return edit


MALFORMED = ["bad json", "not utf-8", "a list", "foreign schema", "files missing", "files a list", "record a string",
             "record without path", "record without index digest", "odd function name", "path escapes"]


@pytest.mark.parametrize("kind", MALFORMED)
def test_a_malformed_manifest_is_one_baseline_error(tmp_path, kind):
    save_cases(tmp_path, "diopiAdd", _cases())
    _malformed(kind)(tmp_path)
    with pytest.raises(store.BaselineError) as e:
        store.read_manifest(str(tmp_path))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("mode", ["run_test", "fuzz", "bench"])
@pytest.mark.parametrize("kind", ["bad json", "record a string", "path escapes"])
def test_a_malformed_manifest_stops_every_mode_with_exit_3_and_one_line(tmp_path, kind, mode):
    data = tmp_path / "data"
    save_cases(data, "diopiAdd", _cases())
    _malformed(kind)(data)
    extra = ["--impl_lib", str(tmp_path / "absent.so")] if mode == "bench" else []
    r = run_main("--mode", mode, "--data_dir", str(data), "--report_dir", str(tmp_path / "rep"), *extra, timeout=120)
    _one_line_error(r, 3)
    assert not (tmp_path / "rep").exists()


def test_missing_baselines_are_exit_3_not_a_library_failure(tmp_path):
    r = run_main("--mode", "run_test", "--fname", "add", "--data_dir", str(tmp_path / "none"), timeout=120)
    _one_line_error(r, 3)
    assert "gen_data" in r.stderr


# ------------------------------------------------------------ commits and sweeping
def test_regenerating_replaces_the_file_and_removes_the_old_one(tmp_path):
    first = save_cases(tmp_path, "diopiAdd", _cases(2))
    second = save_cases(tmp_path, "diopiAdd", _cases(3))
    assert first["path"] != second["path"]
    assert not (tmp_path / first["path"]).exists() and (tmp_path / second["path"]).exists()
    assert len(store.load_function(str(tmp_path), "diopiAdd")) == 3


def test_sweep_removes_only_what_an_interrupted_writer_left(tmp_path):
    kept = save_cases(tmp_path, "diopiAdd", _cases())
    orphan = tmp_path / "cases" / "diopiSub-0123456789abcdef.pkl"
    orphan.write_bytes(b"half a pickle")
    tmp = tmp_path / "cases" / ".tmp-xyz"
    tmp.write_bytes(b"partial")
    notes = tmp_path / "cases" / "README.txt"
    notes.write_text("not ours")
    assert store.sweep(str(tmp_path)) == 2
    assert not orphan.exists() and not tmp.exists()
    assert notes.exists() and (tmp_path / kept["path"]).exists()
    store.load_function(str(tmp_path), "diopiAdd")


# ------------------------------------------------------------ the lock
_HOLD = """
import sys, time
sys.path.insert(0, {python_dir!r})
from conformance import lock
with lock.writing({data!r}):
    print("locked", flush=True)
    time.sleep(60)
"""


def _hold_writer(data):
    p = subprocess.Popen([sys.executable, "-c", _HOLD.format(python_dir=PYTHON_DIR, data=str(data))],
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "locked"
    return p


def test_readers_wait_for_a_writer_then_refuse_naming_it(tmp_path):
    data = tmp_path / "data"
    save_cases(data, "diopiAdd", _cases())
    holder = _hold_writer(data)
    try:
        t0 = time.monotonic()
        with pytest.raises(store.BaselineError, match=rf"being written by gen_data \(pid {holder.pid}\)"):
            with lock.reading(str(data), wait=0.5):
                pass
        assert time.monotonic() - t0 >= 0.5
        env = dict(os.environ, DIOPI_LOCK_WAIT="1")
        for mode in ("run_test", "coverage", "fuzz"):
            r = run_main("--mode", mode, "--data_dir", str(data), "--report_dir", str(tmp_path / "rep"), env=env, timeout=120)
            _one_line_error(r, 3)
            assert f"baselines in {data} are being written by gen_data (pid {holder.pid})" in r.stderr
        assert not (tmp_path / "rep").exists()
    finally:
        holder.kill()
        holder.wait()
    with lock.reading(str(data), wait=0):  # a killed writer holds nothing
        store.load_function(str(data), "diopiAdd")


def test_a_reader_gets_the_folder_once_the_writer_is_done(tmp_path):
    got = []
    with lock.writing(str(tmp_path)):
        t = threading.Thread(target=lambda: got.append(_read_when_free(tmp_path)))
        t.start()
        time.sleep(0.3)
        assert not got  # still waiting
    t.join(10)
    assert got == [True]


def _read_when_free(d):
    with lock.reading(str(d), wait=10):
        return True


def test_a_writer_does_not_remove_files_under_a_running_reader(tmp_path):
    save_cases(tmp_path, "diopiAdd", _cases())
    with lock.reading(str(tmp_path)):
        with pytest.raises(store.BaselineError, match="in use by another run"):
            with lock.writing(str(tmp_path), wait=0.2):
                pass
    with lock.writing(str(tmp_path), wait=0):
        pass


# ------------------------------------------------------------ names
@pytest.mark.parametrize("written,func", [
    ("conv2d", "diopiConvolution2d"), ("conv2d_backward", "diopiConvolution2dBackward"),
    ("diopiConv2d", "diopiConvolution2d"), ("torch.nn.functional.conv2d", "diopiConvolution2d"),
    ("Conv2d", "diopiConvolution2d"), ("batchnorm", "diopiBatchNorm"), ("layernorm", "diopiLayerNorm"),
    ("add_", "diopiAddInp"), ("maxpool2d", "diopiMaxPool2d"), ("linear", "diopiLinear"),
])
def test_names_users_type_resolve_to_declared_functions(written, func):
    import diopi_header
    if func not in diopi_header.load():
        pytest.skip(f"{func} is not declared in these headers")
    fnames, _, renamed = expand.check_selection([written], [])
    assert expand.matches(func, fnames)
    assert (written, fnames[0]) in renamed or fnames == [written]


@pytest.mark.parametrize("written", ["add", "conv_transpose2d", "diopiAdd", "add*", "*_backward"])
def test_names_that_already_select_stay_as_written(written):
    assert expand.check_selection([written], []) == ([written], [], [])


def test_dtype_aliases_resolve():
    from conformance import dtypes
    _, got, _ = expand.check_selection([], ["half", "fp32", "Float64", "bf16"] + list(dtypes.NAMES))
    assert got[4:] == list(dtypes.NAMES) and all(d in dtypes.NAMES for d in got[:4])
    assert got[:4] == ["float16", "float32", "float64", "bfloat16"]


@pytest.mark.parametrize("args,hint", [
    (["--fname", "convv2d"], "did you mean convolution2d"),
    (["--fname", "softmx"], "did you mean softmax"),
    (["--fname", "add", "relux"], "did you mean relu"),
    (["--fname", "nosuch_*"], "matches no function"),
    (["--filter_dtype", "flaot32"], "did you mean float32"),
])
@pytest.mark.parametrize("mode", ["run_test", "gen_data"])
def test_unknown_names_are_one_line_usage_errors_with_a_hint(tmp_path, args, hint, mode):
    r = run_main("--mode", mode, *args, "--data_dir", str(tmp_path / "data"), timeout=120)
    _one_line_error(r, 2)
    assert hint in r.stderr, r.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("device,hint", [("cuda", "cannot use it"), ("cdua", "did you mean 'cuda'"), ("meta", "no values")])
def test_a_device_torch_lacks_is_refused_before_anything_runs(tmp_path, device, hint):
    torch = pytest.importorskip("torch", reason="gen_data needs torch")
    if device == "cuda" and torch.cuda.is_available():
        pytest.skip("this machine has CUDA: the refusal cannot be shown")
    r = run_main("--mode", "gen_data", "--fname", "add", "--device", device, "--data_dir", str(tmp_path / "data"), timeout=120)
    _one_line_error(r, 2)
    assert hint in r.stderr and "usable here: cpu" in r.stderr
    assert not (tmp_path / "data").exists()


# ------------------------------------------------------------ killed gen_data
def _listed(data):
    try:
        return store.read_manifest(str(data))["files"]
    except store.BaselineError:
        return {}


def test_gen_data_killed_midway_leaves_only_complete_functions(tmp_path, torch_lib_dir):
    pytest.importorskip("torch", reason="gen_data needs torch")
    data = tmp_path / "data"
    fnames = ["add", "sub", "mul", "div", "relu", "abs", "neg", "exp", "sigmoid", "tanh", "softmax", "cat"]
    p = subprocess.Popen([sys.executable, MAIN, "--mode", "gen_data", "--fname", *fnames, "--data_dir", str(data)],
                         cwd=PYTHON_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(_listed(data)) < 2 and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL, "gen_data finished before it could be killed: give it more functions"
    listed = _listed(data)
    assert len(listed) >= 2
    for func in listed:  # every listed file is complete and matches its hash and index
        store.load_function(str(data), func)
    env = dict(os.environ, DIOPI_LOCK_WAIT="0")  # the killed writer's lock is gone
    r = run_main("--mode", "run_test", "--fname", *sorted(listed), "--data_dir", str(data), "--report_dir", str(tmp_path / "rep"),
                 "--jobs", "1", env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert " 0 failed" in r.stdout
    # The next gen_data sweeps what the killed one left half-written.
    r = run_main("--mode", "gen_data", "--fname", "relu", "--data_dir", str(data))
    assert r.returncode == 0, r.stderr[-2000:]
    listed = _listed(data)
    on_disk = {f"cases/{name}" for name in os.listdir(data / "cases")}
    assert on_disk == {rec["path"] for rec in listed.values()}
