/* A linear layer compiled AOT with its weight static (`--static-args=1
 * -aot-user-memory`): the weight is packed into the caller's memory on the
 * first call and kept; the caller zeroes the prepared flag when the weight
 * changes. Exits 0 when every call matches a plain C product as the
 * header's contract says, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linear.h"

enum { M = 40, K = 96, N = 70 };

static void reference(const float *x, const float *w, float *y) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double sum = 0;
      for (int k = 0; k < K; k++) sum += (double)x[i * K + k] * w[k * N + j];
      y[i * N + j] = (float)sum;
    }
}

static int close_to(const float *a, const float *b) {
  for (int i = 0; i < M * N; i++)
    if (fabsf(a[i] - b[i]) > 1e-3f * (1.0f + fabsf(b[i]))) return 0;
  return 1;
}

int main(void) {
  static float x[M * K], w[K * N], y[M * N], first[M * N], second[M * N];
  for (int i = 0; i < M * K; i++) x[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int i = 0; i < K * N; i++) w[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  int8_t *pool = aligned_alloc(64, (LINEAR_POOL_BYTES + 63) / 64 * 64);
  memset(pool + LINEAR_PREPARED_FLAG_OFFSET, 0, 4);
  reference(x, w, first);
  linear(x, w, y, pool);
  if (!close_to(y, first)) return printf("first call: wrong result\n"), 1;
  for (int i = 0; i < K * N; i++) w[i] = -2.0f * w[i] + 0.25f;
  reference(x, w, second);
  /* Not announced: the packed copy of the old weight is still used. */
  linear(x, w, y, pool);
  if (!close_to(y, first)) return printf("unannounced change: the weight was not kept\n"), 1;
  /* Announced: packed again. */
  memset(pool + LINEAR_PREPARED_FLAG_OFFSET, 0, 4);
  linear(x, w, y, pool);
  if (!close_to(y, second)) return printf("announced change: wrong result\n"), 1;
  linear(x, w, y, pool);
  if (!close_to(y, second)) return printf("later call: wrong result\n"), 1;
  free(pool);
  return 0;
}
