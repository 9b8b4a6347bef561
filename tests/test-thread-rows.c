/* SPDX-License-Identifier: GPL-3.0-or-later */

/* etl_thread_rows_new(): the records of some threads within some times
 * (issue 21, the Regions view's "Summary of these").  The expected rows are
 * computed here by walking every record of the trace and every span, with
 * this file's own reading of a record's thread (the header's ThreadId; a
 * SampledProfile's payload ThreadId after its pointer-sized
 * InstructionPointer): a synthetic trace with hand-made spans (overlapping
 * ones on one thread, an empty one, a thread without records, ends on
 * record times), and real/msbuild_PerfViewData.etl with the 455 ExecuteTask
 * activities (skipped with a message when absent). */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "etl-span-set.h"
#include "etl-synth.h"
#include "etl-test-trace.h"
#include "etl-thread-rows.h"

#define NO_THREAD G_MAXUINT32

/* This test's own reading of a record's thread. */
static guint32
thread_of (EtlTrace *trace, guint64 i, gboolean *sample)
{
  EtlRecordBrief b;
  guint32 tid = NO_THREAD;

  *sample = FALSE;
  if (!etl_trace_peek_record (trace, i, &b))
    return NO_THREAD;
  if (b.header_type == ETL_HEADER_TYPE_PERFINFO32 || b.header_type == ETL_HEADER_TYPE_PERFINFO64)
    {
      gsize at = b.header_type == ETL_HEADER_TYPE_PERFINFO32 ? 4 : 8;

      if (b.hook_id == 0x0F2E && b.user_data_len >= at + 4)
        {
          tid = (guint32) b.user_data[at] | (guint32) b.user_data[at + 1] << 8 | (guint32) b.user_data[at + 2] << 16
                | (guint32) b.user_data[at + 3] << 24;
          *sample = TRUE;
        }
    }
  else if (b.has_pid)
    tid = b.tid;
  etl_record_brief_clear (&b);
  return tid;
}

typedef struct
{
  guint64 n;
  guint64 samples; /* of them, SampledProfile records */
} Expect;

/* The rows expected: every record whose thread is a span's and whose time
 * lies in it, each once; compared row by row with @got. */
static Expect
check_rows (EtlTrace *trace, const EtlStackTreeSpan *spans, guint n_spans, EtlRowSet *got)
{
  guint64 n_records = etl_trace_get_n_records (trace);
  g_autoptr (GHashTable) by_tid = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                         (GDestroyNotify) g_array_unref);
  Expect e = { 0 };

  for (guint s = 0; s < n_spans; s++)
    {
      GArray *list = g_hash_table_lookup (by_tid, GUINT_TO_POINTER (spans[s].tid));

      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_tid, GUINT_TO_POINTER (spans[s].tid), list);
        }
      g_array_append_val (list, s);
    }
  for (guint64 i = 0; i < n_records; i++)
    {
      gboolean sample;
      guint32 tid = thread_of (trace, i, &sample);
      gint64 t = etl_trace_get_filetime (trace, i);
      GArray *list;
      gboolean in = FALSE;

      if (tid == NO_THREAD || (list = g_hash_table_lookup (by_tid, GUINT_TO_POINTER (tid))) == NULL)
        continue;
      for (guint k = 0; k < list->len && !in; k++)
        {
          const EtlStackTreeSpan *s = &spans[g_array_index (list, guint, k)];

          in = t >= s->start && t < s->stop;
        }
      if (!in)
        continue;
      g_assert_cmpuint (e.n, <, etl_row_set_get_n (got));
      g_assert_cmpuint (etl_row_set_get (got, e.n), ==, i);
      e.n++;
      e.samples += sample;
    }
  g_assert_cmpuint (etl_row_set_get_n (got), ==, e.n);
  return e;
}

static char *
write_synth (const char *dir)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "synth.etl", NULL);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = 40000;
  params.seed = 21;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  return path;
}

typedef struct
{
  guint32 tid;
  guint n;
} TidCount;

static int
cmp_count_desc (gconstpointer a, gconstpointer b)
{
  const TidCount *x = a, *y = b;

  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The synthetic mix: SampledProfile records (PERFINFO, the thread in the
 * payload) and SYSTEM, EVENT_HEADER and EVENT_TRACE_HEADER records (the
 * thread in the header). */
static void
test_synth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-thread-rows-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) tids = g_array_new (FALSE, FALSE, sizeof (TidCount));
  g_autoptr (EtlRowSet) rows = NULL;
  g_autoptr (EtlRowSet) once = NULL;
  EtlStackTreeSpan spans[12];
  guint n_spans = 0;
  guint64 n_records, n_header = 0;
  gint64 first, last, len;
  GHashTableIter it;
  gpointer key, value;
  Expect e;

  g_assert_no_error (error);
  path = write_synth (dir);
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n_records = etl_trace_get_n_records (trace);
  first = etl_trace_get_filetime (trace, 0);
  last = etl_trace_get_filetime (trace, n_records - 1);
  len = last - first;

  /* The threads with the most records. */
  for (guint64 i = 0; i < n_records; i++)
    {
      gboolean sample;
      guint32 tid = thread_of (trace, i, &sample);

      if (tid != NO_THREAD)
        g_hash_table_insert (counts, GUINT_TO_POINTER (tid),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (tid))) + 1));
    }
  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      TidCount c = { GPOINTER_TO_UINT (key), GPOINTER_TO_UINT (value) };

      g_array_append_val (tids, c);
    }
  g_array_sort (tids, cmp_count_desc);
  g_assert_cmpuint (tids->len, >=, 4);
  g_test_message ("%u threads; the busiest has %u records", tids->len, g_array_index (tids, TidCount, 0).n);

  /* Thread A: two overlapping spans and one inside them (each record
   * once); thread B: two disjoint spans, one ending exactly on one of its
   * records' time (that record is out) and one beginning on another's (in);
   * thread C: the whole trace, and an empty span; a thread without
   * records. */
  {
    guint32 a = g_array_index (tids, TidCount, 0).tid, b = g_array_index (tids, TidCount, 1).tid;
    guint32 c = g_array_index (tids, TidCount, 2).tid;
    gint64 b_times[2] = { 0, 0 };
    guint seen = 0;

    for (guint64 i = 0; i < n_records && seen < 2; i++)
      {
        gboolean sample;
        gint64 t = etl_trace_get_filetime (trace, i);

        /* Two records of B in the middle third, with distinct times. */
        if (t > first + len / 3 && thread_of (trace, i, &sample) == b && (seen == 0 || t > b_times[0] + 10))
          b_times[seen++] = t;
      }
    g_assert_cmpuint (seen, ==, 2);
    spans[n_spans++] = (EtlStackTreeSpan){ a, first + len / 10, first + len / 2 };
    spans[n_spans++] = (EtlStackTreeSpan){ a, first + len / 4, first + len * 7 / 10 };
    spans[n_spans++] = (EtlStackTreeSpan){ a, first + len / 3, first + len / 3 + 1000 };
    spans[n_spans++] = (EtlStackTreeSpan){ b, first, b_times[0] };
    spans[n_spans++] = (EtlStackTreeSpan){ b, b_times[1], b_times[1] + len / 20 };
    spans[n_spans++] = (EtlStackTreeSpan){ c, first, last + 1 };
    spans[n_spans++] = (EtlStackTreeSpan){ c, first + len / 2, first + len / 2 };
    spans[n_spans++] = (EtlStackTreeSpan){ 0xDEAD0001u, first, last + 1 };
  }
  rows = etl_thread_rows_new (trace, spans, n_spans, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rows);
  e = check_rows (trace, spans, n_spans, rows);
  g_test_message ("%" G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT " of them SampledProfile", e.n, e.samples);
  /* Both readings of a thread were used. */
  g_assert_cmpuint (e.samples, >, 0);
  n_header = e.n - e.samples;
  g_assert_cmpuint (n_header, >, 0);
  /* All of C's records are in. */
  g_assert_cmpuint (e.n, >, g_array_index (tids, TidCount, 2).n);
  /* Ascending, so each once. */
  for (guint64 k = 1; k < etl_row_set_get_n (rows); k++)
    g_assert_cmpuint (etl_row_set_get (rows, k - 1), <, etl_row_set_get (rows, k));
  /* B's record at b_times[0] (a span's stop) is out, the one at
   * b_times[1] (a span's start) in. */
  {
    gboolean stop_out = TRUE, start_in = FALSE;

    for (guint64 k = 0; k < etl_row_set_get_n (rows); k++)
      {
        guint64 r = etl_row_set_get (rows, k);
        gboolean sample;

        if (thread_of (trace, r, &sample) != spans[3].tid)
          continue;
        if (etl_trace_get_filetime (trace, r) == spans[3].stop)
          stop_out = FALSE;
        if (etl_trace_get_filetime (trace, r) == spans[4].start)
          start_in = TRUE;
      }
    g_assert_true (stop_out);
    g_assert_true (start_in);
  }

  /* The same spans in another order, one given twice: the same rows. */
  {
    EtlStackTreeSpan again[G_N_ELEMENTS (spans) + 1];

    for (guint i = 0; i < n_spans; i++)
      again[i] = spans[n_spans - 1 - i];
    again[n_spans] = spans[0];
    once = etl_thread_rows_new (trace, again, n_spans + 1, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (etl_row_set_get_n (once), ==, e.n);
    for (guint64 k = 0; k < e.n; k++)
      g_assert_cmpuint (etl_row_set_get (once, k), ==, etl_row_set_get (rows, k));
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* No spans, empty spans: no rows; a cancelled request: NULL and
 * G_IO_ERROR_CANCELLED. */
static void
test_empty_and_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-thread-rows-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlRowSet) none = NULL;
  g_autoptr (EtlRowSet) empty = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  EtlStackTreeSpan spans[2];
  gint64 first, last;
  gboolean sample;
  EtlRowSet *rows;

  g_assert_no_error (error);
  path = write_synth (dir);
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace);

  none = etl_thread_rows_new (trace, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (none), ==, 0);
  g_assert_false (etl_row_set_is_all (none));
  spans[0] = (EtlStackTreeSpan){ thread_of (trace, 5, &sample), last, first };
  spans[1] = (EtlStackTreeSpan){ spans[0].tid, first + 7, first + 7 };
  empty = etl_thread_rows_new (trace, spans, 2, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (empty), ==, 0);

  g_cancellable_cancel (cancellable);
  spans[0] = (EtlStackTreeSpan){ spans[0].tid, first, last + 1 };
  rows = etl_thread_rows_new (trace, spans, 1, cancellable, &error);
  g_assert_null (rows);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_unlink (path);
  g_rmdir (dir);
}

/* msbuild: the 455 ExecuteTask activities (the Regions view's selection of
 * that name), their threads within their intervals. */
static void
test_msbuild (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("real/msbuild_PerfViewData.etl");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (EtlRowSet) rows = NULL;
  const EtlSpan *s;
  guint n = 0, n_instances = 0;
  gint64 t0;
  Expect e;

  if (trace == NULL)
    {
      g_test_skip ("real/msbuild_PerfViewData.etl is not in the corpus");
      return;
    }
  set = etl_span_set_get_activities_shared (trace, NULL, &error);
  g_assert_no_error (error);
  s = etl_span_set_get (set, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (etl_span_set_get_string (set, s[i].name), "ExecuteTask") == 0)
      {
        EtlStackTreeSpan t = { s[i].tid, s[i].start, s[i].stop };

        n_instances++;
        g_array_append_val (spans, t);
      }
  g_assert_cmpuint (n_instances, ==, 455);
  t0 = g_get_monotonic_time ();
  rows = etl_thread_rows_new (trace, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, NULL, &error);
  g_test_message ("etl_thread_rows_new: %.2f ms", (double) (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_no_error (error);
  e = check_rows (trace, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, rows);
  g_test_message ("%" G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT " of them SampledProfile", e.n, e.samples);
  g_assert_cmpuint (e.n, >, 0);
}

/* net.4.5.2.x64.etl: the 264 GarbageCollection activities, sampled stacks.
 * The SampledProfile rows that have a stack are exactly the samples the
 * flame graph of the same spans counts (etl_stack_tree_new_for_threads():
 * one rule for a sample's thread). */
static void
test_samples_match_flame (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlStackTree) tree = NULL;
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (EtlRowSet) rows = NULL;
  const EtlSpan *s;
  guint n = 0, n_nodes = 0;
  guint64 with_stack = 0;
  Expect e;

  if (trace == NULL)
    {
      g_test_skip ("net.4.5.2.x64.etl is not in the corpus");
      return;
    }
  set = etl_span_set_get_activities_shared (trace, NULL, &error);
  g_assert_no_error (error);
  s = etl_span_set_get (set, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (etl_span_set_get_string (set, s[i].name), "GarbageCollection") == 0 && s[i].tid != 0)
      {
        EtlStackTreeSpan t = { s[i].tid, s[i].start, s[i].stop };

        g_array_append_val (spans, t);
      }
  g_assert_cmpuint (spans->len, ==, 264);
  rows = etl_thread_rows_new (trace, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, NULL, &error);
  g_assert_no_error (error);
  e = check_rows (trace, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, rows);
  g_test_message ("%" G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT " of them SampledProfile", e.n, e.samples);
  g_assert_cmpuint (e.samples, >, 0);

  stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint64 k = 0; k < etl_row_set_get_n (rows); k++)
    {
      guint64 r = etl_row_set_get (rows, k);
      gboolean sample;

      thread_of (trace, r, &sample);
      with_stack += sample && etl_stacks_has_stack (stacks, r);
    }
  tree = etl_stack_tree_new_for_threads (stacks, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, NULL,
                                         &error);
  g_assert_no_error (error);
  g_test_message ("%" G_GUINT64_FORMAT " samples with a stack", with_stack);
  g_assert_cmpuint (with_stack, >, 0);
  g_assert_cmpuint (etl_stack_tree_get_nodes (tree, &n_nodes)[0].total, ==, with_stack);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/thread-rows/synth", test_synth);
  g_test_add_func ("/etl/thread-rows/empty-and-cancel", test_empty_and_cancel);
  g_test_add_func ("/etl/thread-rows/msbuild", test_msbuild);
  g_test_add_func ("/etl/thread-rows/samples-match-flame", test_samples_match_flame);
  return g_test_run ();
}
