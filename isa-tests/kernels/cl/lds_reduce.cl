// Sum of 64 values per workgroup through LDS, halving with a barrier between steps.
__kernel void lds_reduce(__global const uint *in, __global uint *out) {
    __local uint tmp[64];
    uint lid = __builtin_amdgcn_workitem_id_x();
    uint group = __builtin_amdgcn_workgroup_id_x();
    tmp[lid] = in[group * 64 + lid];
    __builtin_amdgcn_s_barrier();
    for (uint step = 32; step > 0; step >>= 1) {
        if (lid < step)
            tmp[lid] += tmp[lid + step];
        __builtin_amdgcn_s_barrier();
    }
    if (lid == 0)
        out[group] = tmp[0];
}
