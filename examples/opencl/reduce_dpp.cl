// A wave-wide inclusive scan with DPP (GCN 1.2): row_shr 1, 2, 4, 8 within each row of 16
// lanes, then row_bcast:15 and row_bcast:31 across rows. scan[i] is the sum of the wave's
// inputs up to lane i; sums[w] (lane 63) the sum of wave w's 64 inputs. Inputs past n
// count as 0. Launch with a grid that is a multiple of 64.
#include "wavejit.h"

__kernel void reduce_dpp(__global const uint *in, __global uint *scan, __global uint *sums, uint n) {
  uint i = get_global_id(0);
  uint v = i < n ? in[i] : 0u;
  // mov_dpp with bound_ctrl: lanes whose source is outside the row read 0.
  v += __builtin_amdgcn_mov_dpp(v, 0x111, 0xf, 0xf, true);           // row_shr:1
  // update_dpp with old = 0: lanes without a source keep 0.
  v += __builtin_amdgcn_update_dpp(0u, v, 0x112, 0xf, 0xf, false);   // row_shr:2
  v += __builtin_amdgcn_update_dpp(0u, v, 0x114, 0xf, 0xf, false);   // row_shr:4
  v += __builtin_amdgcn_update_dpp(0u, v, 0x118, 0xf, 0xf, false);   // row_shr:8
  v += __builtin_amdgcn_update_dpp(0u, v, 0x142, 0xa, 0xf, false);   // row_bcast:15, rows 1, 3
  v += __builtin_amdgcn_update_dpp(0u, v, 0x143, 0xc, 0xf, false);   // row_bcast:31, rows 2, 3
  scan[i] = v;
  if (get_local_id(0) % 64 == 63)
    sums[i / 64] = v;
}
