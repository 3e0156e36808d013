/* Row-wise kernels (softmax, layer norm): one row per iteration, rows split over the OpenMP
   threads; each row is read twice, from cache the second time. */
#include <math.h>

void softmax_m256n512(const float *restrict X, float *restrict Y) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 256; ++i) {
        const float *x = X + i * 512;
        float *y = Y + i * 512;
        float m = x[0];
        for (int j = 1; j < 512; ++j)
            m = fmaxf(m, x[j]);
        float s = 0.0f;
        for (int j = 0; j < 512; ++j) {
            y[j] = expf(x[j] - m);
            s += y[j];
        }
        const float inv = 1.0f / s;
        for (int j = 0; j < 512; ++j)
            y[j] *= inv;
    }
}

/* Y = (X - mean) / sqrt(var + 1e-5) * gamma + beta over rows of 768 */
void layer_norm_m128n768(const float *restrict X, const float *restrict gamma, const float *restrict beta,
                         float *restrict Y) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 128; ++i) {
        const float *x = X + i * 768;
        float *y = Y + i * 768;
        float s = 0.0f;
        for (int j = 0; j < 768; ++j)
            s += x[j];
        const float mean = s / 768.0f;
        float q = 0.0f;
        for (int j = 0; j < 768; ++j)
            q += (x[j] - mean) * (x[j] - mean);
        const float rstd = 1.0f / sqrtf(q / 768.0f + 1e-5f);
        for (int j = 0; j < 768; ++j)
            y[j] = (x[j] - mean) * rstd * gamma[j] + beta[j];
    }
}
