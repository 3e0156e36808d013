/* Dense matmul C = A B (row-major, fp32). Rows are split over the OpenMP threads in blocks of
   four; each block accumulates four rows of C in a local buffer while walking k, and the
   innermost loop runs along a contiguous row of B, which the compiler vectorises. */
#include <string.h>

#define ROWS 4

static inline void matmul_rows(const float *restrict A, const float *restrict B, float *restrict C,
                               int n, int k_len, int i0) {
    float acc[ROWS][512];  /* n <= 512 for the shapes below */
    memset(acc, 0, sizeof(float) * ROWS * 512);
    for (int k = 0; k < k_len; ++k) {
        const float *b = B + (long)k * n;
        for (int r = 0; r < ROWS; ++r) {
            const float a = A[(long)(i0 + r) * k_len + k];
            for (int j = 0; j < n; ++j)
                acc[r][j] += a * b[j];
        }
    }
    for (int r = 0; r < ROWS; ++r)
        memcpy(C + (long)(i0 + r) * n, acc[r], sizeof(float) * n);
}

void matmul_m256n256k256(const float *restrict A, const float *restrict B, float *restrict C) {
#pragma omp parallel for schedule(static)
    for (int i0 = 0; i0 < 256; i0 += ROWS)
        matmul_rows(A, B, C, 256, 256, i0);
}

void matmul_m128n512k128(const float *restrict A, const float *restrict B, float *restrict C) {
#pragma omp parallel for schedule(static)
    for (int i0 = 0; i0 < 128; i0 += ROWS)
        matmul_rows(A, B, C, 512, 128, i0);
}
