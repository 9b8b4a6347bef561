/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-aggregates: the whole-trace aggregates that visit every record, on a
 * large synthetic trace: `etlscope-cli stats`'s counts
 * (etl_trace_stats_compute()) and the CPU usage series
 * (etl_cpu_usage_compute(), sampled and precise).
 *
 *   bench-aggregates [--records N] [--cpus N] [--workers N] [FILE.etl]
 *
 * Opens FILE.etl, or generates (once; reused afterwards) the synthetic trace
 * bench-scale and bench-groups use (N records, default 16,000,000, on 8
 * processors, seed 1) in $ETL_BENCH_DIR or the temporary folder.  Times the
 * open and the process table (the work every aggregate shares), then each
 * aggregate alone, wall clock and process CPU time (clock(): the figure to
 * trust on a shared machine).  Issues 10 and 11's targets for 16 M records:
 * stats' own work ≤ 0.5 × the open, each CPU usage series ≤ 1 s.  Prints
 * "BENCH <name> <ms> ms" lines; exits 1 when a target is missed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "etl-cpu-usage.h"
#include "bench-util.h"
#include "etl-synth.h"
#include "etl-trace-stats.h"
#include "etl-trace.h"

#define TARGET_MS 1000.0

typedef struct
{
  gint64 wall;
  clock_t cpu;
} Stamp;

static Stamp
stamp (void)
{
  Stamp s = { g_get_monotonic_time (), clock () };

  return s;
}

static double
wall_ms (Stamp s)
{
  return (double)(g_get_monotonic_time () - s.wall) / 1000.0;
}

static double
cpu_ms (Stamp s)
{
  return (double)(clock () - s.cpu) * 1000.0 / CLOCKS_PER_SEC;
}

int
main (int argc, char *argv[])
{
  static gint64 n_records = 16000000;
  static int n_cpus = 8;
  static int n_workers = 0;
  static const GOptionEntry entries[] = {
    { "records", 0, 0, G_OPTION_ARG_INT64, &n_records, "Records in the synthetic trace (default 16,000,000)", "N" },
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "workers", 0, 0, G_OPTION_ARG_INT, &n_workers, "Worker threads for stats (default: one per processor)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - whole-trace aggregates benchmark");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autofree char *path = NULL;
  gboolean big, fail = FALSE;
  double open_ms, ms;
  Stamp s;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  if (argc > 1)
    path = g_strdup (argv[1]);
  else
    {
      path = bench_synth_trace ((guint)n_cpus, (guint64)n_records, NULL, &error);
      if (path == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
    }

  s = stamp ();
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  open_ms = wall_ms (s);
  printf ("%s: %" G_GUINT64_FORMAT " records\n", path, etl_trace_get_n_records (trace));
  big = etl_trace_get_n_records (trace) >= 16000000;
  printf ("BENCH aggregates_open %.1f ms (CPU %.1f ms)\n", open_ms, cpu_ms (s));
  s = stamp ();
  etl_trace_get_process_table (trace);
  printf ("BENCH aggregates_process_table %.1f ms (CPU %.1f ms)\n", wall_ms (s), cpu_ms (s));

  {
    g_autoptr (EtlTraceStats) stats = NULL;

    s = stamp ();
    stats = etl_trace_stats_compute (trace, (guint)MAX (n_workers, 0));
    ms = wall_ms (s);
    printf ("BENCH stats %.1f ms (CPU %.1f ms, %.2f × the open; %u providers)\n", ms, cpu_ms (s), ms / open_ms,
            g_hash_table_size (stats->by_provider));
    if (big && ms > 0.5 * open_ms)
      fail = TRUE;
  }

  for (guint m = 0; m < 2; m++)
    {
      EtlCpuUsageMode mode = m == 0 ? ETL_CPU_USAGE_SAMPLED : ETL_CPU_USAGE_PRECISE;
      g_autoptr (EtlCpuUsage) usage = NULL;

      s = stamp ();
      usage = etl_cpu_usage_compute (trace, mode, ETL_CPU_USAGE_BY_PROCESS, 0, NULL, NULL, NULL, &error);
      ms = wall_ms (s);
      if (usage == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      printf ("BENCH cpu_usage_%s %.1f ms (CPU %.1f ms, %" G_GUINT64_FORMAT " records used)\n",
              m == 0 ? "sampled" : "precise", ms, cpu_ms (s), etl_cpu_usage_get_n_records (usage));
      if (big && ms > TARGET_MS)
        fail = TRUE;
    }
  return fail ? 1 : 0;
}
