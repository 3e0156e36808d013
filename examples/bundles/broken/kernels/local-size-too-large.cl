/* A correct naive matmul (one output per work-item) for A [256, 256] x B [256, 256]; its launch
   in the manifest asks for the whole 256 x 256 grid as ONE work-group (65536 work-items), which
   no OpenCL device runs: the build is refused with the device's limit. */
__kernel void matmul(__global const float* A, __global const float* B, __global float* C) {
  const int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < 256; ++k) acc += A[row * 256 + k] * B[k * 256 + col];
  C[row * 256 + col] = acc;
}
