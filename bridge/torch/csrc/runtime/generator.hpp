// The device generator: an opaque seed, offset and state the vendor library
// interprets (through diopiGenerator{Get,Set}State and ...SeedAndOffset).
// The generator functions the DIOPI side uses are declared in state.hpp.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/GeneratorImpl.h>

#include <cstdint>
#include <cstring>
#include <vector>

struct diopiGenerator : public c10::GeneratorImpl {
    uint64_t seed_ = 67280421310721ULL;
    uint64_t offset_ = 0;
    std::vector<uint8_t> state_;

    explicit diopiGenerator(c10::DeviceIndex index = 0)
        : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, index), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)) {}
    void set_current_seed(uint64_t seed) override {
        seed_ = seed;
        offset_ = 0;
        state_.clear();  // a new seed restarts the vendor's stream
    }
    void set_offset(uint64_t offset) override { offset_ = offset; }
    uint64_t get_offset() const override { return offset_; }
    uint64_t current_seed() const override { return seed_; }
    uint64_t seed() override {
        set_current_seed(c10::detail::getNonDeterministicRandom());
        return seed_;
    }
    // Framework-visible state: seed, offset, then the vendor's bytes.
    void set_state(const c10::TensorImpl& new_state) override {
        const auto* p = static_cast<const uint8_t*>(new_state.data());
        size_t n = new_state.numel();
        TORCH_CHECK(n >= 16, "diopi generator state must hold at least 16 bytes");
        std::memcpy(&seed_, p, 8);
        std::memcpy(&offset_, p + 8, 8);
        state_.assign(p + 16, p + n);
    }
    c10::intrusive_ptr<c10::TensorImpl> get_state() const override {
        auto t = at::empty({static_cast<int64_t>(16 + state_.size())}, at::kByte);
        auto* p = t.data_ptr<uint8_t>();
        std::memcpy(p, &seed_, 8);
        std::memcpy(p + 8, &offset_, 8);
        if (!state_.empty()) std::memcpy(p + 16, state_.data(), state_.size());
        return t.getIntrusivePtr();
    }
    diopiGenerator* clone_impl() const override {
        auto* g = new diopiGenerator(device().index());
        g->seed_ = seed_;
        g->offset_ = offset_;
        g->state_ = state_;
        return g;
    }
};

namespace diopi_torch {

/// A new generator of diopi:`index` (-1: the current device).
at::Generator newGenerator(c10::DeviceIndex index);

}  // namespace diopi_torch
