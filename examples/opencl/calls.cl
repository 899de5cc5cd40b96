// Calls: a kernel calling `noinline` functions (one calling another), which clang places
// before the kernel's entry in the code section. out[i] = twice(i) + helper(i, 7) with
// helper(x, y) = 3x + y and twice(x) = helper(x, x) + 1, so out[i] = 7i + 8.
#include "wavejit.h"

__attribute__((noinline)) uint helper(uint x, uint y) { return x * 3u + y; }

__attribute__((noinline)) uint twice(uint x) { return helper(x, x) + 1u; }

__kernel void calls(__global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    out[i] = twice(i) + helper(i, 7u);
}
