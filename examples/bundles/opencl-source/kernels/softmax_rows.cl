/* Row softmax of a [256, 512] float32 matrix: one 128-wide work-group per row. The row's
   maximum and the sum of exponentials are tree-reduced in local memory; exp is taken twice
   (for the sum, then for the output) rather than kept, since a row is only 512 values. */
#define N 512
#define WG 128

__kernel void softmax(__global const float* X, __global float* Y) {
  const int lid = get_local_id(0);
  __global const float* x = X + get_group_id(0) * N;
  __global float* y = Y + get_group_id(0) * N;
  __local float part[WG];

  float m = -INFINITY;
  for (int j = lid; j < N; j += WG) m = fmax(m, x[j]);
  part[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] = fmax(part[lid], part[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);

  float sum = 0.0f;
  for (int j = lid; j < N; j += WG) sum += exp(x[j] - m);
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float total = part[0];

  for (int j = lid; j < N; j += WG) y[j] = exp(x[j] - m) / total;
}
