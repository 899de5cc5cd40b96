// Byte and 16-bit arithmetic that LLVM lowers to SDWA on GCN 1.2 (elsewhere to shifts
// and bitfield extracts): per byte c = a + 3 * b (mod 256), per short
// r = p * q - (p >> 2) (mod 65536, arithmetic shift), and a byte-wise max.
#include "wavejit.h"

__kernel void bytes(__global const uchar4 *a, __global const uchar4 *b, __global uchar4 *c,
                    __global const short2 *p, __global const short2 *q, __global short2 *r,
                    __global uchar4 *m, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    uchar4 x = a[i], y = b[i];
    c[i] = x + y * (uchar)3;
    m[i] = x > y ? x : y;
    short2 s = p[i], t = q[i];
    r[i] = s * t - (s >> (short)2);
  }
}
