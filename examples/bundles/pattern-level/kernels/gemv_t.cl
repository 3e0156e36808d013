/* y = A^T x for any shape of gemv/gemv-t (A is k x m, row-major): one work-item per output; the
   sizes arrive as longs after the tensors ("shape_args": m, k) and the launch rounds m up to
   whole work-groups ("global": ["ceil_div(m, 64) * 64"]). Neighbouring work-items read
   neighbouring columns of a row, so the loads coalesce. */
__kernel void gemv_t(__global const float *A, __global const float *x, __global float *y, long m, long k) {
    long j = get_global_id(0);
    if (j >= m) return;
    float acc = 0.0f;
    for (long p = 0; p < k; ++p) acc += A[p * m + j] * x[p];
    y[j] = acc;
}
