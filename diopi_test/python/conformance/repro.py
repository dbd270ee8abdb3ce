"""Standalone C reproducers of non-passing cases (run_test --repro DIR).

For each case that failed, DIR/<case-slug>/ receives:

  repro.c     a C11 program that loads the operator library from the path
              run_test tested and calls it directly, linked with the test
              runtime run_test used; the build and run commands are in its
              opening comment
  data/       the raw little-endian storage bytes of every tensor the
              harness made (inputs with their sentinel-filled gaps, outputs
              pre-filled with the sentinel) and the reference values of
              each output (<name>.expected.bin, row-major)
  data/tensors.txt  one line per file: role, dtype, shape, strides,
              storage offset, storage elements
  README.md   what the harness saw and how to build and run the program

The program renders the case's argument description (conformance/arguments.py,
read from the case record and the header's model of the function), the
same description the replay in a worker turns into cffi arguments; after
the call it checks what run_test checks, in the same order, printing the
verdict. It exits 1 when the case does not pass (a crash reproduces by
dying of the same signal), 0 when it passes, 2 when the reproducer itself
cannot run.
"""
import dataclasses
import hashlib
import math
import os
import re
import shlex

import diopi_header
import numpy as np

from . import arguments, checks, dtypes, paths, store
from .verdicts import TIMEOUT

_RUNTIME_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repro_runtime.c")
# Verdicts that come from the harness itself (a bad case or baseline), not from
# the library: there is no library behaviour to reproduce.
_HARNESS_PROBLEMS = ("case error:", "harness error:", "baseline refused:")


class ReproError(Exception):
    """The case cannot be written as a C program (the reason says why)."""


_SLUG_LIMIT = 120  # characters of the case name in a folder name (the file name limit is 255 bytes)


def _top_level_parts(case):
    """`case` split at `::` and at commas outside brackets (`seqlens=(64,100)` stays one part)."""
    parts, depth, cur = [], 0, []
    for field in case.split("::"):
        for ch in field:
            depth += ch in "([{"
            depth -= ch in ")]}"
            if ch == "," and depth <= 0:
                parts.append("".join(cur))
                cur = []
            else:
                cur.append(ch)
        parts.append("".join(cur))
        cur, depth = [], 0
    return parts


def slug(case, layout):
    """A folder name for one case: readable, unique, safe on any filesystem.
    The name is cut only between its parts (the `::` fields and the
    `,`-separated arguments), so every argument value it shows is whole
    (`reduction=none`, never `reduction=non`); the digest keeps names
    of cases that differ only in what was left out apart."""
    parts = [re.sub(r"[^A-Za-z0-9.=_-]+", "_", p).strip("_") for p in _top_level_parts(case)]
    kept, size = [], 0
    for p in filter(None, parts):
        if size + len(p) + 1 > _SLUG_LIMIT and kept:
            kept.append("etc")
            break
        kept.append(p[:_SLUG_LIMIT])
        size += len(p) + 1
    digest = hashlib.sha1(f"{case}\0{layout}".encode()).hexdigest()[:8]
    return f"{'_'.join(kept)}.{layout}.{digest}"


# ---------------------------------------------------------------- C literals
def c_string(text):
    out = []
    for ch in str(text).encode():
        c = chr(ch)
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 32 <= ch < 127:
            out.append(c)
        else:
            out.append(f"\\{ch:03o}")
    return '"' + "".join(out) + '"'


def c_double(v):
    v = float(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(v)


def c_int(v):
    v = int(v)
    if v == -(2**63):
        return "INT64_MIN"
    return f"INT64_C({v})" if not -(2**31) <= v < 2**31 else str(v)


def c_number(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return c_int(v)
    return c_double(v)


def c_int_list(values):
    """A compound literal of int64_t (non-empty so that C11 accepts it)."""
    return "(const int64_t[]){" + ", ".join(c_int(v) for v in (list(values) or [0])) + "}"


def _comment(text):
    return str(text).replace("*/", "* /")


def _ident(name):
    return re.sub(r"\W", "_", name)


# ---------------------------------------------------------------- the case, as C
@dataclasses.dataclass
class _File:
    name: str
    role: str
    dtype: str
    shape: tuple
    strides: tuple
    offset: int
    elems: int
    data: bytes


class _Program:
    """Renders a case's argument description (conformance/arguments.py) as
    C: the statements before the call, the argument expressions, and the
    checks after it. The replay renders the same description as cffi
    objects (conformance/call.py)."""

    def __init__(self, fn, record, layout, variant):
        self.fn, self.record, self.layout, self.variant = fn, record, layout, variant
        self.random = record.get("checks") is not None
        self.setup, self.checks, self.files = [], [], []
        self.ctx = "rp_ctx"
        if record.get("fuzz_alias") or record.get("fuzz_layouts"):
            raise ReproError("fuzz mutations are not written as C reproducers")
        try:
            described = arguments.describe(fn, record, layout, variant)
        except arguments.CaseError as e:
            raise ReproError(str(e)) from None
        self.args = [self._arg(a) for a in described.args]

    # -- tensors
    def _tensor(self, cname, ta):
        """Declares the runtime tensor `ta` describes, its storage in a data
        file. Returns its C name."""
        storage = ta.storage()
        fname = f"{cname}.bin"
        self.files.append(_File(fname, ta.role, ta.dtype, ta.shape, ta.strides, 0, int(storage.size), storage.tobytes()))
        kind = {arguments.INPUT: "RP_INPUT", arguments.INPLACE: "RP_INPLACE", arguments.OUTPUT: "RP_OUTPUT"}[ta.role]
        self.setup.append(f"/* {ta.label}: {ta.dtype} {list(ta.shape)}, strides {list(ta.strides)} ({self.layout}), {ta.role} */")
        self.setup.append(f"diopiTensorHandle_t {cname} = rp_tensor({c_string(ta.label)}, {c_string(fname)}, {len(ta.shape)}, "
                          f"{c_int_list(ta.shape)}, {c_int_list(ta.strides)}, diopi_dtype_{ta.dtype}, 0, {c_int(storage.size)}, {kind});")
        return cname

    def _expected_file(self, cname, enc):
        arr, dtype = store.decode_array(enc)
        shape = tuple(int(d) for d in arr.shape)
        fname = f"{cname}.expected.bin"
        self.files.append(_File(fname, "expected", dtype, shape, tuple(arguments.contiguous_strides(shape)), 0, int(arr.size),
                                np.ascontiguousarray(arr).tobytes()))
        return fname, dtype, shape

    def _check(self, cname, label, enc, fill=None):
        """A C expression, non-zero when the output `cname` does not match
        `enc`; `fill` is the sentinel variant of an output whose unwritten
        elements are told apart (None: no such check)."""
        if enc is None:
            return None
        if self.random or store.is_spec(enc):
            return f"(rp_dump({c_string(label)}, {c_string(cname + '.produced.bin')}, {cname}), 0)"
        fname, dtype, shape = self._expected_file(cname, enc)
        mask_file = "NULL"
        mask = checks.defined_mask(enc)
        if mask is not None:  # only these elements are defined (and compared); bytes 0/1
            mname = f"{cname}.defined.bin"
            self.files.append(_File(mname, "defined", "bool", shape, tuple(arguments.contiguous_strides(shape)), 0,
                                    int(mask.size), np.ascontiguousarray(mask, dtype=np.uint8).tobytes()))
            mask_file = c_string(mname)
        tol = checks.output_tolerance(enc, self.record.get("tol"), self.record.get("accumulation"))  # as run_test bounds it
        exact = tol is None or not (dtype in dtypes.FLOATING or dtype in dtypes.COMPLEX)
        atol, rtol = (0.0, 0.0) if exact else tol
        sentinel, nan_sentinel = "NULL", 0
        if fill is not None:
            nan_sentinel = int(dtype in dtypes.FLOATING and fill == 0)
            raw = arguments.sentinel_value(dtype, fill).tobytes()
            sentinel = "(const unsigned char[]){" + ", ".join(f"0x{b:02x}" for b in raw) + "}"
        return (f"rp_check_tensor({c_string(label)}, {cname}, {c_string(fname)}, diopi_dtype_{dtype}, {len(shape)}, "
                f"{c_int_list(shape)}, {c_double(atol)}, {c_double(rtol)}, {int(exact)}, {sentinel}, {nan_sentinel}, {mask_file})")

    def _check_number(self, name, enc):
        if enc is None or self.random:
            return None
        if isinstance(enc, float):
            atol, rtol = checks.number_tolerance(self.record.get("tol"))
            return f"rp_check_number({c_string(name)}, (double){name}, {c_double(enc)}, {c_double(atol)}, {c_double(rtol)}, 0)"
        return f"rp_check_number({c_string(name)}, (double){name}, {c_number(enc)}, 0.0, 0.0, 1)"

    # -- one described argument -> one C argument expression
    def _arg(self, a):
        name, form = _ident(a.name), a.form
        if form == arguments.CONTEXT:
            self.ctx = name
            return name
        if form == arguments.NULL:
            return "NULL"
        if form == arguments.TENSOR:
            ta = a.tensors[0]
            self._tensor(name, ta)
            if a.produces:
                self.checks.append(self._check(name, a.name, a.expected, ta.fill if a.prefilled else None))
            return name
        if form == arguments.TENSOR_LIST:
            expected = a.expected if isinstance(a.expected, list) else []
            names, element_checks = [], []
            for i, ta in enumerate(a.tensors):
                names.append(self._tensor(f"{name}_{i}", ta))
                if a.produces and i < len(expected):
                    element_checks.append(self._check(names[-1], ta.label, expected[i]))
            self.setup.append(f"{a.ctype} {name}[] = {{{', '.join(names) or 'NULL'}}};")
            if a.produces:
                self.checks.append(" || ".join(c for c in element_checks if c) or None)  # the harness reports the first bad element
            return name
        if form == arguments.ALLOCATED:
            self.setup.append(f"diopiTensorHandle_t {name} = NULL; /* allocated by the library */")
            self.checks.append(self._check(name, a.name, a.expected))
            return f"&{name}"
        if form == arguments.SCALAR:
            member, value = a.scalar_field
            literal = c_double(value) if member == "fval" else c_int(value)
            self.setup.append(f"diopiScalar_t {name} = {{.stype = diopi_dtype_{a.ctype}, .{member} = {literal}}};")
            return f"&{name}"
        if form in (arguments.SIZE, arguments.SIZE_PTR):
            if a.value is None:
                self.setup.append(f"diopiSize_t {name} = {{NULL, 0}};")
                return name
            self.setup.append(f"diopiSize_t {name} = {{{c_int_list(a.value)}, {len(a.value)}}};")
            return f"&{name}" if form == arguments.SIZE_PTR else name
        if form == arguments.VALUE_PTR:
            literal = {"int64_t": c_int, "bool": lambda v: "true" if v else "false", "double": c_double}[a.ctype](a.value)
            self.setup.append(f"{a.ctype} {name} = {literal};")
            return f"&{name}"
        if form == arguments.NUMBER_OUT:
            self.setup.append(f"{a.ctype} {name} = 0;")
            self.checks.append(self._check_number(name, a.expected))
            return f"&{name}"
        if form == arguments.GENERATOR:
            self.setup.append(f"diopiGeneratorHandle_t {name} = dt_generator_create(UINT64_C({int(a.value)}));")
            return name
        if form == arguments.ENUM:
            return f"({a.param.ctype.replace('const ', '')}){a.value} /* {a.name}: {_comment(a.spelling)} */"
        if form == arguments.STRING:
            return f"{'NULL' if a.value is None else c_string(a.value)} /* {a.name} */"
        if form == arguments.NUMBER:
            return f"{c_number(a.value)} /* {a.name} */"
        raise ReproError(f"argument form {form!r} has no C rendering")


# ---------------------------------------------------------------- writing
def build_command(runtime_path):
    """The documented compiler command (run inside the case folder). The
    test runtime is linked by its path and found at run time through an
    RPATH naming only its folder (DT_RPATH, which LD_LIBRARY_PATH does not
    override); the operator library is not linked at all but loaded by the
    program from the path it was tested at. A vendor folder holding its own
    libdiopirt.so, or the runtime's folder holding another
    libdiopi_impl.so, then changes nothing."""
    runtime = os.path.abspath(runtime_path)
    parts = ["cc", "-std=c11", "repro.c", f"-I{paths.INCLUDE_DIR}", f"-I{paths.TESTRT_INCLUDE_DIR}", runtime,
             f"-Wl,--disable-new-dtags,-rpath,{os.path.dirname(runtime)}", "-ldl", "-lm", "-o", "repro"]
    return " ".join(shlex.quote(p) for p in parts)


def _timeout_message(verdict, timeout):
    seen = "reproduced" if verdict == TIMEOUT else "NOT reproduced"
    return f"verdict: timeout (no answer within {timeout} s)\nharness verdict: {verdict} ({seen})\n"


def _source(fn, prog, item, result, build, timeout, impl_path):
    verdict = result["verdict"]
    message = " ".join(str(result.get("message", "")).split())[:600]
    includes = ["#include <diopi/functions.h>"]
    if fn.header != "functions.h":
        includes.append(f"#include <diopi/{fn.header}>")
    checks = [c for c in prog.checks if c]
    lines = [
        f"/* C reproducer of one conformance case ({verdict}).",
        " *",
        f" *   case:     {_comment(item.name)}",
        f" *   function: {fn.name} ({fn.header}), layout {item.layout}",
        f" *   harness:  {_comment(message)}",
        " *",
        " * Build and run, inside this folder:",
        f" *   {_comment(build)}",
        " *   ./repro            (or ./repro DATA_DIR; the default is ./data)",
        " *",
        " * Exit status: 0 passed, 1 the case does not pass (the verdict is printed;",
        " * a crash dies of its signal), 2 the reproducer could not run.",
        " * Generated by diopi_test/python/conformance/repro.py from the header's",
        " * declaration of the function; edit freely while debugging.",
        " */",
        "#define _POSIX_C_SOURCE 200809L",
        "#define _XOPEN_SOURCE 700  /* sigaltstack, SA_ONSTACK */",
        "#include <ctype.h>",
        "#include <math.h>",
        "#include <signal.h>",
        "#include <stdarg.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "#include <unistd.h>",
        "#include <dlfcn.h>",
        "",
        "/* the library run_test tested (another: cc -DRP_IMPL_LIB='\"/path/to/lib.so\"' ...) */",
        "#ifndef RP_IMPL_LIB",
        f"#define RP_IMPL_LIB {c_string(os.path.abspath(impl_path))}",
        "#endif",
        "",
        *includes,
        "#include <diopi_test/testrt.h>",
        "",
        "/* the values of diopiError_t, from the header */",
        "static const int rp_error_codes[] = {" + ", ".join(str(v) for v in sorted(set(diopi_header.error_codes().values()))) + "};",
        "",
    ]
    with open(_RUNTIME_C) as f:
        lines.append(f.read())
    body = [
        f"rp_harness_verdict = {c_string(verdict)};",
        f"rp_timeout_message = {c_string(_timeout_message(verdict, timeout))};",
        "rp_init(argc, argv);",
        "rp_load_impl(RP_IMPL_LIB);",
        f"__typeof__(&{fn.name}) rp_fn;  /* the declaration's exact type */",
        f"if (!rp_symbol({c_string(fn.name)}, &rp_fn, sizeof rp_fn)) return rp_verdict(\"not_implemented\", "
        f"{c_string(fn.name + ' is not exported by ')} RP_IMPL_LIB);",
        f"diopiContextHandle_t {prog.ctx} = dt_context_create();",
        f"if (!{prog.ctx}) rp_fatal(\"dt_context_create\", dt_last_error());",
        "",
        *prog.setup,
        "",
        f"printf(\"calling {fn.name} ({item.layout})\\n\");",
        "fflush(stdout);",
        "rp_remember_error_string();",
        "rp_arm();",
        f"alarm({timeout});",
        "diopiError_t rp_rc = rp_fn(" + ", ".join(prog.args) + ");",
        "alarm(0);",
        "rp_in_call = 0;",
        f"dt_context_sync({prog.ctx});",
        "",
        "char rp_reason[8192];",
        "if (rp_rc != diopiSuccess) return rp_error_verdict(rp_rc);",
        "if (!rp_error_string_kept(rp_reason, sizeof rp_reason)) return rp_verdict(\"error_on_success\", rp_reason);",
        "if (!rp_guards_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"oob_write\", rp_reason);",
        "if (!rp_metadata_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"metadata_changed\", rp_reason);",
        "if (!rp_gaps_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"gap_write\", rp_reason);",
        "if (!rp_inputs_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"input_modified\", rp_reason);",
        "",
        "/* outputs against the reference, in parameter order */",
        *[f"(void)({c});" for c in checks],
        "return rp_values_verdict();",
    ]
    if prog.random:
        body.insert(-1, "printf(\"note: a random operator; the harness checks statistics of the values, not done here\\n\");")
    lines.append("int main(int argc, char** argv) {")
    lines += [("    " + b) if b else "" for b in body]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _describe(files):
    out = ["# file role dtype shape strides storage_offset storage_elements (raw little-endian bytes, storage order)"]
    for f in files:
        dims = ",".join(map(str, f.shape)) or "-"
        strides = ",".join(map(str, f.strides)) or "-"
        out.append(f"{f.name} {f.role} {f.dtype} {dims} {strides} {f.offset} {f.elems}")
    return "\n".join(out) + "\n"


def write_case(out_dir, item, result, record, impl_path, runtime_path):
    """Writes one case's reproducer; returns the path of its repro.c."""
    if item.index < 0:
        raise ReproError("a library check, not a case")
    if any(str(result.get("message", "")).startswith(p) for p in _HARNESS_PROBLEMS):
        raise ReproError("the harness could not build the call; nothing in the library to reproduce")
    fn = diopi_header.load().get(record["func"])
    if fn is None:
        raise ReproError(f"{record['func']} is not declared in the headers")
    if item.tol:  # the vendor's tolerance overrides, as the worker applies them
        record = dict(record, tol=dict(record.get("tol") or {}, **item.tol))
    prog = _Program(fn, record, item.layout, int(result.get("sentinel_variant", 0)))
    case_dir = os.path.join(out_dir, slug(item.name, item.layout))
    data_dir = os.path.join(case_dir, "data")
    os.makedirs(data_dir, exist_ok=True)
    for f in prog.files:
        with open(os.path.join(data_dir, f.name), "wb") as fh:
            fh.write(f.data)
    with open(os.path.join(data_dir, "tensors.txt"), "w") as fh:
        fh.write(_describe(prog.files))
    build = build_command(runtime_path)
    timeout = max(1, int(math.ceil(item.timeout)))
    path = os.path.join(case_dir, "repro.c")
    with open(path, "w") as fh:
        fh.write(_source(fn, prog, item, result, build, timeout, impl_path))
    with open(os.path.join(case_dir, "README.md"), "w") as fh:
        fh.write(f"# {item.name} ({item.layout})\n\n"
                 f"run_test verdict: **{result['verdict']}** for `{fn.name}`\n\n"
                 f"    {' '.join(str(result.get('message', '')).split())[:2000]}\n\n"
                 f"Build and run (inside this folder):\n\n    {build}\n    ./repro\n\n"
                 "`data/tensors.txt` describes every data file. The program prints the verdict it sees and the "
                 "harness's, and exits 1 when the case does not pass (0 when it passes, 2 when it cannot run).\n")
    return path


def write_all(out_dir, rep, data_dir, manifest, impl_path, runtime_path, verdicts):
    """Reproducers for every row of `rep` whose verdict is in `verdicts`.
    Sets result["repro_c"]; returns (written, [(case, why not)])."""
    written, skipped, cache = 0, [], {}
    for item, result in rep.rows:
        if result["verdict"] not in verdicts:
            continue
        try:
            if item.index < 0:
                raise ReproError("a library check, not a case")
            if item.func not in cache:
                cache.clear()  # one function's baselines at a time
                cache[item.func] = store.load_function(data_dir, item.func, manifest)
            path = write_case(out_dir, item, result, cache[item.func][item.index], impl_path, runtime_path)
        except (ReproError, store.BaselineError) as e:
            skipped.append((f"{item.name} ({item.layout})", str(e)))
            continue
        except Exception as e:  # a generator bug costs one reproducer, not the run's report
            skipped.append((f"{item.name} ({item.layout})", f"reproducer generator error: {type(e).__name__}: {e}"))
            continue
        result["repro_c"] = path
        written += 1
    return written, skipped
