// A 64-bit integer mix: shifts, xors, multiplies and adds on 64-bit values.
__kernel void mix64(__global const ulong *in, __global ulong *out) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    ulong x = in[i];
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 29;
    x += (ulong)i << 40;
    out[i] = x;
}
