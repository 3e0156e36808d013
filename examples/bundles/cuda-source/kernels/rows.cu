// Row-wise kernels over a row-major [M, N] matrix, in two shapes:
// * warp per row (many short rows): 8 rows per 256-thread block, grid = ceil(M / 8); each lane
//   strides the row by 32 (coalesced), the warp combines with shuffles, and the row is re-read
//   from L1/L2 rather than staged;
// * block per row (few long rows, where a warp per row leaves most SMs idle): grid = M, block =
//   THREADS; each thread keeps its N / THREADS elements in registers, so the row is read from
//   memory once, and warps combine through shared memory.

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

#define ROW_SETUP(M)                                               \
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;    \
  const int lane = threadIdx.x & 31;                               \
  if (row >= (M)) return;

template <int M, int N>
__device__ __forceinline__ void softmax_row(const float* __restrict__ X, float* __restrict__ Y) {
  ROW_SETUP(M)
  const float* x = X + (size_t)row * N;
  float* y = Y + (size_t)row * N;
  float m = x[0];
  for (int j = lane; j < N; j += 32) m = fmaxf(m, x[j]);
  m = warp_max(m);
  float s = 0.f;
  for (int j = lane; j < N; j += 32) s += expf(x[j] - m);
  const float inv = 1.f / warp_sum(s);
  for (int j = lane; j < N; j += 32) y[j] = expf(x[j] - m) * inv;
}

extern "C" __global__ void softmax_m1536n128(const float* __restrict__ X, float* __restrict__ Y) {
  softmax_row<1536, 128>(X, Y);
}
extern "C" __global__ void softmax_m256n512(const float* __restrict__ X, float* __restrict__ Y) {
  softmax_row<256, 512>(X, Y);
}
extern "C" __global__ void softmax_m32n1000(const float* __restrict__ X, float* __restrict__ Y) {
  softmax_row<32, 1000>(X, Y);
}

// layer norm with an optional residual (Y = LN(X + R)); two passes for the variance, which
// keeps fp32 error far below the tolerance
template <int M, int N, bool RESIDUAL>
__device__ __forceinline__ void layer_norm_row(const float* __restrict__ X, const float* __restrict__ R,
                                               const float* __restrict__ gamma,
                                               const float* __restrict__ beta, float* __restrict__ Y) {
  ROW_SETUP(M)
  const float* x = X + (size_t)row * N;
  const float* r = RESIDUAL ? R + (size_t)row * N : nullptr;
  float* y = Y + (size_t)row * N;
  float s = 0.f;
  for (int j = lane; j < N; j += 32) s += RESIDUAL ? x[j] + r[j] : x[j];
  const float mean = warp_sum(s) / N;
  float v = 0.f;
  for (int j = lane; j < N; j += 32) {
    const float d = (RESIDUAL ? x[j] + r[j] : x[j]) - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(warp_sum(v) / N + 1e-5f);
  for (int j = lane; j < N; j += 32)
    y[j] = ((RESIDUAL ? x[j] + r[j] : x[j]) - mean) * rstd * gamma[j] + beta[j];
}

extern "C" __global__ void layer_norm_m128n768(const float* __restrict__ X, const float* __restrict__ gamma,
                                               const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_row<128, 768, false>(X, nullptr, gamma, beta, Y);
}
extern "C" __global__ void layer_norm_m196n384(const float* __restrict__ X, const float* __restrict__ gamma,
                                               const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_row<196, 384, false>(X, nullptr, gamma, beta, Y);
}
extern "C" __global__ void layer_norm_m64n256(const float* __restrict__ X, const float* __restrict__ gamma,
                                              const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_row<64, 256, false>(X, nullptr, gamma, beta, Y);
}
extern "C" __global__ void residual_layer_norm_m128n768(const float* __restrict__ X, const float* __restrict__ R,
                                                        const float* __restrict__ gamma,
                                                        const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_row<128, 768, true>(X, R, gamma, beta, Y);
}
extern "C" __global__ void residual_layer_norm_m196n384(const float* __restrict__ X, const float* __restrict__ R,
                                                        const float* __restrict__ gamma,
                                                        const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_row<196, 384, true>(X, R, gamma, beta, Y);
}

template <int M, int N>
__device__ __forceinline__ void rms_norm_row(const float* __restrict__ X, const float* __restrict__ gamma,
                                             float* __restrict__ Y) {
  ROW_SETUP(M)
  const float* x = X + (size_t)row * N;
  float* y = Y + (size_t)row * N;
  float s = 0.f;
  for (int j = lane; j < N; j += 32) s += x[j] * x[j];
  const float scale = rsqrtf(warp_sum(s) / N + 1e-5f);
  for (int j = lane; j < N; j += 32) y[j] = x[j] * scale * gamma[j];
}

extern "C" __global__ void rms_norm_m128n576(const float* __restrict__ X, const float* __restrict__ gamma,
                                             float* __restrict__ Y) {
  rms_norm_row<128, 576>(X, gamma, Y);
}
extern "C" __global__ void rms_norm_m32n2048(const float* __restrict__ X, const float* __restrict__ gamma,
                                             float* __restrict__ Y) {
  rms_norm_row<32, 2048>(X, gamma, Y);
}

// row reductions Y[m] = sum_n X[m, n] / max_n X[m, n]
template <int M, int N, bool MAX>
__device__ __forceinline__ void reduce_row(const float* __restrict__ X, float* __restrict__ Y) {
  ROW_SETUP(M)
  const float* x = X + (size_t)row * N;
  float a = MAX ? x[0] : 0.f;
  for (int j = lane; j < N; j += 32) a = MAX ? fmaxf(a, x[j]) : a + x[j];
  a = MAX ? warp_max(a) : warp_sum(a);
  if (lane == 0) Y[row] = a;
}

extern "C" __global__ void sum_m512n1024(const float* __restrict__ X, float* __restrict__ Y) {
  reduce_row<512, 1024, false>(X, Y);
}
extern "C" __global__ void sum_m128n2048(const float* __restrict__ X, float* __restrict__ Y) {
  reduce_row<128, 2048, false>(X, Y);
}
extern "C" __global__ void max_m512n1024(const float* __restrict__ X, float* __restrict__ Y) {
  reduce_row<512, 1024, true>(X, Y);
}
extern "C" __global__ void max_m128n2048(const float* __restrict__ X, float* __restrict__ Y) {
  reduce_row<128, 2048, true>(X, Y);
}

// y = A x: one warp per row of A, 16-byte loads (K is a multiple of 128)
template <int M, int K>
__device__ __forceinline__ void gemv_row(const float* __restrict__ A, const float* __restrict__ x,
                                         float* __restrict__ y) {
  ROW_SETUP(M)
  const float4* a = reinterpret_cast<const float4*>(A + (size_t)row * K);
  const float4* v = reinterpret_cast<const float4*>(x);
  float s = 0.f;
#pragma unroll 4
  for (int i = lane; i < K / 4; i += 32) {
    const float4 p = a[i], q = v[i];
    s += p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
  }
  s = warp_sum(s);
  if (lane == 0) y[row] = s;
}

extern "C" __global__ void gemv_m1024k1024(const float* __restrict__ A, const float* __restrict__ x,
                                           float* __restrict__ y) {
  gemv_row<1024, 1024>(A, x, y);
}
extern "C" __global__ void gemv_m3072k768(const float* __restrict__ A, const float* __restrict__ x,
                                          float* __restrict__ y) {
  gemv_row<3072, 768>(A, x, y);
}

// --- block per row ---------------------------------------------------------------------------

#define NEG_HUGE (-3.402823466e38f)

// the sum (or max) over the block, returned to every thread; smem holds one slot per warp
template <int THREADS, bool MAX>
__device__ __forceinline__ float block_reduce(float v, float* smem) {
  v = MAX ? warp_max(v) : warp_sum(v);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  v = lane < THREADS / 32 ? smem[lane] : (MAX ? NEG_HUGE : 0.f);
  v = MAX ? warp_max(v) : warp_sum(v);
  __syncthreads();  // smem may be reused by the next reduction
  return v;
}

template <int N, int THREADS>
__device__ __forceinline__ void softmax_block(const float* __restrict__ X, float* __restrict__ Y) {
  constexpr int PER = (N + THREADS - 1) / THREADS;
  __shared__ float smem[THREADS / 32];
  const float* x = X + (size_t)blockIdx.x * N;
  float* y = Y + (size_t)blockIdx.x * N;
  float v[PER];
  float m = NEG_HUGE;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    v[i] = j < N ? x[j] : NEG_HUGE;
    m = fmaxf(m, v[i]);
  }
  m = block_reduce<THREADS, true>(m, smem);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    v[i] = j < N ? expf(v[i] - m) : 0.f;
    s += v[i];
  }
  const float inv = 1.f / block_reduce<THREADS, false>(s, smem);
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    if (j < N) y[j] = v[i] * inv;
  }
}

// grid M, block 128
extern "C" __global__ void __launch_bounds__(128)
softmax_m256n512_block(const float* __restrict__ X, float* __restrict__ Y) {
  softmax_block<512, 128>(X, Y);
}
// grid M, block 256
extern "C" __global__ void __launch_bounds__(256)
softmax_m32n1000_block(const float* __restrict__ X, float* __restrict__ Y) {
  softmax_block<1000, 256>(X, Y);
}

template <int N, int THREADS, bool RESIDUAL>
__device__ __forceinline__ void layer_norm_block(const float* __restrict__ X, const float* __restrict__ R,
                                                 const float* __restrict__ gamma,
                                                 const float* __restrict__ beta, float* __restrict__ Y) {
  constexpr int PER = (N + THREADS - 1) / THREADS;
  __shared__ float smem[THREADS / 32];
  const size_t base = (size_t)blockIdx.x * N;
  float v[PER];
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    v[i] = j < N ? (RESIDUAL ? X[base + j] + R[base + j] : X[base + j]) : 0.f;
    s += v[i];
  }
  const float mean = block_reduce<THREADS, false>(s, smem) / N;
  float q = 0.f;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    const float d = j < N ? v[i] - mean : 0.f;
    q += d * d;
  }
  const float rstd = rsqrtf(block_reduce<THREADS, false>(q, smem) / N + 1e-5f);
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    if (j < N) Y[base + j] = (v[i] - mean) * rstd * gamma[j] + beta[j];
  }
}

// grid M, block 256
extern "C" __global__ void __launch_bounds__(256)
layer_norm_m128n768_block(const float* __restrict__ X, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_block<768, 256, false>(X, nullptr, gamma, beta, Y);
}
// grid M, block 128
extern "C" __global__ void __launch_bounds__(128)
layer_norm_m196n384_block(const float* __restrict__ X, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_block<384, 128, false>(X, nullptr, gamma, beta, Y);
}
// grid M, block 128
extern "C" __global__ void __launch_bounds__(128)
layer_norm_m64n256_block(const float* __restrict__ X, const float* __restrict__ gamma,
                         const float* __restrict__ beta, float* __restrict__ Y) {
  layer_norm_block<256, 128, false>(X, nullptr, gamma, beta, Y);
}
// grid M, block 256
extern "C" __global__ void __launch_bounds__(256)
residual_layer_norm_m128n768_block(const float* __restrict__ X, const float* __restrict__ R,
                                   const float* __restrict__ gamma, const float* __restrict__ beta,
                                   float* __restrict__ Y) {
  layer_norm_block<768, 256, true>(X, R, gamma, beta, Y);
}
// grid M, block 128
extern "C" __global__ void __launch_bounds__(128)
residual_layer_norm_m196n384_block(const float* __restrict__ X, const float* __restrict__ R,
                                   const float* __restrict__ gamma, const float* __restrict__ beta,
                                   float* __restrict__ Y) {
  layer_norm_block<384, 128, true>(X, R, gamma, beta, Y);
}

template <int N, int THREADS>
__device__ __forceinline__ void rms_norm_block(const float* __restrict__ X, const float* __restrict__ gamma,
                                               float* __restrict__ Y) {
  constexpr int PER = (N + THREADS - 1) / THREADS;
  __shared__ float smem[THREADS / 32];
  const size_t base = (size_t)blockIdx.x * N;
  float v[PER];
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    v[i] = j < N ? X[base + j] : 0.f;
    s += v[i] * v[i];
  }
  const float scale = rsqrtf(block_reduce<THREADS, false>(s, smem) / N + 1e-5f);
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int j = threadIdx.x + i * THREADS;
    if (j < N) Y[base + j] = v[i] * scale * gamma[j];
  }
}

// grid M, block 192
extern "C" __global__ void __launch_bounds__(192)
rms_norm_m128n576_block(const float* __restrict__ X, const float* __restrict__ gamma, float* __restrict__ Y) {
  rms_norm_block<576, 192>(X, gamma, Y);
}
// grid M, block 512
extern "C" __global__ void __launch_bounds__(512)
rms_norm_m32n2048_block(const float* __restrict__ X, const float* __restrict__ gamma, float* __restrict__ Y) {
  rms_norm_block<2048, 512>(X, gamma, Y);
}

template <int N, int THREADS, bool MAX>
__device__ __forceinline__ void reduce_block(const float* __restrict__ X, float* __restrict__ Y) {
  __shared__ float smem[THREADS / 32];
  const float* x = X + (size_t)blockIdx.x * N;
  float a = MAX ? NEG_HUGE : 0.f;
  for (int j = threadIdx.x; j < N; j += THREADS) a = MAX ? fmaxf(a, x[j]) : a + x[j];
  a = block_reduce<THREADS, MAX>(a, smem);
  if (threadIdx.x == 0) Y[blockIdx.x] = a;
}

// grid M, block 256
extern "C" __global__ void __launch_bounds__(256) sum_m128n2048_block(const float* __restrict__ X,
                                                                      float* __restrict__ Y) {
  reduce_block<2048, 256, false>(X, Y);
}
extern "C" __global__ void __launch_bounds__(256) max_m128n2048_block(const float* __restrict__ X,
                                                                      float* __restrict__ Y) {
  reduce_block<2048, 256, true>(X, Y);
}
extern "C" __global__ void __launch_bounds__(256) sum_m512n1024_block(const float* __restrict__ X,
                                                                      float* __restrict__ Y) {
  reduce_block<1024, 256, false>(X, Y);
}
extern "C" __global__ void __launch_bounds__(256) max_m512n1024_block(const float* __restrict__ X,
                                                                      float* __restrict__ Y) {
  reduce_block<1024, 256, true>(X, Y);
}
