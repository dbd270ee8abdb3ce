// The device's generators: one default generator per device, and the
// handles vendor functions get (diopiGeneratorHandle_t is the generator).
#include "runtime/generator.hpp"

#include <array>
#include <mutex>

#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

namespace diopi_torch {

at::Generator& defaultGenerator(c10::DeviceIndex index) {
    if (index < 0) index = currentDeviceIndex();
    checkDeviceIndex(index);
    static std::array<at::Generator, 64> gens;
    static std::array<std::once_flag, 64> once;
    std::call_once(once[index], [&] { gens[index] = at::make_generator<diopiGenerator>(index); });
    return gens[index];
}

at::Generator newGenerator(c10::DeviceIndex index) {
    return at::make_generator<diopiGenerator>(index < 0 ? currentDeviceIndex() : index);
}

// ---------------------------------------------------------------- generators

diopiGeneratorHandle_t generatorHandle(const std::optional<at::Generator>& g) {
    const at::Generator& gen = g.has_value() && g->defined() ? *g : defaultGenerator(currentDeviceIndex());
    TORCH_CHECK(gen.device().type() == c10::DeviceType::PrivateUse1, "diopi operators need a diopi generator, got one for ", gen.device());
    return static_cast<diopiGenerator*>(gen.unsafeGetGeneratorImpl());
}

std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g) { return g->state_; }
void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> state) { g->state_ = std::move(state); }
void generatorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset) {
    *seed = g->seed_;
    *offset = g->offset_;
}
void setGeneratorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset) {
    g->seed_ = seed;
    g->offset_ = offset;
}

}  // namespace diopi_torch
