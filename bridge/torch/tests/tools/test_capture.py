"""Model capture: calls merged with counts, classified like the device serves
them, written as data the harness reads and turns into replayable cases."""
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from diopi_torch import capture  # noqa: E402
from diopi_torch.ops import mapping  # noqa: E402

from device_paths import ROOT  # noqa: E402

SMALL = dict(vocab_size=128, hidden_size=64, intermediate_size=128, num_attention_heads=4, num_key_value_heads=4)


@pytest.fixture(scope="module")
def amap():
    return mapping.load()


def small(layers, amap):
    return capture.capture("llama2_7b", modes=("train",), amap=amap, overrides=dict(SMALL, num_hidden_layers=layers))


def test_identical_calls_merge_so_depth_costs_no_cases(amap):
    one, three = small(1, amap), small(3, amap)
    assert one["summary"]["cases"] == three["summary"]["cases"] > 10
    assert three["summary"]["aten_calls"] > one["summary"]["aten_calls"]
    # the per-layer projection GEMM is one case whose count grows with depth
    def mm_count(cs, shape):
        return sum(c["count"] for c in cs["cases"] if c["diopi"] == "diopiMm" and c["diopi_args"]["out"]["tensor"] == shape)
    assert mm_count(three, [8, 128]) == 3 * mm_count(one, [8, 128])  # gate and up projections, batch 1 x seq 8


def test_summary_adds_up_and_every_case_is_a_declared_function(amap):
    cs = small(1, amap)
    s = cs["summary"]
    assert s["aten_calls"] == s["mapped_calls"] + s["unmapped_calls"]
    assert sum(c["count"] for c in cs["cases"]) == s["mapped_calls"]
    fns = mapping.header_functions()
    assert all(c["diopi"] in fns for c in cs["cases"])
    assert cs["provenance"]["config"]["hidden_size"] == 64 and cs["provenance"]["modes"] == ["train"]
    # backward and the optimizer step are captured too
    assert {"diopiEmbeddingBackward", "diopiFusedAdamW", "diopiSiluBackward"} <= set(s["functions"])


def test_strides_are_kept_as_the_model_made_them(amap):
    cs = small(1, amap)
    transposed = [c for c in cs["cases"] if c["diopi"] == "diopiMm"
                  and any(a.get("stride") and a["stride"][-1] != 1 for a in c["diopi_args"].values() if isinstance(a, dict))]
    assert transposed, "weight gradients read transposed activations"


def test_case_set_round_trip_into_harness_cases(amap, tmp_path, monkeypatch):
    cs = small(1, amap)
    cs["model"] = "tiny_llama"
    for i, c in enumerate(cs["cases"]):
        c["name"] = f"tiny_llama.{i:03d}"
    capture.write(cs, str(tmp_path))
    monkeypatch.syspath_prepend(os.path.join(ROOT, "diopi_test", "python"))  # the harness is not a package
    from conformance import expand, gen_data, model_cases
    monkeypatch.setattr(model_cases, "MODEL_DIR", str(tmp_path))
    assert model_cases.names() == ["tiny_llama"]
    line = model_cases.summary_line("tiny_llama")
    assert "ATen calls map to DIOPI (100.0%)" in line and f"{cs['summary']['cases']} cases" in line
    entries = model_cases.ops("tiny_llama")
    ops = [(fam, op) for fam, op, why in entries if not why]
    cases = expand.expand(ops)
    assert len(cases) == len(ops)
    mm = next(c for c in cases if c.func == "diopiMm" and c.op.strides)
    record = gen_data.run_case(mm)
    assert record["layouts"] == ["captured"] and record["captured_strides"] == {k: list(v) for k, v in mm.op.strides.items()}
    assert record["weight"] == mm.op.weight or mm.op.weight == 1


# ---------------------------------------------------------------- the committed case sets stay current
# A vendor reads configs/model_config/<model>.yaml as "the calls this model makes on the device". When the mapping
# changes (a Python number now reaches diopiAddScalar, an entry moves), a set captured before says something the
# device no longer does. Each set records the command that made it; these tests hold the sets to it.
CASE_DIR = os.path.join(ROOT, "diopi_test", "python", "configs", "model_config")
COMMITTED = sorted(f[:-5] for f in os.listdir(CASE_DIR) if f.endswith(".yaml"))
# Sets that capture in about two seconds each are made again here and compared whole; the 7B language models
# (5 to 10 s each) are held to the mapping by the entry check below, which covers every set.
RECAPTURED = ["bert_base", "convnext_tiny", "gpt2", "llama2_7b_fp16", "resnet50", "resnet50_fp16", "resnet50_torchvision",
              "vit_base", "vit_base_fp16", "whisper_small"]


def _case_set(name, folder=CASE_DIR):
    import yaml
    with open(os.path.join(folder, name + ".yaml")) as f:
        return yaml.safe_load(f)


def test_the_recaptured_list_names_committed_sets():
    assert set(RECAPTURED) <= set(COMMITTED), set(RECAPTURED) - set(COMMITTED)


@pytest.mark.parametrize("name", COMMITTED)
def test_every_case_names_the_mapping_entry_that_makes_it_today(name, amap):
    cs = _case_set(name)
    stale = []
    for c in cs["cases"]:
        serving = {capture._where(e) for e in amap.for_op(c["aten"]) if e.diopi == c["diopi"]}
        if c["entry"] not in serving:
            stale.append((c["aten"], c["diopi"], c["entry"], sorted(serving)))
    assert not stale, (f"{name}.yaml is older than the mapping; remake it with "
                       f"`{cs['provenance']['captured_by']}`: {stale[:5]}")


@pytest.mark.parametrize("name", RECAPTURED)
def test_a_committed_case_set_is_what_its_command_makes_today(name, tmp_path):
    import shlex
    cs = _case_set(name)
    command = shlex.split(cs["provenance"]["captured_by"])
    assert command[:3] == ["python", "-m", "diopi_torch.capture"], command
    assert capture.main(command[3:] + ["--out", str(tmp_path)]) == 0
    fresh = _case_set(name, str(tmp_path))
    for s in (cs, fresh):
        s["summary"].pop("capture_seconds", None)  # the one field that is not a fact about the model
    assert fresh["provenance"] == cs["provenance"]
    assert fresh["summary"] == cs["summary"], f"remake {name}.yaml with `{cs['provenance']['captured_by']}`"
    assert fresh["cases"] == cs["cases"], f"remake {name}.yaml with `{cs['provenance']['captured_by']}`"
