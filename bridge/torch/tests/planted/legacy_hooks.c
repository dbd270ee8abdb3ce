/*
 * A device hooks library in the first form (bridge/torch/csrc/legacy_hooks.h,
 * before the standard's device.h): seven functions, one device. It must still
 * load; allocations go through it, counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "legacy_hooks.h"

static int64_t mallocs;

static int h_malloc(void** p, size_t n) {
    mallocs++;
    *p = NULL;
    return n == 0 || posix_memalign(p, 64, (n + 63) / 64 * 64) == 0 ? 0 : 1;
}
static int h_free(void* p) {
    free(p);
    return 0;
}
static int h_copy(void* dst, const void* src, size_t n, diopiStreamHandle_t s) {
    memmove(dst, src, n);
    return 0;
}
static int h_sync(diopiStreamHandle_t s) { return 0; }

const diopiTorchDeviceHooks_t* diopiTorchDeviceHooks(void) {
    static const diopiTorchDeviceHooks_t hooks = {"legacy hooks", h_malloc, h_free, h_copy, h_copy, h_copy, h_sync};
    return &hooks;
}

int64_t legacy_mallocs(void) { return mallocs; }
