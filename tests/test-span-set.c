/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlSpanSet (issue 21): statistics per name and lane with known values
 * (open spans counted, not measured; a selected range), one name in two
 * lanes as two rows, etl_span_set_add_set() keeping parents and strings,
 * the duration histogram's buckets (every duration in the bucket its edges
 * say, the counts summing to the durations, log scale over two decades),
 * and the activities of real/msbuild_PerfViewData.etl shared per trace. */

#include "config.h"

#include <string.h>

#include "etl-span-set.h"
#include "etl-test-util.h"
#include "etl-trace.h"

static guint32
add (EtlSpanSet *set, const char *name, const char *lane, gint64 start, gint64 stop, guint32 parent, guint flags)
{
  EtlSpan s = { 0 };

  s.start = start;
  s.stop = stop;
  s.start_record = ETL_SPAN_NO_RECORD;
  s.parent = parent;
  s.name = s.label = etl_span_set_intern (set, name);
  s.lane = etl_span_set_intern (set, lane);
  s.flags = flags;
  return etl_span_set_add (set, &s);
}

static const EtlSpanNameStats *
find (GArray *rows, EtlSpanSet *set, const char *name, const char *lane)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const EtlSpanNameStats *r = &g_array_index (rows, EtlSpanNameStats, i);

      if (g_strcmp0 (etl_span_set_get_string (set, r->name), name) == 0
          && g_strcmp0 (etl_span_set_get_string (set, r->lane), lane) == 0)
        return r;
    }
  return NULL;
}

static void
test_stats (void)
{
  g_autoptr (EtlSpanSet) set = etl_span_set_new ();
  g_autoptr (GArray) rows = NULL;
  g_autoptr (GArray) ranged = NULL;
  const EtlSpanNameStats *r;

  /* A: durations 10, 20, 30, 40 and one open; B in lane P: 5; B in lane Q: 7. */
  add (set, "A", "P", 100, 110, ETL_SPAN_NONE, 0);
  add (set, "A", "P", 200, 220, ETL_SPAN_NONE, 0);
  add (set, "A", "P", 300, 330, ETL_SPAN_NONE, 0);
  add (set, "A", "P", 400, 440, ETL_SPAN_NONE, 0);
  add (set, "A", "P", 500, 900, ETL_SPAN_NONE, ETL_SPAN_OPEN);
  add (set, "B", "P", 600, 605, ETL_SPAN_NONE, 0);
  add (set, "B", "Q", 700, 707, ETL_SPAN_NONE, 0);

  rows = etl_span_set_compute_stats (set, 0, 0);
  g_assert_cmpuint (rows->len, ==, 3);
  r = find (rows, set, "A", "P");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->stats.count, ==, 5);
  g_assert_cmpuint (r->stats.open, ==, 1);
  g_assert_cmpuint (r->stats.n_closed, ==, 4);
  g_assert_cmpint (r->stats.total, ==, 100);
  g_assert_cmpfloat (r->stats.mean, ==, 25.0);
  g_assert_cmpfloat (r->stats.median, ==, 25.0);
  g_assert_cmpint (r->stats.p90, ==, 40);
  g_assert_cmpint (r->stats.max, ==, 40);
  r = find (rows, set, "B", "P");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->stats.count, ==, 1);
  g_assert_cmpint (r->stats.total, ==, 5);
  r = find (rows, set, "B", "Q");
  g_assert_nonnull (r);
  g_assert_cmpint (r->stats.total, ==, 7);

  /* Only the spans that begin in [200, 450). */
  ranged = etl_span_set_compute_stats (set, 200, 450);
  g_assert_cmpuint (ranged->len, ==, 1);
  r = find (ranged, set, "A", "P");
  g_assert_cmpuint (r->stats.count, ==, 3);
  g_assert_cmpint (r->stats.total, ==, 90);
  g_assert_cmpint (r->stats.max, ==, 40);
}

static void
test_add_set (void)
{
  g_autoptr (EtlSpanSet) a = etl_span_set_new ();
  g_autoptr (EtlSpanSet) b = etl_span_set_new ();
  g_autoptr (EtlSpanSet) all = etl_span_set_new ();
  guint32 p;
  const EtlSpan *s;
  guint n = 0;

  add (a, "X", "L1", 0, 10, ETL_SPAN_NONE, 0);
  p = add (b, "Parent", "L2", 0, 100, ETL_SPAN_NONE, 0);
  add (b, "Child", "L2", 10, 20, p, 0);
  etl_span_set_add_set (all, a);
  etl_span_set_add_set (all, b);
  s = etl_span_set_get (all, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (etl_span_set_get_string (all, s[2].name), ==, "Child");
  g_assert_cmpuint (s[2].parent, ==, 1);
  g_assert_cmpstr (etl_span_set_get_string (all, s[s[2].parent].name), ==, "Parent");
  g_assert_cmpstr (etl_span_set_get_string (all, s[0].lane), ==, "L1");
  g_assert_cmpstr (etl_span_set_get_string (all, 12345), ==, "");
}

static void
test_histogram (void)
{
  gint64 d[1000];
  EtlSpanHistogram h;
  guint64 sum = 0;

  /* 1 … 1000 ticks, three decades: log scale. */
  for (guint i = 0; i < G_N_ELEMENTS (d); i++)
    d[i] = i + 1;
  etl_span_histogram_compute (&h, d, G_N_ELEMENTS (d), 32);
  g_assert_cmpuint (h.n_buckets, ==, 32);
  g_assert_true (h.log_scale);
  g_assert_cmpint (h.lo, ==, 1);
  g_assert_cmpint (h.hi, ==, 1000);
  for (guint b = 0; b < h.n_buckets; b++)
    sum += h.counts[b];
  g_assert_cmpuint (sum, ==, 1000);
  /* Every duration lies in its bucket's edges; the edges never fall. */
  for (guint i = 0; i < G_N_ELEMENTS (d); i++)
    {
      guint b = etl_span_histogram_bucket_of (&h, d[i]);

      g_assert_cmpuint (b, <, h.n_buckets);
      g_assert_cmpint (d[i], <, h.edges[b + 1]);
      if (b > 0)
        g_assert_cmpint (d[i], >=, h.edges[b]);
    }
  for (guint b = 1; b <= h.n_buckets; b++)
    g_assert_cmpint (h.edges[b], >=, h.edges[b - 1]);
  g_assert_cmpuint (etl_span_histogram_bucket_of (&h, 1000), ==, h.n_buckets - 1);
  g_assert_cmpuint (etl_span_histogram_bucket_of (&h, 1), ==, 0);
  g_assert_cmpuint (etl_span_histogram_bucket_of (&h, -5), ==, 0);
  g_assert_cmpuint (etl_span_histogram_bucket_of (&h, 1 << 30), ==, h.n_buckets - 1);

  /* 100 … 199: linear, 10 buckets of 10. */
  for (guint i = 0; i < 100; i++)
    d[i] = 100 + i;
  etl_span_histogram_compute (&h, d, 100, 10);
  g_assert_false (h.log_scale);
  for (guint b = 0; b < 10; b++)
    g_assert_cmpuint (h.counts[b], ==, 10);

  /* Nothing: one empty bucket. */
  etl_span_histogram_compute (&h, NULL, 0, 0);
  g_assert_cmpuint (h.n_buckets, ==, 1);
  g_assert_cmpuint (h.max_count, ==, 0);
}

static void
test_msbuild (void)
{
  g_autofree char *path = etl_test_corpus_path ("real/msbuild_PerfViewData.etl");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  g_autoptr (EtlSpanSet) again = NULL;
  g_autoptr (GArray) rows = NULL;
  const EtlSpanNameStats *r;
  const EtlSpan *s;
  guint n = 0, open = 0;

  if (path == NULL)
    return;
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  set = etl_span_set_get_activities_shared (trace, NULL, &error);
  g_assert_no_error (error);
  again = etl_span_set_get_activities_shared (trace, NULL, &error);
  g_assert_true (set == again);
  s = etl_span_set_get (set, &n);
  /* `etlscope-cli regions`: 2828 Starts, 17 open. */
  g_assert_cmpuint (n, ==, 2828);
  for (guint i = 0; i < n; i++)
    {
      open += (s[i].flags & ETL_SPAN_OPEN) != 0;
      g_assert_cmpint (s[i].stop, >=, s[i].start);
      if (s[i].parent != ETL_SPAN_NONE)
        g_assert_cmpuint (s[i].depth, ==, s[s[i].parent].depth + 1);
    }
  g_assert_cmpuint (open, ==, 17);
  rows = etl_span_set_compute_stats (set, 0, 0);
  g_assert_cmpuint (rows->len, ==, 505);
  r = find (rows, set, "ExecuteTask", "Microsoft-Build");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->stats.count, ==, 455);
  g_assert_cmpint (r->stats.total, ==, 790045);
  g_assert_cmpint (r->stats.p99, ==, 25456);
  g_assert_cmpint (r->stats.max, ==, 219769);
}

/* The shared set of net.4.5.2.x64.etl holds its GCs and their pauses in
 * one ".NET GC" lane (264 GCs, 265 pauses, as `regions --builtin gc,gc-pause`
 * reports), each blocking GC drawn inside its pause, and the runtime's
 * GarbageCollection activities once each (GCStart is logged in two
 * versions). */
static void
test_builtin (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  g_autoptr (GArray) rows = NULL;
  const EtlSpan *s;
  guint n = 0, gcs = 0, pauses = 0, inside = 0, threads = 0; /* threads: spans of the lifetime lanes, left out */
  guint64 activities = 0;

  if (path == NULL)
    return;
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  set = etl_span_set_get_activities_shared (trace, NULL, &error);
  g_assert_no_error (error);
  s = etl_span_set_get (set, &n);
  for (guint i = 0; i < n; i++)
    {
      const char *lane = etl_span_set_get_string (set, s[i].lane);
      const char *name = etl_span_set_get_string (set, s[i].name);

      threads += g_strcmp0 (lane, "Threads") == 0 || g_strcmp0 (lane, "Processes") == 0;
      if (g_strcmp0 (lane, ".NET GC") != 0)
        continue;
      g_assert_cmpuint (s[i].kind, ==, ETL_SPAN_KIND_BUILTIN);
      if (g_str_has_prefix (name, "GC gen "))
        {
          gcs++;
          if (s[i].parent != ETL_SPAN_NONE)
            {
              g_assert_true (g_str_has_prefix (etl_span_set_get_string (set, s[s[i].parent].name), "GC pause")
                             || g_strcmp0 (etl_span_set_get_string (set, s[s[i].parent].lane), ".NET GC") == 0);
              g_assert_cmpint (s[s[i].parent].start, <=, s[i].start);
              g_assert_cmpint (s[s[i].parent].stop, >=, s[i].stop);
              g_assert_cmpuint (s[i].depth, ==, s[s[i].parent].depth + 1);
              inside++;
            }
        }
      else
        pauses++;
    }
  g_test_message ("%u GCs (%u inside a pause), %u pauses", gcs, inside, pauses);
  g_assert_cmpuint (gcs, ==, 264);
  g_assert_cmpuint (pauses, ==, 265);
  g_assert_cmpuint (inside, ==, 264);
  g_assert_cmpuint (threads, ==, 0);
  rows = etl_span_set_compute_stats (set, 0, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const EtlSpanNameStats *r = &g_array_index (rows, EtlSpanNameStats, i);

      if (g_strcmp0 (etl_span_set_get_string (set, r->name), "GarbageCollection") == 0)
        activities += r->stats.count;
    }
  g_assert_cmpuint (activities, ==, 264);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/span-set/stats", test_stats);
  g_test_add_func ("/etl/span-set/add-set", test_add_set);
  g_test_add_func ("/etl/span-set/histogram", test_histogram);
  g_test_add_func ("/etl/span-set/msbuild", test_msbuild);
  g_test_add_func ("/etl/span-set/builtin", test_builtin);
  return g_test_run ();
}
