"""Fuzz mode: malformed calls are classified; a careless library is caught,
the reference survives every malformed call."""
import diopi_header
import pytest

from support import make_baselines
from support import run_main

pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand, spec, store, fuzz  # noqa: E402
from conformance.reftorch import torch as T  # noqa: E402

OPS = [("elementwise_binary_arith", spec.Op("diopiAdd", lambda input, other, alpha: T.add(input, other, alpha=alpha),
                                            tensors=dict(input=spec.T(), other=spec.T()), shapes=(((3, 4), (3, 4)),),
                                            dtypes=("float32",), params=({"alpha": 1},)))]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzzdata")
    make_baselines(d, expand.expand(OPS))
    return str(d)


def test_mutations_cover_every_kind(data):
    records = store.load_function(data, "diopiAdd")
    labels = [label for label, _ in fuzz.mutations(diopi_header.load()["diopiAdd"], records[0])]
    for kind in ("null:input", "null:other", "null:out", "null:alpha", "shape:input", "rank:other", "zero_size:input",
                 "stride0:input", "dtype_complex128:input", "overlap:out=input"):
        assert kind in labels, (kind, labels)


def test_careless_library_is_caught_and_the_run_completes(data, faulty_lib, tmp_path):
    r = run_main("--mode", "fuzz", "--data_dir", data, "--impl_lib", faulty_lib, "--report_dir", str(tmp_path), "--timeout", "5")
    assert r.returncode == 1
    assert "unsafe" in r.stdout and " 0 unsafe" not in r.stdout


def test_reference_survives_every_malformed_call(data, torch_lib_dir, tmp_path):
    r = run_main("--mode", "fuzz", "--data_dir", data, "--report_dir", str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:]
    assert " 0 unsafe" in r.stdout
