"""Model case sets from capture to replay: tiny zoo models captured on meta
(merging, mapping of each call, classes of calls), written as YAML, listed
by --get_model_list, generated and replayed through main.py; large outputs
checked from a sample and block sums.

Capture lives in the bridge (bridge/torch/diopi_torch); the harness never
imports it, these tests do."""
import os
import sys

import numpy as np
import pytest
import yaml

from conformance import model_cases, sampled

import support

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(support.PYTHON_DIR)), "bridge", "torch"))
from diopi_torch import capture  # noqa: E402
from diopi_torch.ops import mapping  # noqa: E402
from diopi_torch.suite import models as registry  # noqa: E402


@pytest.fixture(scope="module")
def amap():
    return mapping.load()


@pytest.fixture(scope="module")
def tiny(amap):
    """llama2_7b's tiny version, training step and inference, one layer."""
    return capture.capture("llama2_7b", amap=amap, small=True, overrides={"num_hidden_layers": 1}, label="tiny")


def _count(cs, pred):
    return sum(c["count"] for c in cs["cases"] if pred(c))


def test_identical_calls_merge_across_layers_and_modes(amap, tiny):
    three = capture.capture("llama2_7b", amap=amap, small=True, overrides={"num_hidden_layers": 3}, label="tiny")
    # depth costs counts, not cases
    assert three["summary"]["cases"] == tiny["summary"]["cases"]

    def gate_up(c):  # the gate and up projections of the tiny model: 2 x 8 tokens x 64 -> 128
        return c["diopi"] == "diopiMm" and c["diopi_args"]["out"]["tensor"] == [16, 128]
    assert _count(three, gate_up) == 3 * _count(tiny, gate_up) > 0
    # a call made in training and in inference is one case with both modes and both counts
    both = [c for c in tiny["cases"] if c["modes"] == ["train", "infer"]]
    assert both and all(c["count"] >= 2 for c in both)
    keys = [capture.merge_key(c) for c in tiny["cases"]]
    assert len(keys) == len(set(keys))


def test_each_call_is_mapped_through_the_shared_mapping(amap, tiny):
    s = tiny["summary"]
    assert s["aten_calls"] == s["mapped_calls"] + s["unmapped_calls"]
    assert sum(c["count"] for c in tiny["cases"]) == s["mapped_calls"]
    mm = next(c for c in tiny["cases"] if c["aten"] == "mm")
    entry = amap.select("mm", {"self": None, "mat2": None})
    assert mm["diopi"] == entry.diopi == "diopiMm" and mm["entry"].startswith("bridge/torch/diopi_torch/ops/aten_to_diopi.yaml:")
    assert mm["sources"]["input"] == {"aten": "self"} and mm["sources"]["out"] == {"result": None}
    # tensors by shape, strides and dtype; weight gradients read transposed activations
    assert any(a.get("layout") == "strided" for c in tiny["cases"] if c["diopi"] == "diopiMm"
               for a in c["diopi_args"].values() if isinstance(a, dict))
    # views, autograd bookkeeping and kernels are counted apart
    assert s["views"].get("view", 0) > 0 and s["copies"].get("detach", 0) > 0
    assert "detach" not in s["views"] and s["copy_calls"] == sum(s["copies"].values())
    assert {"diopiEmbeddingBackward", "diopiFusedAdamW", "diopiSiluBackward"} <= set(s["functions"])


def test_moe_routing_is_assumed_and_served_by_diopi(amap):
    cs = capture.capture("mixtral_8x7b", amap=amap, small=True, overrides={"num_hidden_layers": 1}, modes=("train",))
    assert "uniform-topk" in cs["provenance"]["assumed"]
    assert cs["summary"]["unmapped_calls"] == 0
    by_aten = {c["aten"]: c for c in cs["cases"]}
    # routing: the library allocates nonzero's and indexing's results; index_add is an accumulating index_put
    assert by_aten["nonzero"]["diopi"] == "diopiNonzero" and by_aten["nonzero"]["sources"]["out"] == {"result": None}
    assert by_aten["index.Tensor"]["diopi"] == "diopiIndex"
    assert by_aten["index_add.out"]["diopi"] == "diopiIndexPut"
    assert by_aten["index_add.out"]["sources"]["indices"] == {"aten_items": ["index"]}
    # each expert's GEMM gets tokens * top_k / experts = 16 * 2 / 4 rows
    assert any(c["diopi"] == "diopiMm" and c["diopi_args"]["input"]["tensor"][0] == 8 for c in cs["cases"])


def test_calls_without_a_mapping_entry_are_counted_as_gaps(amap):
    without = mapping.AtenMapping(tuple(e for e in amap.entries if e.aten != "nonzero"), amap.path)
    cs = capture.capture("mixtral_8x7b", amap=without, small=True, overrides={"num_hidden_layers": 1}, modes=("train",))
    s = cs["summary"]
    assert s["unmapped"]["nonzero"] > 0 and s["unmapped_calls"] == sum(s["unmapped"].values())
    assert s["aten_calls"] == s["mapped_calls"] + s["unmapped_calls"]


def test_zoo_specs_build_small_hf_and_real_sizes():
    assert len(registry.PUBLISHED) >= 12 and all(registry.MODELS[n].small and registry.MODELS[n].small_inputs
                                                    for n in registry.PUBLISHED)
    model, inputs, spec = registry.build_with_inputs("hf:GPT2LMHeadModel:n_embd=32,n_layer=1,n_head=2,vocab_size=50,seq_len=4",
                                    device="cpu")
    assert spec.kind == "causal-lm" and inputs["input_ids"].shape == (2, 4) and int(inputs["input_ids"].max()) < 50
    loss = registry.loss(model(**inputs), inputs)
    assert loss.dim() == 0 and torch.isfinite(loss)
    model, inputs, _ = registry.build_with_inputs("llama2_7b", device="meta")
    assert model.config.intermediate_size == 11008 and inputs["input_ids"].device.type == "meta"


def test_case_set_round_trip_list_gen_data_run_test(tiny, tmp_path, torch_lib_dir):
    path = capture.write(tiny, str(tmp_path / "sets"))
    assert yaml.safe_load(open(path))["provenance"]["config"]["hidden_size"] == 64
    env = dict(os.environ, DIOPI_MODEL_CASES=str(tmp_path / "sets"))
    listed = support.run_main("--get_model_list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("tiny: LlamaForCausalLM bfloat16 batch 2 seq 8 (train+infer);")
    assert "map to DIOPI (100.0%)" in listed.stdout and "ATen operators with no DIOPI function: none" in listed.stdout
    data = str(tmp_path / "data")
    sel = ["--model_name", "tiny", "--fname", "mm", "silu", "embedding", "--data_dir", data]
    gen = support.run_main("--mode", "gen_data", *sel, env=env)
    assert gen.returncode == 0, gen.stderr
    run = support.run_main("--mode", "run_test", *sel, "--report_dir", str(tmp_path / "rep"), env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    line = run.stdout.strip().splitlines()[-1]
    assert line.startswith("this library runs ") and "of tiny's training step and inference" in line
    # only the selected functions ran: the others count as not passed
    assert "failing or not replayed: " in line and "diopiMm" not in line.split("failing")[1]


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_sampled_outputs_catch_what_the_full_comparison_catches(dtype):
    from conformance import dtypes
    rng = np.random.default_rng(0)
    exp = dtypes.from_values(rng.standard_normal((2048, 1024)), dtype)
    enc = sampled.encode(exp, dtype, seed=7)
    assert enc is not None and enc["data"] is None and len(enc[sampled.KEY]["values"]) < exp.nbytes // 8
    tol = (1e-2, 1e-2)
    assert sampled.check(exp.copy(), dtype, enc, tol) is None
    noisy = dtypes.from_values(dtypes.to_values(exp, dtype) * 1.001, dtype)  # within tolerance
    assert sampled.check(noisy, dtype, enc, tol) is None
    wrong = exp.copy()
    wrong[1500, :] = exp[1499, :]  # one wrong row
    mm = sampled.check(wrong, dtype, enc, tol)
    assert mm is not None and mm.first_index[0] == 1500
    # one wrong element the sample does not see: its block sum does
    seen = set(sampled._positions(7, exp.size, sampled.SAMPLES).tolist())
    hidden = next(i for i in range(exp.size // 2, exp.size) if i not in seen)
    wrong = exp.copy()
    wrong.reshape(-1)[hidden] = dtypes.from_values(np.array([1000.0]), dtype)[0]
    mm = sampled.check(wrong, dtype, enc, tol)
    assert mm is not None and "blocks" in mm.reason
    unwritten = exp.copy()
    unwritten.reshape(-1)[12345] = dtypes.from_values(np.array([np.nan]), dtype)[0]
    assert sampled.check(unwritten, dtype, enc, tol) is not None
    assert "shape" in sampled.check(exp.reshape(1024, 2048), dtype, enc, tol).reason
    assert sampled.encode(exp[:10], dtype, seed=7) is None  # small outputs are stored whole


def test_pass_share_reads_100_only_when_everything_passed():
    assert model_cases._percent(7892, 7893) == ">99.9%"
    assert model_cases._percent(7893, 7893) == "100.0%" and model_cases._percent(1, 4) == "25.0%"
