// A 2-D grid of 8x4 workgroups: each work-item writes its own coordinates.
__kernel void grid2d(__global uint *out, uint width) {
    uint x = __builtin_amdgcn_workgroup_id_x() * 8 + __builtin_amdgcn_workitem_id_x();
    uint y = __builtin_amdgcn_workgroup_id_y() * 4 + __builtin_amdgcn_workitem_id_y();
    out[y * width + x] = x * 1000u + y;
}
