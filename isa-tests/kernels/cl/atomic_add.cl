// Every work-item adds its input to one counter with a global atomic.
__kernel void atomic_add(__global const uint *in, __global uint *counter, uint n) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        __atomic_fetch_add(counter, in[i], __ATOMIC_RELAXED);
}
