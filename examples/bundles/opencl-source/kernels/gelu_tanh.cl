/* GELU (tanh approximation) over a [128, 768] float32 tensor, four elements per work-item. */
__kernel void gelu_tanh(__global const float4* X, __global float4* Y) {
  const size_t i = get_global_id(0);
  const float4 x = X[i];
  Y[i] = 0.5f * x * (1.0f + tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}
