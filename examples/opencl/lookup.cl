// A __constant lookup table: LLVM places it in the code object's read-only data and the
// kernel reaches it relative to its own address (s_getpc_b64 + offset), so the launcher
// maps that data at the same distance from the kernel's entry. out[i] = table[in[i] % 16]
// + i.
#include "wavejit.h"

__constant uint table[16] = {0x9e3779b9, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 0xffffffff};

__kernel void lookup(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    out[i] = table[in[i] % 16] + i;
}
