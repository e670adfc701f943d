// wave size: 32
// Wave reduction with ds_bpermute_b32: out[g] = sum of in[32g .. 32g+31] (u32, wrapping), for a
// grid of one-wave workgroups over n elements (elements past n count as 0).
// GFX12 (RDNA 4, CDNA 5) syntax, wave32.
// Kernel arguments: in @0, out @8 (64-bit addresses), n @16 (u32). s2 = workgroup id.
//
// Every lane adds the value of the lane 16, 8, 4, 2, 1 places further on (ds_bpermute_b32 reads
// lane (address / 4) mod 32), so after five steps every lane holds the whole wave's sum.
    s_load_b64 s[8:9], s[0:1], 0x0                  // in
    s_load_b64 s[10:11], s[0:1], 0x8                // out
    s_load_b32 s12, s[0:1], 0x10                    // n
    s_wait_kmcnt 0
    v_mbcnt_lo_u32_b32 v1, -1, 0                    // lane id
    s_lshl_b32 s13, s2, 5                           // first element = group * 32
    v_add_nc_u32_e32 v2, s13, v1                    // element index
    v_mov_b32_e32 v3, 0                             // lanes past n keep 0
    v_cmp_gt_u32_e32 vcc_lo, s12, v2
    s_and_saveexec_b32 s14, vcc_lo                  // only lanes with an element load
    v_lshlrev_b32_e32 v4, 2, v2
    global_load_b32 v3, v4, s[8:9]
    s_wait_loadcnt 0
    s_mov_b32 exec_lo, s14                          // every lane again
    v_lshlrev_b32_e32 v5, 2, v1                     // own lane's byte address
    v_add_nc_u32_e32 v6, 64, v5                     // lane + 16
    ds_bpermute_b32 v7, v6, v3
    s_wait_dscnt 0
    v_add_nc_u32_e32 v3, v3, v7
    v_add_nc_u32_e32 v6, 32, v5                     // lane + 8
    ds_bpermute_b32 v7, v6, v3
    s_wait_dscnt 0
    v_add_nc_u32_e32 v3, v3, v7
    v_add_nc_u32_e32 v6, 16, v5                     // lane + 4
    ds_bpermute_b32 v7, v6, v3
    s_wait_dscnt 0
    v_add_nc_u32_e32 v3, v3, v7
    v_add_nc_u32_e32 v6, 8, v5                      // lane + 2
    ds_bpermute_b32 v7, v6, v3
    s_wait_dscnt 0
    v_add_nc_u32_e32 v3, v3, v7
    v_add_nc_u32_e32 v6, 4, v5                      // lane + 1
    ds_bpermute_b32 v7, v6, v3
    s_wait_dscnt 0
    v_add_nc_u32_e32 v3, v3, v7
    v_readfirstlane_b32 s15, v3                     // the sum, now in every lane
    s_lshl_b32 s16, s2, 2                           // out + group * 4
    v_mov_b32_e32 v8, s16
    v_mov_b32_e32 v9, s15
    s_mov_b32 exec_lo, 1                            // one lane stores
    global_store_b32 v8, v9, s[10:11]
    s_endpgm
