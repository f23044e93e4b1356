/* The machine's streaming memory bandwidth, measured: a measuring tool for
 * bench/stencil_bench.py, not generated code.
 *
 *     clang-22 -O2 -march=native -fopenmp bench/stream_bandwidth.c -o stream && ./stream
 *
 * STREAM's "scale" kernel (b[i] = s * a[i]) over arrays far larger than the
 * last-level cache, on every OpenMP thread (static schedule, each thread
 * first touching the part it later streams). Bandwidth counts the bytes an
 * image pipeline's memory floor counts: one read of `a` plus one write of
 * `b` per element, so (input + output bytes) / bandwidth is the time a
 * pipeline that reads its input once and writes its output once cannot
 * beat with ordinary stores. Two variants:
 *
 * - `copy_gbs`: ordinary stores (the line is read before it is written, so
 *   the memory system moves about 3 bytes per 2 counted);
 * - `nt_copy_gbs`: non-temporal (streaming) stores, which skip that read
 *   where the target has them (AVX's vmovntps), else the same as above.
 *
 * The best of REPEATS runs of each is printed as "name value" lines. */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__AVX__)
#include <immintrin.h>
#endif

#define ELEMENTS (64L * 1024 * 1024) /* 256 MiB per array */
#define REPEATS 7

static void scale(const float *a, float *b, long n, float s) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
        b[i] = s * a[i];
}

static void scale_nt(const float *a, float *b, long n, float s) {
#if defined(__AVX__)
    __m256 factor = _mm256_set1_ps(s);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i += 8)
        _mm256_stream_ps(b + i, _mm256_mul_ps(factor, _mm256_load_ps(a + i)));
    _mm_sfence();
#else
    scale(a, b, n, s);
#endif
}

static double best_gbs(void (*kernel)(const float *, float *, long, float), const float *a, float *b) {
    double best = 0.0;
    for (int r = 0; r < REPEATS; ++r) {
        double start = omp_get_wtime();
        kernel(a, b, ELEMENTS, 1.0f + r * 1e-7f);
        double seconds = omp_get_wtime() - start;
        double gbs = 2.0 * sizeof(float) * ELEMENTS / seconds / 1e9;
        if (gbs > best)
            best = gbs;
    }
    return best;
}

int main(void) {
    float *a = aligned_alloc(64, ELEMENTS * sizeof(float));
    float *b = aligned_alloc(64, ELEMENTS * sizeof(float));
    if (!a || !b) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    /* First touch by the thread that streams each part later. */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < ELEMENTS; ++i) {
        a[i] = (float)(i & 1023);
        b[i] = 0.0f;
    }
    printf("threads %d\n", omp_get_max_threads());
    printf("copy_gbs %.1f\n", best_gbs(scale, a, b));
    printf("nt_copy_gbs %.1f\n", best_gbs(scale_nt, a, b));
    /* Keeps the stores observable. */
    double check = 0.0;
    for (long i = 0; i < ELEMENTS; i += 4099)
        check += b[i];
    printf("checksum %.0f\n", check);
    free(a);
    free(b);
    return 0;
}
