// A counted loop with s_cbranch_scc1: out[id] = 1 + 2 + ... + k + k * id (u32, wrapping) for
// id = group * 64 + work-item. GFX10 (RDNA 1, 2) syntax (any wave size), 64 work-items per workgroup.
// Kernel arguments: out @0 (64-bit address), k @8 (u32, at least 1). s2 = workgroup id.
    s_load_dwordx2 s[8:9], s[0:1], 0x0              // out
    s_load_dword s10, s[0:1], 0x8                   // k
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_lshl_b32 s11, s2, 6                           // first id = group * 64
    v_add_nc_u32_e32 v2, s11, v0                    // id
    v_mov_b32_e32 v1, 0                             // sum
    s_mov_b32 s12, 0                                // i
loop:
    s_add_u32 s12, s12, 1                           // i += 1
    v_add_nc_u32_e32 v1, s12, v1                    // sum += i
    v_add_nc_u32_e32 v1, v1, v2                     // sum += id
    s_cmp_lg_u32 s12, s10
    s_cbranch_scc1 loop                             // until i == k
    v_lshlrev_b32_e32 v3, 2, v2
    global_store_dword v3, v1, s[8:9]
    s_endpgm
