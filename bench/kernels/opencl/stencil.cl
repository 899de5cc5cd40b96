// One Jacobi step of a 5-point stencil on a w x h grid of unsigned integers:
// out = (4 * centre + the four neighbours) / 8 inside, the border copied. A 2-D grid of
// w x h work-items. Launched repeatedly with the buffers swapped, it is the benchmark's
// many-launch program.
#include "wavejit.h"

__kernel void stencil(__global const uint *in, __global uint *out, uint w, uint h) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uint i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = (4u * in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]) >> 3;
}
