// A loop whose trip count is a kernel argument: the branch is on a scalar (uniform) value.
__kernel void loop_scalar(__global uint *out, uint rounds) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    uint acc = i;
    for (uint k = 0; k < rounds; k++)
        acc = acc * 3u + k;
    out[i] = acc;
}
