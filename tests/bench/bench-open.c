/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-open: open + decompress + index + merge throughput on a real trace.
 *
 *   bench-open [FILE] [ITERATIONS]
 *
 * Default FILE is ../shared/etl-corpus/net.4.5.2.x64.etl.  Prints
 * "BENCH <name> <value> <unit>" lines (median of the iterations, warm cache),
 * wall-clock and CPU time (clock(); the steadier figure on a shared machine).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-util.h"
#include "etl-trace.h"
#include "etl-test-util.h"

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *default_path = g_build_filename (dir ? dir : "../shared/etl-corpus", "net.4.5.2.x64.etl", NULL);
  const char *path = argc > 1 ? argv[1] : default_path;
  int iterations = argc > 2 ? atoi (argv[2]) : 15;
  const char *paths[] = { path, NULL };
  g_autofree double *ms = NULL;
  g_autofree double *cpu_ms = NULL;
  guint64 records = 0, bytes = 0, uncompressed = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return etl_test_bench_missing (path);
  if (iterations < 1)
    iterations = 1;
  ms = g_new (double, iterations);
  cpu_ms = g_new (double, iterations);

  for (int i = -1; i < iterations; i++)
    {
      g_autoptr (GError) error = NULL;
      clock_t c0 = clock ();
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
      gint64 t1 = g_get_monotonic_time ();
      clock_t c1 = clock ();

      if (trace == NULL)
        {
          fprintf (stderr, "bench-open: %s\n", error->message);
          return 1;
        }
      if (i < 0)
        continue; /* warm-up: page cache and allocator */
      ms[i] = (double) (t1 - t0) / 1000.0;
      cpu_ms[i] = (double) (c1 - c0) * 1000.0 / CLOCKS_PER_SEC;
      records = etl_trace_get_n_records (trace);
      bytes = etl_trace_get_file_info (trace, 0)->file_size;
      uncompressed = etl_trace_get_file_info (trace, 0)->n_buffers;
    }
  qsort (ms, iterations, sizeof (double), bench_compare_double);
  qsort (cpu_ms, iterations, sizeof (double), bench_compare_double);
  {
    double median = ms[iterations / 2];

    printf ("file: %s (%" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " buffers, %" G_GUINT64_FORMAT " records)\n",
            path, bytes, uncompressed, records);
    printf ("| metric | value |\n|---|---|\n");
    printf ("| open+merge median | %.2f ms |\n| min | %.2f ms |\n| max | %.2f ms |\n", median, ms[0], ms[iterations - 1]);
    printf ("| CPU time median | %.2f ms |\n| CPU time min | %.2f ms |\n", cpu_ms[iterations / 2], cpu_ms[0]);
    printf ("BENCH open_merge_ms %.3f ms\n", median);
    printf ("BENCH open_merge_cpu_ms %.3f ms\n", cpu_ms[iterations / 2]);
    printf ("BENCH open_merge_records_per_s %.0f records/s\n", (double) records / (median / 1000.0));
    printf ("BENCH open_merge_mb_per_s %.1f MB/s\n", (double) bytes / 1e6 / (median / 1000.0));
  }
  return 0;
}
