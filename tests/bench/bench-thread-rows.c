/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-thread-rows: the records of some threads within some times
 * (etl_thread_rows_new(), the Regions view's "Summary of these") on a large
 * trace, in a worker thread as the view runs it.
 *
 *   bench-thread-rows [--runs N] [FILE.etl]
 *
 * Opens FILE.etl, or the activities trace of bench-activities (4
 * processors, 16,000,000 records of which 2,000,000 Start/Stop pairs on 4
 * threads; generated once in $ETL_BENCH_DIR or the temporary folder), pairs
 * its activities (etl_span_set_get_activities_shared(), not timed) and
 * takes as spans (each activity's thread, Start to Stop): the 100 longest
 * instances of the most frequent name (a histogram's slow tail), every
 * instance of that name, and every activity.  Prints for each the rows and
 * the wall time of etl_thread_rows_new() (median of --runs, default 3), and the
 * floor: every record's header peeked once in one thread, as
 * "BENCH <name> <value> <unit>" lines.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "etl-span-set.h"
#include "etl-synth.h"
#include "etl-thread-rows.h"
#include "etl-trace.h"

typedef struct
{
  EtlTrace *trace;
  GArray *spans;
} Job;

static gpointer
build (gpointer data)
{
  Job *job = data;
  g_autoptr (GError) error = NULL;
  EtlRowSet *rows = etl_thread_rows_new (job->trace, (const EtlStackTreeSpan *) (gpointer) job->spans->data,
                                         job->spans->len, NULL, &error);

  if (rows == NULL)
    g_printerr ("%s\n", error->message);
  return rows;
}

static int
compare_longest (const void *a, const void *b)
{
  const EtlStackTreeSpan *x = a, *y = b;
  gint64 dx = x->stop - x->start, dy = y->stop - y->start;

  return dx > dy ? -1 : dx < dy;
}

/* Times etl_thread_rows_new() on @spans: median of @runs. */
static void
measure (EtlTrace *trace, const char *what, GArray *spans, int runs)
{
  g_autofree double *ms = g_new (double, runs);
  guint64 n_rows = 0, n_read;
  gint64 from = G_MAXINT64, to = G_MININT64;

  for (guint i = 0; i < spans->len; i++)
    {
      from = MIN (from, g_array_index (spans, EtlStackTreeSpan, i).start);
      to = MAX (to, g_array_index (spans, EtlStackTreeSpan, i).stop);
    }
  /* At most the records from the first start to the last stop. */
  n_read = etl_trace_lower_bound (trace, to) - etl_trace_lower_bound (trace, from);
  for (int r = 0; r < runs; r++)
    {
      Job job = { trace, spans };
      gint64 t0 = g_get_monotonic_time ();
      EtlRowSet *rows = g_thread_join (g_thread_new ("thread-rows", build, &job));

      ms[r] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      if (rows == NULL)
        exit (1);
      n_rows = etl_row_set_get_n (rows);
      etl_row_set_unref (rows);
    }
  qsort (ms, runs, sizeof ms[0], bench_compare_double);
  printf ("%s: %u spans, %" G_GUINT64_FORMAT " rows, records from the first start to the last stop %" G_GUINT64_FORMAT
          "\n",
          what, spans->len, n_rows, n_read);
  printf ("BENCH thread_rows_%s_ms %.1f ms (median of %d; fastest %.1f, slowest %.1f)\n", what, ms[runs / 2], runs,
          ms[0], ms[runs - 1]);
}

int
main (int argc, char *argv[])
{
  static int runs = 3;
  static const GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Computations to time (default 3)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - thread rows benchmark");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (GArray) of_name = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (GArray) tail = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree char *path = NULL;
  const EtlSpan *s;
  guint n = 0, best = 0;
  guint32 name = ETL_SPAN_NONE;
  gint64 t0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  runs = MAX (runs, 1);
  path = argc > 1 ? g_strdup (argv[1]) : bench_activities_trace (4, 16000000, 2000000, &error);
  if (path == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  trace = bench_open_trace (path);
  set = etl_span_set_get_activities_shared (trace, NULL, &error);
  if (set == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  s = etl_span_set_get (set, &n);
  for (guint i = 0; i < n; i++)
    {
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (s[i].name))) + 1;

      g_hash_table_insert (counts, GUINT_TO_POINTER (s[i].name), GUINT_TO_POINTER (c));
      if (c > best)
        {
          best = c;
          name = s[i].name;
        }
    }
  for (guint i = 0; i < n; i++)
    {
      EtlStackTreeSpan t = { s[i].tid, s[i].start, s[i].stop + 1 };

      if (s[i].tid == 0)
        continue;
      g_array_append_val (all, t);
      if (s[i].name == name)
        g_array_append_val (of_name, t);
    }
  g_array_append_vals (tail, of_name->data, of_name->len);
  qsort (tail->data, tail->len, sizeof (EtlStackTreeSpan), compare_longest);
  g_array_set_size (tail, MIN (tail->len, 100));
  printf ("%u spans; the most frequent name \"%s\": %u\n", n, name != ETL_SPAN_NONE ? etl_span_set_get_string (set, name) : "",
          best);

  /* The floor: every record's header peeked once, in this thread. */
  {
    guint64 n_records = etl_trace_get_n_records (trace), kept = 0;

    t0 = g_get_monotonic_time ();
    for (guint64 i = 0; i < n_records; i++)
      {
        EtlRecordBrief b;

        if (etl_trace_peek_record (trace, i, &b))
          {
            kept += etl_thread_rows_record_thread (&b) != ETL_THREAD_ROWS_NO_THREAD;
            etl_record_brief_clear (&b);
          }
      }
    printf ("BENCH thread_rows_peek_all_ms %.1f ms (every record's thread, one thread; %" G_GUINT64_FORMAT
            " with a thread)\n",
            (double) (g_get_monotonic_time () - t0) / 1000.0, kept);
  }
  measure (trace, "tail100", tail, runs);
  measure (trace, "name", of_name, runs);
  measure (trace, "all", all, runs);
  return 0;
}
