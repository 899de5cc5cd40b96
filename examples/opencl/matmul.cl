// C = A * B for M x K and K x N row-major matrices of 32-bit unsigned integers (wrapping),
// in 16 x 16 tiles staged through local memory, with barriers between the load and the
// use of a tile. M, N and K must be multiples of 16; launch a grid of N x M work-items in
// 16 x 16 workgroups.
#include "wavejit.h"

#define TILE 16

__kernel void matmul(__global const uint *A, __global const uint *B, __global uint *C, uint M,
                     uint N, uint K) {
  __local uint ta[TILE][TILE];
  __local uint tb[TILE][TILE];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint col = get_group_id(0) * TILE + tx;
  uint row = get_group_id(1) * TILE + ty;
  uint acc = 0;
  for (uint t = 0; t < K; t += TILE) {
    ta[ty][tx] = A[row * K + t + tx];
    tb[ty][tx] = B[(t + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; k++)
      acc += ta[ty][k] * tb[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
