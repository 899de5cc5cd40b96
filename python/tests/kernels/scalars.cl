// Every scalar argument type, stored at fixed offsets of one byte buffer, so that a test
// can check each value the launcher packed from a Python or NumPy number.
#include "wavejit.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void scalars(__global uchar *out, char c, uchar uc, short s, ushort us, int i,
                      uint ui, long l, ulong ul, float f, double d, half h) {
  if (get_global_id(0) != 0)
    return;
  *(__global char *)(out + 0) = c;
  *(__global uchar *)(out + 1) = uc;
  *(__global short *)(out + 2) = s;
  *(__global ushort *)(out + 4) = us;
  *(__global int *)(out + 8) = i;
  *(__global uint *)(out + 12) = ui;
  *(__global long *)(out + 16) = l;
  *(__global ulong *)(out + 24) = ul;
  *(__global float *)(out + 32) = f;
  *(__global double *)(out + 40) = d;
  *(__global half *)(out + 48) = h;
}
