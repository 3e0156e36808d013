/* C = A B for A [256, 256], B [256, 256] (row-major, float32).

   Each 16 x 16 work-group computes a 16 x 64 block of C: the tiles of A and B it needs are
   staged in local memory once per step of k and every work-item keeps four accumulators, one
   per 16-column strip, so each value read from local memory is used four times. */
#define M 256
#define N 256
#define K 256
#define TS 16          /* tile edge: work-group is TS x TS */
#define WPT 4          /* outputs per work-item, TS columns apart */

__kernel void matmul(__global const float* A, __global const float* B, __global float* C) {
  const int lc = get_local_id(0), lr = get_local_id(1);
  const int row = get_group_id(1) * TS + lr;
  const int col0 = get_group_id(0) * TS * WPT + lc;
  __local float As[TS][TS];
  __local float Bs[TS][TS * WPT];
  float acc[WPT] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t = 0; t < K; t += TS) {
    As[lr][lc] = A[row * K + t + lc];
    for (int w = 0; w < WPT; ++w)
      Bs[lr][lc + w * TS] = B[(t + lr) * N + col0 + w * TS];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      const float a = As[lr][k];
      for (int w = 0; w < WPT; ++w)
        acc[w] += a * Bs[k][lc + w * TS];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < WPT; ++w)
    C[row * N + col0 + w * TS] = acc[w];
}
