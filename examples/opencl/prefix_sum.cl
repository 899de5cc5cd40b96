// Inclusive prefix sum of each workgroup's slice (Hillis-Steele in local memory, double
// buffered, a barrier per step), plus each workgroup's total. Unsigned, wrapping. The
// workgroup size must be a power of two up to 256; work-items past n contribute 0.
#include "wavejit.h"

__kernel void prefix_sum(__global const uint *in, __global uint *out, __global uint *totals,
                         uint n) {
  __local uint buf[2][256];
  uint lid = get_local_id(0), size = get_local_size(0);
  uint i = get_global_id(0);
  uint cur = 0;
  buf[0][lid] = i < n ? in[i] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < size; d <<= 1) {
    uint v = buf[cur][lid];
    if (lid >= d)
      v += buf[cur][lid - d];
    buf[cur ^ 1][lid] = v;
    cur ^= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n)
    out[i] = buf[cur][lid];
  if (lid == size - 1)
    totals[get_group_id(0)] = buf[cur][lid];
}
