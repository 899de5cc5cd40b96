// Steps a linear congruential generator `steps` times per work-item: a kernel as long as
// a test needs (Ctrl-C, time limits, the GIL being released), with a result NumPy checks.
#include "wavejit.h"

__kernel void lcg(__global uint *out, uint steps) {
  uint x = get_global_id(0);
  for (uint k = 0; k < steps; k++)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
