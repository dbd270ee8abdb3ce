// The device's counters: one atomic increment per DIOPI call on the hot
// path; names are joined only when stats() is read.
#include "aten/counters.hpp"

#include <atomic>
#include <map>
#include <mutex>

#include "aten/bridge.hpp"
#include "diopi_support/json.hpp"

namespace diopi_torch {
namespace {

struct Counts {
    uint64_t diopi = 0, fallback = 0, view = 0, copy = 0;
    std::map<std::string, uint64_t> functions;  // DIOPI function -> calls
    std::map<std::string, uint64_t> reasons;    // fallback reason -> calls
};

std::mutex gStatsMu;
std::map<std::string, Counts> gStats;
std::atomic<uint64_t> gDiopiSeq{0};
std::atomic<const OpInfo*> gLastCall{nullptr};  // the latest DIOPI call (autocompare reads it)
std::vector<const OpInfo*> gInfos;              // every entry that has been called (guarded by gStatsMu)
std::atomic<bool> gFallbackError{false};

void counts(diopi_support::JsonWriter& w, const std::map<std::string, uint64_t>& m) {
    w.beginObject();
    for (const auto& [k, n] : m) w.member(k, n);
    w.endObject();
}

}  // namespace

void countDiopi(const OpInfo& info) {
    if (!info.listed.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> g(gStatsMu);
        if (!info.listed.exchange(true)) gInfos.push_back(&info);
    }
    info.calls.fetch_add(1, std::memory_order_relaxed);
    gLastCall.store(&info, std::memory_order_relaxed);
    gDiopiSeq.fetch_add(1, std::memory_order_release);
}

void countFallback(const char* aten, const char* reason) {
    std::lock_guard<std::mutex> g(gStatsMu);
    auto& c = gStats[aten];
    c.fallback++;
    c.reasons[reason]++;
}

void recountFallback(const char* aten, const char* from, const char* to) {
    std::lock_guard<std::mutex> g(gStatsMu);
    auto& c = gStats[aten];
    auto it = c.reasons.find(from);
    if (it != c.reasons.end() && --it->second == 0) c.reasons.erase(it);
    c.reasons[to]++;
}

void countView(const char* aten) {
    std::lock_guard<std::mutex> g(gStatsMu);
    gStats[aten].view++;
}

void countCopy(const char* aten) {
    std::lock_guard<std::mutex> g(gStatsMu);
    gStats[aten].copy++;
}

std::string statsJson() {
    std::lock_guard<std::mutex> g(gStatsMu);
    std::map<std::string, Counts> all = gStats;
    for (const OpInfo* info : gInfos) {
        uint64_t n = info->calls.load();
        if (!n) continue;
        auto& c = all[info->aten];
        c.diopi += n;
        c.functions[info->diopi] += n;
    }
    diopi_support::JsonWriter w;
    w.beginObject();
    for (const auto& [op, c] : all) {
        w.key(op).beginObject();
        w.member("diopi", c.diopi).member("fallback", c.fallback).member("view", c.view).member("copy", c.copy);
        w.key("functions");
        counts(w, c.functions);
        w.key("reasons");
        counts(w, c.reasons);
        w.endObject();
    }
    w.endObject();
    return w.str();
}

void resetStats() {
    std::lock_guard<std::mutex> g(gStatsMu);
    gStats.clear();
    for (const auto* info : gInfos) info->calls.store(0);
}

void setFallbackError(bool on) { gFallbackError = on; }
bool fallbackError() { return gFallbackError.load(); }
uint64_t callSeq() { return gDiopiSeq.load(); }
const OpInfo* lastCall() { return gLastCall.load(); }

}  // namespace diopi_torch
