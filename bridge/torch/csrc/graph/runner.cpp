// The plan runner of compiled graphs (torch.compile(backend="diopi"),
// bridge/torch/diopi_torch/graph): one call runs a whole partition of a
// graph as a table of DIOPI calls.
//
// A plan (made in Python, diopi_torch/graph/plan.py, and handed over as
// text) lists tensor references -- a base (graph input, arena, output
// buffer, constant), a byte offset, dtype, sizes and strides, all resolved
// when the plan is made, views included -- and steps: a DIOPI function with
// its arguments prepared once. Each reference owns one DIOPI handle for the
// plan's lifetime; a run only points the handles at this run's memory (the
// inputs, one arena allocation for every intermediate, one allocation per
// output) and walks the steps, through the compiled library of the plan
// (generated C, diopi_torch/graph/emit.py) when one is attached, else
// through the interpreter below (the thunks generated from the header).
// Neither goes through ATen's dispatcher or Python per step.
//
// A step whose function returns diopiNoImplement / diopiDtypeNotSupported /
// diopiForceFallbackToCPU is re-planned: it runs its ATen operator on the
// eager device (the counted fallback) now and on every later run.
#include <diopi/graph.h>
#include <dlfcn.h>

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "runtime/allocator.hpp"
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "graph/graph.hpp"
#include "plan_schema.hpp"  // generated from diopi_torch/graph/plan_schema.py
#include "runtime/state.hpp"

namespace diopi_torch::graph {
namespace {

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;

using plan::ArgKind;
using plan::Base;
using plan::EagerKind;
using plan::Payload;
using plan::ScalarKind;

struct Ref {
    Base base = Base::Arena;
    int index = 0;
    int64_t byteOffset = 0;  // from the start of the base (for inputs: from the input's first element)
    at::ScalarType dtype = at::kFloat;
    std::vector<int64_t> sizes, strides;
    diopiTensor handle;      // the handle every step is given; its tensor is pointed at each run's memory
};

// An argument of the ATen operator a step re-runs on the eager device.
struct EagerArg {
    EagerKind kind = EagerKind::Absent;
    int64_t i = 0;
    double d = 0.0;
    std::vector<int64_t> ints;  // ref ids (-1: None) for tensor lists
    std::vector<double> doubles;
    std::string s;
};

// An argument as the plan wrote it (code and payload), kept for the vendor's graph form.
struct RawArg {
    ArgKind kind;
    int64_t i = 0;
    double d = 0.0;
    std::string s;
    std::vector<int64_t> ints;
    ScalarKind scalar = ScalarKind::Int;
};

struct Step {
    std::string fn, aten, where, node;
    std::vector<RawArg> raw;
    GenericFn f = nullptr;
    Thunk thunk = nullptr;
    std::vector<Arg> args;
    std::vector<int> generatorArgs;  // args given the current device's generator at each run
    std::vector<int> cells;          // cells (library-allocated outputs) reset before the call
    std::vector<std::pair<int, int>> cellReads;  // (argument, cell): a handle the library allocated in an earlier step
    // The ATen operator of the node, for the eager re-run.
    std::string opName, overload;
    std::vector<EagerArg> eagerArgs;
    std::vector<int> eagerResults;   // ref written by each result (flattened), -1 when unused
    bool inplaceOnly = false;        // the eager operator writes its argument (copy_): no results to copy
    std::atomic<uint64_t> eagerRuns{0};
};

struct Plan {
    std::mutex mu;
    int inputs = 0;
    int64_t arenaBytes = 0;
    std::vector<int64_t> outputBytes;
    std::vector<at::Tensor> consts;
    std::deque<Ref> refs;
    std::vector<diopiTensorHandle_t> handles;
    std::vector<diopiTensorHandle_t> cells;
    std::deque<Step> steps;
    std::vector<GenericFn> fns;
    std::vector<unsigned char> eager;
    std::vector<int> outputs;          // ref per output
    // Steps the vendor's graph compiler (diopi/graph.h) serves: executables over ranges of steps.
    struct Segment {
        int start = 0, stop = 0;
        diopiGraphExecutableHandle_t exec = nullptr;
        std::vector<diopiConstTensorHandle_t> inputs;  // the refs' handles, in run()'s order
        std::vector<diopiTensorHandle_t> outputs;
        std::string name;
    };
    const diopiGraphCompiler_t* vendor = nullptr;
    std::vector<Segment> segments;
    std::vector<int> segmentAt;        // per step: the segment starting there, or -1
    std::vector<unsigned char> stopAt; // per step: the per-call route stops there (eager, or a segment starts)
    // Storage the prepared arguments point to.
    std::deque<diopiScalar_t> scalars;
    std::deque<std::vector<int64_t>> ints;
    std::deque<diopiSize_t> sizes;
    std::deque<std::vector<diopiConstTensorHandle_t>> arrays;
    std::deque<std::string> strings;
    std::deque<int64_t> int64s;
    std::deque<double> doubles;
    std::deque<char> bools;
    // The compiled library, when attached.
    void* library = nullptr;
    CompiledRun compiled = nullptr;
    std::atomic<uint64_t> runs{0}, compiledRuns{0}, vendorRuns{0};
};

std::mutex gPlansMu;
std::unordered_map<int64_t, std::unique_ptr<Plan>> gPlans;
int64_t gNextPlan = 1;

Plan& planOf(int64_t id) {
    std::lock_guard<std::mutex> g(gPlansMu);
    auto it = gPlans.find(id);
    TORCH_CHECK(it != gPlans.end(), "diopi graph: no plan ", id);
    return *it->second;
}

c10::Storage emptyStorage() {
    return c10::Storage(c10::Storage::use_byte_size_t(), 0, deviceAllocator(), /*resizable=*/false);
}

// ---------------------------------------------------------------- parsing

class Reader {
public:
    explicit Reader(const std::string& text) : in_(text) {}
    std::string word() {
        std::string w;
        TORCH_CHECK(in_ >> w, "diopi graph: the plan ends early");
        return w;
    }
    void expect(const char* w) {
        std::string got = word();
        TORCH_CHECK(got == w, "diopi graph: malformed plan: expected '", w, "', got '", got, "'");
    }
    int64_t integer() { return std::stoll(word()); }
    double real() { return std::strtod(word().c_str(), nullptr); }  // hexadecimal floats, inf and nan included
    std::string hex() {
        std::string h = word(), out;
        if (h == "-") return out;
        for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
        return out;
    }
    std::vector<int64_t> ints() {
        int64_t n = integer();
        std::vector<int64_t> v(n);
        for (auto& x : v) x = integer();
        return v;
    }

private:
    std::istringstream in_;
};

// The words after a code, as its payload (plan_schema.py) says.
struct Value {
    int64_t i = 0;
    double d = 0.0;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ScalarKind scalar = ScalarKind::Int;
};

template <class Kind, size_t N>
plan::Code<Kind> readCode(Reader& r, const plan::Code<Kind> (&table)[N], const char* what) {
    std::string w = r.word();
    auto c = plan::find(table, w);
    TORCH_CHECK(c.has_value(), "diopi graph: unknown ", what, " '", w, "'");
    return *c;
}

Value readPayload(Reader& r, Payload payload) {
    Value v;
    switch (payload) {
        case Payload::None: break;
        case Payload::Int: v.i = r.integer(); break;
        case Payload::Flag: v.i = r.integer() != 0; break;
        case Payload::Real: v.d = r.real(); break;
        case Payload::Hex: v.s = r.hex(); break;
        case Payload::Ints: v.ints = r.ints(); break;
        case Payload::Reals: {
            int64_t n = r.integer();
            for (int64_t j = 0; j < n; ++j) v.reals.push_back(r.real());
            break;
        }
        case Payload::Scalar: {
            auto c = readCode(r, plan::kScalarKindCodes, "scalar kind");
            TORCH_CHECK(c.payload != Payload::Scalar, "diopi graph: a scalar inside a scalar");
            Value inner = readPayload(r, c.payload);
            inner.scalar = c.kind;
            return inner;
        }
    }
    return v;
}

int64_t checkedIndex(int64_t i, size_t n, const char* what) {
    TORCH_CHECK(i >= 0 && i < static_cast<int64_t>(n), "diopi graph: bad ", what, " ", i);
    return i;
}

void parseArg(Plan& p, Step& s, Reader& r) {
    Arg a;
    auto code = readCode(r, plan::kArgKindCodes, "argument kind");
    Value v = readPayload(r, code.payload);
    s.raw.push_back(RawArg{code.kind, v.i, v.d, v.s, v.ints, v.scalar});
    switch (code.kind) {
        case ArgKind::Tensor: a.p = &p.refs[checkedIndex(v.i, p.refs.size(), "tensor reference")].handle; break;
        case ArgKind::Null: a.p = nullptr; break;
        case ArgKind::TensorArray: {
            auto& arr = p.arrays.emplace_back();
            for (auto ref : v.ints) arr.push_back(ref < 0 ? nullptr : &p.refs.at(ref).handle);
            a.p = arr.empty() ? nullptr : const_cast<diopiConstTensorHandle_t*>(arr.data());
            break;
        }
        case ArgKind::Scalar: {
            diopiScalar_t sc{};
            switch (v.scalar) {
                case ScalarKind::Float: sc.stype = diopi_dtype_float64; sc.fval = v.d; break;
                case ScalarKind::Int: sc.stype = diopi_dtype_int64; sc.ival = v.i; break;
                case ScalarKind::Bool: sc.stype = diopi_dtype_bool; sc.ival = v.i; break;
            }
            p.scalars.push_back(sc);
            a.p = &p.scalars.back();
            break;
        }
        case ArgKind::Size: {
            auto& ints = p.ints.emplace_back(std::move(v.ints));
            a.z = diopiSize_t{ints.empty() ? nullptr : ints.data(), static_cast<int64_t>(ints.size())};
            break;
        }
        case ArgKind::SizePtr: {
            auto& ints = p.ints.emplace_back(std::move(v.ints));
            p.sizes.push_back(diopiSize_t{ints.empty() ? nullptr : ints.data(), static_cast<int64_t>(ints.size())});
            a.p = &p.sizes.back();
            break;
        }
        case ArgKind::Int: a.i = v.i; break;
        case ArgKind::Double: a.d = v.d; break;
        case ArgKind::Bool: a.b = v.i != 0; break;
        case ArgKind::String:
            p.strings.push_back(std::move(v.s));
            a.p = const_cast<char*>(p.strings.back().c_str());
            break;
        case ArgKind::Generator: s.generatorArgs.push_back(static_cast<int>(s.args.size())); break;
        case ArgKind::IntPtr:
            p.int64s.push_back(v.i);
            a.p = &p.int64s.back();
            break;
        case ArgKind::DoublePtr:
            p.doubles.push_back(v.d);
            a.p = &p.doubles.back();
            break;
        case ArgKind::BoolPtr:
            p.bools.push_back(static_cast<char>(v.i != 0));
            a.p = &p.bools.back();
            break;
        case ArgKind::Cell: {
            int64_t c = checkedIndex(v.i, p.cells.size(), "cell");
            a.p = &p.cells[c];
            s.cells.push_back(static_cast<int>(c));
            break;
        }
        case ArgKind::CellRef:  // read by the copy that follows a library-allocated output
            s.cellReads.emplace_back(static_cast<int>(s.args.size()), static_cast<int>(checkedIndex(v.i, p.cells.size(), "cell")));
            break;
    }
    s.args.push_back(a);
}

EagerArg parseEagerArg(Reader& r) {
    auto code = readCode(r, plan::kEagerKindCodes, "eager argument kind");
    Value v = readPayload(r, code.payload);
    EagerArg e;
    e.kind = code.kind;
    e.i = v.i;
    e.d = v.d;
    e.ints = std::move(v.ints);
    e.doubles = std::move(v.reals);
    e.s = std::move(v.s);
    return e;
}

std::unique_ptr<Plan> parse(const std::string& text, std::vector<at::Tensor> consts) {
    auto p = std::make_unique<Plan>();
    Reader r(text);
    r.expect(std::string(plan::kMagic).c_str());
    TORCH_CHECK(r.integer() == plan::kVersion, "diopi graph: plan format version mismatch");
    r.expect(plan::kInputs);
    p->inputs = static_cast<int>(r.integer());
    r.expect(plan::kArena);
    p->arenaBytes = r.integer();
    r.expect(plan::kOutbufs);
    p->outputBytes = r.ints();
    r.expect(plan::kConsts);
    TORCH_CHECK(r.integer() == static_cast<int64_t>(consts.size()), "diopi graph: constant count mismatch");
    p->consts = std::move(consts);
    r.expect(plan::kCells);
    p->cells.assign(r.integer(), nullptr);
    r.expect(plan::kRefs);
    int64_t nrefs = r.integer();
    c10::Storage empty = emptyStorage();
    for (int64_t i = 0; i < nrefs; ++i) {
        Ref& ref = p->refs.emplace_back();
        auto base = readCode(r, plan::kBaseCodes, "reference base");
        ref.base = base.kind;
        ref.index = static_cast<int>(readPayload(r, base.payload).i);
        ref.byteOffset = r.integer();
        ref.dtype = toATen(static_cast<diopiDtype_t>(r.integer()));
        ref.sizes = r.ints();
        ref.strides = r.ints();
        TORCH_CHECK(ref.sizes.size() == ref.strides.size(), "diopi graph: sizes and strides differ in rank");
        TORCH_CHECK(ref.byteOffset % static_cast<int64_t>(c10::elementSize(ref.dtype)) == 0,
                    "diopi graph: a reference is not aligned to its element size");
        ref.handle.t = at::detail::make_tensor<c10::TensorImpl>(c10::Storage(empty), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                                                caffe2::TypeMeta::fromScalarType(ref.dtype));
        ref.handle.t.unsafeGetTensorImpl()->set_sizes_and_strides(ref.sizes, ref.strides);
        p->handles.push_back(&ref.handle);
    }
    r.expect(plan::kSteps);
    int64_t nsteps = r.integer();
    const auto& table = thunks();
    for (int64_t i = 0; i < nsteps; ++i) {
        Step& s = p->steps.emplace_back();
        r.expect(plan::kStep);
        s.fn = r.word();
        s.aten = r.word();
        s.where = r.hex();
        s.node = r.hex();
        auto it = table.find(s.fn);
        TORCH_CHECK(it != table.end(), "diopi graph: ", s.fn, " has no call thunk (not an operator of the header?)");
        s.thunk = it->second;
        s.f = reinterpret_cast<GenericFn>(symbol(s.fn.c_str()));
        TORCH_CHECK(s.f, "diopi graph: the vendor library does not export ", s.fn);
        int64_t nargs = r.integer();
        for (int64_t j = 0; j < nargs; ++j) parseArg(*p, s, r);
        r.expect(plan::kEager);
        s.opName = r.word();
        s.overload = r.word();
        if (s.overload == "-") s.overload.clear();
        s.inplaceOnly = r.integer() != 0;
        int64_t neager = r.integer();
        for (int64_t j = 0; j < neager; ++j) s.eagerArgs.push_back(parseEagerArg(r));
        auto results = r.ints();
        s.eagerResults.assign(results.begin(), results.end());
        p->fns.push_back(s.f);
    }
    r.expect(plan::kOutputs);
    auto outs = r.ints();
    for (auto o : outs) {
        TORCH_CHECK(o >= 0 && o < nrefs, "diopi graph: bad output reference ", o);
        p->outputs.push_back(static_cast<int>(o));
    }
    r.expect(plan::kEnd);
    p->eager.assign(p->steps.size(), 0);
    p->segmentAt.assign(p->steps.size(), -1);
    p->stopAt.assign(p->steps.size(), 0);
    return p;
}

// ---------------------------------------------------------------- running

c10::Storage allocate(int64_t nbytes) {
    return c10::Storage(c10::Storage::use_byte_size_t(), nbytes, deviceAllocator(), /*resizable=*/false);
}

at::Tensor viewOf(const c10::Storage& storage, const Ref& ref, int64_t elemOffset) {
    at::Tensor t = at::detail::make_tensor<c10::TensorImpl>(c10::Storage(storage), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                                            caffe2::TypeMeta::fromScalarType(ref.dtype));
    t.unsafeGetTensorImpl()->set_sizes_and_strides(ref.sizes, ref.strides, elemOffset);
    return t;
}

c10::IValue eagerValue(Plan& p, const EagerArg& e) {
    auto tensorOf = [&](int64_t ref) { return p.refs.at(ref).handle.t; };
    switch (e.kind) {
        case EagerKind::Tensor: return tensorOf(e.i);
        case EagerKind::Absent: return c10::IValue();
        case EagerKind::Int: return e.i;
        case EagerKind::Double: return e.d;
        case EagerKind::Bool: return e.i != 0;
        case EagerKind::IntList: return c10::IValue(e.ints);
        case EagerKind::TensorList: {
            std::vector<at::Tensor> ts;
            for (auto ref : e.ints) ts.push_back(tensorOf(ref));
            return c10::IValue(ts);
        }
        case EagerKind::OptTensorList: {
            c10::List<std::optional<at::Tensor>> ts;
            for (auto ref : e.ints) ts.push_back(ref < 0 ? std::optional<at::Tensor>() : std::optional<at::Tensor>(tensorOf(ref)));
            return c10::IValue(ts);
        }
        case EagerKind::DoubleList: return c10::IValue(e.doubles);
        case EagerKind::BoolList: {
            c10::List<bool> bs;
            for (auto b : e.ints) bs.push_back(b != 0);
            return c10::IValue(bs);
        }
        case EagerKind::Dtype: return static_cast<int64_t>(toATen(static_cast<diopiDtype_t>(e.i)));
        case EagerKind::Device: return e.i ? c10::IValue(currentDevice()) : c10::IValue(c10::Device(c10::kCPU));
        case EagerKind::Layout: return c10::IValue(static_cast<int64_t>(e.i));
        case EagerKind::MemoryFormat: return c10::IValue(static_cast<int64_t>(e.i));
        case EagerKind::String: return c10::IValue(e.s);
    }
    return c10::IValue();
}

/// The step's ATen operator on the eager device, its results copied into the plan's buffers.
void runEager(Plan& p, Step& s) {
    auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("aten::" + s.opName).c_str(), s.overload.c_str());
    torch::jit::Stack stack;
    for (const auto& e : s.eagerArgs) stack.push_back(eagerValue(p, e));
    op.callBoxed(&stack);
    if (s.inplaceOnly) return;
    std::vector<at::Tensor> results;
    for (const auto& v : stack) {
        if (v.isTensor()) {
            results.push_back(v.toTensor());
        } else if (v.isTensorList()) {
            for (const at::Tensor& t : v.toTensorVector()) results.push_back(t);
        } else {
            results.emplace_back();
        }
    }
    for (size_t i = 0; i < s.eagerResults.size() && i < results.size(); ++i) {
        int ref = s.eagerResults[i];
        if (ref >= 0 && results[i].defined()) p.refs.at(ref).handle.t.copy_(results[i]);
    }
    s.eagerRuns.fetch_add(1, std::memory_order_relaxed);
}

/// Where the per-call route stops: steps re-run on the eager device, and the starts of vendor segments
/// (a segment is used only while none of its steps is eager).
void refreshStops(Plan& p) {
    std::fill(p.segmentAt.begin(), p.segmentAt.end(), -1);
    for (size_t i = 0; i < p.segments.size(); ++i) {
        const auto& seg = p.segments[i];
        bool eager = false;
        for (int k = seg.start; k < seg.stop; ++k) eager = eager || p.eager[k];
        if (seg.exec && !eager) p.segmentAt[seg.start] = static_cast<int>(i);
    }
    for (size_t k = 0; k < p.steps.size(); ++k) p.stopAt[k] = p.eager[k] || p.segmentAt[k] >= 0;
}

diopiError_t interpret(Plan& p, diopiContextHandle_t ctx, int start, int* stop) {
    const int n = static_cast<int>(p.steps.size());
    for (int k = start; k < n; ++k) {
        if (p.stopAt[k]) {
            *stop = k;
            return diopiSuccess;
        }
        Step& s = p.steps[k];
        for (int c : s.cells) p.cells[c] = nullptr;
        for (auto [arg, c] : s.cellReads) s.args[arg].p = p.cells[c];
        diopiError_t st = s.thunk(s.f, ctx, s.args.data());
        if (st != diopiSuccess) {
            *stop = k;
            return st;
        }
    }
    *stop = n;
    return diopiSuccess;
}

std::string describe(const Step& s) {
    return s.fn + " serving aten::" + s.aten + " (graph node " + s.node + ", mapping " + s.where + ")";
}

// A byte tensor over a whole storage (for snapshots: copies of a run's memory between steps).
at::Tensor bytesOf(const c10::Storage& storage) {
    auto key = storage.device().type() == kDiopi ? c10::DispatchKey::PrivateUse1 : c10::DispatchKey::CPU;
    at::Tensor t = at::detail::make_tensor<c10::TensorImpl>(c10::Storage(storage), c10::DispatchKeySet(key),
                                                            caffe2::TypeMeta::fromScalarType(at::kByte));
    const std::vector<int64_t> size{static_cast<int64_t>(storage.nbytes())}, stride{1};
    t.unsafeGetTensorImpl()->set_sizes_and_strides(size, stride, 0);
    return t;
}

std::vector<at::Tensor> runPlan(Plan& p, const std::vector<at::Tensor>& inputs, const std::vector<int64_t>* snapAt,
                                std::vector<at::Tensor>* snaps);

std::vector<at::Tensor> run(int64_t id, const std::vector<at::Tensor>& inputs) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    return runPlan(p, inputs, nullptr, nullptr);
}

/// A run that also copies the run's memory (arena, output buffers, the inputs' storages, in that order) as host byte
/// tensors before each step of `at` (a step equal to the number of steps: after the last): graph capture
/// (diopi_torch/graph/capture.py) reads the values of a range of steps' tensors from them.
std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>> runSnapshots(int64_t id, const std::vector<at::Tensor>& inputs,
                                                                          std::vector<int64_t> at) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    std::sort(at.begin(), at.end());
    for (auto k : at) TORCH_CHECK(k >= 0 && k <= static_cast<int64_t>(p.steps.size()), "diopi graph: snapshot step ", k, " out of range");
    std::vector<at::Tensor> snaps;
    auto results = runPlan(p, inputs, &at, &snaps);
    return {results, snaps};
}

std::vector<at::Tensor> runPlan(Plan& p, const std::vector<at::Tensor>& inputs, const std::vector<int64_t>* snapAt,
                                std::vector<at::Tensor>* snaps) {
    TORCH_CHECK(static_cast<int>(inputs.size()) == p.inputs, "diopi graph: the plan takes ", p.inputs, " inputs, got ", inputs.size());
    std::optional<c10::Device> device;
    for (const auto& t : inputs) {
        if (t.defined() && t.device().type() == kDiopi) {
            device = t.device();
            break;
        }
    }
    c10::OptionalDeviceGuard guard(device);
    c10::Storage arena = allocate(p.arenaBytes);
    std::vector<c10::Storage> outs;
    outs.reserve(p.outputBytes.size());
    for (auto n : p.outputBytes) outs.push_back(allocate(n));
    auto elemOffset = [](const Ref& ref, int64_t bytes) { return bytes / static_cast<int64_t>(c10::elementSize(ref.dtype)); };
    for (auto& ref : p.refs) {
        const c10::Storage* storage = nullptr;
        int64_t bytes = ref.byteOffset;
        switch (ref.base) {
            case Base::Input: {
                const at::Tensor& in = inputs[ref.index];
                storage = &in.storage();
                bytes += in.storage_offset() * static_cast<int64_t>(in.element_size());
                break;
            }
            case Base::Arena: storage = &arena; break;
            case Base::Output: storage = &outs[ref.index]; break;
            case Base::Const: {
                const at::Tensor& c = p.consts[ref.index];
                storage = &c.storage();
                bytes += c.storage_offset() * static_cast<int64_t>(c.element_size());
                break;
            }
        }
        auto* impl = ref.handle.t.unsafeGetTensorImpl();
        impl->set_storage_keep_dtype(*storage);
        impl->set_storage_offset(elemOffset(ref, bytes));
    }
    diopiContext ctx;
    ctx.stream = currentNativeStream();
    void* runtime[1] = {generatorHandle(std::nullopt)};
    const int n = static_cast<int>(p.steps.size());
    if (!p.compiled) {  // the interpreter's arguments that change per run
        for (auto& s : p.steps) {
            for (int g : s.generatorArgs) s.args[g].p = runtime[0];
        }
    }
    // Snapshots: the per-call route stops before each requested step (stopAt), the memory is copied there, and
    // the step's own stop is put back so the route goes on; every stop is restored after the run.
    size_t nextSnap = 0;
    auto snapshot = [&]() {
        auto copy = [](const at::Tensor& t) { return t.is_cpu() ? t.clone() : t.cpu(); };  // cpu() of a host tensor is no copy
        snaps->push_back(copy(bytesOf(arena)));
        for (const auto& o : outs) snaps->push_back(copy(bytesOf(o)));
        for (const auto& in : inputs) snaps->push_back(copy(bytesOf(in.storage())));
    };
    struct Restore {  // the stops put back however the run ends (a failing step throws)
        Plan& p;
        bool on;
        ~Restore() {
            if (on) refreshStops(p);
        }
    } restore{p, snapAt != nullptr};
    if (snapAt) {
        for (auto s : *snapAt) if (s < n) p.stopAt[s] = 1;
    }
    int k = 0;
    while (k < n) {
        if (snapAt && nextSnap < snapAt->size() && (*snapAt)[nextSnap] == k) {
            while (nextSnap < snapAt->size() && (*snapAt)[nextSnap] == k) ++nextSnap;
            snapshot();
            p.stopAt[k] = p.eager[k] || p.segmentAt[k] >= 0;
        }
        if (int si = p.segmentAt[k]; si >= 0) {  // the vendor's executable: asynchronous like any call on the stream
            auto& seg = p.segments[si];
            // A context of its own: the intermediates the executable requires are let go when it returns
            // (stream-ordered, as every free of the device's allocator).
            diopiContext segCtx;
            segCtx.stream = ctx.stream;
            diopiError_t st = p.vendor->run(&segCtx, seg.exec, seg.inputs.data(), seg.outputs.data(), nullptr);
            if (st != diopiSuccess) {
                std::string vendor = lastVendorError();
                TORCH_CHECK(false, "diopi graph: the vendor graph compiler's executable ", seg.name, " (steps ", seg.start, "..",
                            seg.stop - 1, ") failed (status ", static_cast<int>(st), "): ",
                            vendor.empty() ? "the library gave no message" : vendor,
                            "; DIOPI_GRAPH_COMPILER=0 runs every graph call by call");
            }
            p.vendorRuns.fetch_add(1, std::memory_order_relaxed);
            k = seg.stop;
            continue;
        }
        int stop = n;
        diopiError_t st;
        if (p.compiled) {
            st = p.compiled(&ctx, p.handles.data(), p.cells.data(), reinterpret_cast<void (*const*)(void)>(p.fns.data()), runtime,
                            p.stopAt.data(), k, &stop);
        } else {
            st = interpret(p, &ctx, k, &stop);
        }
        if (stop >= n) break;
        if (st == diopiSuccess && !p.eager[stop]) {  // a vendor segment starts here
            k = stop;
            continue;
        }
        Step& s = p.steps[stop];
        if (st != diopiSuccess) {
            const char* why = Call::fallbackReason(st);
            if (!why) {
                std::string vendor = lastVendorError();
                TORCH_CHECK(false, describe(s), " failed (status ", static_cast<int>(st), "): ",
                            vendor.empty() ? "the library gave no message" : vendor);
            }
            // Re-planned: this step runs on the eager device from now on.
            p.eager[stop] = 1;
            refreshStops(p);
            noteFallback(s.aten, (s.fn + " returned " + why + " in a compiled graph").c_str());
        }
        runEager(p, s);
        k = stop + 1;
    }
    if (snapAt) {
        if (nextSnap < snapAt->size()) snapshot();  // after the last step
    }
    p.runs.fetch_add(1, std::memory_order_relaxed);
    if (p.compiled) p.compiledRuns.fetch_add(1, std::memory_order_relaxed);
    std::vector<at::Tensor> results;
    results.reserve(p.outputs.size());
    for (int o : p.outputs) {
        const Ref& ref = p.refs[o];
        const auto* impl = ref.handle.t.unsafeGetTensorImpl();
        results.push_back(viewOf(impl->storage(), ref, impl->storage_offset()));
    }
    // Let go of this run's memory: the handles keep no input, arena or output alive.
    c10::Storage empty = emptyStorage();
    for (auto& ref : p.refs) ref.handle.t.unsafeGetTensorImpl()->set_storage_keep_dtype(empty);
    return results;
}

int64_t create(c10::string_view text, std::vector<at::Tensor> consts) {
    auto plan = parse(std::string(text), std::move(consts));
    std::lock_guard<std::mutex> g(gPlansMu);
    int64_t id = gNextPlan++;
    gPlans.emplace(id, std::move(plan));
    return id;
}

void destroy(int64_t id) {
    std::unique_ptr<Plan> p;
    {
        std::lock_guard<std::mutex> g(gPlansMu);
        auto it = gPlans.find(id);
        if (it == gPlans.end()) return;
        p = std::move(it->second);
        gPlans.erase(it);
    }
    std::lock_guard<std::mutex> lock(p->mu);
    if (p->library) dlclose(p->library);
    for (auto& seg : p->segments) {
        if (seg.exec && p->vendor->destroy) p->vendor->destroy(seg.exec);
    }
}

/// Attaches the compiled library of a plan; "" on success, else why it cannot be used
/// (the caller rebuilds it: a corrupt or stale cache entry).
std::string attach(int64_t id, c10::string_view path, c10::string_view key) {
    Plan& p = planOf(id);
    void* lib = dlopen(std::string(path).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        return std::string("cannot load: ") + (e ? e : "unknown error");
    }
    auto* k = reinterpret_cast<const char*>(dlsym(lib, "diopi_graph_key"));
    auto* n = reinterpret_cast<const int*>(dlsym(lib, "diopi_graph_steps"));
    auto fn = reinterpret_cast<CompiledRun>(dlsym(lib, "diopi_graph_run"));
    std::string why;
    if (!k || !fn || !n) {
        why = "does not export diopi_graph_run, diopi_graph_steps and diopi_graph_key";
    } else if (std::string(k) != std::string(key)) {
        why = "was built for another plan (key " + std::string(k) + ")";
    } else if (*n != static_cast<int>(p.steps.size())) {
        why = "has " + std::to_string(*n) + " steps, the plan " + std::to_string(p.steps.size());
    }
    if (!why.empty()) {
        dlclose(lib);
        return why;
    }
    std::lock_guard<std::mutex> lock(p.mu);
    if (p.library) dlclose(p.library);
    p.library = lib;
    p.compiled = fn;
    return "";
}

/// [runs, runs through the compiled library, then per step: eager re-runs].
std::vector<int64_t> counts(int64_t id) {
    Plan& p = planOf(id);
    std::vector<int64_t> out{static_cast<int64_t>(p.runs.load()), static_cast<int64_t>(p.compiledRuns.load())};
    for (const auto& s : p.steps) out.push_back(static_cast<int64_t>(s.eagerRuns.load()));
    return out;
}

void resetCounts(int64_t id) {
    Plan& p = planOf(id);
    p.runs = 0;
    p.compiledRuns = 0;
    p.vendorRuns = 0;
    for (auto& s : p.steps) s.eagerRuns = 0;
}

/// Marks a step eager before any run (a test plants a refusal this way) or back.
void setEager(int64_t id, int64_t step, bool on) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    p.eager.at(step) = on ? 1 : 0;
    refreshStops(p);
}

// ---------------------------------------------------------------- the vendor's graph compiler

/// The loaded library's graph compiler (diopi/graph.h), or NULL: it does not export one, or one of another major version.
const diopiGraphCompiler_t* vendorCompiler() {
    auto get = reinterpret_cast<diopiGetGraphCompilerFn>(symbol("diopiGetGraphCompiler"));
    if (!get) return nullptr;
    const diopiGraphCompiler_t* c = get();
    if (!c || c->version / 1000 != DIOPI_GRAPH_VERSION / 1000) return nullptr;
    if (c->size < offsetof(diopiGraphCompiler_t, destroy) + sizeof(c->destroy) || !c->compile || !c->run) return nullptr;
    return c;
}

std::string vendorName() {
    const diopiGraphCompiler_t* c = vendorCompiler();
    return c ? std::string(c->name && *c->name ? c->name : "unnamed") : std::string();
}

/// A graph of diopi/graph.h built from steps [start, stop) of a plan, with the storage its pointers point to.
/// `tensors` describes each tensor of that graph (diopi_torch/graph/vendor.py): role, index, dtype, sizes,
/// strides, first and last use, and the plan reference it is. The one builder of the graph form: offer() hands
/// it to the vendor's compiler. Not copyable: the structs point into its own containers.
struct GraphForm {
    std::vector<diopiGraphTensor_t> ts;
    std::deque<std::vector<int64_t>> arrays;
    std::deque<std::vector<diopiGraphArg_t>> args;
    std::vector<diopiGraphNode_t> nodes;
    std::vector<int64_t> refOf;  // graph tensor -> plan reference
    std::string gname;
    diopiGraph_t g{};
    GraphForm() = default;
    GraphForm(const GraphForm&) = delete;
    GraphForm& operator=(const GraphForm&) = delete;
};

/// Fills `f` from steps [start, stop) of `p` (the caller holds p.mu).
void buildForm(Plan& p, int64_t start, int64_t stop, c10::string_view tensors, c10::string_view name, GraphForm& f) {
    auto& ts = f.ts;
    auto& arrays = f.arrays;
    auto& args = f.args;
    auto& nodes = f.nodes;
    auto& refOf = f.refOf;
    auto& gname = f.gname;
    auto& g = f.g;
    Reader r{std::string(tensors)};
    const int64_t nt = r.integer();
    ts.resize(nt);
    std::unordered_map<int64_t, int32_t> tensorOf;  // plan reference -> graph tensor
    refOf.resize(nt);
    int32_t nin = 0, nout = 0;
    for (int64_t t = 0; t < nt; ++t) {
        auto& d = ts[t];
        d.role = static_cast<int32_t>(r.integer());
        d.index = static_cast<int32_t>(r.integer());
        d.dtype = static_cast<int32_t>(r.integer());
        auto& shape = arrays.emplace_back(r.ints());
        auto& stride = arrays.emplace_back(r.ints());
        TORCH_CHECK(shape.size() == stride.size(), "diopi graph: sizes and strides differ in rank");
        d.ndim = static_cast<int32_t>(shape.size());
        d.shape = shape.data();
        d.stride = stride.data();
        d.view_of = -1;
        d.offset = 0;
        d.first_use = static_cast<int32_t>(r.integer());
        d.last_use = static_cast<int32_t>(r.integer());
        d.data = nullptr;
        refOf[t] = checkedIndex(r.integer(), p.refs.size(), "tensor reference");
        tensorOf[refOf[t]] = static_cast<int32_t>(t);
        if (d.role == diopi_graph_tensor_input) nin = std::max(nin, d.index + 1);
        if (d.role == diopi_graph_tensor_output) nout = std::max(nout, d.index + 1);
    }
    auto tensor = [&](int64_t ref) -> int64_t {
        if (ref < 0) return -1;
        auto it = tensorOf.find(ref);
        TORCH_CHECK(it != tensorOf.end(), "diopi graph: reference ", ref, " is not a tensor of the offered graph");
        return it->second;
    };
    for (int64_t k = start; k < stop; ++k) {
        const Step& s = p.steps[k];
        auto& as = args.emplace_back();
        for (const RawArg& ra : s.raw) {
            diopiGraphArg_t a{};
            switch (ra.kind) {
                case ArgKind::Tensor: a.kind = diopi_graph_arg_tensor; a.i = tensor(ra.i); break;
                case ArgKind::Null: a.kind = diopi_graph_arg_none; break;
                case ArgKind::TensorArray: {
                    if (ra.ints.empty()) {
                        a.kind = diopi_graph_arg_none;
                        break;
                    }
                    auto& ids = arrays.emplace_back();
                    for (auto ref : ra.ints) ids.push_back(tensor(ref));
                    a.kind = diopi_graph_arg_tensor_list;
                    a.len = static_cast<int32_t>(ids.size());
                    a.ints = ids.data();
                    break;
                }
                case ArgKind::Scalar:
                    a.kind = diopi_graph_arg_scalar;
                    switch (ra.scalar) {
                        case ScalarKind::Float: a.scalar.stype = diopi_dtype_float64; a.scalar.fval = ra.d; break;
                        case ScalarKind::Int: a.scalar.stype = diopi_dtype_int64; a.scalar.ival = ra.i; break;
                        case ScalarKind::Bool: a.scalar.stype = diopi_dtype_bool; a.scalar.ival = ra.i; break;
                    }
                    break;
                case ArgKind::Size:
                case ArgKind::SizePtr:
                    a.kind = diopi_graph_arg_int_array;
                    a.len = static_cast<int32_t>(ra.ints.size());
                    a.ints = ra.ints.empty() ? nullptr : ra.ints.data();
                    break;
                case ArgKind::Int:
                case ArgKind::IntPtr:
                case ArgKind::Bool:
                case ArgKind::BoolPtr: a.kind = diopi_graph_arg_int; a.i = ra.i; break;
                case ArgKind::Double:
                case ArgKind::DoublePtr: a.kind = diopi_graph_arg_float; a.f = ra.d; break;
                case ArgKind::String: a.kind = diopi_graph_arg_string; a.s = ra.s.c_str(); break;
                case ArgKind::Generator: a.kind = diopi_graph_arg_generator; break;
                case ArgKind::Cell:
                case ArgKind::CellRef:
                    TORCH_CHECK(false, "diopi graph: step ", k, " (", s.fn, ") has an output the library allocates: not offered");
            }
            as.push_back(a);
        }
        nodes.push_back(diopiGraphNode_t{s.fn.c_str(), static_cast<int32_t>(as.size()), as.data()});
    }
    gname = std::string(name);
    g.version = DIOPI_GRAPH_VERSION;
    g.size = sizeof(diopiGraph_t);
    g.name = gname.c_str();
    g.num_tensors = static_cast<int32_t>(nt);
    g.tensors = ts.data();
    g.num_nodes = static_cast<int32_t>(nodes.size());
    g.nodes = nodes.data();
    g.num_inputs = nin;
    g.num_outputs = nout;
    g.num_symbols = 0;
}

/// Offers steps [start, stop) of a plan to the vendor's graph compiler, in the form of diopi/graph.h. `tensors`
/// describes each tensor of that graph (diopi_torch/graph/vendor.py): role, index, dtype, sizes, strides,
/// first and last use, and the plan reference it is (whose handle run() is given for inputs and outputs).
/// (0, [], "") the executable serves those steps from the next run on; (1, declined steps, "") the vendor
/// declines them; (2, [], why) the compiler failed.
std::tuple<int64_t, std::vector<int64_t>, std::string> offer(int64_t id, int64_t start, int64_t stop, c10::string_view tensors,
                                                             c10::string_view name) {
    Plan& p = planOf(id);
    const diopiGraphCompiler_t* vendor = vendorCompiler();
    TORCH_CHECK(vendor, "diopi graph: the vendor library has no graph compiler");
    std::lock_guard<std::mutex> lock(p.mu);
    TORCH_CHECK(!p.vendor || p.vendor == vendor, "diopi graph: the plan's segments belong to another library's graph compiler");
    const int n = static_cast<int>(p.steps.size());
    TORCH_CHECK(start >= 0 && start < stop && stop <= n, "diopi graph: bad step range ", start, "..", stop);
    for (const auto& seg : p.segments) TORCH_CHECK(stop <= seg.start || start >= seg.stop, "diopi graph: steps already served");
    GraphForm form;
    buildForm(p, start, stop, tensors, name, form);
    auto& g = form.g;
    auto& ts = form.ts;
    const int64_t nt = g.num_tensors;
    const int32_t nin = g.num_inputs, nout = g.num_outputs;
    diopiContext ctx;
    ctx.stream = currentNativeStream();
    diopiGraphExecutableHandle_t exec = nullptr;
    std::vector<int32_t> declined(form.nodes.size() + 1, -1);
    int32_t nd = 0;
    diopiError_t st = vendor->compile(&ctx, &g, &exec, declined.data(), &nd);
    if (st != diopiSuccess) {
        std::string why = lastVendorError();
        return {2, {}, "status " + std::to_string(static_cast<int>(st)) + ": " + (why.empty() ? "the library gave no message" : why)};
    }
    if (!exec) {
        if (nd <= 0 || nd > g.num_nodes) return {2, {}, "neither an executable nor declined nodes"};
        std::vector<int64_t> out;
        for (int32_t j = 0; j < nd; ++j) {
            if (declined[j] < 0 || declined[j] >= g.num_nodes) return {2, {}, "a declined node out of range"};
            out.push_back(start + declined[j]);
        }
        return {1, out, ""};
    }
    Plan::Segment seg;
    seg.start = static_cast<int>(start);
    seg.stop = static_cast<int>(stop);
    seg.exec = exec;
    seg.name = form.gname;
    seg.inputs.assign(nin, nullptr);
    seg.outputs.assign(nout, nullptr);
    for (int64_t t = 0; t < nt; ++t) {
        auto* h = &p.refs[form.refOf[t]].handle;
        if (ts[t].role == diopi_graph_tensor_input) seg.inputs[ts[t].index] = h;
        if (ts[t].role == diopi_graph_tensor_output) seg.outputs[ts[t].index] = h;
    }
    p.vendor = vendor;
    p.segments.push_back(std::move(seg));
    refreshStops(p);
    return {0, {}, ""};
}

// ---------------------------------------------------------------- the graph form as JSON (capture)

const char* dtypeName(int32_t code) {
    switch (code) {
        case diopi_dtype_int8: return "int8";
        case diopi_dtype_uint8: return "uint8";
        case diopi_dtype_int16: return "int16";
        case diopi_dtype_uint16: return "uint16";
        case diopi_dtype_int32: return "int32";
        case diopi_dtype_uint32: return "uint32";
        case diopi_dtype_int64: return "int64";
        case diopi_dtype_uint64: return "uint64";
        case diopi_dtype_float16: return "float16";
        case diopi_dtype_float32: return "float32";
        case diopi_dtype_float64: return "float64";
        case diopi_dtype_bool: return "bool";
        case diopi_dtype_bfloat16: return "bfloat16";
        case diopi_dtype_tfloat32: return "tfloat32";
        case diopi_dtype_complex32: return "complex32";
        case diopi_dtype_complex64: return "complex64";
        case diopi_dtype_complex128: return "complex128";
        default: return "unsupported";
    }
}

// diopiGraphTensorRole_t and diopiGraphArgKind_t without their prefixes, in enumerator order (the harness reads them
// back through the header model, conformance/graph_replay.py).
const char* const kRoleNames[] = {"input", "output", "intermediate", "constant", "view"};
const char* const kArgNames[] = {"none",   "tensor",    "tensor_list",        "scalar",        "int", "float",
                                 "int_array", "string", "generator", "symbolic_int_array", "symbolic_int"};
static_assert(sizeof(kArgNames) / sizeof(kArgNames[0]) == diopi_graph_arg_symbolic_int + 1, "a kind of graph.h has no name here");

void jsonString(std::ostringstream& o, const std::string& s) {
    o << '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o << '\\' << c;
        } else if (c < 0x20) {
            char buf[8];
            snprintf(buf, sizeof(buf), "\\u%04x", c);
            o << buf;
        } else {
            o << c;
        }
    }
    o << '"';
}

// Doubles round-trip exactly (17 significant digits); non-finite ones as Python's json module writes them.
void jsonReal(std::ostringstream& o, double d) {
    if (std::isnan(d)) {
        o << "NaN";
    } else if (std::isinf(d)) {
        o << (d > 0 ? "Infinity" : "-Infinity");
    } else {
        char buf[32];
        snprintf(buf, sizeof(buf), "%.17g", d);
        o << buf;
    }
}

void jsonInts(std::ostringstream& o, const int64_t* v, int64_t n) {
    o << '[';
    for (int64_t i = 0; i < n; ++i) o << (i ? "," : "") << v[i];
    o << ']';
}

/// Steps [start, stop) of a plan as the graph offer() would give the vendor, serialized as JSON in the format
/// documented in diopi_torch/graph/capture.py (the graph replay mode of the harness reads it back).
std::string describeGraph(int64_t id, int64_t start, int64_t stop, c10::string_view tensors, c10::string_view name) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    const int n = static_cast<int>(p.steps.size());
    TORCH_CHECK(start >= 0 && start < stop && stop <= n, "diopi graph: bad step range ", start, "..", stop);
    GraphForm form;
    buildForm(p, start, stop, tensors, name, form);
    const diopiGraph_t& g = form.g;
    std::ostringstream o;
    o << "{\n\"format\": \"diopi-graph\",\n\"version\": " << g.version << ",\n\"name\": ";
    jsonString(o, form.gname);
    o << ",\n\"num_inputs\": " << g.num_inputs << ",\n\"num_outputs\": " << g.num_outputs << ",\n\"num_symbols\": " << g.num_symbols;
    o << ",\n\"tensors\": [";
    for (int32_t t = 0; t < g.num_tensors; ++t) {
        const auto& d = g.tensors[t];
        TORCH_CHECK(d.role >= 0 && d.role <= diopi_graph_tensor_view, "diopi graph: tensor role ", d.role);
        TORCH_CHECK(d.data == nullptr, "diopi graph: constant data is not serialized");
        o << (t ? ",\n " : "\n ") << "{\"role\": \"" << kRoleNames[d.role] << "\", \"index\": " << d.index << ", \"dtype\": \""
          << dtypeName(d.dtype) << "\", \"shape\": ";
        jsonInts(o, d.shape, d.ndim);
        o << ", \"stride\": ";
        if (d.stride) jsonInts(o, d.stride, d.ndim);
        else o << "null";
        o << ", \"view_of\": " << d.view_of << ", \"offset\": " << d.offset << ", \"first_use\": " << d.first_use
          << ", \"last_use\": " << d.last_use << "}";
    }
    o << "],\n\"nodes\": [";
    for (int32_t k = 0; k < g.num_nodes; ++k) {
        const auto& nd = g.nodes[k];
        o << (k ? ",\n " : "\n ") << "{\"function\": ";
        jsonString(o, nd.function);
        o << ", \"args\": [";
        for (int32_t j = 0; j < nd.num_args; ++j) {
            const auto& a = nd.args[j];
            TORCH_CHECK(a.kind >= 0 && a.kind <= diopi_graph_arg_generator, "diopi graph: argument kind ", a.kind);
            o << (j ? ", " : "") << "{\"kind\": \"" << kArgNames[a.kind] << "\"";
            switch (a.kind) {
                case diopi_graph_arg_tensor:
                case diopi_graph_arg_int: o << ", \"value\": " << a.i; break;
                case diopi_graph_arg_float: o << ", \"value\": "; jsonReal(o, a.f); break;
                case diopi_graph_arg_tensor_list:
                case diopi_graph_arg_int_array: o << ", \"value\": "; jsonInts(o, a.ints, a.len); break;
                case diopi_graph_arg_string: o << ", \"value\": "; jsonString(o, a.s ? a.s : ""); break;
                case diopi_graph_arg_scalar:
                    o << ", \"dtype\": \"" << dtypeName(a.scalar.stype) << "\", \"value\": ";
                    if (a.scalar.stype == diopi_dtype_float64) jsonReal(o, a.scalar.fval);
                    else o << a.scalar.ival;
                    break;
                default: break;
            }
            o << "}";
        }
        o << "]}";
    }
    o << "]\n}\n";
    return o.str();
}

/// Gives the plan's steps back to the per-call route (a compile that failed part way).
void withdraw(int64_t id) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    for (auto& seg : p.segments) {
        if (seg.exec && p.vendor->destroy) p.vendor->destroy(seg.exec);
    }
    p.segments.clear();
    refreshStops(p);
}

/// The step ranges the vendor's executables serve: [start, stop, start, stop, ...].
std::vector<int64_t> vendorSegments(int64_t id) {
    Plan& p = planOf(id);
    std::lock_guard<std::mutex> lock(p.mu);
    std::vector<int64_t> out;
    for (const auto& seg : p.segments) {
        out.push_back(seg.start);
        out.push_back(seg.stop);
    }
    return out;
}

/// Runs of the vendor's executables of a plan.
int64_t vendorRuns(int64_t id) { return static_cast<int64_t>(planOf(id).vendorRuns.load()); }

}  // namespace
}  // namespace diopi_torch::graph

TORCH_LIBRARY(diopi_graph, m) {
    using namespace diopi_torch::graph;
    m.def("create(str plan, Tensor[] consts) -> int", &create);
    m.def("run(int plan, Tensor[] inputs) -> Tensor[]", &run);
    m.def("run_snapshots(int plan, Tensor[] inputs, int[] at) -> (Tensor[], Tensor[])", &runSnapshots);
    m.def("attach(int plan, str path, str key) -> str", &attach);
    m.def("destroy(int plan) -> ()", &destroy);
    m.def("counts(int plan) -> int[]", &counts);
    m.def("reset_counts(int plan) -> ()", &resetCounts);
    m.def("set_eager(int plan, int step, bool on) -> ()", &setEager);
    m.def("vendor_compiler() -> str", &vendorName);
    m.def("offer(int plan, int start, int stop, str tensors, str name) -> (int, int[], str)", &offer);
    m.def("describe(int plan, int start, int stop, str tensors, str name) -> str", &describeGraph);
    m.def("vendor_runs(int plan) -> int", &vendorRuns);
    m.def("withdraw(int plan) -> ()", &withdraw);
    m.def("vendor_segments(int plan) -> int[]", &vendorSegments);
}
