/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-manifest: parse + register an instrumentation manifest.
 *
 *   bench-manifest [FILE] [ITERATIONS]
 *
 * Default FILE is ../shared/etl-corpus/manifests/ClrEtwAll.man.  Prints
 * "BENCH <name> <value> <unit>" lines (median of the iterations, warm cache;
 * the file is read once, so the figure is GMarkup + schema building; wall
 * and process CPU time, the latter steadier on a shared machine).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-util.h"
#include "etl-manifest.h"
#include "etl-test-util.h"

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *default_path = g_build_filename (dir ? dir : "../shared/etl-corpus", "manifests",
                                                    "ClrEtwAll.man", NULL);
  const char *path = argc > 1 ? argv[1] : default_path;
  int iterations = argc > 2 ? atoi (argv[2]) : 31;
  g_autofree char *xml = NULL;
  gsize len = 0;
  g_autofree double *ms = NULL;
  g_autofree double *cpu_ms = NULL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;

  if (!g_file_get_contents (path, &xml, &len, NULL))
    return etl_test_bench_missing (path);
  if (iterations < 1)
    iterations = 1;
  ms = g_new (double, iterations);
  cpu_ms = g_new (double, iterations);

  for (int i = -1; i < iterations; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
      gint64 t0, t1;
      clock_t c0, c1;

      etl_manifest_info_clear (&info);
      c0 = clock ();
      t0 = g_get_monotonic_time ();
      if (!etl_manifest_load_data (registry, xml, (gssize) len, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, path, &info,
                                   &error))
        {
          fprintf (stderr, "bench-manifest: %s\n", error->message);
          return 1;
        }
      t1 = g_get_monotonic_time ();
      c1 = clock ();
      if (i >= 0)
        {
          ms[i] = (double) (t1 - t0) / 1000.0;
          cpu_ms[i] = (double) (c1 - c0) * 1000.0 / CLOCKS_PER_SEC;
        }
    }
  qsort (ms, iterations, sizeof (double), bench_compare_double);
  qsort (cpu_ms, iterations, sizeof (double), bench_compare_double);
  printf ("BENCH manifest-parse-ms %.2f ms\n", ms[iterations / 2]);
  printf ("BENCH manifest-parse-cpu-ms %.2f ms\n", cpu_ms[iterations / 2]);
  printf ("BENCH manifest-bytes %" G_GSIZE_FORMAT " bytes\n", len);
  printf ("BENCH manifest-providers %u count\n", info.n_providers);
  printf ("BENCH manifest-events %u count\n", info.n_events);
  printf ("BENCH manifest-maps %u count\n", info.n_maps);
  printf ("BENCH manifest-properties %u count\n", info.n_properties);
  printf ("BENCH manifest-mb-per-s %.1f MB/s\n", (double) len / 1e6 / (ms[iterations / 2] / 1000.0));
  etl_manifest_info_clear (&info);
  return 0;
}
