"""Child process of test_graph_compiler.py (vendor code never runs in the
test's own process): compiles a small graph through the library's
diopi/graph.h compiler, runs it, runs the same nodes one call at a time, and
prints both results as JSON.

    python graph_child.py LIB CASE      CASE: chain | declined | symbols | literals | pointers | absent
"""
import json
import sys

import numpy as np

from conformance import binding

F32 = 9  # diopi_dtype_float32, checked against the header model below
GRAPH_VERSION = 1100  # the graph.h this file builds graphs for, checked against the header model below


class Builder:
    def __init__(self, lib):
        self.lib, self.ffi = lib, lib.ffi
        self.keep = []
        self.tensors = []   # (role, index, shape, view_of, offset)
        self.nodes = []     # (function, [args])

    def tensor(self, role, shape, index=-1, view_of=-1, offset=0, stride=None):
        self.tensors.append((role, index, list(shape), view_of, offset, stride))
        return len(self.tensors) - 1

    def node(self, fn, *args):
        self.nodes.append((fn, list(args)))

    def graph(self, n_inputs, n_outputs, uses):
        ffi = self.ffi
        ts = ffi.new("diopiGraphTensor_t[]", len(self.tensors))
        for i, (role, index, shape, view_of, offset, stride) in enumerate(self.tensors):
            t = ts[i]
            t.role, t.index, t.dtype, t.ndim = role, index, F32, len(shape)
            t.shape = self._keep(ffi.new("int64_t[]", shape or [0]))
            t.stride = self._keep(ffi.new("int64_t[]", stride)) if stride else ffi.NULL
            t.view_of, t.offset = view_of, offset
            t.first_use, t.last_use = uses.get(i, (-1, -1))
        ns = ffi.new("diopiGraphNode_t[]", len(self.nodes))
        for i, (fn, args) in enumerate(self.nodes):
            arr = ffi.new("diopiGraphArg_t[]", max(1, len(args)))
            for k, (kind, value) in enumerate(args):
                a = arr[k]
                if kind == "tensor":
                    a.kind, a.i = 1, value
                elif kind == "scalar":
                    a.kind = 3
                    a.scalar.stype, a.scalar.fval = 10, value  # float64 scalar
                elif kind == "int":
                    a.kind, a.i = 4, value
                elif kind in ("ints", "sym_ints"):  # literal / symbolic integer array (graph.h 1.1)
                    a.kind, a.len = (6 if kind == "ints" else 9), len(value)
                    a.ints = self._keep(ffi.new("int64_t[]", value))
                elif kind == "sym_int":
                    a.kind, a.i = 10, value
                elif kind == "float":
                    a.kind, a.f = 5, value
                elif kind == "generator":
                    a.kind = 8
                elif kind == "none":
                    a.kind = 0
            ns[i].function = self._keep(ffi.new("char[]", fn.encode()))
            ns[i].num_args, ns[i].args = len(args), self._keep(arr)
        g = ffi.new("diopiGraph_t*")
        g.version, g.size = GRAPH_VERSION, ffi.sizeof("diopiGraph_t")
        g.name = self._keep(ffi.new("char[]", b"test"))
        g.num_tensors, g.tensors = len(self.tensors), self._keep(ts)
        g.num_nodes, g.nodes = len(self.nodes), self._keep(ns)
        g.num_inputs, g.num_outputs, g.num_symbols = n_inputs, n_outputs, 0
        return g

    def _keep(self, x):
        self.keep.append(x)
        return x


def host_tensor(lib, arr):
    ffi, rt = lib.ffi, lib.rt
    arr = np.ascontiguousarray(arr, dtype=np.float32)
    t = rt.dt_tensor_create(ffi.new("int64_t[]", list(arr.shape) or [0]), ffi.NULL, arr.ndim, F32, 0, -1, 1)  # device memory (impl/sim cannot compute on host memory)
    rt.dt_tensor_write_storage(t, ffi.from_buffer(arr), arr.nbytes)
    return t


def read(lib, t, shape):
    out = np.zeros(shape, dtype=np.float32)
    lib.rt.dt_tensor_read_storage(t, lib.ffi.from_buffer(out), out.nbytes)
    return out


def main(path, case):
    import diopi_header
    assert diopi_header.dtypes()["float32"] == F32 and diopi_header.dtypes()["float64"] == 10
    assert diopi_header.macros()["DIOPI_GRAPH_VERSION"] == GRAPH_VERSION
    lib = binding.Library(path)
    get = lib.function("diopiGetGraphCompiler")
    if case == "absent":
        print(json.dumps({"exported": get is not None}))
        return
    gc = get()
    ffi = lib.ffi
    if case == "symbols":
        print(json.dumps(symbols(lib, gc)))
        return
    if case == "literals":
        print(json.dumps(literals(lib, gc)))
        return
    if case == "pointers":
        print(json.dumps(pointers(lib, gc)))
        return
    rng = np.random.default_rng(0)
    x, y, w = rng.standard_normal((5, 300)), rng.standard_normal((300,)), rng.standard_normal((5, 300))
    b = Builder(lib)
    IN, OUT, MID = 0, 1, 2
    tx, ty, tw = b.tensor(IN, x.shape, 0), b.tensor(IN, y.shape, 1), b.tensor(IN, w.shape, 2)
    t0, t1 = b.tensor(MID, x.shape), b.tensor(MID, x.shape)
    o_mul = b.tensor(OUT, x.shape, 1)
    t3 = b.tensor(MID, x.shape)
    o_soft = b.tensor(OUT, x.shape, 0)
    t5 = b.tensor(MID, x.shape)
    o_last = b.tensor(OUT, x.shape, 2)
    # a chain of fusible nodes (broadcast add with alpha, silu, scalar mul, mul), a call
    # (softmax) in the middle, then a second chain reading the call's result and the first chain's output
    b.node("diopiAdd", ("tensor", t0), ("tensor", tx), ("tensor", ty), ("scalar", 0.5))
    b.node("diopiSilu", ("tensor", t1), ("tensor", t0))
    b.node("diopiMulScalar", ("tensor", o_mul), ("tensor", t1), ("scalar", 3.0))
    b.node("diopiMul", ("tensor", t3), ("tensor", o_mul), ("tensor", tw))
    b.node("diopiSoftmax", ("tensor", o_soft), ("tensor", t3), ("int", 1))
    b.node("diopiSub", ("tensor", t5), ("tensor", o_soft), ("tensor", o_mul), ("scalar", 2.0))
    b.node("diopiTanh", ("tensor", o_last), ("tensor", t5))
    if case == "declined":
        # a call given a view: the runtime cannot make a handle over a caller's memory, so it is declined
        tv = b.tensor(4, (300,), view_of=tx, offset=300)
        ov = b.tensor(OUT, (300,), 3)
        b.node("diopiSoftmax", ("tensor", ov), ("tensor", tv), ("int", 0))
    uses = {t0: (0, 1), t1: (1, 2), t3: (3, 4), t5: (5, 6)}
    g = b.graph(3, 3 if case == "chain" else 4, uses)
    ctx = lib.rt.dt_context_create()
    exe = ffi.new("diopiGraphExecutableHandle_t*")
    declined = ffi.new("int32_t[]", g.num_nodes)
    n_declined = ffi.new("int32_t*")
    rc = gc.compile(ctx, g, exe, declined, n_declined)
    result = {"compile_rc": rc, "declined": [declined[i] for i in range(n_declined[0])], "error": lib.last_error(),
              "name": ffi.string(gc.name).decode()}
    if rc != 0 or exe[0] == ffi.NULL:
        print(json.dumps(result))
        return
    ins = [host_tensor(lib, a) for a in (x, y, w)]
    outs = [host_tensor(lib, np.zeros(x.shape)) for _ in range(3)]
    rc = gc.run(ctx, exe[0], ffi.new("diopiConstTensorHandle_t[]", ins), ffi.new("diopiTensorHandle_t[]", outs), ffi.NULL)
    lib.rt.dt_context_sync(ctx)
    result["run_rc"], result["run_error"] = rc, lib.last_error()
    result["graph"] = [read(lib, t, x.shape).tolist() for t in outs]
    # the same nodes one call at a time
    h = {tx: ins[0], ty: ins[1], tw: ins[2]}
    for t in (t0, t1, o_mul, t3, o_soft, t5, o_last):
        h[t] = host_tensor(lib, np.zeros(x.shape))
    calls = []
    for fn, args in b.nodes:
        cargs = [ctx]
        for kind, v in args:
            if kind == "tensor":
                cargs.append(h[v])
            elif kind == "scalar":
                s = ffi.new("diopiScalar_t*")
                s.stype, s.fval = 10, v
                cargs.append(s)
            else:
                cargs.append(v)
        calls.append(lib.function(fn)(*cargs))
    lib.rt.dt_context_sync(ctx)
    result["call_rcs"] = calls
    result["calls"] = [read(lib, h[t], x.shape).tolist() for t in (o_soft, o_mul, o_last)]
    gc.destroy(exe[0])
    print(json.dumps(result))


def symbols(lib, gc):
    """Sizes given at run time: a graph over [s0, 300] compiled once, run with s0 = 5 and 2, against the calls."""
    ffi = lib.ffi
    b = Builder(lib)
    tx = b.tensor(0, (-1, 300), 0)
    t0 = b.tensor(2, (-1, 300))
    to = b.tensor(1, (-1, 300), 0)
    b.node("diopiSoftmax", ("tensor", t0), ("tensor", tx), ("int", 1))
    b.node("diopiExp", ("tensor", to), ("tensor", t0))
    g = b.graph(1, 1, {t0: (0, 1)})
    g.num_symbols = 1
    ctx = lib.rt.dt_context_create()
    exe, declined, nd = ffi.new("diopiGraphExecutableHandle_t*"), ffi.new("int32_t[]", 2), ffi.new("int32_t*")
    rc = gc.compile(ctx, g, exe, declined, nd)
    out = {"compile_rc": rc, "declined": [declined[i] for i in range(nd[0])], "runs": []}
    if rc != 0 or exe[0] == ffi.NULL:
        return out
    rng = np.random.default_rng(1)
    for rows in (5, 2):
        x = rng.standard_normal((rows, 300))
        xi, o = host_tensor(lib, x), host_tensor(lib, np.zeros(x.shape))
        rc = gc.run(ctx, exe[0], ffi.new("diopiConstTensorHandle_t[]", [xi]), ffi.new("diopiTensorHandle_t[]", [o]),
                    ffi.new("int64_t[]", [rows]))
        lib.rt.dt_context_sync(ctx)
        mid, ref = host_tensor(lib, np.zeros(x.shape)), host_tensor(lib, np.zeros(x.shape))
        calls = [lib.function("diopiSoftmax")(ctx, mid, xi, 1), lib.function("diopiExp")(ctx, ref, mid)]
        lib.rt.dt_context_sync(ctx)
        out["runs"].append({"rc": rc, "error": lib.last_error(), "call_rcs": calls, "graph": read(lib, o, x.shape).tolist(),
                            "calls": read(lib, ref, x.shape).tolist()})
    gc.destroy(exe[0])
    return out


def literals(lib, gc):
    """Integer arguments: a literal negative dim (sum over dim -1), and integers that are symbols (softmax over
    dim s1, sum over dims [s1]), on a graph over [s0, 300] run with s0 = 4, s1 = 1, against the calls."""
    ffi = lib.ffi
    b = Builder(lib)
    tx = b.tensor(0, (-1, 300), 0)
    o_sum, o_soft, o_sym = b.tensor(1, (-1,), 0), b.tensor(1, (-1, 300), 1), b.tensor(1, (-1,), 2)
    b.node("diopiSum", ("tensor", o_sum), ("tensor", tx), ("ints", [-1]))
    b.node("diopiSoftmax", ("tensor", o_soft), ("tensor", tx), ("sym_int", 1))
    b.node("diopiSum", ("tensor", o_sym), ("tensor", tx), ("sym_ints", [-2]))
    g = b.graph(1, 3, {})
    g.num_symbols = 2
    ctx = lib.rt.dt_context_create()
    exe, declined, nd = ffi.new("diopiGraphExecutableHandle_t*"), ffi.new("int32_t[]", 3), ffi.new("int32_t*")
    rc = gc.compile(ctx, g, exe, declined, nd)
    out = {"compile_rc": rc, "declined": [declined[i] for i in range(nd[0])], "error": lib.last_error()}
    if rc != 0 or exe[0] == ffi.NULL:
        return out
    x = np.random.default_rng(2).standard_normal((4, 300))
    xi = host_tensor(lib, x)
    outs = [host_tensor(lib, np.zeros(s)) for s in ((4,), (4, 300), (4,))]
    rc = gc.run(ctx, exe[0], ffi.new("diopiConstTensorHandle_t[]", [xi]), ffi.new("diopiTensorHandle_t[]", outs),
                ffi.new("int64_t[]", [4, 1]))
    lib.rt.dt_context_sync(ctx)
    out.update(run_rc=rc, run_error=lib.last_error())
    out["graph"] = [read(lib, t, s).tolist() for t, s in zip(outs, ((4,), (4, 300), (4,)))]
    refs = [host_tensor(lib, np.zeros(s)) for s in ((4,), (4, 300), (4,))]
    dims = ffi.new("int64_t[]", [1])
    size = ffi.new("diopiSize_t*")
    size.data, size.len = dims, 1
    out["call_rcs"] = [lib.function("diopiSum")(ctx, refs[0], xi, size[0]), lib.function("diopiSoftmax")(ctx, refs[1], xi, 1),
                       lib.function("diopiSum")(ctx, refs[2], xi, size[0])]
    lib.rt.dt_context_sync(ctx)
    out["calls"] = [read(lib, t, s).tolist() for t, s in zip(refs, ((4,), (4, 300), (4,)))]
    gc.destroy(exe[0])
    return out


def pointers(lib, gc):
    """A size given by pointer (convolution backward's bias_sizes) and a generator of a node that draws nothing
    (attention with p_dropout 0) are served; the same attention with dropout is declined, as random nodes stay
    with the framework's generator."""
    ffi = lib.ffi
    rng = np.random.default_rng(3)
    shapes = {"go": (1, 3, 3, 3), "x": (1, 2, 5, 5), "w": (3, 2, 3, 3), "q": (1, 4, 2, 8), "k": (1, 4, 2, 8), "v": (1, 4, 2, 8)}
    data = {k: rng.standard_normal(s) for k, s in shapes.items()}
    out_shapes = [(1, 2, 5, 5), (3, 2, 3, 3), (3,), (1, 4, 2, 8), (1, 2, 4)]

    def build(p_dropout):
        b = Builder(lib)
        t = {k: b.tensor(0, s, i) for i, (k, s) in enumerate(shapes.items())}
        o = [b.tensor(1, s, i) for i, s in enumerate(out_shapes)]
        b.node("diopiConvolution2dBackward", ("tensor", o[0]), ("tensor", o[1]), ("tensor", o[2]), ("tensor", t["go"]),
               ("tensor", t["x"]), ("tensor", t["w"]), ("ints", [3]), ("ints", [1, 1]), ("ints", [0, 0]), ("ints", [1, 1]),
               ("int", 1))
        b.node("diopiFlashAttention", ("tensor", o[3]), ("tensor", o[4]), ("generator", None), ("tensor", t["q"]),
               ("tensor", t["k"]), ("tensor", t["v"]), ("none", None), ("float", p_dropout), ("float", 0.35), ("int", 0),
               ("int", -1), ("int", -1))
        return b, b.graph(len(shapes), len(out_shapes), {})

    ctx = lib.rt.dt_context_create()
    out = {}
    b2, g2 = build(0.5)
    exe, declined, nd = ffi.new("diopiGraphExecutableHandle_t*"), ffi.new("int32_t[]", 2), ffi.new("int32_t*")
    out["dropout_rc"] = gc.compile(ctx, g2, exe, declined, nd)
    out["dropout_declined"] = [declined[i] for i in range(nd[0])]
    b, g = build(0.0)
    exe, declined, nd = ffi.new("diopiGraphExecutableHandle_t*"), ffi.new("int32_t[]", 2), ffi.new("int32_t*")
    rc = gc.compile(ctx, g, exe, declined, nd)
    out.update(compile_rc=rc, declined=[declined[i] for i in range(nd[0])], error=lib.last_error())
    if rc != 0 or exe[0] == ffi.NULL:
        return out
    ins = [host_tensor(lib, data[k]) for k in shapes]
    outs = [host_tensor(lib, np.zeros(s)) for s in out_shapes]
    rc = gc.run(ctx, exe[0], ffi.new("diopiConstTensorHandle_t[]", ins), ffi.new("diopiTensorHandle_t[]", outs), ffi.NULL)
    lib.rt.dt_context_sync(ctx)
    out.update(run_rc=rc, run_error=lib.last_error())
    out["graph"] = [read(lib, t, s).tolist() for t, s in zip(outs, out_shapes)]
    refs = [host_tensor(lib, np.zeros(s)) for s in out_shapes]
    keep = []

    def size(values):
        arr = ffi.new("int64_t[]", values)
        sz = ffi.new("diopiSize_t*")
        sz.data, sz.len = arr, len(values)
        keep.extend([arr, sz])
        return sz
    go, x, w, q, k, v = ins
    out["call_rcs"] = [
        lib.function("diopiConvolution2dBackward")(ctx, refs[0], refs[1], refs[2], go, x, w, size([3]), size([1, 1])[0],
                                                   size([0, 0])[0], size([1, 1])[0], 1),
        lib.function("diopiFlashAttention")(ctx, refs[3], refs[4], ffi.NULL, q, k, v, ffi.NULL, 0.0, 0.35, False, -1, -1)]
    lib.rt.dt_context_sync(ctx)
    out["calls"] = [read(lib, t, s).tolist() for t, s in zip(refs, out_shapes)]
    gc.destroy(exe[0])
    return out


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
