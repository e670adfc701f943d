// An ALU-heavy loop for the benchmark: k trips of 16 vector instructions (integer adds,
// shifts, float adds, masked byte differences) and 3 scalar loop instructions, then each
// work-item stores its v1. GFX11 (RDNA 3) syntax; any wave size.
// Kernel arguments: out @0 (64-bit address), k @8 (u32, at least 1). s2 = workgroup id;
// 256 work-items per workgroup.
    s_load_b64 s[8:9], s[0:1], null                 // out (offset 0)
    .long 0xf4000280, 0xf8000008                    // asm: s_load_b32 s10, s[0:1], 0x8
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_lshl_b32 s11, s2, 8
    v_add_nc_u32_e32 v5, s11, v0                    // id
    v_mov_b32_e32 v1, v5
    v_mov_b32_e32 v2, 1
    v_mov_b32_e32 v3, 1.0
    v_mov_b32_e32 v4, 0.5
loop:
    v_add_nc_u32_e32 v1, v1, v5
    v_add_nc_u32_e32 v2, v2, v1
    v_lshlrev_b32_e32 v6, 3, v1
    v_add_f32_e32 v3, v3, v4
    v_add_nc_u32_e32 v1, v1, v6
    v_msad_u8 v2, v1, v5, v2
    v_add_f32_e32 v4, v4, v3
    v_lshlrev_b32_e32 v6, 1, v2
    v_add_nc_u32_e32 v2, v2, v6
    v_add_f32_e32 v3, v3, v4
    v_msad_u8 v1, v2, v6, v1
    v_add_nc_u32_e32 v1, v1, v2
    v_lshlrev_b32_e32 v6, 2, v5
    v_add_f32_e32 v4, v4, v3
    v_msad_u8 v2, v6, v1, v2
    v_add_nc_u32_e32 v1, v1, v2
    s_sub_u32 s10, s10, 1
    s_cmp_lg_u32 s10, 0
    s_cbranch_scc1 loop
    v_lshlrev_b32_e32 v6, 2, v5
    global_store_b32 v6, v1, s[8:9]
    s_endpgm
