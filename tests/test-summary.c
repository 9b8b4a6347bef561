/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "etl-summary.h"
#include "etl-test-util.h"

static EtlTrace *
open_corpus (const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);
  g_autoptr (GError) error = NULL;
  const char *paths[] = { NULL, NULL };
  EtlTrace *trace;

  if (path == NULL)
    return NULL;
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* Records in [t0, t1) of @lane, counted over the index directly. */
static guint64
direct_count (EtlTrace *trace, EtlSummary *summary, gint64 t0, gint64 t1, guint lane)
{
  guint64 first = etl_trace_lower_bound (trace, t0);
  guint64 last = etl_trace_lower_bound (trace, t1);
  guint64 n = 0;

  for (guint64 i = first; i < last; i++)
    if (etl_trace_get_cpu (trace, i) == etl_summary_get_lane_id (summary, lane))
      n++;
  return n;
}

static void
test_summary_cpu_lanes (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (GError) error = NULL;
  guint64 total = 0;

  if (trace == NULL)
    return;

  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (summary);

  g_assert_cmpuint (etl_summary_get_n_lanes (summary), ==, 8);
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 0), ==, "CPU 0");
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 7), ==, "CPU 7");
  g_assert_cmpuint (etl_summary_get_n_bins (summary), ==, 65536);
  g_assert_cmpuint (etl_summary_get_n_levels (summary), ==, 17);
  g_assert_cmpint (etl_summary_get_begin (summary), ==, etl_trace_get_first_filetime (trace));
  g_assert_cmpint (etl_summary_get_bin_start (summary, 65536), >, etl_trace_get_last_filetime (trace));

  for (guint lane = 0; lane < 8; lane++)
    total += etl_summary_get_lane_total (summary, lane);
  g_assert_cmpuint (total, ==, 179474);
  g_assert_cmpuint (etl_summary_get_n_records (summary), ==, etl_trace_get_n_records (trace));
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 179474);
}

/* The whole range over one column of the coarsest level holds every record. */
static void
test_summary_query_total (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  g_autofree guint32 *counts = NULL;
  g_autofree guint16 *dominant = NULL;
  guint64 total = 0;
  guint level;

  if (trace == NULL)
    return;

  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
  counts = g_new (guint32, 8 * 1200);
  dominant = g_new (guint16, 8 * 1200);

  level = etl_summary_query (summary, etl_summary_get_begin (summary),
                             etl_summary_get_bin_start (summary, 65536), 1200, counts, dominant);
  /* 65536 bins over 1200 columns: 32-bin bins (level 5) are the coarsest
   * that are no wider than a column. */
  g_assert_cmpuint (level, ==, 5);
  for (guint i = 0; i < 8 * 1200; i++)
    {
      total += counts[i];
      if (counts[i] > 0)
        g_assert_cmpuint (dominant[i], <, etl_trace_get_n_providers (trace));
      else
        g_assert_cmpuint (dominant[i], ==, ETL_SUMMARY_NO_PROVIDER);
    }
  g_assert_cmpuint (total, ==, 179474);
}

/* Aligned sub-ranges: each column's count equals a direct count over the
 * index found with etl_trace_lower_bound(). */
static void
test_summary_query_subrange (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  static const struct { guint first_bin, n_bins, n_columns; } ranges[] = {
    { 16384, 16384, 16 },   /* level 10: 1024 bins per column */
    { 8192, 8192, 1 },      /* level 13, one column */
    { 40000, 64, 64 },      /* level 0: one bin per column */
    { 0, 65536, 256 },      /* whole range, level 8 */
    { 64960, 512, 8 },      /* near the end (64960 = 1015 × 64) */
  };

  if (trace == NULL)
    return;

  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      guint n_cols = ranges[r].n_columns;
      guint per_col = ranges[r].n_bins / n_cols;
      gint64 t0 = etl_summary_get_bin_start (summary, ranges[r].first_bin);
      gint64 t1 = etl_summary_get_bin_start (summary, ranges[r].first_bin + ranges[r].n_bins);
      g_autofree guint32 *counts = g_new (guint32, 8 * n_cols);
      guint64 sum = 0;

      etl_summary_query (summary, t0, t1, n_cols, counts, NULL);
      for (guint lane = 0; lane < 8; lane++)
        for (guint c = 0; c < n_cols; c++)
          {
            gint64 c0 = etl_summary_get_bin_start (summary, ranges[r].first_bin + c * per_col);
            gint64 c1 = etl_summary_get_bin_start (summary, ranges[r].first_bin + (c + 1) * per_col);

            g_assert_cmpuint (counts[lane * n_cols + c], ==, direct_count (trace, summary, c0, c1, lane));
            sum += counts[lane * n_cols + c];
          }
      g_assert_cmpuint (sum, ==, etl_trace_lower_bound (trace, t1) - etl_trace_lower_bound (trace, t0));
    }
}

/* A summary of a sub-range counts only the records inside it. */
static void
test_summary_range (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  gint64 first, last, t0, t1;

  if (trace == NULL)
    return;

  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace);
  t0 = first + (last - first) / 3;
  t1 = first + (last - first) / 2;
  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, t0, t1, 12, NULL, NULL);
  g_assert_nonnull (summary);
  g_assert_cmpint (etl_summary_get_begin (summary), ==, t0);
  g_assert_cmpuint (etl_summary_get_n_records (summary), ==,
                    etl_trace_lower_bound (trace, t1) - etl_trace_lower_bound (trace, t0));
}

static void
test_summary_provider_process (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) providers = NULL;
  g_autoptr (EtlSummary) processes = NULL;
  guint64 total = 0;

  if (trace == NULL)
    return;

  providers = etl_summary_new (trace, NULL, ETL_LANE_PROVIDER, 0, 0, 14, NULL, NULL);
  g_assert_cmpuint (etl_summary_get_n_lanes (providers), ==, etl_trace_get_n_providers (trace) + 1);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (providers); lane++)
    {
      g_assert_nonnull (etl_summary_get_lane_label (providers, lane));
      total += etl_summary_get_lane_total (providers, lane);
    }
  g_assert_cmpuint (total, ==, 179474);
  /* The provider lane of a record is its provider index. */
  g_assert_cmpuint (etl_summary_get_lane_total (providers, etl_trace_get_provider_index (trace, 0)), >, 0);

  processes = etl_summary_new (trace, NULL, ETL_LANE_PROCESS, 0, 0, 14, NULL, NULL);
  g_assert_cmpuint (etl_summary_get_n_lanes (processes), >, 1);
  total = 0;
  for (guint lane = 0; lane < etl_summary_get_n_lanes (processes); lane++)
    total += etl_summary_get_lane_total (processes, lane);
  g_assert_cmpuint (total, ==, 179474);
  /* Records no process can be found for share the last lane. */
  g_assert_cmpuint (etl_summary_get_lane_id (processes, etl_summary_get_n_lanes (processes) - 1), ==,
                    ETL_SUMMARY_NO_PID);
}

/* Process lanes: records without a header process id (PERFINFO samples)
 * go to the process of their thread, lanes are ordered by record count and
 * carry the process's lifetime.  The expected counts come from
 * etl_process_table_resolve_record() (which decodes each record), not from
 * the summary's own payload reading. */
static void
test_summary_process_lanes (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) processes = NULL;
  EtlProcessTable *table;
  guint64 want_3676 = 0, want_none = 0, header_3676 = 0;
  guint lane_3676 = G_MAXUINT, n;
  gint64 start, end;

  if (trace == NULL)
    return;
  table = etl_trace_get_process_table (trace);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord rec;
      guint32 pid;

      if (etl_trace_get_pid (trace, i, &pid))
        {
          header_3676 += pid == 3676;
          want_3676 += pid == 3676;
          continue;
        }
      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      if (!etl_process_table_resolve_record (table, &rec, NULL, &pid, NULL))
        want_none++;
      else
        want_3676 += pid == 3676;
    }
  /* Samples of Test.x64.exe's threads add to its header-attributed records. */
  g_assert_cmpuint (want_3676, >, header_3676);

  processes = etl_summary_new (trace, NULL, ETL_LANE_PROCESS, 0, 0, 14, NULL, NULL);
  n = etl_summary_get_n_lanes (processes);
  for (guint lane = 0; lane < n; lane++)
    {
      if (etl_summary_get_lane_id (processes, lane) == 3676)
        lane_3676 = lane;
      if (lane + 2 < n)
        g_assert_cmpuint (etl_summary_get_lane_total (processes, lane), >=,
                          etl_summary_get_lane_total (processes, lane + 1));
    }
  g_assert_cmpuint (lane_3676, <, n);
  g_assert_cmpstr (etl_summary_get_lane_label (processes, lane_3676), ==, "Test.x64.exe (3676)");
  g_assert_cmpuint (etl_summary_get_lane_total (processes, lane_3676), ==, want_3676);
  g_assert_cmpuint (etl_summary_get_lane_id (processes, n - 1), ==, ETL_SUMMARY_NO_PID);
  g_assert_cmpuint (etl_summary_get_lane_total (processes, n - 1), ==, want_none);

  /* etl_summary_get_lane_of_row() agrees with the counts, row by row. */
  {
    g_autofree guint64 *per_lane = g_new0 (guint64, n);

    for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
      per_lane[etl_summary_get_lane_of_row (processes, trace, i)]++;
    for (guint lane = 0; lane < n; lane++)
      g_assert_cmpuint (per_lane[lane], ==, etl_summary_get_lane_total (processes, lane));
  }

  /* Test.x64.exe started and ended within the trace. */
  g_assert_true (etl_summary_get_lane_lifetime (processes, lane_3676, &start, &end));
  g_assert_cmpint (start, >, etl_trace_get_first_filetime (trace));
  g_assert_cmpint (end, >, start);
  g_assert_cmpint (end, <=, etl_trace_get_last_filetime (trace));
}

static void
on_summary_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlSummary **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = etl_summary_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_summary_async (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;

  if (trace == NULL)
    return;

  etl_summary_new_async (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, on_summary_ready, &summary);
  while (summary == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (etl_summary_get_n_records (summary), ==, 179474);
}

static void
test_summary_cancelled (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  EtlSummary *summary;

  if (trace == NULL)
    return;

  g_cancellable_cancel (cancellable);
  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, cancellable, &error);
  g_assert_null (summary);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Per-bin counts over all lanes, one column per finest bin. */
static guint32 *
bin_totals (EtlSummary *summary)
{
  guint n_bins = etl_summary_get_n_bins (summary), n_lanes = etl_summary_get_n_lanes (summary);
  g_autofree guint32 *counts = g_new (guint32, (gsize) n_lanes * n_bins);
  guint32 *totals = g_new0 (guint32, n_bins);
  guint level;

  level = etl_summary_query (summary, etl_summary_get_begin (summary), etl_summary_get_bin_start (summary, n_bins),
                             n_bins, counts, NULL);
  g_assert_cmpuint (level, ==, 0);
  for (guint lane = 0; lane < n_lanes; lane++)
    for (guint b = 0; b < n_bins; b++)
      totals[b] += counts[(gsize) lane * n_bins + b];
  return totals;
}

/* Every other row: a bin's records are a contiguous run of rows, so each bin
 * keeps half of them, give or take one; lanes and totals follow. */
static void
test_summary_row_set_half (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) all = NULL;
  g_autoptr (EtlSummary) half = NULL;
  g_autoptr (EtlSummary) every = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  g_autoptr (EtlRowSet) all_rows = NULL;
  g_autofree guint32 *all_bins = NULL;
  g_autofree guint32 *half_bins = NULL;
  g_autoptr (GError) error = NULL;
  guint64 n, n_half, *kept;
  guint64 lane_sum = 0;

  if (trace == NULL)
    return;

  n = etl_trace_get_n_records (trace);
  n_half = (n + 1) / 2;
  kept = g_new (guint64, n_half);
  for (guint64 k = 0; k < n_half; k++)
    kept[k] = 2 * k;
  rows = etl_row_set_new_take (kept, n_half);

  all = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 12, NULL, NULL);
  half = etl_summary_new (trace, rows, ETL_LANE_CPU, 0, 0, 12, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (half);

  /* Same lanes and bins: only the counts change. */
  g_assert_cmpuint (etl_summary_get_n_lanes (half), ==, etl_summary_get_n_lanes (all));
  g_assert_cmpuint (etl_summary_get_n_bins (half), ==, etl_summary_get_n_bins (all));
  g_assert_cmpint (etl_summary_get_bin_width (half), ==, etl_summary_get_bin_width (all));
  g_assert_cmpuint (etl_summary_get_n_records (half), ==, n_half);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (half); lane++)
    {
      g_assert_cmpuint (etl_summary_get_lane_total (half, lane), <=, etl_summary_get_lane_total (all, lane));
      lane_sum += etl_summary_get_lane_total (half, lane);
    }
  g_assert_cmpuint (lane_sum, ==, n_half);

  all_bins = bin_totals (all);
  half_bins = bin_totals (half);
  for (guint b = 0; b < etl_summary_get_n_bins (all); b++)
    {
      g_assert_cmpint ((gint64) half_bins[b] * 2, >=, (gint64) all_bins[b] - 1);
      g_assert_cmpint ((gint64) half_bins[b] * 2, <=, (gint64) all_bins[b] + 1);
    }

  /* A set of every row counts like NULL. */
  all_rows = etl_row_set_new_all (n);
  every = etl_summary_new (trace, all_rows, ETL_LANE_CPU, 0, 0, 12, NULL, NULL);
  g_assert_cmpuint (etl_summary_get_n_records (every), ==, n);
  g_clear_pointer (&half_bins, g_free);
  half_bins = bin_totals (every);
  g_assert_cmpmem (half_bins, sizeof (guint32) * etl_summary_get_n_bins (all),
                   all_bins, sizeof (guint32) * etl_summary_get_n_bins (all));
}

/* An empty row set: the lanes are still there, every count is zero. */
static void
test_summary_row_set_empty (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (EtlSummary) processes = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  g_autofree guint32 *bins = NULL;

  if (trace == NULL)
    return;

  rows = etl_row_set_new_take (NULL, 0);
  summary = etl_summary_new (trace, rows, ETL_LANE_CPU, 0, 0, 12, NULL, NULL);
  g_assert_nonnull (summary);
  g_assert_cmpuint (etl_summary_get_n_lanes (summary), ==, 8);
  g_assert_cmpuint (etl_summary_get_n_records (summary), ==, 0);
  for (guint lane = 0; lane < 8; lane++)
    g_assert_cmpuint (etl_summary_get_lane_total (summary, lane), ==, 0);
  bins = bin_totals (summary);
  for (guint b = 0; b < etl_summary_get_n_bins (summary); b++)
    g_assert_cmpuint (bins[b], ==, 0);

  /* Process lanes come from the rows counted: only the no-process lane. */
  processes = etl_summary_new (trace, rows, ETL_LANE_PROCESS, 0, 0, 12, NULL, NULL);
  g_assert_cmpuint (etl_summary_get_n_lanes (processes), ==, 1);
  g_assert_cmpuint (etl_summary_get_lane_total (processes, 0), ==, 0);
}

static void
test_loss_summary_amsi (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("AMSITrace.etl");
  g_autoptr (EtlLossSummary) losses = NULL;
  guint64 ev = 0, bu = 0, sev = 0, sbu = 0;
  guint64 cum[16];

  if (trace == NULL)
    return;

  losses = etl_loss_summary_new (trace, 10);
  g_assert_cmpuint (etl_loss_summary_get_n_files (losses), ==, 1);
  etl_loss_summary_get_header_totals (losses, 0, &ev, &bu);
  g_assert_cmpuint (ev, ==, 3);
  g_assert_cmpuint (bu, ==, 0);

  /* Cumulative series: never decreasing, ending at the series total. */
  etl_loss_summary_get_series_totals (losses, 0, &sev, &sbu);
  etl_loss_summary_query (losses, 0, etl_loss_summary_get_begin (losses), etl_loss_summary_get_end (losses),
                          G_N_ELEMENTS (cum), cum, NULL);
  for (guint i = 1; i < G_N_ELEMENTS (cum); i++)
    g_assert_cmpuint (cum[i], >=, cum[i - 1]);
  g_assert_cmpuint (cum[G_N_ELEMENTS (cum) - 1], ==, sev);
  g_assert_cmpuint (etl_loss_summary_get_max (losses), ==, MAX (sev, sbu));
}

static void
test_loss_summary_none (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlLossSummary) losses = NULL;
  guint64 ev = 1, bu = 1, sev = 1, sbu = 1;
  guint64 cum[8], cumb[8];

  if (trace == NULL)
    return;

  losses = etl_loss_summary_new (trace, 12);
  etl_loss_summary_get_header_totals (losses, 0, &ev, &bu);
  g_assert_cmpuint (ev, ==, 0);
  g_assert_cmpuint (bu, ==, 0);
  etl_loss_summary_get_series_totals (losses, 0, &sev, &sbu);
  g_assert_cmpuint (sev, ==, 0);
  g_assert_cmpuint (sbu, ==, 0);
  etl_loss_summary_query (losses, 0, etl_loss_summary_get_begin (losses), etl_loss_summary_get_end (losses),
                          8, cum, cumb);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpuint (cum[i], ==, 0);
      g_assert_cmpuint (cumb[i], ==, 0);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/summary/cpu-lanes", test_summary_cpu_lanes);
  g_test_add_func ("/etl/summary/process-lanes", test_summary_process_lanes);
  g_test_add_func ("/etl/summary/query-total", test_summary_query_total);
  g_test_add_func ("/etl/summary/query-subrange", test_summary_query_subrange);
  g_test_add_func ("/etl/summary/range", test_summary_range);
  g_test_add_func ("/etl/summary/provider-process", test_summary_provider_process);
  g_test_add_func ("/etl/summary/async", test_summary_async);
  g_test_add_func ("/etl/summary/row-set-half", test_summary_row_set_half);
  g_test_add_func ("/etl/summary/row-set-empty", test_summary_row_set_empty);
  g_test_add_func ("/etl/summary/cancelled", test_summary_cancelled);
  g_test_add_func ("/etl/loss-summary/amsi", test_loss_summary_amsi);
  g_test_add_func ("/etl/loss-summary/none", test_loss_summary_none);

  return g_test_run ();
}
