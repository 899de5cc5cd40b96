// A __constant table of pointers to other __constant tables: the linker leaves
// R_AMDGPU_RELATIVE64 relocations in the object's data, which the loader fills with the
// addresses the tables are loaded at (the same addresses the kernel reaches through
// s_getpc_b64). out[i] = tabs[i & 1][i % 4], i.e. a[i % 4] for even i, b[i % 4] for odd.
#include "wavejit.h"

__constant uint a[4] = {10, 20, 30, 40};
__constant uint b[4] = {1, 2, 3, 4};
__constant uint *__constant tabs[2] = {a, b};

__kernel void pointers(__global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    out[i] = tabs[i & 1][i % 4];
}
