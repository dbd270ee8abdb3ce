/**
 * @file adaptor_runtime.hpp
 * @brief The small runtime behind the generated wrappers: it converts the
 *        tensors of one call as the vendor's convert_config.yaml asks,
 *        copies converted outputs back, and records what it did.
 *
 * A wrapper creates one `Call` on its stack, hands every tensor argument to
 * it (the handle is replaced in place when a conversion is needed), calls
 * the vendor kernel and returns `call.finish(status)`. When no tensor needs
 * converting nothing is allocated and nothing is copied: the cost is reading
 * each tensor's dtype (and shape/strides when a layout is requested).
 *
 * Temporaries come from diopiRequireTensor() on the call's context (the
 * caller frees them with the context) and are filled with the vendor's own
 * copy kernel, which the generated glue binds to `vendorCopy`.
 */
#ifndef DIOPI_ADAPTOR_RUNTIME_HPP_
#define DIOPI_ADAPTOR_RUNTIME_HPP_

#include <diopi/diopirt.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" {
/** Description of the last wrapped call's conversions on this thread, "" if none. */
DIOPI_API const char* diopiAdaptorLastConversions(void);
}

namespace diopi_adaptor {

/** Memory layouts a config may ask for; ND accepts any strides. */
enum class Layout : int { ND = 0, Contiguous, NCHW, NCDHW, NHWC, NDHWC };

/** A tensor of dtype `from` is handed to the kernel as `to`. */
struct DtypeRule {
    diopiDtype_t from;
    diopiDtype_t to;
};

/** How one parameter is converted: dtype rules (first match wins) and a layout. */
struct Spec {
    const DtypeRule* rules;
    int nrules;
    Layout layout;
};

/** Copies src into dest (any dtype, any strides); the generated glue binds it
 *  to impl::<vendor>::diopiCopyInp. */
diopiError_t vendorCopy(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest);
/** The vendor's diopiGetLastErrorString (bound by the generated glue). */
const char* vendorLastError();

/** Marks the start of a wrapped call that converts nothing (pass-through
 *  wrappers): clears the conversion record and the adaptor's error. */
void enterPassThrough() noexcept;

/** What the wrapped diopiGetLastErrorString returns: the adaptor's own message
 *  when the last call failed inside the adaptor, else the vendor's. */
const char* lastErrorString() noexcept;

/** Records an adaptor failure for `func` and returns `code`. */
diopiError_t fail(const char* func, diopiError_t code, const std::string& what) noexcept;

/** Converts the tensors of one wrapped call. Not copyable; lives on the stack. */
class Call {
public:
    Call(const char* func, diopiContextHandle_t ctx) noexcept;
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

    /** A read-only tensor: replaced by a converted temporary when needed. */
    diopiError_t input(const char* name, diopiConstTensorHandle_t& t, const Spec& spec) noexcept;
    /** A tensor the kernel writes: replaced by a temporary (filled first when
     *  `fill`, i.e. when the kernel may read it) that finish() copies back. */
    diopiError_t output(const char* name, diopiTensorHandle_t& t, const Spec& spec, bool fill, bool reads = true) noexcept;
    /** Arrays of `n` tensors, converted element-wise; `arr` is replaced by a
     *  new array (owned by this Call) only when an element is converted. */
    diopiError_t inputArray(const char* name, diopiConstTensorHandle_t*& arr, int64_t n, const Spec& spec) noexcept;
    diopiError_t outputArray(const char* name, diopiTensorHandle_t*& arr, int64_t n, const Spec& spec, bool fill,
                             bool reads = true) noexcept;

    /** After the kernel: copies converted outputs back (only when the kernel
     *  succeeded), publishes the conversion record, logs it when
     *  DIOPI_ADAPTOR_LOG=1, and returns the call's status. A wrapper whose
     *  conversions failed calls it with status() instead of calling the
     *  kernel, so that the record shows what was refused. */
    diopiError_t finish(diopiError_t kernelStatus) noexcept;
    /** diopiSuccess until a conversion failed. */
    diopiError_t status() const noexcept { return status_; }
    /** Status for a wrapper whose body threw (e.g. out of memory). */
    diopiError_t exception() noexcept;

private:
    struct Target {
        bool convert = false;
        diopiDtype_t fromDtype{}, toDtype{};
        const char* fromLayout = nullptr;  // set when the layout changes
        const char* toLayout = nullptr;
        std::vector<int64_t> strides;      // strides of the temporary
    };
    struct CopyBack {
        diopiTensorHandle_t temp;
        diopiTensorHandle_t caller;
        std::string name;
    };

    diopiError_t plan(const char* name, diopiConstTensorHandle_t t, const Spec& spec, Target& target) noexcept;
    diopiError_t makeTemp(const std::string& name, diopiConstTensorHandle_t t, const Target& target, bool fill, bool reads,
                          diopiTensorHandle_t& temp) noexcept;
    /** Refuses (diopiDtypeNotSupported, recorded as "name:from->to refused")
     *  a narrowing cast when a value of `t` does not fit in the target dtype:
     *  an integer outside its range, a finite float beyond its finite range. */
    diopiError_t checkRange(const std::string& name, diopiConstTensorHandle_t t, const Target& target);
    void record(const std::string& name, const Target& target);
    diopiError_t failed(diopiError_t code, const std::string& what) noexcept;

    const char* func_;
    diopiContextHandle_t ctx_;
    diopiError_t status_ = diopiSuccess;
    std::string record_;                      // "param:from->to; ..." (empty: no allocation)
    std::vector<CopyBack> copyBacks_;         // empty unless an output was converted
    // Replacement handle arrays (only when an element was converted).
    std::vector<std::unique_ptr<std::vector<diopiConstTensorHandle_t>>> inArrays_;
    std::vector<std::unique_ptr<std::vector<diopiTensorHandle_t>>> outArrays_;
};

}  // namespace diopi_adaptor

#endif  // DIOPI_ADAPTOR_RUNTIME_HPP_
