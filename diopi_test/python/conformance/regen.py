"""Inputs regenerated from their seed instead of stored.

Large generated inputs dominate baseline size, yet they are a pure function
of the case seed and the generators of `conformance.gen` (numpy only). A
baseline may therefore keep, instead of an input's bytes, the recipe that
draws it (generator class, its fields, dtype, shape, in draw order) plus
the sha256 of the bytes gen_data drew. The replaying side draws them again
and refuses the baseline if a digest differs (for instance when a numpy
release changed a sampling algorithm), so a regenerated input is exactly
the input the reference saw.

Only generator classes defined in `conformance.gen` are accepted, built
from plain numeric fields: a recipe cannot name anything else.
"""
import dataclasses
import hashlib

import numpy as np

from . import dtypes, gen

# Inputs smaller than this are stored: regenerating them saves little.
MIN_BYTES = 1 << 16

_GENERATORS = {
    name: cls for name, cls in vars(gen).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == gen.__name__
}


class RegenError(Exception):
    """A recipe that cannot be trusted or does not reproduce its input."""


def _describe(g):
    """(class name, fields) of a generator from conformance.gen, else None."""
    cls = type(g)
    if _GENERATORS.get(cls.__name__) is not cls:
        return None
    fields = dataclasses.asdict(g)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in fields.values()):
        return None
    return cls.__name__, fields


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def compact(record, case, generated):
    """Replaces the bytes of large inputs that are exactly what the case's
    generators drew by a digest, and adds the draw recipe to `record`.
    `generated` maps tensor names to (array, dtype) or lists of them, in the
    order they were drawn. Leaves the record alone when any generator of the
    case is not reproducible from a recipe."""
    recipe = []
    for name, t in case.op.tensors.items():
        desc = _describe(t.gen)
        if desc is None:
            return record
        shape = case.shapes[name]
        is_list = isinstance(generated[name], list)
        recipe.append([name, desc[0], desc[1], t.dtype or case.dtype,
                       [list(s) for s in shape] if is_list else list(shape), is_list])
    changed = False
    for name, value in generated.items():
        stored = record["inputs"].get(name)
        pairs = list(zip(stored, value)) if isinstance(value, list) and isinstance(stored, list) else [(stored, value)]
        for enc, (array, _) in pairs:
            if not (isinstance(enc, dict) and isinstance(enc.get("data"), bytes)) or len(enc["data"]) < MIN_BYTES:
                continue
            drawn = np.ascontiguousarray(array).reshape(-1).view(np.uint8)  # compared without a copy
            if not np.array_equal(np.frombuffer(enc["data"], dtype=np.uint8), drawn):
                continue  # `prepare` replaced or altered it: keep the bytes
            enc["sha256"] = _digest(enc["data"])
            enc["data"] = None
            changed = True
    if changed:
        record["regen"] = recipe
    return record


def check_recipe(recipe):
    if not isinstance(recipe, list):
        raise RegenError("input recipe is not a list")
    for item in recipe:
        if not (isinstance(item, list) and len(item) == 6):
            raise RegenError("malformed input recipe entry")
        name, cls_name, fields, dtype, shape, is_list = item
        if cls_name not in _GENERATORS:
            raise RegenError(f"input recipe names unknown generator {cls_name!r}")
        if dtype not in dtypes.NAMES:
            raise RegenError(f"input recipe names unknown dtype {dtype!r}")
        if not isinstance(fields, dict) or not all(
                isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool) for k, v in fields.items()):
            raise RegenError("input recipe has non-numeric generator fields")
        shapes = shape if is_list else [shape]
        if not all(isinstance(s, list) and all(isinstance(d, int) and d >= 0 for d in s) for s in shapes):
            raise RegenError("input recipe has a malformed shape")


def expanded(record):
    """A copy of `record` with its regenerated inputs filled in; `record`
    itself (cached by a worker) keeps only the recipes."""
    if record.get("regen") is None:
        return record

    def copy(v):
        if isinstance(v, dict):
            return dict(v)
        return [copy(x) for x in v] if isinstance(v, list) else v
    return expand(dict(record, inputs={k: copy(v) for k, v in record["inputs"].items()}))


def expand(record):
    """Fills in the regenerated inputs of a loaded record (in place)."""
    recipe = record.get("regen")
    if recipe is None:
        return record
    check_recipe(recipe)
    rng = np.random.default_rng(record["seed"])
    for name, cls_name, fields, dtype, shape, is_list in recipe:
        try:
            g = _GENERATORS[cls_name](**fields)
        except TypeError as e:
            raise RegenError(f"input recipe for {name}: {e}") from None
        shapes = shape if is_list else [shape]
        drawn = [np.ascontiguousarray(g(rng, tuple(s), dtype)) for s in shapes]
        stored = record["inputs"].get(name)
        encs = stored if is_list else [stored]
        if not isinstance(encs, list):
            continue
        for enc, arr in zip(encs, drawn):
            if not (isinstance(enc, dict) and enc.get("data") is None and "sha256" in enc):
                continue
            data = arr.tobytes()
            if _digest(data) != enc["sha256"]:
                raise RegenError(f"regenerated input {name!r} of {record.get('name')} differs from the one the reference "
                                 f"saw (numpy {np.__version__} draws differently?); regenerate the baselines")
            enc["data"] = data
            del enc["sha256"]
    del record["regen"]
    return record
