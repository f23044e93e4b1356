/* The machine's f32 FMA peak, measured: a measuring tool for
 * bench/polyhedral_bench.py, not generated code.
 *
 *     clang-22 -O2 -march=native -fopenmp bench/fma_peak.c -o fma_peak && ./fma_peak
 *
 * Every OpenMP thread runs ACC independent chains of vector FMAs
 * (acc = acc * a + b) on registers only: enough chains to hide the FMA
 * latency on every current x86 core (latency 4-5 cycles x 2 pipes needs
 * 8-10). Both the widest vector the target has (zmm with AVX-512) and
 * 256-bit ymm are measured, since some cores run 512-bit FMAs at half rate
 * or lower clocks; the best of REPEATS runs of each is printed, last line
 * "peak_gflops <value>". */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ACC 12
#define ITERS 100000000L
#define REPEATS 5

typedef float v8f __attribute__((vector_size(32)));
#if defined(__AVX512F__)
typedef float v16f __attribute__((vector_size(64)));
#endif

/* One chain step per accumulator per iteration. The asm barrier keeps the
 * compiler from folding the (constant) multiplier and addend, and the
 * explicit fma builtin from splitting the FMA into a multiply and an add. */
#define KERNEL(NAME, VT, LANES)                                                         \
    static double NAME(long iters) {                                                    \
        double total = 0.0;                                                             \
        double start = omp_get_wtime();                                                 \
        _Pragma("omp parallel reduction(+ : total)") {                                  \
            VT acc[ACC];                                                                \
            VT a, b;                                                                    \
            for (int l = 0; l < LANES; ++l) {                                           \
                a[l] = 0.9999999f;                                                      \
                b[l] = 1e-7f;                                                           \
            }                                                                           \
            for (int i = 0; i < ACC; ++i)                                               \
                for (int l = 0; l < LANES; ++l) acc[i][l] = (float)(i + l) * 1e-3f;     \
            __asm__ volatile("" : "+v"(a), "+v"(b));                                    \
            for (long it = 0; it < iters; ++it) {                                       \
                for (int i = 0; i < ACC; ++i) {                                         \
                    acc[i] = __builtin_elementwise_fma(acc[i], a, b);                   \
                }                                                                       \
            }                                                                           \
            float s = 0.0f;                                                             \
            for (int i = 0; i < ACC; ++i)                                               \
                for (int l = 0; l < LANES; ++l) s += acc[i][l];                         \
            total += s;                                                                 \
        }                                                                               \
        double seconds = omp_get_wtime() - start;                                       \
        if (total == 12345.0) printf("(unlikely) %f\n", total); /* keep the result */   \
        return 2.0 * LANES * ACC * (double)iters * omp_get_max_threads() / seconds / 1e9; \
    }

KERNEL(run_ymm, v8f, 8)
#if defined(__AVX512F__)
KERNEL(run_zmm, v16f, 16)
#endif

static double best_of(double (*run)(long), long iters) {
    double best = 0.0;
    for (int r = 0; r < REPEATS; ++r) {
        double g = run(iters);
        if (g > best) best = g;
    }
    return best;
}

int main(int argc, char **argv) {
    long iters = argc > 1 ? atol(argv[1]) : ITERS;
    run_ymm(iters / 10); /* warm up threads and clocks */
    double ymm = best_of(run_ymm, iters);
    double peak = ymm;
    printf("threads %d\n", omp_get_max_threads());
    printf("ymm_gflops %.1f\n", ymm);
#if defined(__AVX512F__)
    double zmm = best_of(run_zmm, iters);
    printf("zmm_gflops %.1f\n", zmm);
    if (zmm > peak) peak = zmm;
#endif
    printf("peak_gflops %.1f\n", peak);
    return 0;
}
