// A 256-bin histogram of the low byte of n keys with global atomics: every work-item
// adds one to its key's bin.
#include "wavejit.h"

__kernel void histogram(__global const uint *keys, __global uint *bins, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    __atomic_fetch_add(&bins[keys[i] & 255u], 1u, __ATOMIC_RELAXED);
}
