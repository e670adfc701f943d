// A scalar loop with s_cbranch_scc0 and no memory: Fibonacci numbers in SGPRs.
// At the end s4 = F(40) = 102334155, s5 = F(41) = 165580141, s6 = 40.
// GFX12 spelling (s_add_co_u32) of loop_scalar.s.
    s_mov_b32 s4, 0                                 // F(i)
    s_mov_b32 s5, 1                                 // F(i + 1)
    s_mov_b32 s6, 0                                 // i
next:
    s_add_co_u32 s7, s4, s5
    s_mov_b32 s4, s5
    s_mov_b32 s5, s7
    s_add_co_u32 s6, s6, 1
    s_cmp_eq_u32 s6, 40
    s_cbranch_scc0 next
    s_endpgm
