/* y = A^T x for any shape of gemv/gemv-t (A is k x m, row-major): the sizes arrive as the
   int64_t arguments named in the entry's "shape_args" (m, k), after the tensors. Each thread
   owns a band of outputs and walks A row by row, so every load is contiguous and vectorises. */
#include <stdint.h>

void gemv_t(const float *restrict A, const float *restrict x, float *restrict y, int64_t m, int64_t k) {
    #pragma omp parallel
    {
        #pragma omp for schedule(static)
        for (int64_t j = 0; j < m; ++j) y[j] = 0.0f;
        #pragma omp for schedule(static)
        for (int64_t j0 = 0; j0 < m; j0 += 64) {
            int64_t j1 = j0 + 64 < m ? j0 + 64 : m;
            for (int64_t p = 0; p < k; ++p) {
                const float xp = x[p];
                const float *row = A + p * m;
                for (int64_t j = j0; j < j1; ++j) y[j] += row[j] * xp;
            }
        }
    }
}
