// A 16x16 f16 matrix product on the matrix cores of CDNA 2 and later: one wave of 64 lanes,
// C = A * B, every matrix row-major (A, B: half; C: float). Lane l holds row l%16 of A and
// column l%16 of B in its k block l/16, and gets rows 4*(l/16)..+3 of column l%16 of C.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma16(__global const half *a, __global const half *b, __global float *c) {
  uint l = __builtin_amdgcn_workitem_id_x();
  half4 av, bv;
  for (int t = 0; t < 4; t++) {
    av[t] = a[(l % 16) * 16 + 4 * (l / 16) + t];
    bv[t] = b[(4 * (l / 16) + t) * 16 + l % 16];
  }
  float4v acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, acc, 0, 0, 0);
  for (int t = 0; t < 4; t++)
    c[(4 * (l / 16) + t) * 16 + l % 16] = acc[t];
}
