// Instruction-set levels and the one place that decides which one kernels use.
//
// The library is built without -march flags, so it loads on any x86-64 CPU.
// Hot loops are compiled once per level (functions carrying CPU_TARGET_AVX2 or
// CPU_TARGET_AVX512) and picked at run time from isa(): the best level the CPU
// supports, capped by the environment variable DIOPI_CPU_ISA
// (baseline | avx2 | avx512), which is how the slower paths are kept tested.
// The choice is made once, when the library is loaded.
#pragma once

namespace impl::cpu {

/// Levels with kernels of their own, lowest first (comparable with <).
enum class Isa : int {
    Baseline = 0,  ///< x86-64 (SSE2) or any non-x86 CPU
    Avx2 = 1,      ///< AVX2 + FMA + F16C (x86-64-v3)
    Avx512 = 2,    ///< AVX-512 F/BW/VL/DQ on top of Avx2 (x86-64-v4)
};

/// The level kernels use in this process (constant after load).
Isa isa();
/// "baseline", "avx2" or "avx512".
const char* isaName(Isa level);

}  // namespace impl::cpu

// Function attributes compiling one function for a level. A helper called from
// such a function must be inlined into it (CPU_FORCE_INLINE, or a template or
// lambda instantiated there) to be compiled for the same level.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define CPU_HAVE_X86_LEVELS 1
#define CPU_TARGET_AVX2 __attribute__((target("avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt")))
#define CPU_TARGET_AVX512 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt")))
#else
#define CPU_HAVE_X86_LEVELS 0
#define CPU_TARGET_AVX2
#define CPU_TARGET_AVX512
#endif
