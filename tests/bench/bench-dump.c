/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-dump: `etlscope-cli dump --format=jsonl` on a 16-million-record trace.
 *
 *   bench-dump [--threads N] [--limit N] [--no-fields] [FILE.etl]
 *
 * Without FILE, generates (once; reused afterwards) the synthetic trace
 * bench-scale uses (16,000,000 records, 8 CPUs, 64 KiB buffers, seed 1: about
 * 1 GiB) in $ETL_BENCH_DIR, or in the temporary folder.  Then opens it and
 * runs etl_dump_write() (JSON lines with the decoded fields, what the CLI
 * prints) into a sink that only counts the bytes, and prints
 *
 *   BENCH dump_jsonl_records_per_s N        records / wall second of the dump
 *   BENCH dump_jsonl_total_records_per_s N  the same, the open included
 *
 * with the open and dump times, the process CPU time and the output size.
 * Target (issue 11): ≥ 1,000,000 records a second.  See tests/bench/README.md.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include <glib.h>

#include "etl-dump.h"
#include "bench-util.h"
#include "etl-synth.h"
#include "etl-trace.h"

#define TARGET_RECORDS_PER_S 1000000.0

static gboolean
count_bytes (const char *data, gsize len, gpointer user_data, GError **error)
{
  guint64 *bytes = user_data;

  (void)data;
  (void)error;
  *bytes += len;
  return TRUE;
}

static double
cpu_seconds (void)
{
  return (double)clock () / CLOCKS_PER_SEC;
}

int
main (int argc, char **argv)
{
  gint64 n_threads = 0, limit = -1;
  gboolean no_fields = FALSE;
  GOptionEntry entries[] = {
    { "threads", 0, 0, G_OPTION_ARG_INT64, &n_threads, "Worker threads (default: one a processor)", "N" },
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Dump the first N records only", "N" },
    { "no-fields", 0, 0, G_OPTION_ARG_NONE, &no_fields, "Leave out the decoded fields", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - dump benchmark");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autofree char *path = NULL;
  const char *paths[2] = { NULL, NULL };
  guint64 bytes = 0, n, problems = 0;
  gint64 t0, t1, t2;
  double c0, c1, c2, open_s, dump_s;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-dump: %s\n", error->message);
      return 2;
    }
  if (argc > 1)
    path = g_strdup (argv[1]);
  else
    {
      path = bench_synth_trace (8, 16000000, NULL, &error);
      if (path == NULL)
        {
          fprintf (stderr, "bench-dump: %s\n", error->message);
          return 1;
        }
    }
  paths[0] = path;

  c0 = cpu_seconds ();
  t0 = g_get_monotonic_time ();
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "bench-dump: %s\n", error->message);
      return 1;
    }
  (void)etl_trace_get_process_table (trace);
  t1 = g_get_monotonic_time ();
  c1 = cpu_seconds ();
  if (!etl_dump_write (trace, NULL, ETL_DUMP_JSONL, no_fields ? ETL_DUMP_NONE : ETL_DUMP_FIELDS,
                       limit >= 0 ? (guint64)limit : G_MAXUINT64, (guint)CLAMP (n_threads, 0, 64), count_bytes, NULL,
                       &bytes, &problems, &error))
    {
      fprintf (stderr, "bench-dump: %s\n", error->message);
      return 1;
    }
  t2 = g_get_monotonic_time ();
  c2 = cpu_seconds ();
  n = MIN (etl_trace_get_n_records (trace), limit >= 0 ? (guint64)limit : G_MAXUINT64);
  open_s = (double)(t1 - t0) / 1e6;
  dump_s = (double)(t2 - t1) / 1e6;

  printf ("file %s: %" G_GUINT64_FORMAT " records dumped (%" G_GUINT64_FORMAT " unreadable), %.1f MB of JSON lines, "
          "%u processors\n",
          path, n, problems, (double)bytes / 1e6, g_get_num_processors ());
  printf ("BENCH dump_jsonl_records_per_s %.0f\n", (double)n / dump_s);
  printf ("BENCH dump_jsonl_total_records_per_s %.0f\n", (double)n / (open_s + dump_s));
  printf ("BENCH dump_open_s %.2f\n", open_s);
  printf ("BENCH dump_s %.2f\n", dump_s);
  printf ("BENCH dump_cpu_s %.2f\n", c2 - c1);
  printf ("BENCH dump_cpu_ns_per_record %.0f\n", (c2 - c1) * 1e9 / (double)MAX (n, 1));
  printf ("\n| figure | value | target |\n|---|---|---|\n");
  printf ("| open (wall / CPU) | %.2f s / %.2f s | |\n", open_s, c1 - c0);
  printf ("| dump (wall / CPU) | %.2f s / %.2f s | |\n", dump_s, c2 - c1);
  printf ("| records/s, dump | %.0f | ≥ %.0f |\n", (double)n / dump_s, TARGET_RECORDS_PER_S);
  printf ("| records/s, open + dump | %.0f | |\n", (double)n / (open_s + dump_s));
  printf ("| CPU per record (dump) | %.0f ns | |\n", (c2 - c1) * 1e9 / (double)MAX (n, 1));
  return 0;
}
