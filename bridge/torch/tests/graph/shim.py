"""Test libraries in front of a real vendor library, generated from the header model.

    path = build_shim(tmp_dir, target="build/torch/lib/libdiopi_impl.so", omit={"diopiSilu"}, log=True)

The shim exports every function of the header (except those in `omit`) and
forwards each to `target` (loaded privately with dlopen, so a function the
shim omits is really absent: dlsym on the shim does not find it through a
dependency). With `log`, each call appends one line to the file named by
$DIOPI_SHIM_LOG: the function and every argument as the callee sees it
(tensors by shape, strides, dtype and storage offset; scalars by type and
value; sizes; numbers; strings). `refuse` names functions that are exported
but return diopiNoImplement, as a library lacking a variant does.
"""
from __future__ import annotations

import os
import subprocess

import diopi_header  # installed by scripts/setup.sh

from device_paths import ROOT

_PRELUDE = r'''
#define _GNU_SOURCE
@INCLUDES@
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void* target(void) {
    static void* h = NULL;
    if (!h) h = dlopen(SHIM_TARGET, RTLD_NOW | RTLD_LOCAL);
    return h;
}
static void* shim_real(const char* name) { return target() ? dlsym(target(), name) : NULL; }

static FILE* shim_log(void) {
    static FILE* f = NULL;
    static int tried = 0;
    if (!tried) {
        const char* p = getenv("DIOPI_SHIM_LOG");
        f = p && *p ? fopen(p, "a") : NULL;
        tried = 1;
    }
    return f;
}
static void lt(FILE* f, const char* name, diopiConstTensorHandle_t t) {
    if (!t) { fprintf(f, " %s=null", name); return; }
    diopiSize_t shape, stride; diopiDtype_t dt; int64_t off = 0;
    diopiGetTensorShape(t, &shape); diopiGetTensorStride(t, &stride); diopiGetTensorDtype(t, &dt);
    diopiGetTensorStorageOffset(t, &off);
    fprintf(f, " %s=T(", name);
    for (int64_t i = 0; i < shape.len; ++i) fprintf(f, "%s%" PRId64, i ? "," : "", shape.data[i]);
    fprintf(f, ")s(");
    for (int64_t i = 0; i < stride.len; ++i) fprintf(f, "%s%" PRId64, i ? "," : "", stride.data[i]);
    fprintf(f, ")d%d+%" PRId64, (int)dt, off);
}
static void lta(FILE* f, const char* name, const diopiConstTensorHandle_t* ts, int64_t n) {
    if (!ts) { fprintf(f, " %s=[]", name); return; }
    for (int64_t i = 0; i < n; ++i) { char b[64]; snprintf(b, sizeof b, "%s[%" PRId64 "]", name, i); lt(f, b, ts[i]); }
}
static void lsc(FILE* f, const char* name, const diopiScalar_t* s) {
    if (!s) { fprintf(f, " %s=null", name); return; }
    if (s->stype == diopi_dtype_float64 || s->stype == diopi_dtype_float32) fprintf(f, " %s=S%d:%.17g", name, (int)s->stype, s->fval);
    else fprintf(f, " %s=S%d:%" PRId64, name, (int)s->stype, s->ival);
}
static void lz(FILE* f, const char* name, diopiSize_t z) {
    fprintf(f, " %s=Z(", name);
    for (int64_t i = 0; i < z.len; ++i) fprintf(f, "%s%" PRId64, i ? "," : "", z.data[i]);
    fprintf(f, ")");
}
'''


def _count_param(fn, p):
    """The parameter counting a tensor array (num_inputs, nums, indices_counts, ...), or None."""
    i = fn.params.index(p)
    for q in fn.params[i + 1:]:
        if q.kind == "int" and ("num" in q.name or "count" in q.name):
            return q.name
    return None


def _log_lines(fn):
    out = []
    for p in fn.params:
        k, n = p.kind, p.name
        if k == "context":
            continue
        if k in ("tensor_in", "tensor_out"):
            out.append(f'lt(f, "{n}", {n});')
        elif k in ("tensor_array_in", "tensor_array_out"):
            count = _count_param(fn, p)
            if count:
                out.append(f'lta(f, "{n}", (const diopiConstTensorHandle_t*){n}, {count});')
            else:  # one output the library allocates, or an array whose length the call implies
                out.append(f'fprintf(f, " {n}=%s", {n} ? "array" : "null");')
        elif k == "scalar":
            out.append(f'lsc(f, "{n}", {n});')
        elif k == "size":
            out.append(f'lz(f, "{n}", {n});')
        elif k == "size_ptr":
            out.append(f'if ({n}) lz(f, "{n}", *{n}); else fprintf(f, " {n}=null");')
        elif k in ("int", "enum_round", "enum_reduction", "enum_memory_format", "enum_dtype"):
            out.append(f'fprintf(f, " {n}=%" PRId64, (int64_t){n});')
        elif k == "float":
            out.append(f'fprintf(f, " {n}=%.9g", (double){n});')
        elif k == "bool":
            out.append(f'fprintf(f, " {n}=%d", (int){n});')
        elif k == "string":
            out.append(f'fprintf(f, " {n}=%s", {n} ? {n} : "null");')
        elif k in ("int_ptr", "double_ptr", "bool_ptr"):
            fmt = {"int_ptr": '"%" PRId64', "double_ptr": '"%.17g"', "bool_ptr": '"%d"'}[k]
            cast = {"int_ptr": "(int64_t)", "double_ptr": "(double)", "bool_ptr": "(int)"}[k]
            out.append(f'if ({n}) fprintf(f, " {n}=" {fmt}, {cast}*{n}); else fprintf(f, " {n}=null");')
        else:
            out.append(f'fprintf(f, " {n}=%s", {n} ? "ptr" : "null");')
    return out


def source(omit=(), refuse=(), log=False):
    fns = diopi_header.load()
    # every header the model parses, so each declared function has its types
    lines = [_PRELUDE.replace("@INCLUDES@", "\n".join(f"#include <diopi/{h}>" for h in diopi_header.HEADER_NAMES))]
    for name, fn in fns.items():
        if name in omit:
            continue
        decl = ", ".join(f"{p.ctype} {p.name}" for p in fn.params) or "void"
        call = ", ".join(p.name for p in fn.params)
        ptype = ", ".join(p.ctype for p in fn.params) or "void"
        if not fn.params or fn.params[0].kind != "context":
            lines.append(f"DIOPI_API {fn.returns} {name}({decl}) {{\n"
                         f"    {fn.returns} (*r)({ptype}) = ({fn.returns} (*)({ptype}))shim_real(\"{name}\");\n"
                         f"    return r ? r({call}) : 0;\n}}")
            continue
        body = []
        if name in refuse:
            body.append("    return diopiNoImplement;")
        else:
            if log:
                body.append("    FILE* f = shim_log();")
                body.append(f'    if (f) {{ fprintf(f, "{name}");')
                body += ["        " + x for x in _log_lines(fn)]
                body.append('        fprintf(f, "\\n"); fflush(f); }')
            body.append(f"    diopiError_t (*r)({ptype}) = (diopiError_t (*)({ptype}))shim_real(\"{name}\");")
            body.append(f"    return r ? r({call}) : diopiNoImplement;")
        lines.append(f"DIOPI_API diopiError_t {name}({decl}) {{\n" + "\n".join(body) + "\n}")
    return "\n\n".join(lines) + "\n"


def build_shim(out_dir, target, omit=(), refuse=(), log=False, name="libshim.so"):
    os.makedirs(out_dir, exist_ok=True)
    c = os.path.join(out_dir, name[:-3] + ".c")
    so = os.path.join(out_dir, name)
    with open(c, "w") as f:
        f.write(source(omit, refuse, log))
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-w", f'-DSHIM_TARGET="{os.path.abspath(target)}"', c,
                    "-I", os.path.join(ROOT, "proto", "include"), "-o", so, "-ldl", "-Wl,--allow-shlib-undefined"],
                   check=True)
    return so
