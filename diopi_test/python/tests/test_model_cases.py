"""Model case sets as the harness reads them: listing, refusal of what is
not a case set, the count-weighted pass share, and tolerance scaling."""
import os

import pytest
import yaml

import diopi_header
from conformance import model_cases


class Item:
    def __init__(self, name, func="diopiMm", layout="captured"):
        self.name, self.func, self.layout = name, func, layout


def write(tmp_path, cases, unmapped=None):
    data = {"model": "toy", "provenance": {"class": "Toy", "dtype": "float32", "batch": 1, "seq_len": 4,
                                            "image_size": 0, "modes": ["train"]},
            "summary": {"aten_calls": sum(c["count"] for c in cases) + sum((unmapped or {}).values()),
                        "mapped_calls": sum(c["count"] for c in cases), "cases": len(cases),
                        "functions": sorted({c["diopi"] for c in cases}), "unmapped": unmapped or {}},
            "cases": cases}
    (tmp_path / "toy.yaml").write_text(yaml.safe_dump(data))


def case(name, diopi, count, **args):
    return {"name": name, "diopi": diopi, "aten": "mm", "aten_args": {}, "diopi_args": args, "sources": {},
            "count": count}


def test_checked_in_case_sets_list_with_their_figures():
    names = model_cases.names()
    assert {"llama2_7b", "resnet50"} <= set(names) and len(names) >= 12
    line = model_cases.summary_line("llama2_7b")
    assert line.startswith("llama2_7b: LlamaForCausalLM bfloat16 batch 1 seq 256 (train+infer);")
    assert "ATen calls map to DIOPI" in line and "ATen operators with no DIOPI function:" in line


def test_unknown_or_foreign_files_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(model_cases, "MODEL_DIR", str(tmp_path))
    (tmp_path / "llama.yaml").write_text("just: text\n")
    with pytest.raises(model_cases.CaseSetError, match="did you mean llama"):
        model_cases.load("lama")
    with pytest.raises(model_cases.CaseSetError, match="not a model case set"):
        model_cases.load("llama")


def test_pass_share_weights_calls_and_counts_gaps_as_failing(tmp_path, monkeypatch):
    monkeypatch.setattr(model_cases, "MODEL_DIR", str(tmp_path))
    write(tmp_path, [case("toy.000", "diopiMm", 30), case("toy.001", "diopiAdd", 60), case("toy.002", "diopiSilu", 9)],
          unmapped={"isposinf": 1})
    rows = [(Item("toy.000::float32::2x2"), {"verdict": "passed"}),
            (Item("toy.001::float32::2x2", "diopiAdd"), {"verdict": "passed"}),
            (Item("toy.002::float32::2x2", "diopiSilu"), {"verdict": "failed"})]
    line = model_cases.pass_share("toy", rows)
    assert line.startswith("this library runs 90.0% of toy's training step (90 of 100 calls)"), line
    assert "diopiSilu (9 calls)" in line and "aten::isposinf (no DIOPI function) (1 calls)" in line


def test_tolerances_scale_with_the_captured_accumulation():
    mm = case("x", "diopiMm", 1, input={"tensor": [8, 2048], "stride": [2048, 1], "dtype": "float32"},
              mat2={"tensor": [2048, 1000], "stride": [1, 2048], "dtype": "float32"},
              out={"tensor": [8, 1000], "stride": [1000, 1], "dtype": "float32"})
    assert model_cases.accumulation(mm) == 2048
    mean = case("y", "diopiMean", 1, input={"tensor": [4, 8, 7, 7], "stride": [392, 49, 7, 1], "dtype": "float32"},
                out={"tensor": [4, 8, 1, 1], "stride": [8, 1, 1, 1], "dtype": "float32"}, dim=[2, 3])
    mean["sources"] = {"out": {"result": None}, "input": {"aten": "self"}}
    assert model_cases.accumulation(mean) == 49


def test_a_list_call_over_the_budget_replays_each_distinct_shape_once():
    t = lambda *shape: {"tensor": list(shape), "stride": [shape[1], 1] if len(shape) == 2 else [1], "dtype": "bfloat16"}
    shapes = [(4096, 4096), (11008, 4096), (4096, 4096), (4096,), (11008, 4096), (4096,)]
    lists = {k: [t(*s) for s in shapes] for k in ("params", "grads", "exp_avgs", "exp_avg_sqs")}
    adam = case("z", "diopiFusedAdamW", 1, nums=len(shapes), lr=1e-4, max_exp_avg_sqs=[], **lists)
    adam["sources"] = {"params": {"aten": "self"}, "grads": {"aten": "grads"}, "nums": {"value": len(shapes)}}
    adam["aten_args"] = {"self": lists["params"], "grads": lists["grads"], "lr": 1e-4}
    part = model_cases.partial_case(adam, budget=1 << 30)
    kept = [tuple(d["tensor"]) for d in part["diopi_args"]["params"]]
    assert kept == [(4096, 4096), (11008, 4096), (4096,)]  # model order, duplicates dropped
    assert all(len(part["diopi_args"][k]) == 3 for k in lists) and part["diopi_args"]["nums"] == 3
    assert [tuple(d["tensor"]) for d in part["aten_args"]["self"]] == kept and part["aten_args"]["lr"] == 1e-4
    assert part["partial"].startswith("on 3 of 6 list entries")
    small = model_cases.partial_case(adam, budget=4 * 4096 * 2)  # only the 4096-vectors fit
    assert [tuple(d["tensor"]) for d in small["diopi_args"]["params"]] == [(4096,)]
    assert model_cases.partial_case(adam, budget=1) is None


def test_a_list_call_storing_too_much_keeps_the_entries_whose_outputs_fit(monkeypatch):
    # Many small parameters (none sampled) whose optimizer outputs together exceed the per-case budget.
    t = lambda n: {"tensor": [n], "stride": [1], "dtype": "float32"}
    sizes = [200_000, 300_000, 200_000, 50_000, 400_000]
    lists = {k: [t(n) for n in sizes] for k in ("params", "grads", "exp_avgs", "exp_avg_sqs")}
    adam = case("w", "diopiFusedAdamW", 1, nums=len(sizes), lr=1e-4, max_exp_avg_sqs=[], **lists)
    adam["sources"] = {"params": {"aten": "self"}, "grads": {"aten": "grads"}, "nums": {"value": len(sizes)}}
    adam["aten_args"] = {"self": lists["params"], "grads": lists["grads"], "lr": 1e-4}
    fn = diopi_header.load()["diopiFusedAdamW"]
    monkeypatch.setattr(model_cases, "MAX_STORED_BYTES", 3 * 4 * 520_000)  # three outputs per entry, float32
    assert model_cases.skip_reason(adam, fn)
    part = model_cases.partial_case(adam, fn=fn)
    kept = [d["tensor"][0] for d in part["diopi_args"]["params"]]
    assert kept == [200_000, 300_000]  # in model order; the next distinct sizes no longer fit
    assert not model_cases.skip_reason(part, fn)
