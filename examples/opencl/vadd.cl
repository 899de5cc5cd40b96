// c[i] = a[i] + b[i] for i < n (unsigned, wrapping).
#include "wavejit.h"

__kernel void vadd(__global const uint *a, __global const uint *b, __global uint *c, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
