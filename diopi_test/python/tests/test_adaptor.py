"""The adaptor's code generator (adaptor/codegen) on small configs, and its
runtime end to end on a tiny vendor compiled here (a few kernels, seconds to
build): conversions, copy-back, arrays, the conversion record, the log line
and error messages."""
import os
import shutil
import subprocess
import sys
import textwrap

import diopi_header
import numpy as np
import pytest

import support

ADAPTOR_DIR = os.path.normpath(os.path.join(support.PYTHON_DIR, "..", "..", "adaptor"))
sys.path.insert(0, ADAPTOR_DIR)

from codegen import config, generate, kernels, model  # noqa: E402
from conformance import paths  # noqa: E402

FUNCS = diopi_header.load()


def nm_line(name, fn=None, vendor="tiny"):
    """One `nm -C` line defining impl::<vendor>::<name> with the header's types."""
    fn = fn or FUNCS[name]
    return f"0000000000000000 T impl::{vendor}::{name}({', '.join(kernels.demangled_params(fn))})"


def write_config(tmp_path, text, name="convert_config.yaml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(p)


def load_config(tmp_path, text):
    return config.load(write_config(tmp_path, text), FUNCS)


def config_error(tmp_path, text):
    path = write_config(tmp_path, text)
    with pytest.raises(config.ConfigError) as e:
        config.load(path, FUNCS)
    return str(e.value), path


# ---------------------------------------------------------------- rule parsing

def test_rules_parse_in_order():
    r = config.parse_rules("(int64)->int32, (float64)->float32")
    assert r.pairs == (("int64", "int32"), ("float64", "float32"))


def test_rules_several_sources_and_spacing():
    r = config.parse_rules(" ( float64 , float16 ) -> float32 ,(uint8)->int32 ")
    assert r.pairs == (("float64", "float32"), ("float16", "float32"), ("uint8", "int32"))


@pytest.mark.parametrize("text", ["", "none", "None", None])
def test_empty_rules_convert_nothing(text):
    assert not config.parse_rules(text)


@pytest.mark.parametrize("text, hint", [
    ("int64->int32", "bad dtype rule syntax"),
    ("(int64)->int32 (float64)->float32", "separated by commas"),
    ("(int64)->", "empty dtype name"),
    ("(int65)->int32", "unknown dtype 'int65'"),
    ("(int64)->int32, (int64)->int16", "has two rules"),
])
def test_bad_rules_say_why(text, hint):
    with pytest.raises(ValueError, match=hint):
        config.parse_rules(text)


# --------------------------------------------------------- overrides resolve

def test_function_and_parameter_overrides(tmp_path):
    cfg = load_config(tmp_path, """
        common_config:
          dtype: (int64)->int32, (float64)->float32
          layout: ND
        diopiConvolution2d:
          layout: NHWC
          dtype: (float64)->float16
        diopiIndexSelect:
          tensor_dtype:
            index: (int64)->int16
        diopiCopyInp:
          dtype: none
        """)
    common = (("int64", "int32"), ("float64", "float32"))
    rules, layout = cfg.resolve("diopiAbs", "input")
    assert (rules.pairs, layout) == (common, "ND")
    rules, layout = cfg.resolve("diopiConvolution2d", "input")  # function dtype replaces the common rules
    assert (rules.pairs, layout) == ((("float64", "float16"),), "NHWC")
    rules, _ = cfg.resolve("diopiIndexSelect", "index")          # parameter rules win
    assert rules.pairs == (("int64", "int16"),)
    rules, _ = cfg.resolve("diopiIndexSelect", "input")          # other parameters keep the common rules
    assert rules.pairs == common
    rules, _ = cfg.resolve("diopiCopyInp", "src")
    assert not rules


def test_layout_spellings(tmp_path):
    cfg = load_config(tmp_path, """
        diopiAbs: {layout: contiguous}
        diopiNeg: {layout: NCHW}
        diopiAdd: {layout: ndhwc}
        """)
    assert cfg.resolve("diopiAbs", "input")[1] == "Contiguous"
    assert cfg.resolve("diopiNeg", "input")[1] == "NCHW"
    assert cfg.resolve("diopiAdd", "input")[1] == "NDHWC"


def test_empty_config_converts_nothing(tmp_path):
    cfg = load_config(tmp_path, "# nothing to convert\n")
    rules, layout = cfg.resolve("diopiAbs", "input")
    assert not rules and layout == "ND"


def test_the_cpu_config_is_valid_and_converts_nothing():
    # impl/cpu computes every documented dtype and reads any layout itself: no
    # tensor of any function is converted on its way to a kernel.
    cfg = config.load(os.path.join(paths.REPO_ROOT, "impl", "cpu", "convert_config.yaml"), FUNCS)
    converted = []
    for fn, f in FUNCS.items():
        for p in f.params:
            rules, layout = cfg.resolve(fn, p.name)
            if rules or layout != "ND":
                converted.append((fn, p.name, rules, layout))
    assert len(FUNCS) > 400 and not converted, converted[:5]  # the header model was read, and nothing converts


# ------------------------------------------------ malformed config: file:line

@pytest.mark.parametrize("text, line, problem", [
    ("common_config:\n  dtype: (int64)->int32\ndiopiAbss:\n  dtype: none\n", 3, "unknown function 'diopiAbss'"),
    ("Abs:\n  dtype: none\n", 1, "did you mean diopiAbs?"),
    ("common_config:\n  dtype: none\n  layuot: ND\n", 3, "unknown key 'layuot' in common_config"),
    ("diopiAbs:\n  dtype: none\n  layouts: NHWC\n", 3, "unknown key 'layouts' for diopiAbs"),
    ("diopiAbs:\n  dtype: (int64)=>int32\n", 2, "bad dtype rule syntax"),
    ("common_config:\n  dtype: (int64)->int32, (float64)->flaot32\n", 2, "unknown dtype 'flaot32'"),
    ("diopiAbs:\n  layout: NWHC\n", 2, "unknown layout 'NWHC'"),
    ("diopiAbs:\n  tensor_dtype:\n    index: (int64)->int32\n", 3, "diopiAbs has no parameter 'index' (its tensors: out, input)"),
    ("diopiAdd:\n  tensor_dtype:\n    alpha: (int64)->int32\n", 3, "parameter 'alpha' of diopiAdd is not a tensor"),
    ("diopiAbs:\n  dtype: none\ndiopiAbs:\n  dtype: none\n", 3, "'diopiAbs' appears twice in the config (first at line 1)"),
    ("diopiAbs:\n  dtype: [int64]\n", 2, "expected a string"),
    ("diopiAbs: [1, 2]\n", 1, "must be a mapping"),
    ("diopiAbs:\n  dtype: (int64)->int32\n    layout: NHWC\n", 3, "YAML syntax error"),
])
def test_malformed_config_names_file_and_line(tmp_path, text, line, problem):
    msg, path = config_error(tmp_path, text)
    assert msg.startswith(f"{path}:{line}: "), msg
    assert problem in msg, msg


def test_malformed_config_stops_the_generator_with_file_line(tmp_path):
    cfg = write_config(tmp_path, "diopiAbs:\n  layout: NWHC\n")
    listing = tmp_path / "nm.txt"
    listing.write_text(nm_line("diopiAbs") + "\n")
    proc = subprocess.run([sys.executable, os.path.join(ADAPTOR_DIR, "codegen", "generate.py"), "--vendor", "tiny", "--config", cfg,
                           "--nm-listing", str(listing), "--out-dir", str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 1
    assert f"{cfg}:2: unknown layout 'NWHC'" in proc.stderr
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------ kernels found with nm

def test_nm_listing_parsing():
    listing = "\n".join([
        "kernels.o:",
        "0000000000000010 T impl::tiny::diopiAbs(diopiContext*, diopiTensor*, diopiTensor const*)",
        "0000000000000020 t impl::tiny::(anonymous namespace)::helper(int)",
        "0000000000000030 W impl::tiny::diopiNeg(diopiContext*, diopiTensor*, diopiTensor const*)",
        "0000000000000040 T impl::other::diopiExp(diopiContext*, diopiTensor*, diopiTensor const*)",
        "0000000000000050 T impl::tiny::diopiGetVendorName()",
    ])
    found = kernels.parse_nm(listing, "tiny")
    assert set(found) == {"diopiAbs", "diopiNeg", "diopiGetVendorName"}
    assert found["diopiAbs"] == [["diopiContext*", "diopiTensor*", "diopiTensor const*"]]
    assert found["diopiGetVendorName"] == [[]]


@pytest.mark.parametrize("ctype, demangled", [
    ("diopiConstTensorHandle_t", "diopiTensor const*"),
    ("const diopiConstTensorHandle_t", "diopiTensor const*"),
    ("diopiConstTensorHandle_t*", "diopiTensor const**"),
    ("const diopiScalar_t*", "diopiScalar_t const*"),
    ("const diopiSize_t", "diopiSize_t"),
    ("int64_t", "long"),
    ("const int64_t*", "long const*"),
    ("const char*", "char const*"),
    ("int32_t", "int"),
])
def test_demangled_spelling(ctype, demangled):
    assert kernels.demangled_type(ctype) == demangled


def test_signature_mismatch_names_function_and_both_signatures():
    # A kernel written with `diopiTensorHandle_t input` (non-const) by mistake.
    listing = "T impl::tiny::diopiAbs(diopiContext*, diopiTensor*, diopiTensor*)\n" + nm_line("diopiNeg")
    with pytest.raises(kernels.KernelError) as e:
        kernels.match(FUNCS, kernels.parse_nm(listing, "tiny"), "tiny")
    msg = str(e.value)
    assert "impl::tiny::diopiAbs does not match its declaration in functions.h" in msg
    assert "header: diopiAbs(diopiContext*, diopiTensor*, diopiTensor const*)" in msg
    assert "kernel: diopiAbs(diopiContext*, diopiTensor*, diopiTensor*)" in msg
    assert "diopiNeg" not in msg


def test_a_matching_overload_is_enough():
    listing = "T impl::tiny::diopiAbs(diopiContext*, diopiTensor*, diopiTensor*)\n" + nm_line("diopiAbs")
    assert kernels.match(FUNCS, kernels.parse_nm(listing, "tiny"), "tiny") == ["diopiAbs"]


@pytest.fixture(scope="module")
def cxx():
    c = shutil.which("c++") or shutil.which("g++")
    if c is None or shutil.which("nm") is None:
        pytest.skip("needs a C++ compiler and nm")
    return c


def test_every_header_signature_matches_what_the_compiler_mangles(tmp_path, cxx):
    """A stub kernel for each of the header's functions, compiled and listed
    with nm: the generator must recognise all of them (the demangled spelling
    of every parameter type is right)."""
    lines = ["#include <diopi/functions.h>", "#include <diopi/functions_ext.h>", "#include <diopi/collective.h>", "namespace impl::every {"]
    for fn in FUNCS.values():
        params = ", ".join(f"{p.ctype} {p.name}" for p in fn.params)
        lines.append(f"{fn.returns} {fn.name}({params}) {{ return {{}}; }}")
    lines.append("}")
    src = tmp_path / "every.cpp"
    src.write_text("\n".join(lines) + "\n")
    obj = tmp_path / "every.o"
    subprocess.run([cxx, "-std=c++17", "-O0", "-c", "-I", paths.INCLUDE_DIR, str(src), "-o", str(obj)], check=True)
    listing = kernels.run_nm("nm", str(obj))
    assert sorted(kernels.match(FUNCS, kernels.parse_nm(listing, "every"), "every")) == sorted(FUNCS)


# ------------------------------------------------------------ generated code

def gen(tmp_path, cfg_text, names, vendor="tiny"):
    cfg = write_config(tmp_path, cfg_text)
    listing = "\n".join(nm_line(n, vendor=vendor) for n in names)
    files, implemented = generate.generate(vendor, cfg, listing)
    return files, implemented


def test_function_without_kernel_gets_no_wrapper(tmp_path):
    files, implemented = gen(tmp_path, "common_config:\n  dtype: (float64)->float32\n", ["diopiAbs", "diopiCopyInp"])
    assert sorted(implemented) == ["diopiAbs", "diopiCopyInp"]
    unary = files["wrappers_elementwise_unary.cpp"]
    assert 'extern "C" DIOPI_API diopiError_t diopiAbs(' in unary
    assert "diopiNeg(" not in unary and "diopiAbsInp(" not in unary
    assert "diopiAdd(" not in files["wrappers_elementwise_binary_arith.cpp"]
    # Every family still has its (possibly empty) file: the build's file list is fixed.
    assert set(files) == set(model.output_files(FUNCS))


def test_config_without_conversions_generates_wrappers_that_allocate_nothing(tmp_path):
    names = ["diopiAbs", "diopiAbsInp", "diopiCat", "diopiConvolution2d", "diopiGetLastErrorString"]
    files, _ = gen(tmp_path, "common_config:\n  dtype: none\n  layout: ND\n", names)
    text = "".join(files.values())
    assert "diopi_adaptor::Call" not in text        # no conversion code at all
    assert "Spec" not in text
    assert "enterPassThrough();\n    return impl::tiny::diopiAbs(ctx, out, input);" in text
    assert "diopiNoImplement" in files["adaptor_glue.cpp"]  # the copy kernel is never needed


def test_conversions_follow_the_parameter_roles(tmp_path):
    names = ["diopiAbs", "diopiAbsInp", "diopiCat", "diopiSplitWithSizes", "diopiNonzero", "diopiFusedAdamW", "diopiCopyInp"]
    files, _ = gen(tmp_path, "common_config:\n  dtype: (float64)->float32\n", names)
    text = "".join(files.values())
    # pure output: not filled, and its previous contents are not range-checked
    assert 'call.output("out", out, kSpec0, /*fill=*/false, /*reads=*/false);' in text
    assert 'call.input("input", input, kSpec0);' in text
    # in-place operand: filled, and its values checked before a narrowing
    assert 'call.output("input", input, kSpec0, /*fill=*/true, /*reads=*/true);' in text
    assert 'call.inputArray("tensors", tensors, num_inputs, kSpec0);' in text
    assert 'call.outputArray("outs", outs, num_outs, kSpec0, /*fill=*/false, /*reads=*/false);' in text
    assert 'call.outputArray("exp_avgs", exp_avgs, nums, kSpec0, /*fill=*/true, /*reads=*/true);' in text
    assert 'call.inputArray("state_steps", state_steps, nums, kSpec0);' in text
    # Nonzero's out is allocated by the kernel: passed through untouched.
    nonzero = text[text.index("diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out"):]
    nonzero = nonzero[:nonzero.index("\n}\n")]
    assert '"out"' not in nonzero and 'call.input("input", input, kSpec0);' in nonzero


def test_layout_and_parameter_specs_are_distinct(tmp_path):
    files, _ = gen(tmp_path, """
        common_config:
          dtype: (int64)->int32
        diopiMaxPool2dWithIndices:
          layout: NHWC
          tensor_dtype:
            indices: none
        """, ["diopiMaxPool2dWithIndices", "diopiCopyInp"])
    text = files["wrappers_pooling.cpp"]
    assert "diopi_adaptor::Layout::NHWC" in text
    assert "constexpr diopi_adaptor::Spec kSpec1{nullptr, 0, diopi_adaptor::Layout::NHWC};" in text \
        or "constexpr diopi_adaptor::Spec kSpec0{nullptr, 0, diopi_adaptor::Layout::NHWC};" in text


def test_conversions_without_a_copy_kernel_are_refused(tmp_path):
    with pytest.raises(generate.GenerateError, match="diopiCopyInp"):
        gen(tmp_path, "common_config:\n  dtype: (float64)->float32\n", ["diopiAbs"])


def test_unchanged_output_is_not_rewritten(tmp_path):
    p = tmp_path / "f.cpp"
    assert generate.write_if_changed(str(p), "x\n")
    mtime = os.stat(p).st_mtime_ns
    assert not generate.write_if_changed(str(p), "x\n")
    assert os.stat(p).st_mtime_ns == mtime
    assert generate.write_if_changed(str(p), "y\n")


# ------------------------------------------------- end to end on a tiny vendor

TINY_CONFIG = """
common_config:
  dtype: (int64)->int32, (float64)->float32
  layout: ND
diopiCopyInp:
  dtype: none
diopiNeg:
  layout: NHWC
"""

# float32-only kernels that check what they are given, so a missing or wrong
# conversion fails loudly.
TINY_KERNELS = r"""
#include <diopi/functions.h>
#include "adaptor_kernels.hpp"
#include <diopi/functions_ext.h>
#include <cmath>
#include <string>
#include <vector>

namespace impl::tiny {
namespace {
thread_local std::string g_err;
diopiError_t failWith(diopiError_t code, const std::string& m) { g_err = m; return code; }

using namespace adaptor_test;
double load(const View& v, int64_t off) {
    const char* p = v.data + off;
    switch (v.dtype) {
        case diopi_dtype_float64: return *reinterpret_cast<const double*>(p);
        case diopi_dtype_float32: return *reinterpret_cast<const float*>(p);
        case diopi_dtype_int64: return double(*reinterpret_cast<const int64_t*>(p));
        case diopi_dtype_int32: return *reinterpret_cast<const int32_t*>(p);
        default: return *reinterpret_cast<const uint8_t*>(p);
    }
}
void store(const View& v, int64_t off, double x) {
    char* p = v.data + off;
    switch (v.dtype) {
        case diopi_dtype_float64: *reinterpret_cast<double*>(p) = x; break;
        case diopi_dtype_float32: *reinterpret_cast<float*>(p) = float(x); break;
        case diopi_dtype_int64: *reinterpret_cast<int64_t*>(p) = int64_t(x); break;
        case diopi_dtype_int32: *reinterpret_cast<int32_t*>(p) = int32_t(x); break;
        default: *reinterpret_cast<uint8_t*>(p) = uint8_t(x); break;
    }
}
bool f32(const View& v) { return v.dtype == diopi_dtype_float32; }
template <class F>
void unary(const View& o, const View& i, F f) {
    auto oo = offsets(o), io = offsets(i);
    for (size_t k = 0; k < oo.size(); ++k) store(o, oo[k], f(load(i, io[k])));
}
bool channelsLast(const View& v) {
    if (v.shape.len != 4) return true;
    const int64_t* s = v.shape.data;
    int64_t want[4] = {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
    for (int d = 0; d < 4; ++d)
        if (s[d] != 1 && v.stride.data[d] != want[d]) return false;
    return true;
}
}  // namespace

const char* diopiGetVendorName() { return "tiny"; }
const char* diopiGetImplVersion() { return "0"; }
const char* diopiGetLastErrorString() { return g_err.c_str(); }

diopiError_t diopiCopyInp(diopiContextHandle_t, diopiConstTensorHandle_t src, diopiTensorHandle_t dest) {
    View s = view(src), d = view(dest);
    if (s.numel != d.numel) return failWith(diopiErrorOccurred, "diopiCopyInp: numel differs");
    unary(d, s, [](double x) { return x; });
    return diopiSuccess;
}

diopiError_t diopiAbs(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    if (!input || !out) return failWith(diopiErrorOccurred, input ? "diopiAbs: out is NULL" : "diopiAbs: input is NULL");
    View o = view(out), i = view(input);
    if (!f32(o) || !f32(i)) return failWith(diopiDtypeNotSupported, "diopiAbs: float32 only");
    unary(o, i, [](double x) { return std::fabs(x); });
    return diopiSuccess;
}

diopiError_t diopiAbsInp(diopiContextHandle_t, diopiTensorHandle_t input) {
    View i = view(input);
    if (!f32(i)) return failWith(diopiDtypeNotSupported, "diopiAbsInp: float32 only");
    unary(i, i, [](double x) { return std::fabs(x); });
    return diopiSuccess;
}

diopiError_t diopiNeg(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    View o = view(out), i = view(input);
    if (!f32(o) || !f32(i)) return failWith(diopiDtypeNotSupported, "diopiNeg: float32 only");
    if (!channelsLast(o) || !channelsLast(i)) return failWith(diopiErrorOccurred, "diopiNeg: 4-D tensors must be NHWC");
    unary(o, i, [](double x) { return -x; });
    return diopiSuccess;
}

diopiError_t diopiSign(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t) {
    return failWith(diopiErrorOccurred, "diopiSign: planted failure");
}

// 1-D float32 tensors along dim 0; the int32 `dim` tensors check the conversion of arrays.
diopiError_t diopiCat(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
    View o = view(out);
    if (!f32(o)) return failWith(diopiDtypeNotSupported, "diopiCat: float32 only");
    auto oo = offsets(o);
    size_t k = 0;
    for (int64_t t = 0; t < num_inputs; ++t) {
        View i = view(tensors[t]);
        if (!f32(i)) return failWith(diopiDtypeNotSupported, "diopiCat: float32 only");
        for (int64_t off : offsets(i)) store(o, oo[k++], load(i, off));
    }
    return diopiSuccess;
}

diopiError_t diopiForeachaddInpScalar(diopiContextHandle_t, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other) {
    for (int64_t t = 0; t < inputSize; ++t) {
        View i = view(inputs[t]);
        if (!f32(i)) return failWith(diopiDtypeNotSupported, "diopiForeachaddInpScalar: float32 only");
        unary(i, i, [&](double x) { return x + other->fval; });
    }
    return diopiSuccess;
}
}  // namespace impl::tiny
"""

TINY_NAMES = ["diopiGetVendorName", "diopiGetImplVersion", "diopiGetLastErrorString", "diopiCopyInp", "diopiAbs", "diopiAbsInp",
              "diopiNeg", "diopiSign", "diopiCat", "diopiForeachaddInpScalar"]


def build_adapted(d, vendor, kernels, config, names, cxx, werror=False):
    """Into folder `d`: lib<vendor>.so, the C++ `kernels` behind the wrappers adaptor/codegen generates for
    them from `config` (it must wrap exactly `names`), and a test runtime libdiopirt.so (-O0, seconds)."""
    (d / "kernels.cpp").write_text(kernels)
    cfg = d / "convert_config.yaml"
    cfg.write_text(config)
    inc = ["-I", paths.INCLUDE_DIR]
    kobj = d / "kernels.o"
    subprocess.run([cxx, "-std=c++17", "-O0", "-fPIC", "-c", *inc, "-I", os.path.dirname(os.path.abspath(__file__)),
                    str(d / "kernels.cpp"), "-o", str(kobj)], check=True)
    out = d / "gen"
    proc = subprocess.run([sys.executable, os.path.join(ADAPTOR_DIR, "codegen", "generate.py"), "--vendor", vendor, "--config", str(cfg),
                           "--archive", str(kobj), "--out-dir", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(names)} of {len(FUNCS)} functions wrapped" in proc.stdout
    # Only the files with wrappers need compiling (the others are empty).
    sources = [str(out / f) for f in sorted(os.listdir(out)) if f.endswith(".cpp") and "extern \"C\"" in (out / f).read_text()]
    sources += [str(out / "adaptor_glue.cpp"), os.path.join(ADAPTOR_DIR, "csrc", "adaptor_runtime.cpp")]
    # diopi_tables.h, generated from the header model as cmake/DiopiHeaderTables.cmake does
    subprocess.run([sys.executable, "-m", "diopi_header", "c-tables", str(d / "generated" / "diopi_tables.h")], check=True,
                   capture_output=True)
    inc += ["-I", str(d / "generated")]
    warn = ["-Wall", "-Werror"] if werror else []
    subprocess.run([cxx, "-std=c++17", "-O0", *warn, "-fPIC", "-shared", "-fvisibility=hidden", *inc, "-I", os.path.join(ADAPTOR_DIR, "csrc"),
                    *sources, str(kobj), "-o", str(d / f"lib{vendor}.so")], check=True)
    csrc = os.path.join(paths.REPO_ROOT, "diopi_test", "csrc")
    subprocess.run([cxx, "-std=c++17", "-O0", "-fPIC", "-shared", *inc, "-I", os.path.join(csrc, "include"),
                    "-I", os.path.join(paths.REPO_ROOT, "proto", "support", "include"),
                    os.path.join(csrc, "runtime.cpp"), "-ldl", "-o", str(d / "libdiopirt.so")], check=True)
    return d


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, cxx):
    """libtiny.so: the tiny kernels behind generated wrappers, plus a test runtime."""
    return build_adapted(tmp_path_factory.mktemp("tiny"), "tiny", TINY_KERNELS, TINY_CONFIG, TINY_NAMES, cxx)


@pytest.fixture(scope="module")
def tinylib(tiny):
    from conformance import binding
    return binding.Library(str(tiny / "libtiny.so"), str(tiny / "libdiopirt.so"))


class Ctx:
    """A runtime context and tensors made from numpy arrays with any strides."""

    def __init__(self, lib):
        self.lib, self.ffi = lib, lib.ffi
        self.ctx = lib.rt.dt_context_create()
        self.tensors = []

    def tensor(self, array, dtype, strides=None):
        from conformance import execute
        array = np.asarray(array, dtype=dtype)
        if strides is None:  # row-major
            strides = [int(np.prod(array.shape[d + 1:])) for d in range(array.ndim)]
        need = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides)) if array.size else 0
        storage = np.zeros(need, dtype=dtype)
        if array.size:
            np.lib.stride_tricks.as_strided(storage, array.shape, [s * array.itemsize for s in strides])[...] = array
        t = execute.Tensor(self.lib, array.shape, dtype, strides, storage)
        self.tensors.append(t)
        return t

    def read(self, t):
        from conformance import execute
        return execute.read_handle(self.lib, t.handle)[0]

    def required(self):
        return self.lib.rt.dt_context_required_count(self.ctx)

    def close(self):
        for t in self.tensors:
            t.destroy()
        self.lib.rt.dt_context_destroy(self.ctx)


@pytest.fixture
def rt(tinylib):
    c = Ctx(tinylib)
    yield c
    c.close()


def nhwc_strides(shape):
    n, c, h, w = shape
    return [h * w * c, 1, w * c, c]


def test_native_dtype_allocates_and_copies_nothing(rt, tinylib):
    x = np.array([[-1.5, 2.0], [3.0, -4.0]], dtype="float32")
    a, o = rt.tensor(x, "float32"), rt.tensor(np.zeros_like(x), "float32")
    assert tinylib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0
    assert np.array_equal(rt.read(o), np.abs(x))
    assert rt.required() == 0
    assert tinylib.conversions() == ""


def test_float64_goes_through_float32_and_back(rt, tinylib):
    x = np.array([[-1.5, 2.25], [3.0, -4.0]])
    a, o = rt.tensor(x, "float64"), rt.tensor(np.zeros_like(x), "float64")
    assert tinylib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(o), np.abs(x))
    assert rt.required() == 2
    assert tinylib.conversions() == "out:float64->float32; input:float64->float32"


def test_strided_float64_is_cast_with_any_strides(rt, tinylib):
    x = np.arange(12, dtype="float64").reshape(3, 4) - 6
    a = rt.tensor(x.T, "float64", strides=[1, 4])        # transposed view
    o = rt.tensor(np.zeros((4, 3)), "float64", strides=[1, 4])
    assert tinylib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(o), np.abs(x.T))


def test_in_place_operand_is_filled_and_copied_back(rt, tinylib):
    x = np.array([-1.0, 2.0, -3.5])
    a = rt.tensor(x, "float64")
    assert tinylib.impl.diopiAbsInp(rt.ctx, a.handle) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(a), np.abs(x))
    assert tinylib.conversions() == "input:float64->float32"


def test_layout_conversion_to_nhwc(rt, tinylib):
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype("float32")
    a, o = rt.tensor(x, "float32"), rt.tensor(np.zeros_like(x), "float32")
    assert tinylib.impl.diopiNeg(rt.ctx, o.handle, a.handle) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(o), -x)
    assert tinylib.conversions() == "out:contiguous->NHWC; input:contiguous->NHWC"
    # Already channels-last: nothing to do.
    a2 = rt.tensor(x, "float32", strides=nhwc_strides(x.shape))
    o2 = rt.tensor(np.zeros_like(x), "float32", strides=nhwc_strides(x.shape))
    before = rt.required()
    assert tinylib.impl.diopiNeg(rt.ctx, o2.handle, a2.handle) == 0
    assert rt.required() == before and tinylib.conversions() == ""
    assert np.array_equal(rt.read(o2), -x)


def test_layout_and_dtype_together(rt, tinylib):
    x = np.random.default_rng(1).standard_normal((1, 2, 3, 2))
    a = rt.tensor(x, "float64", strides=[12, 6, 1, 3])  # H and W swapped: neither layout
    o = rt.tensor(np.zeros_like(x), "float64")
    assert tinylib.impl.diopiNeg(rt.ctx, o.handle, a.handle) == 0, tinylib.last_error()
    assert np.allclose(rt.read(o), -x, atol=1e-6)
    assert tinylib.conversions() == ("out:float64->float32; out:contiguous->NHWC; "
                                     "input:float64->float32; input:strided->NHWC")


def test_lower_ranks_are_left_alone_by_nhwc(rt, tinylib):
    x = np.array([1.0, -2.0], dtype="float32")
    a, o = rt.tensor(x, "float32"), rt.tensor(np.zeros_like(x), "float32")
    assert tinylib.impl.diopiNeg(rt.ctx, o.handle, a.handle) == 0
    assert tinylib.conversions() == "" and rt.required() == 0


def test_const_tensor_array_converts_element_wise(rt, tinylib):
    parts = [np.array([1.0, 2.0], dtype="float32"), np.array([3.0]), np.array([4.0, 5.0], dtype="float32")]
    ts = [rt.tensor(parts[0], "float32"), rt.tensor(parts[1], "float64"), rt.tensor(parts[2], "float32")]
    o = rt.tensor(np.zeros(5), "float64")
    arr = rt.ffi.new("diopiConstTensorHandle_t[]", [t.handle for t in ts])
    assert tinylib.impl.diopiCat(rt.ctx, o.handle, arr, 3, 0) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(o), [1, 2, 3, 4, 5])
    assert tinylib.conversions() == "out:float64->float32; tensors[1]:float64->float32"
    assert list(arr) == [t.handle for t in ts]  # the caller's array is not modified


def test_in_place_tensor_array_is_copied_back(rt, tinylib):
    ts = [rt.tensor([1.0, 2.0], "float64"), rt.tensor([3.0], "float32")]
    arr = rt.ffi.new("diopiTensorHandle_t[]", [t.handle for t in ts])
    s = rt.ffi.new("diopiScalar_t*")
    s.stype, s.fval = 10, 0.5  # diopi_dtype_float64
    assert tinylib.impl.diopiForeachaddInpScalar(rt.ctx, arr, 2, s) == 0, tinylib.last_error()
    assert np.array_equal(rt.read(ts[0]), [1.5, 2.5]) and np.array_equal(rt.read(ts[1]), [3.5])
    assert tinylib.conversions() == "inputs[0]:float64->float32"


def test_null_handles_stay_null(rt, tinylib):
    o = rt.tensor(np.zeros(2), "float64")
    assert tinylib.impl.diopiAbs(rt.ctx, o.handle, rt.ffi.NULL) != 0
    assert tinylib.last_error() == "diopiAbs: input is NULL"  # the kernel saw NULL, not a temporary
    assert tinylib.conversions() == "out:float64->float32"


def test_kernel_errors_pass_through(rt, tinylib):
    x = np.array([1.0])
    assert tinylib.impl.diopiSign(rt.ctx, rt.tensor(x, "float64").handle, rt.tensor(x, "float64").handle) != 0
    assert tinylib.last_error() == "diopiSign: planted failure"
    x32 = np.array([1], dtype="int32")
    st = tinylib.impl.diopiAbs(rt.ctx, rt.tensor(x32, "int32").handle, rt.tensor(x32, "int32").handle)
    assert st == 1000 and tinylib.last_error() == "diopiAbs: float32 only"


def test_adaptor_errors_surface_through_last_error_string(rt, tinylib):
    # No context: diopiRequireTensor fails inside the adaptor.
    x = np.array([1.0, 2.0])
    a, o = rt.tensor(x, "float64"), rt.tensor(x, "float64")
    st = tinylib.impl.diopiAbs(rt.ffi.NULL, o.handle, a.handle)
    assert st != 0
    msg = tinylib.last_error()
    assert msg.startswith("diopiAbs: adaptor: ") and "diopiRequireTensor failed" in msg and "out" in msg
    # The next successful call clears it.
    assert tinylib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0
    assert not tinylib.last_error().startswith("diopiAbs: adaptor")


def test_log_line_on_stderr(tiny):
    """DIOPI_ADAPTOR_LOG=1 prints one line per converting call (checked in a
    subprocess: the variable is read once per process)."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {support.PYTHON_DIR!r})
        import numpy as np
        from conformance import binding, execute
        lib = binding.Library({str(tiny / 'libtiny.so')!r}, {str(tiny / 'libdiopirt.so')!r})
        ctx = lib.rt.dt_context_create()
        def t(dtype):
            st = np.array([-1.0, 2.0], dtype=dtype)
            return execute.Tensor(lib, (2,), dtype, [1], st)
        a, o = t("float64"), t("float64")
        assert lib.impl.diopiAbs(ctx, o.handle, a.handle) == 0
        a, o = t("float32"), t("float32")
        assert lib.impl.diopiAbs(ctx, o.handle, a.handle) == 0
        """)
    env = dict(os.environ, DIOPI_ADAPTOR_LOG="1")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("diopi adaptor:")]
    assert lines == ["diopi adaptor: diopiAbs: out:float64->float32; input:float64->float32"]
    env["DIOPI_ADAPTOR_LOG"] = "0"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and "diopi adaptor:" not in proc.stderr


def test_only_implemented_functions_are_exported(tiny):
    out = subprocess.run(["nm", "-D", "--defined-only", str(tiny / "libtiny.so")], capture_output=True, text=True, check=True).stdout
    exported = {ln.split()[-1] for ln in out.splitlines() if ln.split() and ln.split()[-1].startswith("diopi")}
    assert exported == set(TINY_NAMES) | {"diopiAdaptorLastConversions"}
