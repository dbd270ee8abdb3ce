"""Standalone C reproducers of non-passing cases (run_test --repro DIR).

For each case that failed, DIR/<case-slug>/ receives:

  repro.c     a C11 program that calls the operator library directly, with
              the build and run commands in its opening comment
  data/       the raw little-endian storage bytes of every tensor the
              harness made (inputs with their sentinel-filled gaps, outputs
              pre-filled with the sentinel) and the reference values of
              each output (<name>.expected.bin, row-major)
  data/tensors.txt  one line per file: role, dtype, shape, strides,
              storage offset, storage elements
  README.md   what the harness saw and how to build and run the program

The program is built from the header's model of the function
(the diopi_header package): every parameter kind becomes C the same way
conformance/execute.py turns it into a cffi argument, and after the call it
checks what run_test checks, in the same order, printing the verdict. It
exits 1 when the case does not pass (a crash reproduces by dying of the
same signal), 0 when it passes, 2 when the reproducer itself cannot run.
"""
import dataclasses
import hashlib
import math
import os
import re
import shlex

import diopi_header
import numpy as np

from . import dtypes, enums, execute, paths, store, tolerances

_RUNTIME_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repro_runtime.c")
# Verdicts that come from the harness itself (a bad case or baseline), not from
# the library: there is no library behaviour to reproduce.
_HARNESS_PROBLEMS = ("case error:", "harness error:", "baseline refused:")


class ReproError(Exception):
    """The case cannot be written as a C program (the reason says why)."""


def slug(case, layout):
    """A folder name for one case: readable, unique, safe on any filesystem."""
    safe = re.sub(r"[^A-Za-z0-9.=_-]+", "_", case).strip("_")[:70]
    digest = hashlib.sha1(f"{case}\0{layout}".encode()).hexdigest()[:8]
    return f"{safe}.{layout}.{digest}"


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
    """Walks the function's parameters like execute.Call and collects the C
    statements before the call, the argument expressions, and the checks."""

    def __init__(self, fn, record, layout, variant):
        self.fn, self.record, self.layout, self.variant = fn, record, layout, variant
        self.random = record.get("checks") is not None
        self.setup, self.checks, self.files = [], [], []
        self.ctx = "rp_ctx"
        if record.get("fuzz_alias") or record.get("fuzz_layouts"):
            raise ReproError("fuzz mutations are not written as C reproducers")
        self.args = [self._arg(p) for p in fn.params]

    # -- tensors
    def _tensor(self, cname, label, dtype, role, array=None, shape=None):
        """Declares a runtime tensor laid out like the harness's: an input
        (or in-place operand) holding `array`, or an output of `shape`
        pre-filled with the sentinel. Returns its C name."""
        if role == "output":
            strides, storage = execute.sentinel_storage(shape, dtype, self.variant, self.layout)
        else:
            shape = array.shape
            strides, storage = execute.input_storage(array, dtype, self.layout)
        shape = tuple(int(d) for d in shape)
        strides = tuple(int(s) for s in strides)
        fname = f"{cname}.bin"
        self.files.append(_File(fname, role, dtype, shape, strides, 0, int(storage.size), storage.tobytes()))
        kind = {"input": "RP_INPUT", "inplace": "RP_INPLACE", "output": "RP_OUTPUT"}[role]
        self.setup.append(f"/* {label}: {dtype} {list(shape)}, strides {list(strides)} ({self.layout}), {role} */")
        self.setup.append(f"diopiTensorHandle_t {cname} = rp_tensor({c_string(label)}, {c_string(fname)}, {len(shape)}, "
                          f"{c_int_list(shape)}, {c_int_list(strides)}, diopi_dtype_{dtype}, 0, {c_int(storage.size)}, {kind});")
        return cname

    def _expected_file(self, cname, enc):
        arr, dtype = store.decode_array(enc)
        shape = tuple(int(d) for d in arr.shape)
        fname = f"{cname}.expected.bin"
        self.files.append(_File(fname, "expected", dtype, shape, tuple(execute._contiguous_strides(shape)), 0, int(arr.size),
                                np.ascontiguousarray(arr).tobytes()))
        return fname, dtype, shape

    def _check(self, cname, label, enc, prefilled):
        """A C expression, non-zero when the output `cname` does not match `enc`."""
        if enc is None:
            return None
        if self.random or store.is_spec(enc):
            return f"(rp_dump({c_string(label)}, {c_string(cname + '.produced.bin')}, {cname}), 0)"
        fname, dtype, shape = self._expected_file(cname, enc)
        tol = tolerances.resolve(dtype, self.record.get("tol"), self.record.get("accumulation"))
        exact = tol is None or not (dtype in dtypes.FLOATING or dtype in dtypes.COMPLEX)
        atol, rtol = (0.0, 0.0) if exact else tol
        sentinel, nan_sentinel = "NULL", 0
        if prefilled:
            nan_sentinel = int(dtype in dtypes.FLOATING and self.variant == 0)
            raw = execute.sentinel_value(dtype, self.variant).tobytes()
            sentinel = "(const unsigned char[]){" + ", ".join(f"0x{b:02x}" for b in raw) + "}"
        return (f"rp_check_tensor({c_string(label)}, {cname}, {c_string(fname)}, diopi_dtype_{dtype}, {len(shape)}, "
                f"{c_int_list(shape)}, {c_double(atol)}, {c_double(rtol)}, {int(exact)}, {sentinel}, {nan_sentinel})")

    def _check_number(self, name, enc):
        if enc is None or self.random:
            return None
        if isinstance(enc, float):
            tol = self.record.get("tol")
            atol, rtol = tolerances.DEFAULT["float64"] if not tol else next(iter(tol.values()))
            return f"rp_check_number({c_string(name)}, (double){name}, {c_double(enc)}, {c_double(atol)}, {c_double(rtol)}, 0)"
        return f"rp_check_number({c_string(name)}, (double){name}, {c_number(enc)}, 0.0, 0.0, 1)"

    # -- one parameter -> one argument expression (execute.Call._arg in C)
    def _arg(self, p):
        inputs, outputs = self.record["inputs"], self.record["outputs"]
        given, value, k, name = p.name in inputs, inputs.get(p.name), p.kind, _ident(p.name)
        if k == "context":
            self.ctx = name
            return name
        if k == "tensor_in":
            if value is None:
                return "NULL"
            array, dtype = store.decode_array(value)
            return self._tensor(name, p.name, dtype, "input", array)
        if k == "tensor_out":
            if given and value is not None:
                array, dtype = store.decode_array(value)
                self._tensor(name, p.name, dtype, "inplace", array)
                self.checks.append(self._check(name, p.name, outputs.get(p.name), False))
                return name
            exp = outputs.get(p.name)
            if exp is None:
                return "NULL"
            shape, dtype = store.array_meta(exp)
            self._tensor(name, p.name, dtype, "output", shape=shape)
            self.checks.append(self._check(name, p.name, exp, True))
            return name
        if k == "tensor_array_in":
            if value is None:
                return "NULL"
            names = []
            for i, v in enumerate(value):
                array, dtype = store.decode_array(v)
                names.append(self._tensor(f"{name}_{i}", f"{p.name}[{i}]", dtype, "input", array))
            self.setup.append(f"diopiConstTensorHandle_t {name}[] = {{{', '.join(names) or 'NULL'}}};")
            return name
        if k == "tensor_array_out":
            return self._tensor_array_out(p, name, given, value)
        if k == "scalar":
            if value is None:
                return "NULL"
            stype = execute.scalar_stype(value)
            member = "fval" if isinstance(value, float) else "ival"
            literal = c_double(value) if isinstance(value, float) else c_int(int(value))
            self.setup.append(f"diopiScalar_t {name} = {{.stype = diopi_dtype_{dtypes.from_enum(stype)}, .{member} = {literal}}};")
            return f"&{name}"
        if k in ("size", "size_ptr"):
            if value is None:
                if k == "size_ptr":
                    return "NULL"
                self.setup.append(f"diopiSize_t {name} = {{NULL, 0}};")
                return name
            self.setup.append(f"diopiSize_t {name} = {{{c_int_list(value)}, {len(value)}}};")
            return f"&{name}" if k == "size_ptr" else name
        if k in ("int_ptr", "bool_ptr", "double_ptr"):
            if value is None:
                return "NULL"
            ctype = {"int_ptr": "int64_t", "bool_ptr": "bool", "double_ptr": "double"}[k]
            literal = {"int_ptr": c_int, "bool_ptr": lambda v: "true" if v else "false", "double_ptr": c_double}[k](value)
            self.setup.append(f"{ctype} {name} = {literal};")
            return f"&{name}"
        if k in ("bool_out", "double_out", "int_out"):
            ctype = {"bool_out": "bool", "double_out": "double", "int_out": "int64_t"}[k]
            self.setup.append(f"{ctype} {name} = 0;")
            self.checks.append(self._check_number(name, outputs.get(p.name)))
            return f"&{name}"
        if k == "generator":
            self.setup.append(f"diopiGeneratorHandle_t {name} = dt_generator_create(UINT64_C({int(self.record['seed'])}));")
            return name
        if enums.is_enum_kind(k):
            table = enums.config_values(k)
            if value not in table:
                raise ReproError(f"{p.name}: {value!r} is not a known enum value")
            return f"({p.ctype.replace('const ', '')}){table[value]} /* {p.name}: {_comment(value)} */"
        if k == "string":
            return f"{'NULL' if value is None else c_string(value)} /* {p.name} */"
        if k in ("int", "float", "bool"):
            if not given:
                n = execute.adjacent_length(self.fn, self.record, p)
                if n is None:
                    raise ReproError(f"the case gives no value for {p.name}")
                return f"{n} /* {p.name} */"
            return f"{c_number(value)} /* {p.name} */"
        if k == "pointer":
            return "NULL"
        raise ReproError(f"parameter {p.name} of unsupported C type {p.ctype}")

    def _tensor_array_out(self, p, name, given, value):
        exp = self.record["outputs"].get(p.name)
        if given and value is not None:  # in-place list of tensors
            names, checks = [], []
            for i, v in enumerate(value):
                array, dtype = store.decode_array(v)
                names.append(self._tensor(f"{name}_{i}", f"{p.name}[{i}]", dtype, "inplace", array))
                if isinstance(exp, list) and i < len(exp):
                    checks.append(self._check(names[-1], f"{p.name}[{i}]", exp[i], False))
            self.setup.append(f"diopiTensorHandle_t {name}[] = {{{', '.join(names) or 'NULL'}}};")
            self.checks.append(" || ".join(c for c in checks if c) or None)
            return name
        if exp is None:
            return "NULL"
        if isinstance(exp, list):  # caller-allocated list; the harness reports the first bad element
            names, checks = [], []
            for i, e in enumerate(exp):
                shape, dtype = store.array_meta(e)
                names.append(self._tensor(f"{name}_{i}", f"{p.name}[{i}]", dtype, "output", shape=shape))
                checks.append(self._check(names[-1], f"{p.name}[{i}]", e, False))
            self.setup.append(f"diopiTensorHandle_t {name}[] = {{{', '.join(names) or 'NULL'}}};")
            self.checks.append(" || ".join(c for c in checks if c) or None)
            return name
        # One output the library allocates with diopiRequireTensor.
        self.setup.append(f"diopiTensorHandle_t {name} = NULL; /* allocated by the library */")
        self.checks.append(self._check(name, p.name, exp, False))
        return f"&{name}"


# ---------------------------------------------------------------- writing
def _link_flags(impl_path, runtime_path):
    impl_dir, impl_file = os.path.split(os.path.abspath(impl_path))
    rt_dir = os.path.dirname(os.path.abspath(runtime_path))
    m = re.fullmatch(r"lib(.+)\.so", impl_file)
    impl_flag = f"-l{m.group(1)}" if m else f"-l:{impl_file}"
    flags = [f"-L{impl_dir}", impl_flag]
    if rt_dir != impl_dir:
        flags.append(f"-L{rt_dir}")
    flags.append("-ldiopirt")
    for d in dict.fromkeys((impl_dir, rt_dir)):
        flags.append(f"-Wl,-rpath,{d}")
    return flags


def build_command(impl_path, runtime_path):
    """The documented compiler command (run inside the case folder)."""
    parts = ["cc", "-std=c11", "repro.c", f"-I{paths.INCLUDE_DIR}", f"-I{paths.TESTRT_INCLUDE_DIR}",
             *_link_flags(impl_path, runtime_path), "-lm", "-o", "repro"]
    return " ".join(shlex.quote(p) for p in parts)


def _timeout_message(verdict, timeout):
    seen = "reproduced" if verdict == execute.TIMEOUT else "NOT reproduced"
    return f"verdict: timeout (no answer within {timeout} s)\nharness verdict: {verdict} ({seen})\n"


def _source(fn, prog, item, result, build, timeout):
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
        "#include <ctype.h>",
        "#include <math.h>",
        "#include <signal.h>",
        "#include <stdarg.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "#include <unistd.h>",
        "",
        *includes,
        "#include <diopi_test/testrt.h>",
        "",
    ]
    with open(_RUNTIME_C) as f:
        lines.append(f.read())
    body = [
        f"rp_harness_verdict = {c_string(verdict)};",
        f"rp_timeout_message = {c_string(_timeout_message(verdict, timeout))};",
        "rp_init(argc, argv);",
        f"diopiContextHandle_t {prog.ctx} = dt_context_create();",
        f"if (!{prog.ctx}) rp_fatal(\"dt_context_create\", dt_last_error());",
        "",
        *prog.setup,
        "",
        f"printf(\"calling {fn.name} ({item.layout})\\n\");",
        "fflush(stdout);",
        f"alarm({timeout});",
        f"diopiError_t rp_rc = {fn.name}(" + ", ".join(prog.args) + ");",
        "alarm(0);",
        f"dt_context_sync({prog.ctx});",
        "",
        "char rp_reason[8192];",
        "if (rp_rc != diopiSuccess) return rp_error_verdict(rp_rc);",
        "if (!rp_guards_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"oob_write\", rp_reason);",
        "if (!rp_metadata_ok(rp_reason, sizeof rp_reason)) return rp_verdict(\"metadata_changed\", rp_reason);",
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
    build = build_command(impl_path, runtime_path)
    timeout = max(1, int(math.ceil(item.timeout)))
    path = os.path.join(case_dir, "repro.c")
    with open(path, "w") as fh:
        fh.write(_source(fn, prog, item, result, build, timeout))
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
