// Every work-item of a 3-D grid writes its global id, packed as x | y << 10 | z << 20, at
// its linear position: exercises workgroup ids Y and Z, work-item ids in v1 and v2, and
// partial workgroups in every dimension.
#include "wavejit.h"

__kernel void grid3d(__global uint *out, uint sx, uint sy, uint sz) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < sx && y < sy && z < sz)
    out[(z * sy + y) * sx + x] = x | y << 10 | z << 20;
}
