// Each work-item builds a histogram of the low 5 bits of its 64 keys in a private array
// indexed by the data, which LLVM places in scratch memory (the private segment, reached
// with MUBUF through the scratch V#), then writes it out.
#include "wavejit.h"

#define KEYS 64
#define BINS 32

__kernel void private_hist(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  uint h[BINS];
  for (uint b = 0; b < BINS; b++)
    h[b] = 0;
  for (uint k = 0; k < KEYS; k++)
    h[in[i * KEYS + k] % BINS] += 1;
  for (uint b = 0; b < BINS; b++)
    out[i * BINS + b] = h[b];
}
