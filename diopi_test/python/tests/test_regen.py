"""Large generated inputs are stored as a recipe plus digest and drawn again
on load; a recipe that does not reproduce its digest, or names anything but
a generator of conformance.gen, is refused."""
import copy

import numpy as np
import pytest

from conformance import expand, gen, regen, spec, store
from support import save_cases


def _case(shape=(300, 300), gen_=gen.randn(scale=2.0)):
    op = spec.Op("diopiAbs", lambda input: input.abs(), tensors=dict(input=spec.T(gen_)), shapes=((shape,),),
                 dtypes=("float32",))
    return expand.Case(name="abs::float32::big", op=op, family="elementwise_unary", dtype="float32",
                       shapes={"input": shape}, params={}, seed=1234)


def _record(case):
    rng = np.random.default_rng(case.seed)
    arr = case.op.tensors["input"].gen(rng, case.shapes["input"], "float32")
    record = {"name": case.name, "seed": case.seed, "inputs": {"input": store.encode_array(arr, "float32")}, "outputs": {}}
    return regen.compact(record, case, {"input": (arr, "float32")}), arr


def _save_and_load(tmp_path, record):
    save_cases(tmp_path, "diopiAbs", [record])
    return store.load_function(str(tmp_path), "diopiAbs")


def test_large_input_is_stored_as_a_recipe_and_restored_exactly(tmp_path):
    record, arr = _record(_case())
    assert record["inputs"]["input"]["data"] is None and "regen" in record
    (loaded,) = _save_and_load(tmp_path, record)
    got, _ = store.decode_array(loaded["inputs"]["input"])
    assert got.tobytes() == arr.tobytes()


def test_small_inputs_keep_their_bytes():
    record, arr = _record(_case(shape=(3, 4)))
    assert record["inputs"]["input"]["data"] == arr.tobytes() and "regen" not in record


def test_recipe_that_draws_other_values_is_refused(tmp_path):
    record, _ = _record(_case())
    bad = copy.deepcopy(record)
    bad["regen"][0][2]["scale"] = 3.0  # same generator, different draw
    with pytest.raises(store.BaselineError, match="differs from the one the reference saw"):
        _save_and_load(tmp_path, bad)


def test_recipe_naming_a_foreign_callable_is_refused(tmp_path):
    record, _ = _record(_case())
    bad = copy.deepcopy(record)
    bad["regen"][0][1] = "system"
    with pytest.raises(store.BaselineError, match="unknown generator 'system'"):
        _save_and_load(tmp_path, bad)


def test_generators_outside_conformance_gen_are_never_compacted():
    class Custom:
        def __call__(self, rng, shape, dtype):
            return rng.standard_normal(shape).astype(np.float32)

    record, _ = _record(_case(gen_=Custom()))
    assert record["inputs"]["input"]["data"] is not None and "regen" not in record
