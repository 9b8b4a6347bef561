/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-decode: decoding the fields of every record of a real trace.
 *
 *   bench-decode [FILE] [ITERATIONS]
 *
 * Default FILE is ../shared/etl-corpus/net.4.5.2.x64.etl.  The schemas are
 * what the registry holds after the in-trace TDH metadata is registered (the
 * MOF tables and manifests add theirs when they are linked in).  Every
 * record is read once into memory; each iteration then times
 * etl_decode_record() plus etl_decoded_free() over all of them, divided by
 * the record count (records without a schema included), in wall-clock and
 * in CPU time.  Prints
 * "BENCH <name> <value> <unit>" lines (median of the iterations, warm cache).
 * Target (issue 9): ≤ 1 µs a record on average.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "etl-decode.h"
#include "etl-tdh.h"
#include "etl-trace.h"

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : (x > y);
}

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *default_path = g_build_filename (dir ? dir : "../shared/etl-corpus", "net.4.5.2.x64.etl", NULL);
  const char *path = argc > 1 ? argv[1] : default_path;
  int iterations = argc > 2 ? atoi (argv[2]) : 7;
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autofree double *ns = NULL;
  g_autofree double *cpu_ns = NULL;
  guint64 n, n_decoded = 0, n_fields = 0;
  EtlRecord *records;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      printf ("SKIP %s not found\n", path);
      return 77;
    }
  if (iterations < 1)
    iterations = 1;
  ns = g_new (double, iterations);
  cpu_ns = g_new (double, iterations);

  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "bench-decode: %s\n", error->message);
      return 1;
    }
  n = etl_trace_get_n_records (trace);
  registry = etl_schema_registry_new ();
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;

      if (etl_trace_get_record (trace, i, &r, NULL))
        {
          etl_tdh_register_record (registry, &r, NULL);
          etl_record_clear (&r);
        }
    }

  records = g_new0 (EtlRecord, n);
  for (guint64 i = 0; i < n; i++)
    etl_trace_get_record (trace, i, &records[i], NULL);

  for (int it = -1; it < iterations; it++)
    {
      gint64 t0, t1;
      clock_t c0, c1;

      n_decoded = n_fields = 0;
      c0 = clock ();
      t0 = g_get_monotonic_time ();
      for (guint64 i = 0; i < n; i++)
        {
          EtlDecoded *d = etl_decode_record (registry, NULL, &records[i]);

          if (d->schema != NULL)
            {
              n_decoded++;
              n_fields += d->fields->len;
            }
          etl_decoded_free (d);
        }
      t1 = g_get_monotonic_time ();
      c1 = clock ();
      if (it >= 0)
        {
          ns[it] = (double) (t1 - t0) * 1000.0 / (double) n;
          cpu_ns[it] = (double) (c1 - c0) * 1e9 / CLOCKS_PER_SEC / (double) n;
        }
    }
  for (guint64 i = 0; i < n; i++)
    etl_record_clear (&records[i]);
  g_free (records);
  qsort (ns, iterations, sizeof (double), compare_double);
  qsort (cpu_ns, iterations, sizeof (double), compare_double);
  printf ("file: %s (%" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " with a schema, %" G_GUINT64_FORMAT
          " fields; %u TDH schemas)\n",
          path, n, n_decoded, n_fields, etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_TDH));
  printf ("| metric | value |\n|---|---|\n");
  printf ("| decode per record, median | %.0f ns |\n| min | %.0f ns |\n| max | %.0f ns |\n", ns[iterations / 2], ns[0],
          ns[iterations - 1]);
  printf ("| CPU time per record, median | %.0f ns |\n", cpu_ns[iterations / 2]);
  printf ("BENCH decode_ns_per_record %.1f ns\n", ns[iterations / 2]);
  /* clock(): process CPU time where the C library gives it (not on Windows),
   * the figure to trust on a loaded machine. */
  printf ("BENCH decode_cpu_ns_per_record %.1f ns\n", cpu_ns[iterations / 2]);
  printf ("BENCH decode_ns_per_decoded_record %.1f ns\n",
          n_decoded > 0 ? ns[iterations / 2] * (double) n / (double) n_decoded : 0.0);
  return 0;
}
