/* Elementwise kernels over contiguous fp32 arrays, split over the OpenMP threads. */
#include <math.h>

void relu_m128n768(const float *restrict X, float *restrict Y) {
#pragma omp parallel for simd schedule(static)
    for (int i = 0; i < 128 * 768; ++i)
        Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}

void gelu_tanh_m128n768(const float *restrict X, float *restrict Y) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 128 * 768; ++i) {
        const float x = X[i];
        Y[i] = 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
    }
}

/* Y[m, n] = X[m, n] + b[n] */
void add_bias_m256n1024(const float *restrict X, const float *restrict b, float *restrict Y) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 256; ++i)
        for (int j = 0; j < 1024; ++j)
            Y[i * 1024 + j] = X[i * 1024 + j] + b[j];
}
