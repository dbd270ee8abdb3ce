// Runtime of the generated adaptor wrappers (see adaptor_runtime.hpp).
#include "adaptor_runtime.hpp"

#include <diopi_tables.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace diopi_adaptor {

namespace {

// Per-thread state: what the last wrapped call converted, and the adaptor's
// own error (which shadows the vendor's message until the next wrapped call).
thread_local std::string t_lastConversions;
thread_local std::string t_error;
thread_local bool t_errorSet = false;

bool logEnabled() {
    static const bool enabled = [] {
        const char* v = std::getenv("DIOPI_ADAPTOR_LOG");
        return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
    }();
    return enabled;
}

// Names come from diopi_tables.h, generated from diopiDtype_t (cmake/DiopiHeaderTables.cmake).
const char* dtypeName(diopiDtype_t d) {
    const char* name = diopiTablesDtypeName(d);
    return name != nullptr ? name : "unknown";
}

// Dense strides of `shape` with dims laid out in memory in `order` (outermost first).
void denseStrides(const diopiSize_t& shape, const int* order, std::vector<int64_t>& out) {
    out.assign(shape.len, 0);
    int64_t s = 1;
    for (int64_t i = shape.len - 1; i >= 0; --i) {
        out[order[i]] = s;
        s *= std::max<int64_t>(shape.data[order[i]], 1);
    }
}

void rowMajor(const diopiSize_t& shape, std::vector<int64_t>& out) {
    out.assign(shape.len, 0);
    int64_t s = 1;
    for (int64_t i = shape.len - 1; i >= 0; --i) {
        out[i] = s;
        s *= std::max<int64_t>(shape.data[i], 1);
    }
}

// Whether `stride` equals `want` on every dim that has more than one element
// (strides of size-1 dims never matter).
bool sameStrides(const diopiSize_t& shape, const diopiSize_t& stride, const std::vector<int64_t>& want) {
    for (int64_t d = 0; d < shape.len; ++d)
        if (shape.data[d] != 1 && stride.data[d] != want[d]) return false;
    return true;
}

bool isRowMajor(const diopiSize_t& shape, const diopiSize_t& stride) {
    int64_t s = 1;
    for (int64_t d = shape.len - 1; d >= 0; --d) {
        if (shape.data[d] != 1 && stride.data[d] != s) return false;
        s *= shape.data[d];
    }
    return true;
}

bool isChannelsLast(const diopiSize_t& shape, const diopiSize_t& stride) {
    static const int k4[] = {0, 2, 3, 1}, k5[] = {0, 2, 3, 4, 1};
    if (shape.len != 4 && shape.len != 5) return false;
    std::vector<int64_t> want;
    denseStrides(shape, shape.len == 4 ? k4 : k5, want);
    return sameStrides(shape, stride, want);
}

// Name of a tensor's current layout for the conversion record.
const char* layoutOf(const diopiSize_t& shape, const diopiSize_t& stride) {
    if (isRowMajor(shape, stride)) return "contiguous";
    if (isChannelsLast(shape, stride)) return shape.len == 4 ? "NHWC" : "NDHWC";
    return "strided";
}

// Dense strides that keep a dense tensor's dim order (so a channels-last
// tensor stays channels-last when only its dtype changes); row-major when the
// tensor is not dense (expanded, sliced).
void keepOrderStrides(const diopiSize_t& shape, const diopiSize_t& stride, std::vector<int64_t>& out) {
    std::vector<int> order(shape.len);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return stride.data[a] > stride.data[b]; });
    denseStrides(shape, order.data(), out);
    if (!sameStrides(shape, stride, out)) rowMajor(shape, out);
}

}  // namespace

void enterPassThrough() noexcept {
    t_lastConversions.clear();
    t_errorSet = false;
}

const char* lastErrorString() noexcept {
    if (t_errorSet) return t_error.c_str();
    const char* v = vendorLastError();
    return v ? v : "";
}

diopiError_t fail(const char* func, diopiError_t code, const std::string& what) noexcept {
    try {
        t_error = std::string(func) + ": adaptor: " + what;
    } catch (...) {
        t_error.clear();  // out of memory: an empty message beats none
    }
    t_errorSet = true;
    return code;
}

Call::Call(const char* func, diopiContextHandle_t ctx) noexcept : func_(func), ctx_(ctx) { enterPassThrough(); }

diopiError_t Call::failed(diopiError_t code, const std::string& what) noexcept {
    status_ = code;
    return fail(func_, code, what);
}

diopiError_t Call::plan(const char* name, diopiConstTensorHandle_t t, const Spec& spec, Target& target) noexcept {
    target.convert = false;
    diopiDtype_t dtype;
    if (diopiGetTensorDtype(t, &dtype) != diopiSuccess) return failed(diopiErrorOccurred, std::string("cannot read the dtype of ") + name);
    target.fromDtype = target.toDtype = dtype;
    for (int i = 0; i < spec.nrules; ++i) {
        if (spec.rules[i].from == dtype) {
            target.toDtype = spec.rules[i].to;
            break;
        }
    }
    bool castDtype = target.toDtype != dtype;
    if (!castDtype && spec.layout == Layout::ND) return diopiSuccess;  // the common, free path

    diopiSize_t shape, stride;
    if (diopiGetTensorShape(t, &shape) != diopiSuccess || diopiGetTensorStride(t, &stride) != diopiSuccess)
        return failed(diopiErrorOccurred, std::string("cannot read the shape/strides of ") + name);
    target.fromLayout = target.toLayout = nullptr;
    try {
        static const int kNHWC[] = {0, 2, 3, 1}, kNDHWC[] = {0, 2, 3, 4, 1};
        bool named = false;  // the layout applies to this rank
        switch (spec.layout) {
            case Layout::ND: break;
            case Layout::Contiguous: named = true; break;
            case Layout::NCHW: named = shape.len == 4; break;
            case Layout::NCDHW: named = shape.len == 5; break;
            case Layout::NHWC: named = shape.len == 4; break;
            case Layout::NDHWC: named = shape.len == 5; break;
        }
        int64_t numel = 1;
        for (int64_t d = 0; d < shape.len; ++d) numel *= shape.data[d];
        bool moveLayout = false;
        if (named) {
            if (spec.layout == Layout::NHWC) {
                denseStrides(shape, kNHWC, target.strides);
            } else if (spec.layout == Layout::NDHWC) {
                denseStrides(shape, kNDHWC, target.strides);
            } else {
                rowMajor(shape, target.strides);
            }
            // An empty tensor has no memory to lay out.
            moveLayout = numel > 0 && !sameStrides(shape, stride, target.strides);
            if (moveLayout) {
                target.fromLayout = layoutOf(shape, stride);
                target.toLayout = spec.layout == Layout::NHWC    ? "NHWC"
                                  : spec.layout == Layout::NDHWC ? "NDHWC"
                                  : spec.layout == Layout::NCHW  ? "NCHW"
                                  : spec.layout == Layout::NCDHW ? "NCDHW"
                                                                 : "contiguous";
            }
        } else if (castDtype) {
            keepOrderStrides(shape, stride, target.strides);
        }
        target.convert = castDtype || moveLayout;
    } catch (...) {
        return failed(diopiErrorOccurred, "out of memory while planning conversions");
    }
    return diopiSuccess;
}

void Call::record(const std::string& name, const Target& target) {
    auto add = [&](const char* from, const char* to) {
        if (!record_.empty()) record_ += "; ";
        record_ += name;
        record_ += ':';
        record_ += from;
        record_ += "->";
        record_ += to;
    };
    if (target.toDtype != target.fromDtype) add(dtypeName(target.fromDtype), dtypeName(target.toDtype));
    if (target.toLayout) add(target.fromLayout, target.toLayout);
}

diopiError_t Call::makeTemp(const std::string& name, diopiConstTensorHandle_t t, const Target& target, bool fill,
                            diopiTensorHandle_t& temp) noexcept {
    try {
        diopiSize_t shape;
        diopiGetTensorShape(t, &shape);
        diopiSize_t stride{target.strides.data(), static_cast<int64_t>(target.strides.size())};
        diopiDevice_t device = diopi_device;
        if (&diopiGetTensorDevice != nullptr) diopiGetTensorDevice(t, &device);
        temp = nullptr;
        if (diopiRequireTensor(ctx_, &temp, &shape, &stride, target.toDtype, device) != diopiSuccess || temp == nullptr)
            return failed(diopiErrorOccurred, "diopiRequireTensor failed for the converted " + name + " (" +
                                                  dtypeName(target.toDtype) + ")");
        record(name, target);
        if (fill) {
            diopiError_t st = vendorCopy(ctx_, t, temp);
            if (st != diopiSuccess) {
                const char* why = vendorLastError();
                return failed(st, "converting " + name + " from " + dtypeName(target.fromDtype) + " to " + dtypeName(target.toDtype) +
                                      " failed: " + (why ? why : ""));
            }
        }
    } catch (...) {
        return failed(diopiErrorOccurred, "out of memory while converting " + name);
    }
    return diopiSuccess;
}

diopiError_t Call::input(const char* name, diopiConstTensorHandle_t& t, const Spec& spec) noexcept {
    if (t == nullptr || status_ != diopiSuccess) return status_;
    Target target;
    if (plan(name, t, spec, target) != diopiSuccess || !target.convert) return status_;
    diopiTensorHandle_t temp;
    if (makeTemp(name, t, target, true, temp) != diopiSuccess) return status_;
    t = temp;
    return diopiSuccess;
}

diopiError_t Call::output(const char* name, diopiTensorHandle_t& t, const Spec& spec, bool fill) noexcept {
    if (t == nullptr || status_ != diopiSuccess) return status_;
    Target target;
    if (plan(name, t, spec, target) != diopiSuccess || !target.convert) return status_;
    diopiTensorHandle_t temp;
    if (makeTemp(name, t, target, fill, temp) != diopiSuccess) return status_;
    try {
        copyBacks_.push_back(CopyBack{temp, t, name});
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    t = temp;
    return diopiSuccess;
}

diopiError_t Call::inputArray(const char* name, diopiConstTensorHandle_t*& arr, int64_t n, const Spec& spec) noexcept {
    if (arr == nullptr || status_ != diopiSuccess) return status_;
    std::vector<diopiConstTensorHandle_t>* copy = nullptr;
    try {
        for (int64_t i = 0; i < n; ++i) {
            if (arr[i] == nullptr) continue;
            Target target;
            std::string elem = std::string(name) + "[" + std::to_string(i) + "]";
            if (plan(elem.c_str(), arr[i], spec, target) != diopiSuccess) return status_;
            if (!target.convert) continue;
            diopiTensorHandle_t temp;
            if (makeTemp(elem, arr[i], target, true, temp) != diopiSuccess) return status_;
            if (copy == nullptr) {  // first converted element: switch to our own array
                inArrays_.emplace_back(new std::vector<diopiConstTensorHandle_t>(arr, arr + n));
                copy = inArrays_.back().get();
            }
            (*copy)[i] = temp;
        }
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    if (copy) arr = copy->data();
    return diopiSuccess;
}

diopiError_t Call::outputArray(const char* name, diopiTensorHandle_t*& arr, int64_t n, const Spec& spec, bool fill) noexcept {
    if (arr == nullptr || status_ != diopiSuccess) return status_;
    std::vector<diopiTensorHandle_t>* copy = nullptr;
    try {
        for (int64_t i = 0; i < n; ++i) {
            if (arr[i] == nullptr) continue;
            Target target;
            std::string elem = std::string(name) + "[" + std::to_string(i) + "]";
            if (plan(elem.c_str(), arr[i], spec, target) != diopiSuccess) return status_;
            if (!target.convert) continue;
            diopiTensorHandle_t temp;
            if (makeTemp(elem, arr[i], target, fill, temp) != diopiSuccess) return status_;
            copyBacks_.push_back(CopyBack{temp, arr[i], elem});
            if (copy == nullptr) {
                outArrays_.emplace_back(new std::vector<diopiTensorHandle_t>(arr, arr + n));
                copy = outArrays_.back().get();
            }
            (*copy)[i] = temp;
        }
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    if (copy) arr = copy->data();
    return diopiSuccess;
}

diopiError_t Call::finish(diopiError_t kernelStatus) noexcept {
    if (record_.empty()) return kernelStatus;  // nothing was converted
    diopiError_t result = kernelStatus;
    if (kernelStatus == diopiSuccess) {
        for (const CopyBack& cb : copyBacks_) {
            diopiError_t st = vendorCopy(ctx_, cb.temp, cb.caller);
            if (st != diopiSuccess) {
                const char* why = vendorLastError();
                try {
                    result = failed(st, "copying the converted " + cb.name + " back failed: " + (why ? why : ""));
                } catch (...) {
                    result = failed(st, "copying a converted output back failed");
                }
                break;
            }
        }
    }
    try {
        t_lastConversions = record_;
    } catch (...) {
        t_lastConversions.clear();
    }
    if (logEnabled()) std::fprintf(stderr, "diopi adaptor: %s: %s\n", func_, record_.c_str());
    return result;
}

diopiError_t Call::exception() noexcept {
    if (status_ == diopiSuccess) failed(diopiErrorOccurred, "unexpected exception in the wrapper");
    return status_;
}

}  // namespace diopi_adaptor

extern "C" DIOPI_API const char* diopiAdaptorLastConversions(void) { return diopi_adaptor::t_lastConversions.c_str(); }
