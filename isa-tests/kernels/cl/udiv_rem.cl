// Unsigned division and remainder (no hardware divide: the compiler expands them).
__kernel void udiv_rem(__global const uint *a, __global const uint *b,
                       __global uint *quot, __global uint *rem) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    quot[i] = a[i] / b[i];
    rem[i] = a[i] % b[i];
}
