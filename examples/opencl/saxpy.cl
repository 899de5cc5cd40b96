// y[i] = a * x[i] + y[i] for i < n (single precision).
#include "wavejit.h"

__kernel void saxpy(float a, __global const float *x, __global float *y, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
