// Process-wide state of the `diopi` device shared by its translation units:
// the vendor library, generators and dtype tables (the device runtime is
// device_runtime.hpp).
#pragma once

#include <ATen/ATen.h>
#include <diopi/diopirt.h>

#include <string>
#include <vector>


namespace diopi_torch {

diopiDtype_t toDiopi(at::ScalarType t);
at::ScalarType toATen(diopiDtype_t t);

/// Raises unless a vendor library is loaded.
void requireLibrary();
/// Sets the message diopi_torch_error() returns on this thread.
void setError(const std::string& why);
/// The vendor's diopiGetLastErrorString(), "" when it has none.
std::string lastVendorError();

// Generators: the handle given to vendor functions is the device generator.
std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g);
void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> state);
void generatorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset);
void setGeneratorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset);
diopiGeneratorHandle_t generatorHandle(const std::optional<at::Generator>& g);
/// The default generator of diopi:`index` (-1: the current device).
at::Generator& defaultGenerator(c10::DeviceIndex index = -1);

}  // namespace diopi_torch
