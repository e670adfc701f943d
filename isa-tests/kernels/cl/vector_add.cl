// Vector add with a bounds check: the last workgroup has lanes past `n`.
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *out, uint n) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        out[i] = a[i] + b[i];
}
