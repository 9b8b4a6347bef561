/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the benchmarks share: the folder their generated traces live in and
 * bench-scale's synthetic trace, written once and reused.
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "etl-synth.h"
#include "etl-trace.h"

/* qsort()'s comparison of two doubles, ascending: the benchmarks sort their
 * runs' times for the median. */
static inline int
bench_compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* $ETL_BENCH_DIR, else $TMPDIR/etlscope-bench/; created.  (transfer full) */
static inline char *
bench_dir (void)
{
  const char *env = g_getenv ("ETL_BENCH_DIR");
  char *dir = env != NULL && *env != '\0' ? g_strdup (env)
                                          : g_build_filename (g_get_tmp_dir (), "etlscope-bench", NULL);

  g_mkdir_with_parents (dir, 0700);
  return dir;
}

/*
 * Writes @params' trace as @name in bench_dir() unless it is there
 * (etl_synth_write() writes atomically, so an existing file is complete).
 * @synth_ms (nullable) gets the time the writing took, -1 when reused.
 * Returns: (transfer full): the path, or %NULL with @error set.
 */
static inline char *
bench_write_once (const char *name, const EtlSynthParams *params, double *synth_ms, GError **error)
{
  g_autofree char *dir = bench_dir ();
  char *path = g_build_filename (dir, name, NULL);

  if (synth_ms != NULL)
    *synth_ms = -1.0;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      gint64 t0 = g_get_monotonic_time ();

      printf ("generating %s ...\n", path);
      fflush (stdout);
      if (!etl_synth_write (params, path, error))
        {
          g_free (path);
          return NULL;
        }
      printf ("generated in %.1f s\n", (double) (g_get_monotonic_time () - t0) / 1e6);
      if (synth_ms != NULL)
        *synth_ms = (double) (g_get_monotonic_time () - t0) / 1000.0;
    }
  return path;
}

/*
 * The path of `synth --cpus N --records N --seed 1` with 64 KiB buffers
 * (etl_synth_write()) in bench_dir(), written first when it is not there.
 * @synth_ms (nullable) gets the time the writing took, -1 when reused.
 * Returns: (transfer full): the path, or %NULL with @error set.
 */
static inline char *
bench_synth_trace (guint n_cpus, guint64 n_records, double *synth_ms, GError **error)
{
  g_autofree char *name = g_strdup_printf ("synth-%ucpu-%" G_GUINT64_FORMAT "rec-64k-seed1.etl", n_cpus, n_records);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = n_cpus;
  params.n_records = n_records;
  params.buffer_kb = 64;
  params.seed = 1;
  return bench_write_once (name, &params, synth_ms, error);
}

/*
 * The path of `synth --cpus N --schedule --schedule-ms N` with 64 KiB
 * buffers and seed 1 in bench_dir(), written first when it is not there.
 * Shared by the benchmarks over the 16 M-record schedule trace.
 * Returns: (transfer full): the path, or %NULL with @error set.
 */
static inline char *
bench_schedule_trace (guint n_cpus, guint schedule_ms, GError **error)
{
  g_autofree char *name = g_strdup_printf ("synth-schedule-%ucpu-%ums-64k-seed1.etl", n_cpus, schedule_ms);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = n_cpus;
  params.buffer_kb = 64;
  params.seed = 1;
  params.schedule = TRUE;
  params.schedule_ms = schedule_ms;
  return bench_write_once (name, &params, NULL, error);
}

/*
 * The path of `synth --activities --activity-pairs N --cpus N --records N`
 * with 64 KiB buffers in bench_dir(), written first when it is not there.
 * Shared by the benchmarks over the activities trace (bench-activities,
 * bench-gui --activities).
 * Returns: (transfer full): the path, or %NULL with @error set.
 */
static inline char *
bench_activities_trace (guint n_cpus, guint64 n_records, guint64 n_pairs, GError **error)
{
  g_autofree char *name = g_strdup_printf ("synth-activities-%ucpu-%" G_GUINT64_FORMAT "rec-%" G_GUINT64_FORMAT
                                           "pairs-64k.etl", n_cpus, n_records, n_pairs);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = n_cpus;
  params.n_records = n_records;
  params.buffer_kb = 64;
  params.activities = TRUE;
  params.activity_pairs = n_pairs;
  return bench_write_once (name, &params, NULL, error);
}

/*
 * Opens the trace @path (etl_trace_open()) and prints its record count and
 * the time the open took; on failure prints the error and exits with 1.
 * Returns: (transfer full): the trace
 */
static inline EtlTrace *
bench_open_trace (const char *path)
{
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  EtlTrace *trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);

  if (trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
  printf ("%s: %" G_GUINT64_FORMAT " records, opened in %.1f ms\n", path, etl_trace_get_n_records (trace),
          (double) (g_get_monotonic_time () - t0) / 1000.0);
  return trace;
}
