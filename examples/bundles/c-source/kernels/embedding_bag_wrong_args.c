/* Deliberately broken (see the bundle's description): this function takes (table, idx, out),
   but the manifest's launch 'args' list ["idx", "table", ...], so the signature the harness
   derives is (const int32_t*, const float*, float*) and the build fails with a type conflict. */
#include <stdint.h>

void embedding_bag(const float *restrict table, const int32_t *restrict idx, float *restrict out) {
    for (int b = 0; b < 32; ++b)
        for (int d = 0; d < 64; ++d) {
            float s = 0.0f;
            for (int l = 0; l < 20; ++l)
                s += table[(long)idx[b * 20 + l] * 64 + d];
            out[b * 64 + d] = s;
        }
}
