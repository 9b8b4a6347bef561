/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-builtin-spans: the built-in intervals' pass (etl_builtin_spans_new(),
 * every kind) over a large trace, in a worker thread as the window would
 * run it.
 *
 *   bench-builtin-spans [--runs N] [FILE.etl]
 *
 * Opens FILE.etl, or the 16 M-record schedule trace the other benchmarks
 * share (bench_schedule_trace (8, 470588): kernel process and thread
 * lifetimes among millions of CSwitch, ReadyThread and SampledProfile
 * records, generated once), and times the pass --runs times (default 3):
 * the cost of finding the few records it reads among the many it skips.
 * Prints "BENCH <name> <value> <unit>" lines.  No target of its own
 * (issue 21 sets none for it); it must stay well below the activities'
 * pairing of a trace that large (bench-activities, ≤ 1 s).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "etl-builtin-spans.h"
#include "etl-trace.h"

static gpointer
build (gpointer data)
{
  return etl_builtin_spans_new (data, ETL_BUILTIN_KINDS_ALL, NULL, NULL);
}

int
main (int argc, char *argv[])
{
  static int runs = 3;
  static const GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Passes to time (default 3)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - built-in intervals benchmark");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autofree char *path = NULL;
  g_autofree double *ms = NULL;
  guint64 n;
  gint64 t0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  runs = MAX (runs, 1);
  path = argc > 1 ? g_strdup (argv[1]) : bench_schedule_trace (8, 470588, &error);
  if (path == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  trace = bench_open_trace (path);
  n = etl_trace_get_n_records (trace);
  ms = g_new (double, runs);
  for (int r = 0; r < runs; r++)
    {
      g_autoptr (EtlBuiltinSpans) spans = NULL;
      const EtlBuiltinSpansCounts *c;
      guint n_spans;

      t0 = g_get_monotonic_time ();
      spans = g_thread_join (g_thread_new ("builtin-spans", build, trace));
      ms[r] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      if (spans == NULL)
        return 1;
      c = etl_builtin_spans_get_counts (spans);
      etl_builtin_spans_get (spans, &n_spans);
      printf ("run %d: %.1f ms wall; %" G_GUINT64_FORMAT " records read, %u spans\n", r + 1, ms[r], c->records,
              n_spans);
    }
  qsort (ms, runs, sizeof ms[0], bench_compare_double);
  printf ("BENCH builtin_spans_ms %.1f ms (median of %d; fastest %.1f, slowest %.1f)\n", ms[runs / 2], runs, ms[0],
          ms[runs - 1]);
  printf ("BENCH builtin_spans_ns_per_record %.1f ns\n", ms[runs / 2] * 1e6 / (double) MAX (n, 1));
  return 0;
}
