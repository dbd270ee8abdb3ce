// One DIOPI call's argument conversions (at::Tensor, Scalar, int lists,
// optionals to the handles and pointers of the C signature), status
// checking, and the dtype table of the device.
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

#include "diopi_support/aten_dtypes.hpp"

namespace diopi_torch {

// ---------------------------------------------------------------- one call

diopiTensorHandle_t Call::tensor(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    // Host scalars and index tensors (admitted by DeviceCheck) reach the vendor on its device.
    ctx_.handles.push_back(diopiTensor{t.is_cpu() ? t.to(currentDevice()) : t});
    return &ctx_.handles.back();
}

diopiConstTensorHandle_t Call::in(const at::Scalar& s) {
    at::Tensor t = at::scalar_tensor(s, at::TensorOptions().dtype(s.type()).device(at::kCPU)).to(currentDevice());
    return tensor(t);
}

// An empty tensor list is passed as NULL, the header's 'absent' (fused AdamW's
// max_exp_avg_sqs without amsgrad), never as a pointer a library might read
// nums entries from.
diopiConstTensorHandle_t* Call::ins(at::TensorList ts) {
    auto& v = constArrays_.emplace_back();
    for (const auto& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

diopiConstTensorHandle_t* Call::ins(const c10::List<std::optional<at::Tensor>>& ts) {
    auto& v = constArrays_.emplace_back();
    for (std::optional<at::Tensor> t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

diopiConstTensorHandle_t* Call::ins(const at::ITensorListRef& ts) {
    auto& v = constArrays_.emplace_back();
    for (const at::Tensor& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

int64_t Call::arrayLength(const void* p) const {
    for (size_t i = 0; i < constArrays_.size(); ++i) {
        const auto& v = constArrays_[i];
        if (!v.empty() && static_cast<const void*>(v.data()) == p) return static_cast<int64_t>(v.size());
    }
    for (size_t i = 0; i < arrays_.size(); ++i) {
        const auto& v = arrays_[i];
        if (!v.empty() && static_cast<const void*>(v.data()) == p) return static_cast<int64_t>(v.size());
    }
    return -1;
}

diopiTensorHandle_t* Call::outs(at::TensorList ts) {
    auto& v = arrays_.emplace_back();
    for (const auto& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

const diopiScalar_t* Call::scalar(const at::Scalar& s) {
    diopiScalar_t d{};
    if (s.isFloatingPoint()) {
        d.stype = diopi_dtype_float64;
        d.fval = s.toDouble();
    } else if (s.isBoolean()) {
        d.stype = diopi_dtype_bool;
        d.ival = s.toBool();
    } else if (s.isIntegral(false)) {
        d.stype = diopi_dtype_int64;
        d.ival = s.toLong();
    } else {
        TORCH_CHECK(false, info_.diopi, ": complex scalars cannot be passed to DIOPI");
    }
    scalars_.push_back(d);
    return &scalars_.back();
}

const diopiScalar_t* Call::scalar(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    // A Python number (host memory, double, int64 or bool) is read where it is, without item()'s dispatch.
    if (isNumber(t)) {
        switch (t.scalar_type()) {
            case at::kDouble: return scalar(at::Scalar(*t.const_data_ptr<double>()));
            case at::kLong: return scalar(at::Scalar(*t.const_data_ptr<int64_t>()));
            case at::kBool: return scalar(at::Scalar(*t.const_data_ptr<bool>()));
            default: break;
        }
    }
    return scalar(t.item());
}

diopiSize_t Call::size(at::IntArrayRef v) {
    auto& keep = ints_.emplace_back(v.begin(), v.end());
    return diopiSize_t{keep.data(), static_cast<int64_t>(keep.size())};
}

diopiSize_t Call::size(c10::SymIntArrayRef v) { return size(C10_AS_INTARRAYREF_SLOW(v)); }

diopiSize_t* Call::sizePtr(at::OptionalIntArrayRef v) {
    if (!v.has_value()) return nullptr;
    sizes_.push_back(size(*v));
    return &sizes_.back();
}

diopiSize_t* Call::sizePtr(at::OptionalSymIntArrayRef v) {
    if (!v.has_value()) return nullptr;
    sizes_.push_back(size(*v));
    return &sizes_.back();
}

const int64_t* Call::intPtr(std::optional<int64_t> v) {
    if (!v) return nullptr;
    int_.push_back(*v);
    return &int_.back();
}

const double* Call::doublePtr(std::optional<double> v) {
    if (!v) return nullptr;
    double_.push_back(*v);
    return &double_.back();
}

const bool* Call::boolPtr(std::optional<bool> v) {
    if (!v) return nullptr;
    bool_.push_back(*v);
    return reinterpret_cast<const bool*>(&bool_.back());
}

const char* Call::string(c10::string_view s) {
    strings_.emplace_back(s.data(), s.size());
    return strings_.back().c_str();
}

diopiGeneratorHandle_t Call::generator(const std::optional<at::Generator>& g) { return generatorHandle(g); }

const char* Call::fallbackReason(diopiError_t status) {
    switch (status) {
        case diopiNoImplement: return "diopiNoImplement";
        case diopiDtypeNotSupported: return "diopiDtypeNotSupported";
        case diopiForceFallbackToCPU: return "diopiForceFallbackToCPU";
        default: return nullptr;
    }
}

void Call::check(diopiError_t status) {
    if (status == diopiSuccess) return;
    std::string why = lastVendorError();
    TORCH_CHECK(false, info_.diopi, " failed (status ", static_cast<int>(status), ") serving aten::", info_.aten, ": ",
                why.empty() ? "the library gave no message" : why);
}

at::Tensor Call::owned(diopiTensorHandle_t h) {
    TORCH_CHECK(h, info_.diopi, " did not allocate its output (serving aten::", info_.aten, ")");
    return h->t;
}

// ---------------------------------------------------------------- dtypes

diopiDtype_t toDiopi(at::ScalarType t) { return diopi_support::fromScalarType(t); }

diopiDtype_t toDiopiDtype(at::ScalarType t) { return toDiopi(t); }

at::ScalarType toATen(diopiDtype_t t) {
    auto s = diopi_support::toScalarType(t);
    TORCH_CHECK(s.has_value(), "diopi: unknown dtype ", static_cast<int>(t));
    return *s;
}

}  // namespace diopi_torch
