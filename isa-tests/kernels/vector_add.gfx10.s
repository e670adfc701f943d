// wave size: 32
// out[i] = a[i] + b[i] (f32) for i < n; GFX10 (RDNA 1, 2) syntax, wave32.
// Kernel arguments (s[0:1] points at them): a @0, b @8, out @16 (64-bit addresses), n @24 (u32).
// One-dimensional grid: v0 = work-item id in the workgroup, s2 = workgroup id, 256 work-items
// per workgroup. Work-items at or past n are switched off in EXEC (the divergent tail).
    s_load_dwordx2 s[8:9], s[0:1], 0x0       // a
    s_load_dwordx2 s[10:11], s[0:1], 0x8     // b
    s_load_dwordx2 s[12:13], s[0:1], 0x10    // out
    s_load_dword s14, s[0:1], 0x18           // n
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_lshl_b32 s15, s2, 8                    // first id of the workgroup = group * 256
    v_add_nc_u32_e32 v1, s15, v0             // global id
    v_cmp_gt_u32_e32 vcc_lo, s14, v1         // n > id ?
    s_and_saveexec_b32 s16, vcc_lo           // EXEC = lanes with an element
    s_cbranch_execz done                     // a wave with nothing to do skips the body
    v_lshlrev_b32_e32 v2, 2, v1              // byte offset
    global_load_dword v3, v2, s[8:9]
    global_load_dword v4, v2, s[10:11]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_add_f32_e32 v3, v3, v4
    global_store_dword v2, v3, s[12:13]
done:
    s_endpgm
