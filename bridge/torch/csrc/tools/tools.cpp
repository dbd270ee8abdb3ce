// The tools around each DIOPI call: named fallback, profiler events, the op
// timer's table and the call log. Call::run enters here only when one of
// them is on (tools.hpp); the C functions at the end are what the Python
// package (diopi_torch/tools/) calls through ctypes.
#include "tools/tools.hpp"

#include <ATen/record_function.h>
#include <torch/csrc/autograd/node.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

#include "diopi_support/aten_dtypes.hpp"
#include "diopi_support/json.hpp"

namespace diopi_torch {
namespace tools {

std::atomic<unsigned> gActive{0};

namespace {

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void setBit(unsigned bit, bool on) {
    if (on) {
        gActive.fetch_or(bit);
    } else {
        gActive.fetch_and(~bit);
    }
}

// "float32", ...: the standard's dtype names (the call log's vocabulary).
const char* dtypeName(at::ScalarType t) {
    const char* name = diopi_support::dtypeName(diopi_support::fromScalarType(t));
    return name ? name : "other";
}

void ints(std::string& o, c10::IntArrayRef v, char open, char close) {
    o += open;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) o += ',';
        o += std::to_string(v[i]);
    }
    o += close;
}

// float32[2,8,64]{512,64,1}: dtype, shape, strides (in elements).
void describeTensor(std::string& o, const at::Tensor& t, bool strides) {
    if (!t.defined()) {
        o += "NULL";
        return;
    }
    o += dtypeName(t.scalar_type());
    ints(o, t.sizes(), '[', ']');
    if (strides) ints(o, t.strides(), '{', '}');
}

const at::Tensor& tensorOf(const void* h) { return static_cast<const diopiTensor*>(h)->t; }

void number(std::string& o, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    o += buf;
}

void describeScalar(std::string& o, const diopiScalar_t* s) {
    if (!s) {
        o += "NULL";
    } else if (s->stype == diopi_dtype_float64 || s->stype == diopi_dtype_float32 || s->stype == diopi_dtype_float16 ||
               s->stype == diopi_dtype_bfloat16) {
        number(o, s->fval);
    } else if (s->stype == diopi_dtype_bool) {
        o += s->ival ? "true" : "false";
    } else {
        o += std::to_string(s->ival);
    }
}

// One argument; `full` adds strides and non-tensor values (the call log),
// else only tensor shapes are written (the timer's slowest call).
void describe(std::string& o, const Arg& a, const Call& call, bool full) {
    switch (a.kind) {
        case Arg::Tensor: return describeTensor(o, a.p ? tensorOf(a.p) : at::Tensor(), full);
        case Arg::TensorArray: {
            int64_t n = call.arrayLength(a.p);
            if (n < 0) {  // the slot of an output the library allocates: after the call, its tensor
                const void* h = a.p ? *static_cast<const void* const*>(a.p) : nullptr;
                if (h) {
                    describeTensor(o, tensorOf(h), full);
                } else {
                    o += a.p ? "<not allocated>" : "NULL";
                }
                return;
            }
            o += '(';
            auto handles = static_cast<const void* const*>(a.p);
            for (int64_t i = 0; i < n; ++i) {
                if (i) o += ", ";
                describeTensor(o, handles[i] ? tensorOf(handles[i]) : at::Tensor(), full);
            }
            o += ')';
            return;
        }
        case Arg::Scalar: return describeScalar(o, static_cast<const diopiScalar_t*>(a.p));
        case Arg::Size:
            if (!a.size.data) {
                o += "NULL";
            } else {
                ints(o, c10::IntArrayRef(a.size.data, a.size.len), '[', ']');
            }
            return;
        case Arg::SizePtr: {
            auto s = static_cast<const diopiSize_t*>(a.p);
            if (!s || !s->data) {
                o += "NULL";
            } else {
                ints(o, c10::IntArrayRef(s->data, s->len), '[', ']');
            }
            return;
        }
        case Arg::Int:
        case Arg::Enum: o += std::to_string(a.i); return;
        case Arg::Bool: o += a.i ? "true" : "false"; return;
        case Arg::Float: return number(o, a.d);
        case Arg::String: o += a.p ? "\"" + std::string(static_cast<const char*>(a.p)) + "\"" : "NULL"; return;
        case Arg::Generator: o += a.p ? "<generator>" : "NULL"; return;
        case Arg::IntPtr: o += a.p ? std::to_string(*static_cast<const int64_t*>(a.p)) : "NULL"; return;
        case Arg::FloatPtr:
            if (a.p) {
                number(o, *static_cast<const double*>(a.p));
            } else {
                o += "NULL";
            }
            return;
        case Arg::BoolPtr: o += a.p ? (*static_cast<const bool*>(a.p) ? "true" : "false") : "NULL"; return;
        default: o += "?"; return;
    }
}

bool isTensorArg(const Arg& a) { return a.kind == Arg::Tensor || a.kind == Arg::TensorArray; }

// name=value for each argument after the context, names from the mapping entry.
std::string describeCall(const Arg* args, size_t n, const Call& call, bool full) {
    std::string o;
    const char* names = call.info().params ? call.info().params : "";
    bool first = true;
    for (size_t i = 0; i < n; ++i) {
        if (args[i].kind == Arg::Context) continue;
        const char* end = names;
        while (*end && *end != ',') ++end;
        std::string name(names, end);
        names = *end ? end + 1 : end;
        if (!full && !isTensorArg(args[i])) continue;
        if (!first) o += full ? ", " : " ";
        first = false;
        o += name;
        o += '=';
        describe(o, args[i], call, full);
    }
    return o;
}

const char* statusName(int s) {
    switch (s) {
        case diopiSuccess: return "diopiSuccess";
        case diopiErrorOccurred: return "diopiErrorOccurred";
        case diopiNotInited: return "diopiNotInited";
        case diopi5DNotSupported: return "diopi5DNotSupported";
        case diopiNoImplement: return "diopiNoImplement";
        case diopiForceFallbackToCPU: return "diopiForceFallbackToCPU";
        case diopiDtypeNotSupported: return "diopiDtypeNotSupported";
        default: return "error";
    }
}

// Forward or backward: the autograd node being evaluated, if any.
int phaseNow(std::string* node) {
    auto n = torch::autograd::get_current_node();
    if (!n) return 0;
    if (node) *node = n->name();
    return 1;
}

// ---------------------------------------------------------------- named fallback

std::mutex gNamedMu;
std::set<std::string> gNamed;
std::atomic<uint32_t> gNamedGen{1};

bool isNamed(const OpInfo& info) {
    uint32_t gen = gNamedGen.load(std::memory_order_acquire);
    uint32_t cached = info.namedGen.load(std::memory_order_relaxed);
    if ((cached >> 1) == gen) return cached & 1u;
    bool hit;
    {
        std::lock_guard<std::mutex> g(gNamedMu);
        hit = gNamed.count(info.aten) || gNamed.count(info.diopi);
    }
    info.namedGen.store((gen << 1) | (hit ? 1u : 0u), std::memory_order_relaxed);
    return hit;
}

// ---------------------------------------------------------------- the timer

struct Stat {
    std::string aten, diopi;
    int phase = 0;
    uint64_t calls = 0;
    int64_t ns = 0, maxNs = 0, kernelNs = 0;
    std::string slowest;
};

std::mutex gTimerMu;
std::map<std::pair<const void*, int>, Stat> gTimer;  // (OpInfo or interned ATen name, phase)

Stat& statFor(const void* key, int phase, const char* aten, const char* diopi) {
    auto& s = gTimer[{key, phase}];
    if (!s.calls && s.aten.empty()) {
        s.aten = aten;
        s.diopi = diopi;
        s.phase = phase;
    }
    return s;
}

// ---------------------------------------------------------------- the call log

class LogSink {
public:
    bool start(const std::string& path, std::string& why) {
        std::lock_guard<std::mutex> g(mu_);
        if (file_) {
            why = "a call log is already being written (" + path_ + ")";
            return false;
        }
        file_ = std::fopen(path.c_str(), "w");
        if (!file_) {
            why = "cannot open " + path + " for the call log: " + std::strerror(errno);
            return false;
        }
        std::fputs("# diopi call log: number, fwd|bwd(autograd node), aten::operator -> DIOPI function(arguments) = status, "
                   "time of the call; tensors as dtype[shape]{strides}\n",
                   file_);
        path_ = path;
        lines_ = 0;
        stopping_ = false;
        writer_ = std::thread([this] { writeLoop(); });
        return true;
    }

    // Lines are gathered in memory and written in large blocks by the writer
    // thread, so a call never waits for the disk.
    void append(const std::string& line) {
        std::lock_guard<std::mutex> g(mu_);
        if (!file_) return;  // a call that began before stop()
        buf_ += line;
        ++lines_;
        if (buf_.size() >= kBlock) {
            pending_.push_back(std::move(buf_));
            buf_.clear();
            cv_.notify_one();
        }
    }

    uint64_t stop() {
        std::thread w;
        uint64_t n;
        {
            std::lock_guard<std::mutex> g(mu_);
            if (!file_) return 0;
            if (!buf_.empty()) pending_.push_back(std::move(buf_));
            buf_.clear();
            stopping_ = true;
            cv_.notify_one();
            w = std::move(writer_);
            n = lines_;
        }
        w.join();
        std::lock_guard<std::mutex> g(mu_);
        std::fclose(file_);
        file_ = nullptr;
        return n;
    }

private:
    static constexpr size_t kBlock = 1 << 20;

    void writeLoop() {
        std::unique_lock<std::mutex> lk(mu_);
        for (;;) {
            cv_.wait(lk, [this] { return stopping_ || !pending_.empty(); });
            while (!pending_.empty()) {
                std::string block = std::move(pending_.front());
                pending_.pop_front();
                FILE* f = file_;
                lk.unlock();
                std::fwrite(block.data(), 1, block.size(), f);
                lk.lock();
            }
            if (stopping_) {
                std::fflush(file_);
                return;
            }
        }
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::string buf_, path_;
    std::deque<std::string> pending_;
    FILE* file_ = nullptr;
    std::thread writer_;
    bool stopping_ = false;
    uint64_t lines_ = 0;
};

LogSink& logSink() {
    static LogSink* s = new LogSink();  // never destroyed: calls may still log while the process exits
    return *s;
}

std::atomic<uint64_t> gLogSeq{0};

void logLine(const char* aten, const std::string& target, const std::string& args, int phase, const std::string& node,
             const std::string& outcome, int64_t ns) {
    std::string line;
    line.reserve(96 + args.size());
    line += std::to_string(gLogSeq.fetch_add(1, std::memory_order_relaxed));
    line += phase ? " bwd " : " fwd ";
    if (phase && !node.empty()) {
        line.pop_back();
        line += '(' + node + ") ";
    }
    line += "aten::";
    line += aten;
    line += " -> ";
    line += target;
    line += '(';
    line += args;
    line += ") = ";
    line += outcome;
    line += ' ';
    number(line, ns / 1e3);
    line += " us\n";
    logSink().append(line);
}

}  // namespace

bool named(const OpInfo& info) { return (active() & kNamed) && isNamed(info); }

diopiError_t run(Call& call, unsigned mask, std::optional<at::StepCallbacks> step, const Arg* args, size_t n,
                 diopiError_t (*invoke)(void*), void* closure) {
    const OpInfo& info = call.info();
    if ((mask & kNamed) && isNamed(info)) {
        call.tool.named = true;
        return diopiForceFallbackToCPU;
    }
    // The profiler's event: the DIOPI function under its ATen operator, with the call's tensors as inputs.
    std::vector<c10::IValue> inputs;
    std::optional<at::RecordFunction> event;
    if (!step) step = at::getStepCallbacksUnlessEmpty(at::RecordScope::FUNCTION);
    {
        if (step) {
            event.emplace(std::move(*step));
            if (event->needsInputs()) {
                for (size_t i = 0; i < n; ++i) {
                    const Arg& a = args[i];
                    if (a.kind == Arg::Tensor) {
                        inputs.emplace_back(a.p ? tensorOf(a.p) : at::Tensor());
                    } else if (a.kind == Arg::Int || a.kind == Arg::Enum || a.kind == Arg::Bool) {
                        inputs.emplace_back(a.i);
                    } else if (a.kind == Arg::Float) {
                        inputs.emplace_back(a.d);
                    } else if (a.kind == Arg::Scalar && a.p) {
                        auto s = static_cast<const diopiScalar_t*>(a.p);
                        inputs.emplace_back(s->stype == diopi_dtype_float64 ? c10::IValue(s->fval) : c10::IValue(s->ival));
                    } else if (a.kind != Arg::Context) {
                        inputs.emplace_back();
                    }
                }
                event->before(info.diopi, c10::ArrayRef<const c10::IValue>(inputs.data(), inputs.size()));
            } else {
                event->before(info.diopi);
            }
        }
    }
    const bool timed = mask & (kTimer | kLog);
    const bool traced = mask & kDeviceTrace;
    const uint64_t correlation = traced ? deviceCorrelation() : 0;  // the event above, once it has begun
    const int64_t traceStart = traced ? traceClock() : 0;
    void* traceBegin = traced ? deviceSpanBegin() : nullptr;
    // A call returns once its work is queued on a chip: the timer and the call log wait for the
    // stream before and after it, so the time is this call's work, not its launch or earlier work.
    if (timed) synchronizeStream(currentStream(currentDeviceIndex()));
    const int64_t t0 = timed ? nowNs() : 0;
    diopiError_t status = invoke(closure);
    if (timed && status == diopiSuccess) synchronizeStream(currentStream(currentDeviceIndex()));
    const int64_t ns = timed ? nowNs() - t0 : 0;
    if (traced) deviceSpan(info, traceStart, traceClock(), correlation, traceBegin);
    event.reset();
    call.tool.ran = true;
    if (!(mask & (kTimer | kLog))) return status;
    std::string node;
    const int phase = phaseNow((mask & kLog) ? &node : nullptr);
    call.tool.phase = static_cast<int8_t>(phase);
    if (mask & kTimer) {
        std::lock_guard<std::mutex> g(gTimerMu);
        Stat& s = statFor(&info, phase, info.aten, info.diopi);
        s.calls++;
        s.ns += ns;
        if (ns > s.maxNs || s.calls == 1) {
            s.maxNs = ns;
            s.slowest = describeCall(args, n, call, false);
        }
    }
    if (mask & kLog) {
        std::string outcome = statusName(status);
        if (status != diopiSuccess && outcome == "error") outcome = "status " + std::to_string(static_cast<int>(status));
        logLine(info.aten, info.diopi, describeCall(args, n, call, true), phase, node, outcome, ns);
    }
    return status;
}

void finish(Call& call) {
    if (!call.tool.ran || call.tool.named) return;
    const int64_t ns = nowNs() - call.tool.t0;
    std::lock_guard<std::mutex> g(gTimerMu);
    auto it = gTimer.find({&call.info(), call.tool.phase});
    if (it != gTimer.end()) it->second.kernelNs += ns;
}

int64_t now() { return nowNs(); }

void fallbackDone(const std::string& aten, const char* reason, const std::string& shapes, const std::string& full, int64_t ns) {
    const unsigned mask = active();
    std::string node;
    const int phase = phaseNow((mask & kLog) ? &node : nullptr);
    if (mask & kTimer) {
        static std::mutex internMu;
        static std::set<std::string> interned;  // stable keys for fallback rows
        const void* key;
        {
            std::lock_guard<std::mutex> g(internMu);
            key = &*interned.insert(aten).first;
        }
        std::lock_guard<std::mutex> g(gTimerMu);
        Stat& s = statFor(key, phase, aten.c_str(), "cpu");
        s.calls++;
        s.ns += ns;
        s.kernelNs += ns;
        if (ns > s.maxNs || s.calls == 1) {
            s.maxNs = ns;
            s.slowest = shapes;
        }
    }
    if (mask & kLog) logLine(aten.c_str(), "cpu", full, phase, node, std::string("fallback (") + reason + ")", ns);
}

std::string describeStack(const torch::jit::Stack& stack, size_t first, bool full) {
    std::string o;
    for (size_t i = first; i < stack.size(); ++i) {
        const c10::IValue& v = stack[i];
        if (!v.isTensor() && !full) continue;
        if (!o.empty()) o += full ? ", " : " ";
        if (v.isTensor()) {
            describeTensor(o, v.toTensor(), full);
        } else if (v.isTensorList()) {
            o += '(';
            bool f = true;
            for (const at::Tensor& t : v.toTensorVector()) {
                if (!f) o += ", ";
                f = false;
                describeTensor(o, t, full);
            }
            o += ')';
        } else if (v.isNone()) {
            o += "None";
        } else if (v.isScalar() || v.isIntList() || v.isBool() || v.isString()) {
            std::ostringstream s;
            s << v;
            o += s.str();
        } else {
            o += v.tagKind();
        }
    }
    return o;
}

}  // namespace tools
}  // namespace diopi_torch

// ---------------------------------------------------------------- C API (ctypes)

namespace {
thread_local std::string tToolText;
}

extern "C" {

/// Starts the op timer with an empty table; 1 when one is already running.
__attribute__((visibility("default"))) int diopi_torch_timer_start() {
    using namespace diopi_torch::tools;
    if (active() & kTimer) return 1;
    {
        std::lock_guard<std::mutex> g(gTimerMu);
        gTimer.clear();
    }
    setBit(kTimer, true);
    return 0;
}

__attribute__((visibility("default"))) void diopi_torch_timer_stop() { diopi_torch::tools::setBit(diopi_torch::tools::kTimer, false); }

/// The timer's rows as JSON: [{aten, diopi, phase, calls, ns, max_ns, kernel_ns, slowest}, ...].
__attribute__((visibility("default"))) const char* diopi_torch_timer_report() {
    using namespace diopi_torch::tools;
    try {
        diopi_support::JsonWriter w;
        std::lock_guard<std::mutex> g(gTimerMu);
        w.beginArray();
        for (const auto& [key, s] : gTimer) {
            w.beginObject().member("aten", s.aten).member("diopi", s.diopi).member("phase", s.phase ? "backward" : "forward");
            w.member("calls", s.calls).member("ns", s.ns).member("max_ns", s.maxNs).member("kernel_ns", s.kernelNs);
            w.member("slowest", s.slowest).endObject();
        }
        w.endArray();
        tToolText = w.str();
    } catch (...) {
        tToolText = "[]";
    }
    return tToolText.c_str();
}

/// Starts writing the call log to `path`; 0 on success, else 1 and diopi_torch_error() says why.
__attribute__((visibility("default"))) int diopi_torch_log_start(const char* path) {
    using namespace diopi_torch::tools;
    try {
        std::string why;
        gLogSeq = 0;
        if (!logSink().start(path ? path : "", why)) {
            diopi_torch::setError(why);
            return 1;
        }
        setBit(kLog, true);
        return 0;
    } catch (const std::exception& e) {
        diopi_torch::setError(e.what());
        return 1;
    }
}

/// Stops the call log, writes what is left; the number of lines written.
__attribute__((visibility("default"))) uint64_t diopi_torch_log_stop() {
    using namespace diopi_torch::tools;
    setBit(kLog, false);
    try {
        return logSink().stop();
    } catch (...) {
        return 0;
    }
}

/// The ATen overloads and DIOPI functions (comma-separated) that run on the
/// CPU by name; "" for none.
__attribute__((visibility("default"))) void diopi_torch_set_named_fallback(const char* names) {
    using namespace diopi_torch::tools;
    try {
        std::set<std::string> set;
        std::string all = names ? names : "";
        size_t pos = 0;
        while (pos <= all.size()) {
            size_t end = all.find(',', pos);
            if (end == std::string::npos) end = all.size();
            if (end > pos) set.insert(all.substr(pos, end - pos));
            pos = end + 1;
        }
        {
            std::lock_guard<std::mutex> g(gNamedMu);
            gNamed = std::move(set);
            setBit(kNamed, !gNamed.empty());
        }
        gNamedGen.fetch_add(1, std::memory_order_acq_rel);
    } catch (...) {
    }
}

}  // extern "C"
