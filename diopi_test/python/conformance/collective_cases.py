"""The cases of the collective family and their expected values (numpy only).

`expand(world_size)` turns configs/collective.py into named cases, taking each function's dtypes from its
documented input dtypes and the reductions from diopiReduceOp_t, both read from the header model. A case is
plain data (a dict), sent as is to every rank process. `inputs(case, rank)` draws a rank's values from the
case's seed; `expected(case, rank)` computes what that rank must receive from every rank's inputs, in float64
for floating-point dtypes.

Case names: `<function>::ws<N>::<dtype>::<shape>::<parameters>::<layout>`, e.g.
`comm_all_reduce::ws2::float32::33x5::op=sum,in_place::noncontig`.
"""
import zlib

import diopi_header
import numpy as np

from . import arguments, dtypes, enums, tolerances

FAMILY = "collective"
CONTIGUOUS, NONCONTIG = "contiguous", "noncontig"

# kind -> C function checked
FUNCTIONS = {
    "init": "diopiCommInitRank",
    "all_reduce": "diopiCommAllReduce",
    "broadcast": "diopiCommBroadcast",
    "reduce": "diopiCommReduce",
    "all_gather": "diopiCommAllGather",
    "reduce_scatter": "diopiCommReduceScatter",
    "all_to_all": "diopiCommAllToAll",
    "send_recv": "diopiCommSend",
    "barrier": "diopiCommBarrier",
    "back_to_back": "diopiCommAllReduce",
    "many_comms": "diopiCommInitRank",
    "group": "diopiCommGroupEnd",
    "matmul_all_reduce": "diopiMatmulAllReduce",
    "peer_death": "diopiCommAllReduce",
    "invalid": None,  # the function is in the case
}
# Functions every run calls inside cases charged to another function: kind of the case -> those functions.
CALLED_BY = {
    "init": ("diopiCommGetUniqueId", "diopiCommGetRank", "diopiCommGetSize", "diopiCommGetName", "diopiCommGetVersion"),
    "many_comms": ("diopiCommDestroy",),
    "peer_death": ("diopiCommAbort",),
    "group": ("diopiCommGroupStart",),
    "send_recv": ("diopiCommRecv", "diopiCommGroupStart", "diopiCommGroupEnd"),
    "matmul_all_reduce": ("diopiCommGetName",),
}
# Functions whose every rank must receive the same bytes.
IDENTICAL = ("all_reduce", "broadcast", "all_gather", "back_to_back", "many_comms", "matmul_all_reduce")


def config():
    from configs import collective
    return collective


def reduce_ops():
    """"sum" -> diopiReduceSum's value, ..., from the header's diopiReduceOp_t (spelt as configs spell enums)."""
    return dict(enums.config_values("enum_reduce_op"))


def documented_dtypes(func, param="input"):
    """The dtypes the header documents for a parameter, those numpy can hold."""
    return [d for d in diopi_header.load()[func].param(param).dtypes if d in dtypes.NAMES]


def accepts(dtype, op):
    """Whether the header's reduction rules accept dtype with op (else diopiDtypeNotSupported is due)."""
    if op == "avg" and dtype not in dtypes.FLOATING + dtypes.COMPLEX:
        return False
    return not (dtype in dtypes.COMPLEX and op not in ("sum", "avg"))


def _tag(shape):
    return "x".join(str(d) for d in shape) if len(shape) else "0d"


def _case(kind, ws, dtype, shape, params, layout=CONTIGUOUS, **fields):
    func = fields.pop("func", None) or FUNCTIONS[kind]
    tag = fields.pop("tag", None) or _tag(shape)
    ptext = ",".join(k if v is True else f"{k}={v}" for k, v in params.items() if v is not False and v is not None) or "-"
    name = "::".join([diopi_header.snake(func), f"ws{ws}", dtype, tag, ptext, layout])
    if kind in ("back_to_back", "many_comms", "group", "peer_death", "invalid", "barrier", "init"):
        name = "::".join([diopi_header.snake(func), f"ws{ws}", kind, dtype, tag, ptext, layout])
    case = dict(name=name, func=func, kind=kind, world_size=ws, dtype=dtype, shape=tuple(shape), layout=layout,
                seed=zlib.crc32(name.encode()) & 0x7FFFFFFF, **params)
    case.update(fields)
    return case


def expand(world_size):
    """Every case for one world size, in a fixed order (the communicator's creation first)."""
    cfg, ws = config(), world_size
    ops = list(reduce_ops())
    out = [_case("init", ws, "none", (), {})]
    m, v, e = cfg.MATRIX, cfg.VECTOR, cfg.EMPTY
    for d in documented_dtypes("diopiCommAllReduce"):
        for op in ops:
            if not accepts(d, op):
                out.append(_case("all_reduce", ws, d, m, {"op": op}, expect="refuse"))
                continue
            out += [_case("all_reduce", ws, d, v, {"op": op}), _case("all_reduce", ws, d, e, {"op": op}),
                    _case("all_reduce", ws, d, m, {"op": op}, NONCONTIG),
                    _case("all_reduce", ws, d, m, {"op": op, "in_place": True}),
                    _case("all_reduce", ws, d, m, {"op": op, "in_place": True}, NONCONTIG)]
    out.append(_case("all_reduce", ws, "float32", cfg.LARGE, {"op": "sum"}))
    for d in documented_dtypes("diopiCommBroadcast"):
        for root in sorted({0, ws - 1}):
            out += [_case("broadcast", ws, d, v, {"root": root}), _case("broadcast", ws, d, m, {"root": root}, NONCONTIG),
                    _case("broadcast", ws, d, m, {"root": root, "in_place": True})]
        out.append(_case("broadcast", ws, d, e, {"root": 0}))
    for d in documented_dtypes("diopiCommReduce"):
        for op in ops:
            if accepts(d, op):
                out += [_case("reduce", ws, d, m, {"op": op, "root": ws - 1}),
                        _case("reduce", ws, d, m, {"op": op, "root": 0, "in_place": True}, NONCONTIG)]
        out.append(_case("reduce", ws, d, e, {"op": "sum", "root": 0}))
    for d in documented_dtypes("diopiCommAllGather"):
        out += [_case("all_gather", ws, d, v, {"out": "flat"}), _case("all_gather", ws, d, m, {"out": "stacked"}, NONCONTIG),
                _case("all_gather", ws, d, e, {"out": "flat"})]
    for d in documented_dtypes("diopiCommReduceScatter"):
        for op in ops:
            if accepts(d, op):
                out += [_case("reduce_scatter", ws, d, (ws * 33, 5), {"op": op}),
                        _case("reduce_scatter", ws, d, (ws * 33, 5), {"op": op}, NONCONTIG)]
        out.append(_case("reduce_scatter", ws, d, (0, 5), {"op": "sum"}))
    for d in documented_dtypes("diopiCommAllToAll"):
        rows = (0, m[1])  # dimension 0 comes from the split sizes of each rank
        for splits in cfg.ALL_TO_ALL_SPLITS:
            out.append(_case("all_to_all", ws, d, rows, {"splits": splits}, tag=f"rowsx{m[1]}"))
        out.append(_case("all_to_all", ws, d, rows, {"splits": "uneven"}, NONCONTIG, tag=f"rowsx{m[1]}"))
    for d in documented_dtypes("diopiCommSend"):
        out += [_case("send_recv", ws, d, m, {"pattern": "pair"}), _case("send_recv", ws, d, m, {"pattern": "ring"}, NONCONTIG)]
    out.append(_case("barrier", ws, "none", (), {}))
    for d in ("float32", "int64"):
        out.append(_case("back_to_back", ws, d, v, {"calls": cfg.BACK_TO_BACK}))
    out.append(_case("many_comms", ws, "float32", m, {"comms": cfg.COMMUNICATORS, "halves": ws >= 4}))
    out.append(_case("group", ws, "float32", m, {"calls": 3}, func="diopiCommGroupEnd"))
    for (s1, s2) in cfg.MATMUL_SHAPES:
        for d in ("float32", "float64", "float16", "bfloat16"):
            for bias in (True, False):
                out.append(_case("matmul_all_reduce", ws, d, s1, {"n": s2[1], "bias": bias}))
    out += _invalid(ws)
    out.append(_case("peer_death", ws, "float32", v, {"timeout_ms": cfg.PEER_DEATH_TIMEOUT_MS}))
    return out


def _invalid(ws):
    """Arguments a rank can see are wrong: refused with diopiErrorOccurred before anything is exchanged."""
    m = config().MATRIX
    return [
        _case("invalid", ws, "float32", m, {"what": "root_out_of_range"}, func="diopiCommBroadcast"),
        _case("invalid", ws, "float32", m, {"what": "all_gather_out_too_small"}, func="diopiCommAllGather"),
        _case("invalid", ws, "float32", m, {"what": "split_sizes_do_not_sum"}, func="diopiCommAllToAll"),
        _case("invalid", ws, "float32", m, {"what": "out_shape_differs"}, func="diopiCommAllReduce"),
    ]


# ---------------------------------------------------------------- values
def _rng(case, rank, salt=0):
    return np.random.default_rng([case["seed"], rank, salt])


def draw(dtype, shape, rng, op=None):
    """Values of `dtype` kept small, so that sums and products of up to 8 ranks stay exact for integers and in
    range for float16; products draw around 1."""
    shape = tuple(shape)
    if dtype == "bool":
        return rng.random(shape) < (0.7 if op in ("prod", "min") else 0.3)
    if dtype in dtypes.COMPLEX:
        z = rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)
        return z.astype(dtypes.storage(dtype))
    if dtype in dtypes.FLOATING:
        x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape) if op == "prod" else rng.uniform(-1, 1, shape)
        return dtypes.from_values(x, dtype)
    info = np.iinfo(dtypes.storage(dtype))
    if op == "prod":
        return rng.choice([1, 2] if info.min == 0 else [-1, 1, 2], shape).astype(dtypes.storage(dtype))
    lo, hi = (0, 20) if info.min == 0 else (-10, 10)
    return rng.integers(lo, hi, shape, endpoint=True).astype(dtypes.storage(dtype))


def _split_table(case):
    """rows[r][j]: rows rank r sends to rank j (all-to-all)."""
    ws, kind = case["world_size"], case["splits"]
    if kind == "equal":
        return [[2] * ws for _ in range(ws)]
    if kind == "uneven":
        return [[(r + 2 * j) % 3 for j in range(ws)] for r in range(ws)]
    return [[3 if j == (r + 1) % ws else 0 for j in range(ws)] for r in range(ws)]


def shapes(case, rank):
    """{"input": shape, "out": shape} of this rank's tensors (None: not passed)."""
    kind, ws, shape = case["kind"], case["world_size"], tuple(case["shape"])
    if kind == "all_gather":
        n = int(np.prod(shape))
        return {"input": shape, "out": (ws * n,) if case["out"] == "flat" else (ws,) + shape}
    if kind == "reduce_scatter":
        return {"input": shape, "out": (shape[0] // ws,) + shape[1:]}
    if kind == "all_to_all":
        table = _split_table(case)
        return {"input": (sum(table[rank]),) + shape[1:], "out": (sum(table[j][rank] for j in range(ws)),) + shape[1:]}
    return {"input": shape, "out": shape}


def split_sizes(case, rank):
    """(out_split_sizes, in_split_sizes) of this rank, () for equal blocks."""
    table = _split_table(case)
    if case["splits"] == "equal":
        return (), ()
    ws = case["world_size"]
    return tuple(table[j][rank] for j in range(ws)), tuple(table[rank])


def inputs(case, rank):
    """This rank's input values (numpy storage arrays)."""
    kind, d = case["kind"], case["dtype"]
    rng = _rng(case, rank)
    if kind == "matmul_all_reduce":
        x1 = tuple(case["shape"])
        k = x1[-1]
        out = {"x1": draw(d, x1, rng), "x2": draw(d, (k, case["n"]), rng)}
        if case["bias"]:
            out["bias"] = draw(d, (case["n"],), _rng(case, 1 << 20))  # the same bias on every rank
        return out
    if kind in ("back_to_back", "group"):
        return {f"input{i}": draw(d, case["shape"], _rng(case, rank, i)) for i in range(case["calls"])}
    if kind == "many_comms":
        return {f"input{i}": draw(d, case["shape"], _rng(case, rank, i)) for i in range(case["comms"] + 2)}
    if kind in ("barrier", "init", "invalid"):
        return {"input": draw(d, case["shape"], rng)} if d != "none" else {}
    return {"input": draw(d, shapes(case, rank)["input"], rng, case.get("op"))}


def _values(array, dtype):
    a = dtypes.to_values(array, dtype)
    if dtype in dtypes.COMPLEX:
        return a.astype(np.complex128)
    if dtype in dtypes.FLOATING:
        return a.astype(np.float64)
    return a


def reduce_arrays(arrays, dtype, op):
    """The reduction of the ranks' arrays, in the dtype's storage."""
    ws = len(arrays)
    if dtype == "bool":
        stack = np.stack(arrays)
        return stack.any(0) if op in ("sum", "max") else stack.all(0)
    stack = np.stack([_values(a, dtype) for a in arrays])
    if dtype in dtypes.FLOATING + dtypes.COMPLEX:
        r = {"sum": stack.sum(0), "prod": stack.prod(0), "min": stack.min(0), "max": stack.max(0), "avg": stack.sum(0) / ws}[op]
        return dtypes.from_values(r, dtype)
    wide = stack.astype(np.int64)
    r = {"sum": wide.sum(0), "prod": wide.prod(0), "min": wide.min(0), "max": wide.max(0)}[op]
    return r.astype(dtypes.storage(dtype))  # wraps like the dtype's own arithmetic


def expected(case, rank):
    """{output name: expected array} this rank must hold after the case (empty: nothing to compare)."""
    kind, ws, d = case["kind"], case["world_size"], case["dtype"]
    every = [inputs(case, r) for r in range(ws)]
    if kind == "all_reduce":
        return {"out": reduce_arrays([x["input"] for x in every], d, case["op"])}
    if kind == "broadcast":
        return {"out": every[case["root"]]["input"]}
    if kind == "reduce":
        return {"out": reduce_arrays([x["input"] for x in every], d, case["op"])} if rank == case["root"] else {}
    if kind == "all_gather":
        flat = np.concatenate([x["input"].reshape(-1) for x in every])
        return {"out": flat.reshape(shapes(case, rank)["out"])}
    if kind == "reduce_scatter":
        full = reduce_arrays([x["input"] for x in every], d, case["op"]).reshape(-1)
        n = full.size // ws
        return {"out": full[rank * n:(rank + 1) * n].reshape(shapes(case, rank)["out"])}
    if kind == "all_to_all":
        table = _split_table(case)
        blocks = []
        for j in range(ws):
            start = sum(table[j][:rank])
            blocks.append(every[j]["input"][start:start + table[j][rank]])
        return {"out": np.concatenate(blocks)}
    if kind == "send_recv":
        if case["pattern"] == "pair":
            return {"out": every[0]["input"]} if rank == ws - 1 else {}
        return {"out": every[(rank - 1) % ws]["input"]}
    if kind in ("back_to_back", "group"):
        return {f"out{i}": reduce_arrays([x[f"input{i}"] for x in every], d, "sum") for i in range(case["calls"])}
    if kind == "many_comms":
        out = {f"out{i}": reduce_arrays([x[f"input{i}"] for x in every], d, "sum") for i in range(case["comms"])}
        if case["halves"]:
            half = ws // 2
            members = list(range(half)) if rank < half else list(range(half, ws))
            out["out_half"] = reduce_arrays([every[r][f"input{case['comms']}"] for r in members], d, "sum")
        return out
    if kind == "matmul_all_reduce":
        acc = sum(_values(x["x1"], d) @ _values(x["x2"], d) for x in every)
        if case["bias"]:
            acc = acc + _values(every[0]["bias"], d)
        return {"out": dtypes.from_values(acc, d)}
    return {}


def tolerance(case):
    """(atol, rtol) for the case's floating-point outputs, or None (exact)."""
    d = case["dtype"]
    terms = case["world_size"]
    if case["kind"] == "matmul_all_reduce":
        terms *= case["shape"][-1]
    if d in ("float16", "bfloat16") and case["kind"] == "matmul_all_reduce":
        # The header lets a half-precision matmul round its product before the reduction: one more rounding per rank.
        return tolerances.resolve(d, None, {"terms": terms, "steps": 2})
    return tolerances.resolve(d, None, terms)


def layout_strides(shape, layout):
    return arguments.layout_strides(tuple(shape), layout)


def documented(func):
    """The collective cases' dtypes of `func`'s main input, as the dtype-coverage test reads them."""
    return sorted({c["dtype"] for c in expand(2) if c["func"] == func and c["dtype"] != "none"})


def checked_functions(world_size=2):
    """Every function the collective cases call: the one each case is charged to, and those called along."""
    out = set()
    for c in expand(world_size):
        out.add(c["func"])
        out.update(CALLED_BY.get(c["kind"], ()))
    return out
