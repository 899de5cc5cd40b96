// 64-bit global atomics from every work-item of many workgroups: each adds a value whose
// low half carries into the high half, to one of four counters, and keeps the larger of
// its own key and the counter's in a fifth (an atomic max). A torn or lost update shows in the
// totals.
#include "wavejit.h"

__kernel void atomics64(__global ulong *acc, uint rounds) {
  uint i = get_global_id(0);
  ulong v = 0xffffffffUL + (ulong)(i & 0xff);
  for (uint r = 0; r < rounds; r++)
    __atomic_fetch_add(&acc[(i + r) & 3], v, __ATOMIC_RELAXED);
  __atomic_fetch_max(&acc[4], ((ulong)i << 32) | (ulong)(i * 7u), __ATOMIC_RELAXED);
}
