// Shared conversions for the ATen reference implementation: runtime handles
// to at::Tensor views (no copies), scalars and int lists, and the exception
// barrier that keeps every C++ error on this side of the C ABI.
#pragma once

#include <ATen/ATen.h>
#include <diopi/functions.h>
#include <diopi/functions_ext.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace impl::aten {

/// An error with a DIOPI status code, thrown inside an operator and turned
/// into a return value by invoke().
struct DiopiException : std::runtime_error {
    diopiError_t code;
    DiopiException(diopiError_t c, const std::string& msg) : std::runtime_error(msg), code(c) {}
};

[[noreturn]] void fail(const std::string& msg, diopiError_t code = diopiErrorOccurred);
void setLastError(const char* func, const std::string& msg);
const char* lastError();

at::ScalarType toATen(diopiDtype_t dtype);
diopiDtype_t fromATen(at::ScalarType type);

/// A view of the caller's tensor; throws if `h` is NULL (name is for the message).
at::Tensor tensor(diopiConstTensorHandle_t h, const char* name);
/// As tensor(), but NULL gives an undefined tensor (optional arguments).
at::Tensor optTensor(diopiConstTensorHandle_t h);
std::optional<at::Tensor> optional(diopiConstTensorHandle_t h);
/// Views of a caller array of `n` tensors.
std::vector<at::Tensor> tensors(const diopiConstTensorHandle_t* hs, int64_t n, const char* name);
std::vector<at::Tensor> tensors(diopiTensorHandle_t* hs, int64_t n, const char* name);

at::Scalar scalar(const diopiScalar_t* s, const char* name);
at::IntArrayRef ints(diopiSize_t s);
at::ScalarType scalarDtype(const diopiScalar_t* s);

/// dst.copy_(src) (same shapes), by one memcpy when both are host tensors of one dtype laid out alike (same strides,
/// dense: contiguous, or a permutation of contiguous such as attention's (B, S, H, D) views) that do not overlap.
void copyInto(const at::Tensor& dst, const at::Tensor& src);
/// `t.permute(order)`, made here rather than through the dispatcher (two dispatches and a view record): attention
/// rearranges its operands and results a dozen times a call. Shares t's storage, as a view does.
at::Tensor permuted(const at::Tensor& t, at::IntArrayRef order);
/// Writes `src` into the caller's output tensor (casting to its dtype).
void assign(diopiTensorHandle_t out, const at::Tensor& src, const char* name = "out");
/// As above, for an output already wrapped with tensor().
void assign(const at::Tensor& out, const at::Tensor& src, const char* name = "out");

// ---- Writing a result straight into the caller's output
// `assign(out, at::op(a, b))` lets ATen allocate a result and then copies it: a second dispatch, allocation and
// copy per call. When the caller's output can take the result as it is, `at::op_out(o, a, b)` writes it there
// directly, with the same kernel and so the same numbers. directOut() decides when that is safe.

/// Tensors an operator reads (a braced list of lvalues, or a vector of reference_wrappers).
using TensorRefs = c10::ArrayRef<std::reference_wrapper<const at::Tensor>>;

/// Whether `a` and `b` may share memory: their byte ranges (first element plus the extent implied by sizes,
/// strides and item size) intersect. An undefined or empty tensor touches nothing.
bool mayOverlap(const at::Tensor& a, const at::Tensor& b);

/// The caller's output `out` when an ATen `_out` kernel may write the result straight into it, else an undefined
/// tensor (then compute the result and assign() it, as before). Direct only when `out` has exactly `shape` and
/// `dtype` (an `_out` kernel would resize a mis-shaped output, which a library never does to the caller's, and
/// cast a result of another dtype), has the row-major strides ATen gives a result it allocates itself (kernels
/// that assume them, and layout-dependent choices, see the same tensor either way), and shares no memory with
/// any of `inputs` (ATen's kernels refuse or mis-compute partial overlap; the temporary and copy never do).
at::Tensor directOut(const at::Tensor& out, at::IntArrayRef shape, at::ScalarType dtype, TensorRefs inputs);
at::Tensor directOut(diopiTensorHandle_t out, at::IntArrayRef shape, at::ScalarType dtype, TensorRefs inputs, const char* name = "out");

/// directOut() for an elementwise (TensorIterator) result of `inputs`: the shape is their broadcast shape (ATen's
/// own error when they do not broadcast), and only when every input is contiguous or walks its memory in row-major
/// order (expanded, sliced), or `out` is dense and every input of the full shape has out's strides (the others
/// contiguous). ATen then gives its own result the same strides,
/// and its kernel walks the same loops with the same vectorisation, which decides the last bits of transcendental
/// functions.
at::Tensor elementwiseOut(diopiTensorHandle_t out, at::ScalarType dtype, TensorRefs inputs, const char* name = "out");

/// ATen's result dtype (type promotion) of a binary operator on `a` and `b`.
at::ScalarType resultType(const at::Tensor& a, const at::Tensor& b);
at::ScalarType resultType(const at::Tensor& a, const at::Scalar& b);
/// The result dtype of an operator that computes integer and bool inputs in the default floating dtype
/// (true division, exp, sigmoid, ...).
at::ScalarType floatResult(at::ScalarType type);
/// A scalar operand as ATen passes it to the tensor kernel of `op(Tensor, Scalar)` (a wrapped number); when the
/// result dtype `common` is float32 or float64, a 0-dim tensor of that dtype, so the kernel needs no converted copy.
at::Tensor wrappedScalar(const at::Scalar& s, at::ScalarType common);
/// Allocates a context-owned tensor like `src` and copies `src` into it.
diopiTensorHandle_t requireLike(diopiContextHandle_t ctx, const at::Tensor& src);

/// The ATen generator for a runtime generator handle: a CPU generator whose
/// state is derived from the handle's (seed, offset) (counter-based, see
/// helper.cpp). NULL selects ATen's default CPU generator.
at::Generator generator(diopiContextHandle_t ctx, diopiGeneratorHandle_t h);
/// Advances the handle past the call that used `gen` (its offset by one; no-op for NULL).
void saveGenerator(diopiContextHandle_t ctx, diopiGeneratorHandle_t h, const at::Generator& gen);

/// Reduced dims are kept when the caller's output has the input's rank
/// (DIOPI reductions take no keepdim flag).
inline bool keepdimFrom(const at::Tensor& out, const at::Tensor& input) { return input.dim() > 0 && out.dim() == input.dim(); }

/// Runs `body` and maps any exception to a status code + last-error string.
template <class F>
diopiError_t invoke(const char* func, F&& body) noexcept {
    try {
        body();
        return diopiSuccess;
    } catch (const DiopiException& e) {
        setLastError(func, e.what());
        return e.code;
    } catch (const c10::NotImplementedError& e) {
        // ATen has no kernel: for the dtype ("... not implemented for 'UInt16'"), or at all. The caller may compute
        // the call another way (the device falls back), which an ordinary error would forbid.
        const char* msg = e.what_without_backtrace();
        setLastError(func, msg);
        return std::string(msg).find("not implemented for '") != std::string::npos ? diopiDtypeNotSupported : diopiNoImplement;
    } catch (const c10::Error& e) {
        setLastError(func, e.what_without_backtrace());
        return diopiErrorOccurred;
    } catch (const std::exception& e) {
        setLastError(func, e.what());
        return diopiErrorOccurred;
    } catch (...) {
        setLastError(func, "unknown C++ exception");
        return diopiErrorOccurred;
    }
}

}  // namespace impl::aten

/// Opens an operator body inside the exception barrier; the function name
/// in error messages comes from __func__.
#define DIOPI_IMPL_BEGIN return ::impl::aten::invoke(__func__, [&]() {
#define DIOPI_IMPL_END \
    });
