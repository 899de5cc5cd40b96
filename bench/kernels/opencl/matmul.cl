// C = A * B for n x n row-major matrices of 32-bit unsigned integers (wrapping), in
// 16 x 16 tiles staged through local memory with barriers. n a multiple of 16; a grid
// of n x n work-items in 16 x 16 workgroups.
#include "wavejit.h"

#define TILE 16

__kernel void matmul(__global const uint *A, __global const uint *B, __global uint *C, uint n) {
  __local uint ta[TILE][TILE];
  __local uint tb[TILE][TILE];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint col = get_group_id(0) * TILE + tx;
  uint row = get_group_id(1) * TILE + ty;
  uint acc = 0;
  for (uint t = 0; t < n; t += TILE) {
    ta[ty][tx] = A[row * n + t + tx];
    tb[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; k++)
      acc += ta[ty][k] * tb[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
