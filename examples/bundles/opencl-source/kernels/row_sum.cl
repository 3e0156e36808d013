/* Sum over the last axis of a [512, 1024] float32 matrix: one 256-wide work-group per row, each
   work-item adds four strided values, then a tree reduction in local memory. */
#define N 1024
#define WG 256

__kernel void row_sum(__global const float* X, __global float* out) {
  const int lid = get_local_id(0);
  __global const float* x = X + get_group_id(0) * N;
  __local float part[WG];
  float s = 0.0f;
  for (int j = lid; j < N; j += WG) s += x[j];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = WG / 2; w > 0; w >>= 1) {
    if (lid < w) part[lid] += part[lid + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = part[0];
}
