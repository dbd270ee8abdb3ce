"""--mode graph_replay: captured graphs replayed against a vendor's graph compiler (diopi/graph.h).

    python main.py --mode graph_replay --graphs DIR [--impl_lib LIB] [--report_dir OUT]

DIR holds graphs the compile route of the PyTorch device captured
(DIOPI_GRAPH_CAPTURE, bridge/torch/diopi_torch/graph/capture.py, whose
docstring documents the format): per graph a JSON file and an npz of its
input values and of the outputs the capturing library's per-call route
computed. For each graph this module checks the files (a corrupt or foreign
file is refused, never run), then a worker process -- vendor code never runs
in the harness's process -- builds the graph.h structs with cffi, compiles the
graph with the library's compiler, runs it on the recorded inputs and hands
back the outputs, which are compared here with the recorded ones under the
dtype's tolerance (conformance/tolerances.py, grown with the depth of the
output's formula in the graph).

Verdicts per graph: passed; failed (an output differs: the node function that
last wrote it, the output index, max abs/rel difference); declined (the
compiler declined nodes: named, counted apart, not a pass); error (compile or
run returned an error: the status and the library's last error string, or the
worker died); refused (the files). With --report_dir: graph_replay.json and
junit.xml (one test case per graph). A library without a graph compiler is one
message and exit status 1. Exit status 1 on any failed, error or refused graph.
"""
import glob
import json
import os
import select
import subprocess
import sys
import tempfile

import numpy as np

from . import compare, dtypes, tolerances

FORMAT = "diopi-graph"
PASSED, FAILED, DECLINED, ERROR, REFUSED = "passed", "failed", "declined", "error", "refused"
_SCALAR_DTYPES = ("float64", "int64", "bool")


class Refused(Exception):
    """A graph file the harness does not run: corrupt, foreign or not matching its values."""


def _graph_version():
    import diopi_header
    return int(diopi_header.macros()["DIOPI_GRAPH_VERSION"])


def _enum_names(enum, prefix):
    """name (without the prefix) -> value, from the header's enum."""
    import diopi_header
    return {e.name[len(prefix):]: e.value for e in diopi_header.enum(enum).enumerators}


def roles():
    return _enum_names("diopiGraphTensorRole_t", "diopi_graph_tensor_")


def arg_kinds():
    return _enum_names("diopiGraphArgKind_t", "diopi_graph_arg_")


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _need(cond, what):
    if not cond:
        raise Refused(what)


def load(path):
    """(graph, values) of a captured graph, checked; Refused says what is wrong."""
    import diopi_header
    try:
        with open(path) as f:
            g = json.load(f)
    except (OSError, ValueError) as e:
        raise Refused(f"not readable as JSON: {e}") from None
    _need(isinstance(g, dict) and g.get("format") == FORMAT, f"not a captured graph (format is not {FORMAT!r})")
    ours = _graph_version()
    _need(_int(g.get("version")), "no version")
    _need(g["version"] // 1000 == ours // 1000 and g["version"] <= ours,
          f"graph version {g['version']}, this harness reads DIOPI_GRAPH_VERSION {ours} (same major, not newer)")
    for key in ("name", "num_inputs", "num_outputs", "num_symbols", "tensors", "nodes", "capture"):
        _need(key in g, f"missing key {key!r}")
    _need(g["num_symbols"] == 0, "symbolic sizes are not replayed (num_symbols must be 0)")
    role_names, kinds = roles(), arg_kinds()
    ts, nodes = g["tensors"], g["nodes"]
    _need(isinstance(ts, list) and isinstance(nodes, list) and nodes, "tensors and nodes must be lists, nodes not empty")
    seen = {"input": set(), "output": set()}
    for t, d in enumerate(ts):
        _need(isinstance(d, dict), f"tensor {t} is not an object")
        for key in ("role", "index", "dtype", "shape", "stride", "view_of", "offset", "first_use", "last_use"):
            _need(key in d, f"tensor {t}: missing key {key!r}")
        _need(d["role"] in role_names, f"tensor {t}: unknown role {d['role']!r}")
        _need(d["role"] not in ("constant", "view"), f"tensor {t}: a {d['role']} (captured graphs have none)")
        _need(d["dtype"] in dtypes.NAMES, f"tensor {t}: dtype {d['dtype']!r} the harness cannot hold")
        _need(isinstance(d["shape"], list) and all(_int(s) and s >= 0 for s in d["shape"]), f"tensor {t}: bad shape")
        _need(d["stride"] is None or (isinstance(d["stride"], list) and len(d["stride"]) == len(d["shape"])
                                      and all(_int(s) and s >= 0 for s in d["stride"])), f"tensor {t}: bad stride")
        for key in ("index", "view_of", "offset", "first_use", "last_use"):
            _need(_int(d[key]), f"tensor {t}: {key} is not an integer")
        if d["role"] in seen:
            n = g["num_inputs"] if d["role"] == "input" else g["num_outputs"]
            _need(0 <= d["index"] < n and d["index"] not in seen[d["role"]], f"tensor {t}: {d['role']} index {d['index']} "
                  f"out of range or repeated")
            seen[d["role"]].add(d["index"])
    _need(len(seen["input"]) == g["num_inputs"] and len(seen["output"]) == g["num_outputs"],
          "num_inputs / num_outputs do not match the tensors")
    functions = diopi_header.load()
    for k, nd in enumerate(nodes):
        _need(isinstance(nd, dict) and isinstance(nd.get("args"), list), f"node {k}: no args")
        fn = functions.get(nd.get("function"))
        _need(fn is not None, f"node {k}: {nd.get('function')!r} is not a function of the headers")
        params = [p for p in fn.params if p.kind != "context"]
        _need(len(params) == len(nd["args"]), f"node {k} ({fn.name}): {len(nd['args'])} arguments, the function takes "
              f"{len(params)}")
        for j, a in enumerate(nd["args"]):
            where = f"node {k} ({fn.name}) argument {j}"
            _need(isinstance(a, dict) and a.get("kind") in kinds, f"{where}: unknown kind")
            kind, v = a["kind"], a.get("value")
            if kind == "tensor":
                _need(_int(v) and 0 <= v < len(ts), f"{where}: tensor index out of range")
            elif kind == "tensor_list":
                _need(isinstance(v, list) and all(_int(i) and -1 <= i < len(ts) for i in v), f"{where}: bad tensor list")
            elif kind == "int":
                _need(_int(v) or isinstance(v, bool), f"{where}: not an integer")
            elif kind == "float":
                _need(isinstance(v, (int, float)) and not isinstance(v, bool), f"{where}: not a number")
            elif kind == "int_array":
                _need(isinstance(v, list) and all(_int(i) for i in v), f"{where}: not a list of integers")
            elif kind == "string":
                _need(isinstance(v, str), f"{where}: not a string")
            elif kind == "scalar":
                _need(a.get("dtype") in _SCALAR_DTYPES and isinstance(v, (int, float)), f"{where}: bad scalar")
            elif kind not in ("none", "generator"):
                raise Refused(f"{where}: kind {kind!r} is not replayed")
    capture = g["capture"]
    _need(isinstance(capture, dict) and isinstance(capture.get("values"), str), "capture.values names no npz file")
    npz = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.basename(capture["values"]))
    return g, _values(g, npz)


def _values(g, npz):
    try:
        with np.load(npz, allow_pickle=False) as z:  # data, never code
            values = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise Refused(f"values {os.path.basename(npz)}: {e}") from None
    want = {}
    for d in g["tensors"]:
        if d["role"] == "input":
            want[f"input{d['index']}"] = d
        elif d["role"] == "output":
            want[f"output{d['index']}"] = d
    missing = sorted(set(want) - set(values))
    _need(not missing, f"values {os.path.basename(npz)} lack {', '.join(missing)}")
    for k, v in values.items():
        d = want.get(k) or (want.get("output" + k[len("initial"):]) if k.startswith("initial") else None)
        _need(d is not None, f"values {os.path.basename(npz)}: {k} is no input or output of the graph")
        _need(tuple(v.shape) == tuple(d["shape"]), f"values: {k} has shape {list(v.shape)}, the graph says {d['shape']}")
        _need(v.dtype == dtypes.storage(d["dtype"]), f"values: {k} is {v.dtype}, the graph says {d['dtype']}")
    return values


def writers(g):
    """Per tensor: (index of the last node writing it or None, depth of its formula: nodes on the longest path)."""
    import diopi_header
    functions = diopi_header.load()
    last, depth = {}, {}
    for k, nd in enumerate(g["nodes"]):
        params = [p for p in functions[nd["function"]].params if p.kind != "context"]
        read, written = [], []
        for p, a in zip(params, nd["args"]):
            ids = [a["value"]] if a["kind"] == "tensor" else [i for i in a["value"] if i >= 0] if a["kind"] == "tensor_list" else []
            read += ids  # an output argument of an in-place function is read too
            if p.kind in ("tensor_out", "tensor_array_out"):
                written += ids
        d = 1 + max((depth.get(t, 0) for t in read), default=0)
        for t in written:
            last[t], depth[t] = k, d
    return last, depth


# ---------------------------------------------------------------- the worker (vendor code)

def _layout(d):
    """(storage elements, element strides) of a tensor spec."""
    shape = d["shape"]
    stride = d["stride"]
    if stride is None:
        stride, acc = [], 1
        for s in reversed(shape):
            stride.insert(0, acc)
            acc *= max(s, 1)
    n = 0 if any(s == 0 for s in shape) else 1 + sum((s - 1) * st for s, st in zip(shape, stride))
    return n, stride


def _tensor(lib, d, value):
    ffi, rt = lib.ffi, lib.rt
    n, stride = _layout(d)
    shape = d["shape"]
    t = rt.dt_tensor_create(ffi.new("int64_t[]", shape or [0]), ffi.new("int64_t[]", stride or [0]), len(shape),
                            dtypes.enum_value(d["dtype"]), 0, -1, 1)
    if t == ffi.NULL:
        raise RuntimeError("the test runtime could not create a tensor: " + lib.string(rt.dt_last_error()))
    if value is not None and n:
        buf = np.zeros(n, dtype=dtypes.storage(d["dtype"]))
        view = np.lib.stride_tricks.as_strided(buf, shape, [s * buf.itemsize for s in stride])
        view[...] = value
        rt.dt_tensor_write_storage(t, ffi.from_buffer(buf), buf.nbytes)
    return t


def _read(lib, t, d):
    n, stride = _layout(d)
    buf = np.zeros(max(n, 1), dtype=dtypes.storage(d["dtype"]))
    if n:
        lib.rt.dt_tensor_read_storage(t, lib.ffi.from_buffer(buf), n * buf.itemsize)
    # copy(), not ascontiguousarray(): that makes a 0-d tensor (a loss) 1-d
    return np.lib.stride_tricks.as_strided(buf, d["shape"], [s * buf.itemsize for s in stride]).copy()


def _structs(lib, g, keep):
    ffi = lib.ffi
    role_of, kind_of = roles(), arg_kinds()
    ts = ffi.new("diopiGraphTensor_t[]", len(g["tensors"]))
    for i, d in enumerate(g["tensors"]):
        t = ts[i]
        t.role, t.index, t.dtype, t.ndim = role_of[d["role"]], d["index"], dtypes.enum_value(d["dtype"]), len(d["shape"])
        t.shape = keep(ffi.new("int64_t[]", d["shape"] or [0]))
        t.stride = keep(ffi.new("int64_t[]", d["stride"] or [0])) if d["stride"] is not None else ffi.NULL
        t.view_of, t.offset, t.first_use, t.last_use, t.data = d["view_of"], d["offset"], d["first_use"], d["last_use"], ffi.NULL
    ns = ffi.new("diopiGraphNode_t[]", len(g["nodes"]))
    for k, nd in enumerate(g["nodes"]):
        arr = keep(ffi.new("diopiGraphArg_t[]", max(1, len(nd["args"]))))
        for j, a in enumerate(nd["args"]):
            c, v = arr[j], a.get("value")
            c.kind = kind_of[a["kind"]]
            if a["kind"] in ("tensor", "int"):
                c.i = int(v)
            elif a["kind"] == "float":
                c.f = float(v)
            elif a["kind"] in ("tensor_list", "int_array"):
                c.len = len(v)
                c.ints = keep(ffi.new("int64_t[]", v)) if v else ffi.NULL
            elif a["kind"] == "string":
                c.s = keep(ffi.new("char[]", v.encode()))
            elif a["kind"] == "scalar":
                c.scalar.stype = dtypes.enum_value(a["dtype"])
                if a["dtype"] == "float64":
                    c.scalar.fval = float(v)
                else:
                    c.scalar.ival = int(v)
        ns[k].function = keep(ffi.new("char[]", nd["function"].encode()))
        ns[k].num_args, ns[k].args = len(nd["args"]), arr
    graph = ffi.new("diopiGraph_t*")
    graph.version, graph.size = _graph_version(), ffi.sizeof("diopiGraph_t")
    graph.name = keep(ffi.new("char[]", str(g["name"]).encode()))
    graph.num_tensors, graph.tensors = len(g["tensors"]), keep(ts)
    graph.num_nodes, graph.nodes = len(g["nodes"]), keep(ns)
    graph.num_inputs, graph.num_outputs, graph.num_symbols = g["num_inputs"], g["num_outputs"], 0
    return graph


def _compiler(lib):
    get = lib.function("diopiGetGraphCompiler")
    gc = get() if get is not None else lib.ffi.NULL
    return None if gc == lib.ffi.NULL or gc.compile == lib.ffi.NULL or gc.run == lib.ffi.NULL else gc


def worker(lib, path, out_path):
    """In the worker: compile and run one graph; the outputs go to `out_path` (npz), the result is returned."""
    g, values = load(path)
    gc = _compiler(lib)
    if gc is None:
        return {"verdict": "no_compiler"}
    ffi = lib.ffi
    kept = []
    graph = _structs(lib, g, lambda x: kept.append(x) or x)
    ctx = lib.rt.dt_context_create()
    exe = ffi.new("diopiGraphExecutableHandle_t*")
    declined = ffi.new("int32_t[]", len(g["nodes"]) + 1)
    nd = ffi.new("int32_t*")
    rc = gc.compile(ctx, graph, exe, declined, nd)
    if rc != 0:
        return {"verdict": ERROR, "message": f"compile returned status {rc}: {lib.last_error() or 'no message'}"}
    if exe[0] == ffi.NULL:
        idx = [declined[i] for i in range(nd[0])]
        return {"verdict": DECLINED, "declined": [g["nodes"][i]["function"] if 0 <= i < len(g["nodes"]) else f"#{i}" for i in idx]}
    specs = {(d["role"], d["index"]): d for d in g["tensors"] if d["role"] in ("input", "output")}
    ins = [_tensor(lib, specs[("input", i)], values[f"input{i}"]) for i in range(g["num_inputs"])]
    outs = [_tensor(lib, specs[("output", i)], values.get(f"initial{i}")) for i in range(g["num_outputs"])]
    rc = gc.run(ctx, exe[0], ffi.new("diopiConstTensorHandle_t[]", ins or [ffi.NULL]),
                ffi.new("diopiTensorHandle_t[]", outs or [ffi.NULL]), ffi.NULL)
    sync = lib.rt.dt_context_sync(ctx)
    if rc != 0 or sync != 0:
        return {"verdict": ERROR, "message": f"run returned status {rc}: {lib.last_error() or 'no message'}"}
    np.savez(out_path, **{f"output{i}": _read(lib, t, specs[("output", i)]) for i, t in enumerate(outs)})
    if gc.destroy != ffi.NULL:
        gc.destroy(exe[0])
    return {"verdict": "ran"}


# ---------------------------------------------------------------- the harness side

class _Worker:
    """One worker process replaying graphs one after another (the library loaded once); a new one after a
    graph kills it or times out, so one bad graph costs only itself."""

    def __init__(self, impl, runtime):
        self.impl, self.runtime, self.proc = impl, runtime, None

    def _start(self):
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "conformance.graph_replay", "--worker", str(os.getpid()),
                                      self.impl, self.runtime], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, text=True, bufsize=1)

    def replay(self, path, out_path, timeout):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(f"{path}\t{out_path}\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if line.startswith("{"):
            return json.loads(line)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            return {"verdict": ERROR, "message": f"the worker took longer than {timeout:g} s"}
        rc = self.proc.wait()
        self.proc = None
        self.err.seek(0)
        tail = (self.err.read().decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        how = f"signal {-rc}" if rc < 0 else f"status {rc}"
        return {"verdict": ERROR, "message": f"the worker died ({how}): {tail}"}

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def judge(g, values, produced):
    """(verdict, message) of a graph's outputs against the recorded ones."""
    last, depth = writers(g)
    problems = []
    for t, d in enumerate(g["tensors"]):
        if d["role"] != "output":
            continue
        i = d["index"]
        expected, actual = values[f"output{i}"], produced[f"output{i}"]
        exp_values = dtypes.to_values(expected, d["dtype"])
        tol = tolerances.resolve(d["dtype"], accumulation={"terms": 1, "steps": depth.get(t, 1)},
                                 scale=tolerances.magnitude(exp_values) if exp_values.dtype.kind in "fc" else None)
        m = compare.compare(actual, expected, d["dtype"], tol)
        if m is not None:
            k = last.get(t)
            who = f"node {k} ({g['nodes'][k]['function']})" if k is not None else "no node (it is never written)"
            problems.append(f"output {i}, last written by {who}: max abs {m.max_abs:.3g}, max rel {m.max_rel:.3g}; "
                            + m.describe())
    return (FAILED, "; ".join(problems)) if problems else (PASSED, "")


def run(args):
    """The mode: every *.json under --graphs; returns the exit status."""
    from .binding import LoadError
    folder = args.graphs
    if not folder or not os.path.isdir(folder):
        raise LoadError(f"--mode graph_replay needs --graphs DIR, a folder of captured graphs (got {folder!r})")
    impl = os.path.abspath(args.impl_lib or os.path.join(_default_lib_dir(), "libdiopi_impl.so"))
    runtime = os.path.abspath(args.runtime_lib or os.path.join(os.path.dirname(impl), "libdiopirt.so"))
    for p, what in ((impl, "operator library"), (runtime, "test runtime")):
        if not os.path.exists(p):
            raise LoadError(f"{what} not found at {p} (build it with scripts/build_impl.sh, or pass --impl_lib)")
    paths = sorted(glob.glob(os.path.join(folder, "*.json")))
    if not paths:
        raise LoadError(f"no captured graph (*.json) in {folder}")
    timeout = max(60.0, args.timeout * 3)
    rows = []
    pool = _Worker(impl, runtime)
    with tempfile.TemporaryDirectory(prefix="diopi-graph-replay-") as tmp:
        for path in paths:
            name = os.path.basename(path)
            try:
                g, values = load(path)
            except Refused as e:
                rows.append({"graph": name, "verdict": REFUSED, "message": str(e)})
                print(f"{name}: refused: {e}")
                continue
            out = os.path.join(tmp, "out.npz")
            r = pool.replay(os.path.abspath(path), out, timeout)
            if r["verdict"] == "no_compiler":
                pool.close()
                print(f"error: {impl} has no graph compiler (it exports no diopiGetGraphCompiler, or that returns "
                      "NULL): graph_replay has nothing to run", file=sys.stderr)
                return 1
            if r["verdict"] == "ran":
                with np.load(out, allow_pickle=False) as z:
                    produced = {k: z[k] for k in z.files}
                verdict, message = judge(g, values, produced)
                r = {"verdict": verdict, "message": message}
            elif r["verdict"] == DECLINED:
                r["message"] = "declined nodes: " + ", ".join(r["declined"])
            row = dict(graph=name, nodes=len(g["nodes"]), **r)
            rows.append(row)
            print(f"{name}: {row['verdict']}" + (f": {row['message']}" if row.get("message") else ""))
    pool.close()
    counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in (PASSED, DECLINED, FAILED, ERROR, REFUSED)}
    print(f"graph_replay: {len(rows)} graphs, {counts[PASSED]} passed, {counts[DECLINED]} declined, {counts[FAILED]} failed, "
          f"{counts[ERROR]} error, {counts[REFUSED]} refused ({impl})")
    if args.report_dir:
        os.makedirs(args.report_dir, exist_ok=True)
        report = os.path.join(args.report_dir, "graph_replay.json")
        with open(report, "w") as f:
            json.dump({"impl_lib": impl, "graphs": os.path.abspath(folder), "counts": counts, "rows": rows}, f, indent=1)
        from . import junit
        repro = f"python main.py --mode graph_replay --graphs {os.path.abspath(folder)} --impl_lib {impl}"
        junit.write_graphs(os.path.join(args.report_dir, "junit.xml"), rows, repro)
        print(f"report: {report} (and junit.xml)")
    return 1 if counts[FAILED] or counts[ERROR] or counts[REFUSED] else 0


def _default_lib_dir():
    from . import paths
    return paths.default_lib_dir("torch")


def _worker_main(argv):
    """The worker: one "graph path<TAB>output npz" line in, one JSON result line out, until stdin ends."""
    from . import binding, sandbox
    parent, impl, runtime = int(argv[0]), argv[1], argv[2]
    sandbox.die_with_parent(parent)
    # Results go out on a descriptor of their own; the library's output (C or Python) goes to stderr, so
    # nothing it prints can be taken for a result line.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    lib = binding.Library(impl, runtime)
    for line in sys.stdin:
        path, out_path = line.rstrip("\n").split("\t")
        try:
            r = worker(lib, path, out_path)
        except Refused as e:
            r = {"verdict": REFUSED, "message": str(e)}
        out.write(json.dumps(r) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        sys.exit(_worker_main(sys.argv[2:]))
    sys.exit("usage: python main.py --mode graph_replay --graphs DIR (this module's own entry point is the worker's)")
