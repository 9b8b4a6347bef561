/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-decode: decoding the fields of every record of a real trace.
 *
 *   bench-decode [FILE] [ITERATIONS]
 *
 * Default FILE is ../shared/etl-corpus/net.4.5.2.x64.etl.  The records are
 * read once beforehand (etl_trace_get_record(), buffers decompressed), so
 * the figure is etl_decode_record() alone: schema lookup, the walk over the
 * user data, formatting and freeing.  A second figure adds the record's
 * process (etl_trace_get_record_process() with the fields already decoded).
 * Wall-clock and CPU time (clock(): the figure to trust on a busy machine).
 * Prints "BENCH <name> <value> <unit>" lines (median of the iterations,
 * warm cache); issue 9's target is ≤ 1 µs a record on average.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "etl-trace.h"
#include "etl-test-util.h"

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *default_path
      = g_build_filename (dir ? dir : "../shared/etl-corpus", "net.4.5.2.x64.etl", NULL);
  const char *path = argc > 1 ? argv[1] : default_path;
  int iterations = argc > 2 ? atoi (argv[2]) : 15;
  const char *paths[] = { path, NULL };
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree double *decode_ns = NULL;
  g_autofree double *process_ns = NULL;
  g_autofree double *cpu_ns = NULL;
  EtlRecord *records;
  guint64 n, n_fields = 0, n_schema = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return etl_test_bench_missing (path);
  if (iterations < 1)
    iterations = 1;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "bench-decode: %s\n", error->message);
      return 1;
    }
  n = etl_trace_get_n_records (trace);
  records = g_new0 (EtlRecord, MAX (n, 1));
  for (guint64 i = 0; i < n; i++)
    if (!etl_trace_get_record (trace, i, &records[i], NULL))
      memset (&records[i], 0, sizeof records[i]);

  decode_ns = g_new (double, iterations);
  process_ns = g_new (double, iterations);
  cpu_ns = g_new (double, iterations);
  for (int it = -1; it < iterations; it++)
    {
      gint64 t0, t1, t2;
      clock_t c0, c1;
      const EtlProcess *sink = NULL;

      c0 = clock ();
      t0 = g_get_monotonic_time ();
      for (guint64 i = 0; i < n; i++)
        {
          EtlDecoded *d;

          if (records[i].raw == NULL)
            continue;
          d = etl_trace_decode_record (trace, &records[i]);
          if (it < 0)
            {
              n_fields += d->fields->len;
              n_schema += d->schema != NULL;
            }
          etl_decoded_free (d);
        }
      t1 = g_get_monotonic_time ();
      c1 = clock ();
      for (guint64 i = 0; i < n; i++)
        {
          EtlDecoded *d;

          if (records[i].raw == NULL)
            continue;
          d = etl_trace_decode_record (trace, &records[i]);
          sink = etl_trace_get_record_process (trace, &records[i], d);
          etl_decoded_free (d);
        }
      t2 = g_get_monotonic_time ();
      (void)sink;
      if (it < 0)
        continue; /* warm-up: schema caches and allocator */
      decode_ns[it] = (double)(t1 - t0) * 1000.0 / (double)MAX (n, 1);
      cpu_ns[it] = (double)(c1 - c0) * 1e9 / CLOCKS_PER_SEC / (double)MAX (n, 1);
      process_ns[it] = (double)(t2 - t1) * 1000.0 / (double)MAX (n, 1);
    }
  qsort (decode_ns, iterations, sizeof (double), bench_compare_double);
  qsort (process_ns, iterations, sizeof (double), bench_compare_double);
  qsort (cpu_ns, iterations, sizeof (double), bench_compare_double);

  printf ("file: %s (%" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT
          " with a schema, %" G_GUINT64_FORMAT " fields)\n",
          path, n, n_schema, n_fields);
  printf ("| metric | value |\n|---|---|\n");
  printf ("| decode, median per record | %.0f ns |\n| min | %.0f ns |\n| max | %.0f ns |\n",
          decode_ns[iterations / 2], decode_ns[0], decode_ns[iterations - 1]);
  printf ("| decode, CPU time, median per record | %.0f ns |\n", cpu_ns[iterations / 2]);
  printf ("| decode + process, median per record | %.0f ns |\n", process_ns[iterations / 2]);
  printf ("BENCH decode_ns_per_record %.1f ns\n", decode_ns[iterations / 2]);
  printf ("BENCH decode_cpu_ns_per_record %.1f ns\n", cpu_ns[iterations / 2]);
  printf ("BENCH decode_process_ns_per_record %.1f ns\n", process_ns[iterations / 2]);

  for (guint64 i = 0; i < n; i++)
    etl_record_clear (&records[i]);
  g_free (records);
  return 0;
}
