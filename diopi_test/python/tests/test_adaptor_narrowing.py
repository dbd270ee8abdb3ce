"""The adaptor refuses narrowing casts that would change a value: an int64
input beyond int32, a finite float64 beyond float32's range (it would become
inf), and any other narrowing a config asks for. Shown on a tiny vendor
compiled here. impl/cpu narrows nothing: when it is built, its int64 and
float64 results are checked to keep their full range and precision."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import support  # noqa: F401  (puts the harness on sys.path)
from test_adaptor import Ctx, build_adapted, cxx  # noqa: F401  (cxx is a fixture)
from conformance import paths  # noqa: E402

REFUSED = 1000  # diopiDtypeNotSupported

NARROW_CONFIG = """
common_config:
  dtype: (int64)->int32, (float64)->float32
diopiCopyInp:
  dtype: none
diopiNeg:
  dtype: (int32)->int16, (uint8)->int8
diopiSign:
  dtype: (float64)->int32
"""

# Kernels that accept only the narrowed dtypes (so an unconverted tensor fails
# loudly) and count their calls: diopiGetImplVersion returns the count, which
# shows whether a refused call reached the kernel.
NARROW_KERNELS = r"""
#include <diopi/functions.h>
#include "adaptor_kernels.hpp"
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace impl::narrow {
namespace {
thread_local std::string g_err;
std::string g_calls = "0";
int g_count = 0;
void called() { g_calls = std::to_string(++g_count); }
diopiError_t failWith(diopiError_t code, const std::string& m) { g_err = m; return code; }

using namespace adaptor_test;
// Plain C++ conversions, which is what narrowing without a check amounts to.
template <class T> T get(const char* p) { T x; std::memcpy(&x, p, sizeof x); return x; }
template <class T> void put(char* p, T x) { std::memcpy(p, &x, sizeof x); }
long double load(const View& v, int64_t off) {
    const char* p = v.data + off;
    switch (v.dtype) {
        case diopi_dtype_float64: return get<double>(p);
        case diopi_dtype_float32: return get<float>(p);
        case diopi_dtype_int64: return get<int64_t>(p);
        case diopi_dtype_int32: return get<int32_t>(p);
        case diopi_dtype_int16: return get<int16_t>(p);
        case diopi_dtype_int8: return get<int8_t>(p);
        default: return get<uint8_t>(p);
    }
}
void store(const View& v, int64_t off, long double x) {
    char* p = v.data + off;
    switch (v.dtype) {
        case diopi_dtype_float64: put(p, double(x)); break;
        case diopi_dtype_float32: put(p, float(x)); break;
        case diopi_dtype_int64: put(p, int64_t(x)); break;
        case diopi_dtype_int32: put(p, int32_t(int64_t(x))); break;
        case diopi_dtype_int16: put(p, int16_t(int64_t(x))); break;
        case diopi_dtype_int8: put(p, int8_t(int64_t(x))); break;
        default: put(p, uint8_t(int64_t(x))); break;
    }
}
template <class F>
void unary(const View& o, const View& i, F f) {
    auto oo = offsets(o), io = offsets(i);
    for (size_t k = 0; k < oo.size(); ++k) store(o, oo[k], f(load(i, io[k])));
}
bool is(const View& v, diopiDtype_t a, diopiDtype_t b) { return v.dtype == a || v.dtype == b; }
}  // namespace

const char* diopiGetVendorName() { return "narrow"; }
const char* diopiGetImplVersion() { return g_calls.c_str(); }
const char* diopiGetLastErrorString() { return g_err.c_str(); }

diopiError_t diopiCopyInp(diopiContextHandle_t, diopiConstTensorHandle_t src, diopiTensorHandle_t dest) {
    View s = view(src), d = view(dest);
    unary(d, s, [](long double x) { return x; });
    return diopiSuccess;
}

diopiError_t diopiAbs(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    called();
    View o = view(out), i = view(input);
    if (!is(o, diopi_dtype_int32, diopi_dtype_float32) || o.dtype != i.dtype) return failWith(diopiDtypeNotSupported, "diopiAbs: int32/float32 only");
    unary(o, i, [](long double x) { return std::fabs(x); });
    return diopiSuccess;
}

diopiError_t diopiAbsInp(diopiContextHandle_t, diopiTensorHandle_t input) {
    called();
    View i = view(input);
    if (!is(i, diopi_dtype_int32, diopi_dtype_float32)) return failWith(diopiDtypeNotSupported, "diopiAbsInp: int32/float32 only");
    unary(i, i, [](long double x) { return std::fabs(x); });
    return diopiSuccess;
}

diopiError_t diopiNeg(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    called();
    View o = view(out), i = view(input);
    if (!is(o, diopi_dtype_int16, diopi_dtype_int8) || o.dtype != i.dtype) return failWith(diopiDtypeNotSupported, "diopiNeg: int16/int8 only");
    unary(o, i, [](long double x) { return -x; });
    return diopiSuccess;
}

diopiError_t diopiSign(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    called();
    View o = view(out), i = view(input);
    if (o.dtype != diopi_dtype_int32 || i.dtype != diopi_dtype_int32) return failWith(diopiDtypeNotSupported, "diopiSign: int32 only");
    unary(o, i, [](long double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; });
    return diopiSuccess;
}

diopiError_t diopiCat(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t) {
    called();
    View o = view(out);
    auto oo = offsets(o);
    size_t k = 0;
    for (int64_t t = 0; t < num_inputs; ++t) {
        View i = view(tensors[t]);
        if (i.dtype != o.dtype || !is(o, diopi_dtype_int32, diopi_dtype_float32)) return failWith(diopiDtypeNotSupported, "diopiCat: int32/float32 only");
        for (int64_t off : offsets(i)) store(o, oo[k++], load(i, off));
    }
    return diopiSuccess;
}
}  // namespace impl::narrow
"""

NARROW_NAMES = ["diopiGetVendorName", "diopiGetImplVersion", "diopiGetLastErrorString", "diopiCopyInp", "diopiAbs", "diopiAbsInp",
                "diopiNeg", "diopiSign", "diopiCat"]


@pytest.fixture(scope="module")
def narrow(tmp_path_factory, cxx):  # noqa: F811
    """libnarrow.so: the kernels above behind generated wrappers, plus a test runtime."""
    return build_adapted(tmp_path_factory.mktemp("narrow"), "narrow", NARROW_KERNELS, NARROW_CONFIG, NARROW_NAMES, cxx, werror=True)


@pytest.fixture(scope="module")
def lib(narrow):
    from conformance import binding
    return binding.Library(str(narrow / "libnarrow.so"), str(narrow / "libdiopirt.so"))


@pytest.fixture
def rt(lib):
    c = Ctx(lib)
    yield c
    c.close()


def kernel_calls(lib):
    return int(lib.string(lib.impl.diopiGetImplVersion()))


I32 = np.iinfo(np.int32)


def test_int64_within_int32_passes_exactly(rt, lib):
    x = np.array([I32.min + 1, -7, 0, I32.max], dtype="int64")  # abs(I32.min) itself would overflow int32 in the kernel
    a, o = rt.tensor(x, "int64"), rt.tensor(np.zeros_like(x), "int64")
    assert lib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), np.abs(x))
    assert lib.conversions() == "out:int64->int32; input:int64->int32"


@pytest.mark.parametrize("value", [2 ** 40, I32.max + 1, I32.min - 1, np.iinfo(np.int64).min])
def test_int64_beyond_int32_is_refused_with_a_message(rt, lib, value):
    # A transposed view: the reported element is the row-major index, not the memory offset.
    x = np.array([[1, 2, value], [4, 5, 6]], dtype="int64")
    a = rt.tensor(x.T, "int64", strides=[1, 3])
    o = rt.tensor(np.full((3, 2), 99), "int64")
    before = kernel_calls(lib)
    assert lib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == REFUSED
    index = int(np.flatnonzero(x.T == value)[0])
    assert index != 2  # differs from its memory offset
    assert lib.last_error() == (f"diopiAbs: input holds int64 values outside int32's range (first: {value} at element {index}); "
                                "this library computes int64 as int32 (convert_config.yaml)")
    assert kernel_calls(lib) == before  # the kernel was not called
    assert np.array_equal(rt.read(o), np.full((3, 2), 99))
    assert lib.conversions() == "out:int64->int32; input:int64->int32 refused (out of range)"


def test_in_place_int64_is_checked_and_left_alone(rt, lib):
    x = np.array([-3, -(2 ** 35), 4], dtype="int64")
    a = rt.tensor(x, "int64")
    assert lib.impl.diopiAbsInp(rt.ctx, a.handle) == REFUSED
    assert "first: -34359738368 at element 1" in lib.last_error()
    assert np.array_equal(rt.read(a), x)
    assert lib.conversions() == "input:int64->int32 refused (out of range)"


def test_pure_outputs_are_not_checked(rt, lib):
    # out's old contents are overwritten, never narrowed into the kernel.
    x = np.array([-5, 6], dtype="int64")
    a, o = rt.tensor(x, "int64"), rt.tensor(np.full(2, np.iinfo(np.int64).min), "int64")
    assert lib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), np.abs(x))


def test_float64_beyond_float32_is_refused_but_precision_loss_is_not(rt, lib):
    f32max = float(np.finfo(np.float32).max)
    ok = np.array([1 / 3, -f32max, np.inf, -np.inf, 1e-300])
    a, o = rt.tensor(ok, "float64"), rt.tensor(np.zeros_like(ok), "float64")
    assert lib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), np.abs(ok.astype("float32")).astype("float64"))
    assert lib.conversions() == "out:float64->float32; input:float64->float32"
    bad = np.array([0.5, np.nan, -1e300])
    a, o = rt.tensor(bad, "float64"), rt.tensor(np.zeros_like(bad), "float64")
    assert lib.impl.diopiAbs(rt.ctx, o.handle, a.handle) == REFUSED
    assert lib.last_error() == ("diopiAbs: input holds float64 values beyond float32's finite range (first: -1e+300 at element 2); "
                                "this library computes float64 as float32 (convert_config.yaml)")


def test_tensor_array_element_is_named(rt, lib):
    ts = [rt.tensor([1, 2], "int64"), rt.tensor([3, 2 ** 33], "int64")]
    arr = rt.ffi.new("diopiConstTensorHandle_t[]", [t.handle for t in ts])
    o = rt.tensor(np.zeros(4), "int64")
    assert lib.impl.diopiCat(rt.ctx, o.handle, arr, 2, 0) == REFUSED
    assert lib.last_error().startswith("diopiCat: tensors[1] holds int64 values outside int32's range (first: 8589934592 at element 1)")
    assert lib.conversions() == "out:int64->int32; tensors[0]:int64->int32; tensors[1]:int64->int32 refused (out of range)"
    ts[1] = rt.tensor([3, -(2 ** 31)], "int64")
    arr = rt.ffi.new("diopiConstTensorHandle_t[]", [t.handle for t in ts])
    assert lib.impl.diopiCat(rt.ctx, o.handle, arr, 2, 0) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), [1, 2, 3, -(2 ** 31)])


@pytest.mark.parametrize("dtype, good, bad, target", [
    ("int32", [-32767, 32767], 40000, "int16"),
    ("uint8", [0, 127], 128, "int8"),
])
def test_other_integer_narrowings(rt, lib, dtype, good, bad, target):
    # out is already in the kernel's dtype: only the input is narrowed.
    x = np.array(good, dtype=dtype)
    a, o = rt.tensor(x, dtype), rt.tensor(np.zeros(len(good), dtype=target), target)
    assert lib.impl.diopiNeg(rt.ctx, o.handle, a.handle) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), -x.astype("int64"))
    assert lib.conversions() == f"input:{dtype}->{target}"
    a = rt.tensor(np.array(good + [bad], dtype=dtype), dtype)
    o = rt.tensor(np.zeros(3, dtype=target), target)
    assert lib.impl.diopiNeg(rt.ctx, o.handle, a.handle) == REFUSED
    assert lib.last_error().startswith(f"diopiNeg: input holds {dtype} values outside {target}'s range (first: {bad} at element 2)")


def test_float_to_integer_needs_a_finite_value_in_range(rt, lib):
    x = np.array([-2.5, 0.0, 2147483647.9])  # truncated toward zero: all fit int32
    a, o = rt.tensor(x, "float64"), rt.tensor(np.zeros(3, dtype="int32"), "int32")
    assert lib.impl.diopiSign(rt.ctx, o.handle, a.handle) == 0, lib.last_error()
    assert np.array_equal(rt.read(o), np.sign(np.trunc(x)))
    for bad, text in ((np.nan, "nan"), (2.0 ** 31, "2147483648"), (-np.inf, "-inf")):
        a = rt.tensor(np.array([1.0, bad, 2.0]), "float64")  # as many elements as out
        assert lib.impl.diopiSign(rt.ctx, o.handle, a.handle) == REFUSED
        assert f"outside int32's range (first: {text} at element 1)" in lib.last_error()


def test_refusal_is_cleared_by_the_next_call_and_logged(narrow):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {support.PYTHON_DIR!r})
        import numpy as np
        from conformance import binding, execute
        lib = binding.Library({str(narrow / 'libnarrow.so')!r}, {str(narrow / 'libdiopirt.so')!r})
        ctx = lib.rt.dt_context_create()
        def t(values):
            st = np.array(values, dtype="int64")
            return execute.Tensor(lib, (len(values),), "int64", [1], st)
        assert lib.impl.diopiAbs(ctx, t([0, 0]).handle, t([1, 2 ** 40]).handle) == 1000
        assert lib.impl.diopiAbs(ctx, t([0, 0]).handle, t([1, -2]).handle) == 0
        assert lib.last_error() == "", lib.last_error()
        assert lib.conversions() == "out:int64->int32; input:int64->int32"
        """)
    env = dict(os.environ, DIOPI_ADAPTOR_LOG="1")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("diopi adaptor:")]
    assert lines == ["diopi adaptor: diopiAbs: out:int64->int32; input:int64->int32 refused (out of range)",
                     "diopi adaptor: diopiAbs: out:int64->int32; input:int64->int32"]


# ------------------------------------------------------- impl/cpu, when built

@pytest.fixture(scope="module")
def cpu():
    from conformance import binding
    d = paths.default_lib_dir("cpu")
    if not os.path.exists(os.path.join(d, "libdiopi_impl.so")):
        pytest.skip("needs impl/cpu built: bash scripts/build_impl.sh cpu")
    return binding.Library(os.path.join(d, "libdiopi_impl.so"), os.path.join(d, "libdiopirt.so"))


@pytest.fixture
def cpu_rt(cpu):
    c = Ctx(cpu)
    yield c
    c.close()


def test_cpu_mm_computes_int64_in_64_bits(cpu_rt, cpu):
    # impl/cpu narrows nothing (convert_config.yaml): values beyond int32 give the exact int64 product.
    rng = np.random.default_rng(0)
    a = rng.integers(-50, 50, (3, 4)).astype("int64")
    b = rng.integers(-50, 50, (4, 2)).astype("int64")
    b[1, 1] = 2 ** 40
    ta, tb, o = cpu_rt.tensor(a, "int64"), cpu_rt.tensor(b, "int64"), cpu_rt.tensor(np.zeros((3, 2)), "int64")
    assert cpu.impl.diopiMm(cpu_rt.ctx, o.handle, ta.handle, tb.handle) == 0, cpu.last_error()
    assert np.array_equal(cpu_rt.read(o), a @ b)
    assert cpu.conversions() == ""  # nothing went through the adaptor's casts


@pytest.mark.parametrize("value", [2 ** 40, np.iinfo(np.int64).min])
def test_cpu_abs_computes_int64_in_64_bits(cpu_rt, cpu, value):
    x = np.array([-(2 ** 30), 5, value], dtype="int64")
    a, o = cpu_rt.tensor(x, "int64"), cpu_rt.tensor(np.zeros(3), "int64")
    assert cpu.impl.diopiAbs(cpu_rt.ctx, o.handle, a.handle) == 0, cpu.last_error()
    assert np.array_equal(cpu_rt.read(o), np.abs(x))  # INT64_MIN wraps to itself, as in numpy and torch


def test_cpu_float64_keeps_double_precision(cpu_rt, cpu):
    # 1 + 1e-12 is 1 in float32; computed in double the difference survives, and 1e300 stays finite.
    x = np.array([1.0 + 1e-12, 1e300, -2.5], dtype="float64")
    y = np.array([1.0, 1e-300, 0.5], dtype="float64")
    a, b, o = cpu_rt.tensor(x, "float64"), cpu_rt.tensor(y, "float64"), cpu_rt.tensor(np.zeros(3), "float64")
    assert cpu.impl.diopiMul(cpu_rt.ctx, o.handle, a.handle, b.handle) == 0, cpu.last_error()
    assert np.array_equal(cpu_rt.read(o), x * y)
