// Elementwise kernels, four elements (one 16-byte load and store) per thread: grid =
// elements / 4 / 256, block 256. Every workload's element count is a multiple of 1024.

template <typename F>
__device__ __forceinline__ void map4(const float* __restrict__ X, float* __restrict__ Y, int n, F f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i >= n) return;
  float4 v = reinterpret_cast<const float4*>(X)[i];
  v.x = f(v.x);
  v.y = f(v.y);
  v.z = f(v.z);
  v.w = f(v.w);
  reinterpret_cast<float4*>(Y)[i] = v;
}

struct Relu {
  __device__ float operator()(float x) const { return fmaxf(x, 0.f); }
};

struct GeluTanh {
  __device__ float operator()(float x) const {
    return 0.5f * x * (1.f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
  }
};

extern "C" __global__ void relu_n1c64h56w56(const float* __restrict__ X, float* __restrict__ Y) {
  map4(X, Y, 64 * 56 * 56, Relu());
}
extern "C" __global__ void relu_m128n768(const float* __restrict__ X, float* __restrict__ Y) {
  map4(X, Y, 128 * 768, Relu());
}
extern "C" __global__ void gelu_tanh_m128n768(const float* __restrict__ X, float* __restrict__ Y) {
  map4(X, Y, 128 * 768, GeluTanh());
}

// Y[m, n] = X[m, n] + b[n]; N is a multiple of 4, so a float4 never straddles two rows
template <int M, int N>
__device__ __forceinline__ void add_bias4(const float* __restrict__ X, const float* __restrict__ b,
                                          float* __restrict__ Y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i >= M * N) return;
  const float4 x = reinterpret_cast<const float4*>(X)[i];
  const float4 c = reinterpret_cast<const float4*>(b)[i % (N / 4)];
  reinterpret_cast<float4*>(Y)[i] = make_float4(x.x + c.x, x.y + c.y, x.z + c.z, x.w + c.w);
}

extern "C" __global__ void add_bias_m128n768(const float* __restrict__ X, const float* __restrict__ b,
                                             float* __restrict__ Y) {
  add_bias4<128, 768>(X, b, Y);
}
extern "C" __global__ void add_bias_m256n1024(const float* __restrict__ X, const float* __restrict__ b,
                                              float* __restrict__ Y) {
  add_bias4<256, 1024>(X, b, Y);
}
