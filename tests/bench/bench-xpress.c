/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-xpress: the core's XPRESS (plain LZ77) decoder against libfwnt on
 * every compressed buffer of a real trace.
 *
 *   bench-xpress [FILE] [ITERATIONS]
 *
 * Default FILE is ../shared/etl-corpus/net.4.5.2.x64.etl.  One iteration
 * decodes all its compressed buffers once; the figure is MB/s of
 * decompressed output (10^6 bytes a second of process CPU time, wall time
 * where that is unavailable) for the median iteration.  Both
 * decoders get their inputs and output buffers prepared beforehand (libfwnt's
 * padded, as it needs), so only decoding is timed.  Prints
 * "BENCH <name> <value> <unit>" lines and a Markdown table.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-util.h"
#include "etl-xpress.h"
#include "xpress-test-util.h"
#include "etl-test-util.h"

/* Microseconds of CPU time used by this (single-threaded) process where
 * available: steadier than wall time on a shared, loaded machine. */
static gint64
now_us (void)
{
#if defined(G_OS_UNIX) && defined(CLOCK_PROCESS_CPUTIME_ID)
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#endif
  return g_get_monotonic_time ();
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, bench_compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *default_path = g_build_filename (dir ? dir : "../shared/etl-corpus", "net.4.5.2.x64.etl", NULL);
  const char *path = argc > 1 ? argv[1] : default_path;
  int iterations = argc > 2 ? atoi (argv[2]) : 15;
  g_autofree char *contents = NULL;
  g_autoptr (GArray) buffers = NULL;
  g_autofree double *own_ms = NULL;
  gsize size = 0, total_out = 0, max_out = 0;
  g_autofree guint8 *out = NULL;
  double own_mbs;

  if (!g_file_get_contents (path, &contents, &size, NULL))
    return etl_test_bench_missing (path);
  if (iterations < 1)
    iterations = 1;
  buffers = xpress_test_compressed_buffers ((const guint8 *) contents, size);
  if (buffers->len == 0)
    {
      printf ("SKIP %s has no compressed buffers\n", path);
      return 77;
    }
  for (guint i = 0; i < buffers->len; i++)
    {
      const XpressTestBuffer *b = &g_array_index (buffers, XpressTestBuffer, i);

      total_out += b->out_len;
      max_out = MAX (max_out, b->out_len);
    }
  out = g_malloc (max_out + 16);
  own_ms = g_new (double, iterations);
#if HAVE_LIBFWNT
  g_autofree double *fwnt_ms = g_new (double, iterations);
  g_autoptr (GPtrArray) padded = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint8 *fwnt_out = g_malloc (max_out + XPRESS_TEST_FWNT_PADDING);

  for (guint i = 0; i < buffers->len; i++)
    {
      const XpressTestBuffer *b = &g_array_index (buffers, XpressTestBuffer, i);
      guint8 *p = g_malloc0 (b->in_len + XPRESS_TEST_FWNT_PADDING);

      memcpy (p, b->in, b->in_len);
      g_ptr_array_add (padded, p);
    }
#endif

  /* The two decoders alternate, one whole pass each, so that load from
   * other processes on the shared machine falls on both alike. */
  for (int it = -1; it < iterations; it++)
    {
      gint64 t0 = now_us ();

      for (guint i = 0; i < buffers->len; i++)
        {
          const XpressTestBuffer *b = &g_array_index (buffers, XpressTestBuffer, i);
          gsize produced;

          if (etl_xpress_lz77_decode (b->in, b->in_len, out, b->out_len, &produced, NULL) != ETL_XPRESS_OK
              || produced != b->out_len)
            {
              fprintf (stderr, "bench-xpress: buffer at %" G_GUINT64_FORMAT " does not decode\n", b->file_offset);
              return 1;
            }
        }
      if (it >= 0)
        own_ms[it] = (double) (now_us () - t0) / 1000.0;

#if HAVE_LIBFWNT
      t0 = now_us ();
      for (guint i = 0; i < buffers->len; i++)
        {
          const XpressTestBuffer *b = &g_array_index (buffers, XpressTestBuffer, i);
          size_t produced = b->out_len;
          libfwnt_error_t *error = NULL;

          if (libfwnt_lzxpress_decompress (g_ptr_array_index (padded, i), b->in_len, fwnt_out, &produced, &error) != 1
              || produced != b->out_len)
            {
              fprintf (stderr, "bench-xpress: libfwnt fails on the buffer at %" G_GUINT64_FORMAT "\n", b->file_offset);
              return 1;
            }
        }
      if (it >= 0)
        fwnt_ms[it] = (double) (now_us () - t0) / 1000.0;
#endif
    }
  own_mbs = (double) total_out / 1e6 / (median (own_ms, iterations) / 1000.0);

  printf ("# %s: %u compressed buffers, %" G_GSIZE_FORMAT " bytes decompressed, median of %d\n",
          path, buffers->len, total_out, iterations);
  printf ("BENCH xpress_own %.1f MB/s\n", own_mbs);

#if HAVE_LIBFWNT
  {
    double fwnt_mbs = (double) total_out / 1e6 / (median (fwnt_ms, iterations) / 1000.0);
    double own_best = (double) total_out / 1e6 / (own_ms[0] / 1000.0);
    double fwnt_best = (double) total_out / 1e6 / (fwnt_ms[0] / 1000.0);

    printf ("BENCH xpress_libfwnt %.1f MB/s\n", fwnt_mbs);
    printf ("BENCH xpress_speedup %.2f x\n", own_mbs / fwnt_mbs);
    printf ("\n| decoder | MB/s median | MB/s best |\n|---|---|---|\n"
            "| etl_xpress_lz77_decode | %.1f | %.1f |\n"
            "| libfwnt_lzxpress_decompress | %.1f | %.1f |\n| ratio | %.2f× | %.2f× |\n",
            own_mbs, own_best, fwnt_mbs, fwnt_best, own_mbs / fwnt_mbs, own_best / fwnt_best);
  }
#else
  printf ("# libfwnt not found at build time: no comparison\n");
#endif
  return 0;
}
