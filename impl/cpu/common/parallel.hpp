// OpenMP helpers; everything degrades to a serial loop without OpenMP.
#pragma once

#include <algorithm>
#include <cstdint>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace impl::cpu {

/// Work below this many elements runs on one thread (thread start-up costs more).
constexpr int64_t kParallelGrain = 32768;

/// True inside any OpenMP region, a one-thread one included. omp_in_parallel()
/// is false in a one-thread region, so a loop inside one would start a nested
/// team on every call (milliseconds each); kernels never nest regions.
inline bool inParallelRegion() {
#ifdef _OPENMP
    return omp_get_level() > 0;
#else
    return false;
#endif
}

/// Calls f(begin, end) on disjoint chunks of [0, n), in parallel when n >= grain.
/// (One serial call site: GCC inlines a mid-sized f into each call of it.)
template <class F>
void parallelFor(int64_t n, int64_t grain, F&& f) {
    if (n <= 0) return;
#ifdef _OPENMP
    int64_t chunks = 1;
    if (n >= grain && omp_get_max_threads() > 1 && !inParallelRegion())
        chunks = std::min<int64_t>(omp_get_max_threads(), (n + grain - 1) / grain);
    if (chunks >= 2) {  // one chunk: no region at all
#pragma omp parallel for num_threads(chunks) schedule(static)
        for (int64_t c = 0; c < chunks; ++c) {
            int64_t b = n * c / chunks, e = n * (c + 1) / chunks;
            if (b < e) f(b, e);
        }
        return;
    }
#endif
    f(int64_t(0), n);
}

}  // namespace impl::cpu
