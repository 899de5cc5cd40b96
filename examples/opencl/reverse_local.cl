// Reverse each workgroup's slice through a __local buffer passed as an argument (dynamic
// LDS, `local:BYTES` on the command line): out[g*size + l] = in[g*size + size-1-l].
// The grid must be a multiple of the workgroup size.
#include "wavejit.h"

__kernel void reverse_local(__global const uint *in, __global uint *out, __local uint *tmp) {
  uint l = get_local_id(0), size = get_local_size(0);
  uint base = get_group_id(0) * size;
  tmp[l] = in[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + l] = tmp[size - 1 - l];
}
