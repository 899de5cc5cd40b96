// Two kernels in one object, for loader tests: fill writes k to out[i], twice writes 2 * in[i].
#include "../../../examples/opencl/wavejit.h"

__kernel void fill(__global uint *out, uint k) { out[get_global_id(0)] = k; }

__kernel void twice(__global const int *in, __global int *out) {
  uint i = get_global_id(0);
  out[i] = 2 * in[i];
}
