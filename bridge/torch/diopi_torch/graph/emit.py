"""A plan as C: one function that makes every DIOPI call of the plan in order.

    source = emit(plan, functions, key)

The C file includes only the standard's headers (diopirt.h, functions.h,
functions_ext.h) and builds with -Wall -Werror. It exports

    const char diopi_graph_key[];      the cache key it was built for
    const int diopi_graph_steps;
    diopiError_t diopi_graph_run(ctx, T, C, F, R, E, start, stop);

T holds the plan's tensor handles, C the cells of library-allocated outputs,
F the vendor's functions (one per step), R the run's generator, E the steps
the runner takes over (re-planned to the eager device). The arguments the
plan prepared become constants of the file; the runner points the handles at
each run's memory before the call (csrc/graph/runner.cpp).
"""
from __future__ import annotations

import math

from .plan_schema import ARG, SCALAR

GENERATOR_VERSION = 1


def _c_string(s):
    out = []
    for ch in s:
        if ch in '\\"':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):03o}")
    return '"' + "".join(out) + '"'


def _c_double(v):
    v = float(v)
    if math.isnan(v):
        return '__builtin_nan("")'
    if math.isinf(v):
        return "__builtin_inf()" if v > 0 else "(-__builtin_inf())"
    return v.hex()


def _c_int(v):
    v = int(v)
    if v == -2 ** 63:
        return "(-9223372036854775807LL - 1)"
    return f"{v}LL"


class _Emitter:
    def __init__(self, plan, functions):
        self.plan = plan
        self.functions = functions
        self.statics = []
        self.counter = 0

    def _static(self, decl_fmt):
        name = f"k{self.counter}"
        self.counter += 1
        self.statics.append(decl_fmt.replace("{name}", name))
        return name

    def arg(self, a, param, locals_):
        k = a[0]
        ctype = param.ctype
        if k == ARG.Tensor:
            return f"T[{a[1]}]"
        if k == ARG.Null:
            return "NULL" if ctype.endswith("*") or "Handle" in ctype else "0"
        if k == ARG.TensorArray:
            if not a[1]:
                return "NULL"
            elem = "diopiConstTensorHandle_t" if param.kind == "tensor_array_in" else "diopiTensorHandle_t"
            name = f"a{len(locals_)}"
            items = ", ".join("NULL" if r < 0 else f"T[{r}]" for r in a[1])
            locals_.append(f"{elem} {name}[] = {{{items}}};")
            return name
        if k == ARG.Scalar:
            if a[1] == SCALAR.Float:
                init = f"{{.stype = diopi_dtype_float64, .fval = {_c_double(a[2])}}}"
            elif a[1] == SCALAR.Int:
                init = f"{{.stype = diopi_dtype_int64, .ival = {_c_int(a[2])}}}"
            else:
                init = f"{{.stype = diopi_dtype_bool, .ival = {int(a[2])}}}"
            return "&" + self._static("static diopiScalar_t {name} = " + init + ";")
        if k in (ARG.Size, ARG.SizePtr):
            if a[1]:
                data = self._static("static const int64_t {name}[] = {" + ", ".join(_c_int(x) for x in a[1]) + "};")
                size = f"{{{data}, {len(a[1])}}}"
            else:
                size = "{NULL, 0}"
            if k == ARG.Size:
                return f"(diopiSize_t){size}"
            return "&" + self._static("static diopiSize_t {name} = " + size + ";")
        if k == ARG.Int:
            return f"({param.ctype.replace('const ', '')}){_c_int(a[1])}" if param.kind.startswith("enum_") else _c_int(a[1])
        if k == ARG.Double:
            return _c_double(a[1])
        if k == ARG.Bool:
            return "1" if a[1] else "0"
        if k == ARG.String:
            return _c_string(a[1])
        if k == ARG.Generator:
            return "(diopiGeneratorHandle_t)R[0]"
        if k == ARG.IntPtr:
            return "&" + self._static("static const int64_t {name} = " + _c_int(a[1]) + ";")
        if k == ARG.DoublePtr:
            return "&" + self._static("static const double {name} = " + _c_double(a[1]) + ";")
        if k == ARG.BoolPtr:
            return "&" + self._static("static const bool {name} = " + ("1" if a[1] else "0") + ";")
        if k == ARG.Cell:
            return f"&C[{a[1]}]"
        if k == ARG.CellRef:
            return f"C[{a[1]}]"
        raise ValueError(f"argument kind {k}")

    def source(self, key):
        steps = self.plan.steps
        used = sorted({s.fn for s in steps})
        typedefs = []
        for name in used:
            fn = self.functions[name]
            params = ", ".join(p.ctype for p in fn.params)
            typedefs.append(f"typedef diopiError_t (*{name}_fn)({params});")
        body = []
        for i, s in enumerate(steps):
            fn = self.functions[s.fn]
            params = [p for p in fn.params if p.kind != "context"]
            locals_ = []
            args = [self.arg(a, p, locals_) for a, p in zip(s.args, params)]
            cells = [f"C[{a[1]}] = NULL;" for a in s.args if a[0] == ARG.Cell]
            body.append(f"s{i}:  /* {s.aten} -> {s.fn} ({s.where}), node {s.node} */")
            body.append(f"    if (E[{i}]) {{ *stop = {i}; return diopiSuccess; }}")
            body.append("    {")
            for line in locals_ + cells:
                body.append(f"        {line}")
            body.append(f"        st = (({s.fn}_fn)F[{i}])({', '.join(['ctx'] + args)});")
            body.append(f"        if (st != diopiSuccess) {{ *stop = {i}; return st; }}")
            body.append("    }")
        cases = [f"    case {i}: goto s{i};" for i in range(len(steps))]
        lines = [
            "/* Generated by bridge/torch/diopi_torch/graph/emit.py from one plan of a compiled graph. Do not edit. */",
            "#include <diopi/diopirt.h>",
            "#include <diopi/functions.h>",
            "#include <diopi/functions_ext.h>",
            "",
            *typedefs,
            "",
            f"const char diopi_graph_key[] = {_c_string(key)};",
            f"const int diopi_graph_steps = {len(steps)};",
            "",
            *self.statics,
            "",
            "diopiError_t diopi_graph_run(diopiContextHandle_t ctx, diopiTensorHandle_t const* T, diopiTensorHandle_t* C,",
            "                             void (*const* F)(void), void* const* R, const unsigned char* E, int start, int* stop) {",
            "    diopiError_t st = diopiSuccess;",
            "    (void)T; (void)C; (void)R;",
            "    switch (start) {",
            *cases,
            f"    default: *stop = {len(steps)}; return st;",
            "    }",
            *body,
            f"    *stop = {len(steps)};",
            "    return st;",
            "}",
            "",
        ]
        return "\n".join(lines)


def emit(plan, functions, key):
    return _Emitter(plan, functions).source(key)
