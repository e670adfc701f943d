// Float division.
__kernel void fdiv(__global const float *a, __global const float *b, __global float *out) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    out[i] = a[i] / b[i];
}
