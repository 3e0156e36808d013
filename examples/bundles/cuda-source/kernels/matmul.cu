// Dense and batched matmul, C = A B (row-major): 32x32 output tiles, 256 threads, each thread a
// 2x2 register block strided by 16 so that shared-memory reads and the stores stay coalesced.
// K-tiles of 32 staged in shared memory; A's tile is stored transposed, padded against bank
// conflicts. Sizes are template parameters: every shape gets its own fully unrolled kernel.
#define TILE 32

template <int M, int N, int K>
__device__ __forceinline__ void mm_tile(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C) {
  __shared__ float As[TILE][TILE + 1];  // As[k][m]
  __shared__ float Bs[TILE][TILE];      // Bs[k][n]
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float acc00 = 0.f, acc01 = 0.f, acc10 = 0.f, acc11 = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
#pragma unroll
    for (int i = threadIdx.x; i < TILE * TILE; i += 256) {
      const int r = i / TILE, c = i % TILE;
      As[c][r] = A[(row0 + r) * K + k0 + c];
      Bs[r][c] = B[(k0 + r) * N + col0 + c];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk) {
      const float a0 = As[kk][ty], a1 = As[kk][ty + 16];
      const float b0 = Bs[kk][tx], b1 = Bs[kk][tx + 16];
      acc00 += a0 * b0;
      acc01 += a0 * b1;
      acc10 += a1 * b0;
      acc11 += a1 * b1;
    }
    __syncthreads();
  }
  C[(row0 + ty) * N + col0 + tx] = acc00;
  C[(row0 + ty) * N + col0 + tx + 16] = acc01;
  C[(row0 + ty + 16) * N + col0 + tx] = acc10;
  C[(row0 + ty + 16) * N + col0 + tx + 16] = acc11;
}

// grid (N/32, M/32), block 256
extern "C" __global__ void __launch_bounds__(256)
matmul_m256n256k256(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  mm_tile<256, 256, 256>(A, B, C);
}

extern "C" __global__ void __launch_bounds__(256)
matmul_m128n512k128(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  mm_tile<128, 512, 128>(A, B, C);
}

// grid (N/32, M/32, batch), block 256
extern "C" __global__ void __launch_bounds__(256)
batch_matmul_b12m128n128k64(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  const int b = blockIdx.z;
  mm_tile<128, 128, 64>(A + b * 128 * 64, B + b * 64 * 128, C + b * 128 * 128);
}
