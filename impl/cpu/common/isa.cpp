// Picks the instruction-set level once, at load time (see isa.hpp).
#include "isa.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace impl::cpu {

namespace {

Isa supported() {
#if CPU_HAVE_X86_LEVELS
    __builtin_cpu_init();
    const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
                    __builtin_cpu_supports("f16c");
    if (!v3) return Isa::Baseline;
    const bool v4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                    __builtin_cpu_supports("avx512dq");
    return v4 ? Isa::Avx512 : Isa::Avx2;
#else
    return Isa::Baseline;
#endif
}

Isa choose() {
    Isa level = supported();
    const char* want = std::getenv("DIOPI_CPU_ISA");
    if (want == nullptr || *want == '\0') return level;
    Isa cap;
    if (std::strcmp(want, "baseline") == 0) {
        cap = Isa::Baseline;
    } else if (std::strcmp(want, "avx2") == 0) {
        cap = Isa::Avx2;
    } else if (std::strcmp(want, "avx512") == 0) {
        cap = Isa::Avx512;
    } else {
        // A typo must not silently test the wrong path; the library still loads.
        std::fprintf(stderr, "diopi cpu: DIOPI_CPU_ISA=%s is not baseline, avx2 or avx512; using %s\n", want, isaName(level));
        return level;
    }
    return cap < level ? cap : level;
}

}  // namespace

// A function-local static: other files' load-time initialisers may ask first.
Isa isa() {
    static const Isa level = choose();
    return level;
}

const char* isaName(Isa level) {
    switch (level) {
        case Isa::Avx512: return "avx512";
        case Isa::Avx2: return "avx2";
        default: return "baseline";
    }
}

}  // namespace impl::cpu
