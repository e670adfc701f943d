// Selects and moves that clang-22 pairs into dual-issue (VOPD) words for gfx1100.
__kernel void vopd_select(__global int *out, int a, int b, int c, int d) {
  int i = __builtin_amdgcn_workitem_id_x();
  int m = i & 1;
  out[i * 4] = m ? a : b;
  out[i * 4 + 1] = m ? c : d;
  out[i * 4 + 2] = (i & 2) ? a : 0x1234;
  out[i * 4 + 3] = (i & 2) ? i : 0x1234;
}

__kernel void vopd_moves(__global float *x, __global float *y, __global int *z, float a, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float xv = x[i];
    float yv = y[i];
    y[i] = xv > yv ? xv : a;
    z[i] = i > 3 ? n : i;
  }
}
