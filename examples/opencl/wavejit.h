/* Work-item functions for OpenCL C kernels built without a device library
 * (clang -nogpulib), from the AMDGPU builtins: just what the examples use.
 * Macros, so that nothing is emitted out of line next to the kernels. */
#ifndef WAVEJIT_H
#define WAVEJIT_H

#define WJ_DIM(d, x, y, z) ((d) == 0 ? (x) : (d) == 1 ? (y) : (d) == 2 ? (z) : 0u)

#define get_local_id(d)                                                        \
  WJ_DIM(d, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), \
         __builtin_amdgcn_workitem_id_z())
#define get_group_id(d)                                                          \
  WJ_DIM(d, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), \
         __builtin_amdgcn_workgroup_id_z())
/* The enqueued workgroup size (from the hidden kernel arguments). */
#define get_local_size(d)                                                            \
  WJ_DIM(d, (uint)__builtin_amdgcn_workgroup_size_x(),                               \
         (uint)__builtin_amdgcn_workgroup_size_y(), (uint)__builtin_amdgcn_workgroup_size_z())
/* The grid size (from the HSA dispatch packet). */
#define get_global_size(d)                                                   \
  WJ_DIM(d, __builtin_amdgcn_grid_size_x(), __builtin_amdgcn_grid_size_y(), \
         __builtin_amdgcn_grid_size_z())
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))

/* A workgroup barrier that also orders local memory. */
#define barrier(flags)                                      \
  do {                                                      \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");  \
    __builtin_amdgcn_s_barrier();                           \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");  \
  } while (0)

#endif
