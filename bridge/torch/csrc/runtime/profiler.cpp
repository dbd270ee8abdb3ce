// The device's activity in torch.profiler: with ProfilerActivity.PrivateUse1
// asked for, every DIOPI call is also a span on the `diopi` device's row of
// the trace, linked to the CPU event of the call (csrc/tools.cpp makes that
// event), so the profiler's tables give each call device time. A call
// returns once its work is queued, so a span is timed on the device, not
// around the launch: an event is recorded on the call's stream before and
// after it, and when the trace is processed (after the profiler stopped) the
// events are synchronized and placed on the profiler's clock through an
// anchor event recorded on each device's idle default stream when the trace
// began. Without events (a device that cannot record them) a span is the
// launch's host time.
//
// PyTorch hands the activity to Kineto through PrivateUse1ProfilerRegistry
// (REGISTER_PRIVATEUSE1_PROFILER); Kineto creates one session per trace and
// tells it the correlation id of each CPU event as it begins.
#include "tools/tools.hpp"

#include <c10/util/ApproximateClock.h>

#include <mutex>
#include <vector>

#include "aten/bridge.hpp"

#ifdef USE_KINETO
#include <IActivityProfiler.h>
#include <libkineto.h>
#include <output_base.h>
#include <torch/csrc/profiler/standalone/privateuse1_profiler.h>
#endif

namespace diopi_torch {
namespace tools {

namespace {

struct Span {
    const char* name;
    int64_t start, end;  // ns, the profiler's clock: the launch's until the events place it on the device
    uint64_t correlation;
    int device;
    void* begin;  // events on the call's stream before and after its work (null: none)
    void* end_event;
};

struct Anchor {
    void* event = nullptr;  // recorded on the device's default stream once it was idle
    int64_t at = 0;         // the profiler's clock then
};

std::mutex gSpansMu;
std::vector<Span> gSpans;
std::vector<Anchor> gAnchors;  // per device, for the trace being recorded
thread_local std::vector<uint64_t> tCorrelation;  // the CPU events open on this thread, innermost last

void destroy(void*& ev) {
    if (ev) destroyEvent(ev);  // noexcept in effect: destroyEvent's vendor status is not raised
    ev = nullptr;
}

void* recordNow(c10::DeviceIndex d) {
    void* ev = nullptr;
    try {
        recordEvent(&ev, currentStream(d), /*timing=*/true);
        return ev;
    } catch (...) {
        destroy(ev);
        return nullptr;
    }
}

void dropSpans(std::vector<Span>& spans) {
    for (Span& s : spans) {
        destroy(s.begin);
        destroy(s.end_event);
    }
    spans.clear();
}

// One anchor per device: its default stream's idle moment on the profiler's clock.
void anchor() {
    for (Anchor& a : gAnchors) destroy(a.event);
    gAnchors.clear();
    try {
        c10::DeviceIndex n = deviceCount();
        gAnchors.resize(n);
        for (c10::DeviceIndex d = 0; d < n; ++d) {
            synchronizeDevice(d);
            void* ev = nullptr;
            recordEvent(&ev, defaultStream(d), /*timing=*/true);
            gAnchors[d] = Anchor{ev, c10::getTime()};
        }
    } catch (...) {
        for (Anchor& a : gAnchors) destroy(a.event);
        gAnchors.clear();  // spans keep their launch times
    }
}

// The device's times of each span, once its work is done (the trace has stopped: waiting costs nothing).
void placeOnDevice(std::vector<Span>& spans) {
    for (Span& s : spans) {
        if (s.begin && s.end_event && s.device < static_cast<int>(gAnchors.size()) && gAnchors[s.device].event) {
            try {
                const Anchor& a = gAnchors[s.device];
                synchronizeEvent(s.end_event);
                const double b = elapsedMs(a.event, s.begin), e = elapsedMs(a.event, s.end_event);
                s.start = a.at + static_cast<int64_t>(b * 1e6);
                s.end = a.at + static_cast<int64_t>(e * 1e6);
            } catch (...) {
            }
        }
        destroy(s.begin);
        destroy(s.end_event);
    }
}

}  // namespace

int64_t traceClock() { return c10::getTime(); }

uint64_t deviceCorrelation() { return tCorrelation.empty() ? 0 : tCorrelation.back(); }

void* deviceSpanBegin() {
    try {
        return recordNow(currentDeviceIndex());
    } catch (...) {
        return nullptr;
    }
}

void deviceSpan(const OpInfo& info, int64_t start, int64_t end, uint64_t correlation, void* begin) {
    c10::DeviceIndex d = 0;
    try {
        d = currentDevice().index();
    } catch (...) {
    }
    if (d < 0) d = 0;
    void* after = begin ? recordNow(d) : nullptr;
    std::lock_guard<std::mutex> g(gSpansMu);
    gSpans.push_back(Span{info.diopi, start, end, correlation, d, begin, after});
}

#ifdef USE_KINETO
namespace {

class DeviceSession : public libkineto::IActivityProfilerSession {
public:
    void start() override {
        {
            std::lock_guard<std::mutex> g(gSpansMu);
            dropSpans(gSpans);
            anchor();
        }
        start_ = c10::getTime();
        gActive.fetch_or(kDeviceTrace);
        status_ = libkineto::TraceStatus::RECORDING;
    }

    void stop() override {
        gActive.fetch_and(~kDeviceTrace);
        end_ = c10::getTime();
        status_ = libkineto::TraceStatus::PROCESSING;
    }

    std::vector<std::string> errors() override { return {}; }

    void processTrace(libkineto::ActivityLogger& logger) override {
        processTrace(logger, nullptr, start_, end_);
    }

    void processTrace(libkineto::ActivityLogger& logger, libkineto::getLinkedActivityCallback linked, int64_t,
                      int64_t) override {
        std::vector<Span> spans;
        {
            std::lock_guard<std::mutex> g(gSpansMu);
            spans.swap(gSpans);
            placeOnDevice(spans);
        }
        buffer_ = std::make_unique<libkineto::CpuTraceBuffer>();
        buffer_->span = libkineto::TraceSpan(start_, end_, "diopi");
        buffer_->gpuOpCount = static_cast<int>(spans.size());
        for (const Span& s : spans) {
            // CONCURRENT_KERNEL: PyTorch reads it as a PrivateUse1 device event once the backend is renamed.
            buffer_->emplace_activity(buffer_->span, libkineto::ActivityType::CONCURRENT_KERNEL, s.name);
            auto& a = libkineto::CpuTraceBuffer::toRef(buffer_->activities.back());
            a.startTime = s.start;
            a.endTime = s.end;
            a.id = static_cast<int32_t>(s.correlation);
            a.device = s.device;
            a.resource = 0;
            a.flow.id = static_cast<uint32_t>(s.correlation);
            a.flow.type = libkineto::kLinkAsyncCpuGpu;
            a.flow.start = 0;
            a.linked = (linked && s.correlation) ? linked(static_cast<int32_t>(s.correlation)) : nullptr;
            logger.handleActivity(a);
        }
    }

    std::unique_ptr<libkineto::DeviceInfo> getDeviceInfo() override {
        return std::make_unique<libkineto::DeviceInfo>(libkineto::DeviceInfo{0, 0, "diopi", "diopi device"});
    }

    std::vector<libkineto::ResourceInfo> getResourceInfos() override {
        return {libkineto::ResourceInfo{0, 0, 0, "DIOPI calls"}};
    }

    std::unique_ptr<libkineto::CpuTraceBuffer> getTraceBuffer() override { return std::move(buffer_); }

    // Kineto tells every session the CPU event that begins and ends on this thread.
    void pushCorrelationId(uint64_t id) override { tCorrelation.push_back(id); }
    void popCorrelationId() override {
        if (!tCorrelation.empty()) tCorrelation.pop_back();
    }

private:
    int64_t start_ = 0, end_ = 0;
    std::unique_ptr<libkineto::CpuTraceBuffer> buffer_;
};

class DeviceActivity : public libkineto::IActivityProfiler {
public:
    const std::string& name() const override { return name_; }
    const std::set<libkineto::ActivityType>& availableActivities() const override { return activities_; }
    std::unique_ptr<libkineto::IActivityProfilerSession> configure(const std::set<libkineto::ActivityType>& types,
                                                                   const libkineto::Config&) override {
        if (!types.count(libkineto::ActivityType::CONCURRENT_KERNEL)) return nullptr;
        return std::make_unique<DeviceSession>();
    }
    std::unique_ptr<libkineto::IActivityProfilerSession> configure(int64_t, int64_t, const std::set<libkineto::ActivityType>& types,
                                                                   const libkineto::Config& config) override {
        return configure(types, config);
    }

private:
    std::string name_{"diopi"};
    std::set<libkineto::ActivityType> activities_{libkineto::ActivityType::CONCURRENT_KERNEL};
};

REGISTER_PRIVATEUSE1_PROFILER(DeviceActivity);

}  // namespace
#endif  // USE_KINETO

}  // namespace tools
}  // namespace diopi_torch
