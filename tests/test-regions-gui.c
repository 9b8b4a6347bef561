/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The Regions tab, the timeline's Regions area and File ▸ Load Regions…
 * (issue 21) on real/msbuild_PerfViewData.etl: the names table holds the
 * statistics `etlscope-cli regions` reports (its 508 names, the 3 with
 * only unmatched Stops with Count 0 and their unmatched_stops; ExecuteTask:
 * 455 instances, 4 unmatched Stops, total 79.0045 ms, median 0.0304, P90
 * 0.1565, P99 2.5456, max 21.9769 ms), to the tick; the histogram of a name counts its instances,
 * and dragging over its tail selects exactly the instances whose bucket is
 * there (checked against the spans themselves) and lists them, the longest
 * first; the Regions area draws PerfView's and the MSBuild provider's lanes with the tasks
 * nested under their targets, a click on a span selects its Start in the
 * event list, lanes by thread make one lane per thread; a Regions of
 * Interest file loads beside the activities (Target 393 instances with 5
 * open, Task 678, as the CLI's --regions reports), and a malformed one
 * reports its file and line; "Summary of these" shows in the Summary tab the
 * grouped summary of exactly the records etl_thread_rows_new() gives for the
 * selected instances (their Start and Stop records), says so above the table,
 * and goes back to the filter's rows with "Show all" or a new filter.  Run
 * under Xvfb; skipped without a display.
 * With ETLSCOPE_SCREENSHOT_DIR set, the screenshot test saves
 * regions-timeline-WxH.png, regions-view-WxH.png and regions-summary-WxH.png there
 * (ETLSCOPE_SCREENSHOT_SIZE, default 1600x1000). */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-duration-histogram.h"
#include "etl-region-lanes.h"
#include "etl-regions-view.h"
#include "etl-span-set.h"
#include "etl-test-gui-util.h"
#include "etl-document.h"
#include "etl-event-list.h"
#include "etl-group-view.h"
#include "etl-thread-rows.h"
#include "etl-view-panel.h"
#include "etl-window.h"

static gboolean have_display;

/* The --regions file of test-cli-regions.c: MSBuild's Target (events 43/44)
 * and Task (47/48), the Task nested in its thread's Target. */
static const char msbuild_roi[] =
  "<?xml version='1.0' encoding='utf-8'?>\n<InstrumentationManifest><Instrumentation><Regions>\n"
  "<RegionRoot Guid=\"{20000000-0000-0000-0000-000000000000}\" Name=\"MSBuild\">\n"
  "<Region Guid=\"{20000000-0000-0000-0000-000000000001}\" Name=\"MSBuild-Target\" FriendlyName=\"Target\">\n"
  " <Start><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"43\" Version=\"0\"/></Start>\n"
  " <Stop><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"44\" Version=\"0\"/></Stop>\n"
  " <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"targetName\"/></Event></Match>\n"
  " <Naming><PayloadBased NameField=\"targetName\"/></Naming>\n"
  " <Region Guid=\"{20000000-0000-0000-0000-000000000002}\" Name=\"MSBuild-Target-Task\" FriendlyName=\"Task\">\n"
  "  <Start><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"47\" Version=\"0\"/></Start>\n"
  "  <Stop><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"48\" Version=\"0\"/></Stop>\n"
  "  <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"taskID\"/></Event>"
  "<Parent PID=\"true\" TID=\"true\"/></Match>\n"
  "  <Naming><PayloadBased NameField=\"taskName\"/></Naming>\n"
  " </Region>\n</Region>\n</RegionRoot></Regions></Instrumentation></InstrumentationManifest>\n";

typedef struct
{
  EtlWindow *window;
} Fixture;

static gboolean
all_idle (gpointer data)
{
  EtlWindow *window = data;

  return !etl_window_get_busy (window) && !etl_window_get_regions_busy (window)
         && !etl_regions_view_is_busy (etl_window_get_regions_view (window))
         && !etl_group_view_is_busy (etl_window_get_group_view (window))
         && !etl_region_lanes_is_busy (etl_window_get_region_lanes (window));
}

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_for (all_idle, window, "the window and its Regions jobs to finish");
}

static gboolean
open_corpus (Fixture *f, const char *name)
{
  g_autofree char *path = NULL;

  if (etl_test_skip_without_display (have_display))
    return FALSE;
  if ((path = etl_test_corpus_path (name)) == NULL)
    return FALSE;
  f->window = etl_test_window_new (1600, 1000);
  etl_test_window_open (f->window, (const char *const *) &path, 1);
  wait_idle (f->window);
  return TRUE;
}

static gboolean
open_msbuild (Fixture *f)
{
  return open_corpus (f, "real/msbuild_PerfViewData.etl");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  etl_test_window_clear (&f->window);
}

/* The names table's row of @name (and @source, when not NULL). */
static gboolean
find_row (EtlRegionsView *view, const char *name, const char *source, GtkTreeIter *iter)
{
  GtkTreeModel *model = gtk_tree_view_get_model (etl_regions_view_get_names_view (view));

  if (!gtk_tree_model_get_iter_first (model, iter))
    return FALSE;
  do
    {
      g_autofree char *n = NULL;
      g_autofree char *s = NULL;

      gtk_tree_model_get (model, iter, ETL_REGIONS_VIEW_NAME_COLUMN_NAME, &n, ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE, &s,
                          -1);
      if (g_strcmp0 (n, name) == 0 && (source == NULL || g_strcmp0 (s, source) == 0))
        return TRUE;
    }
  while (gtk_tree_model_iter_next (model, iter));
  return FALSE;
}

typedef struct
{
  guint64 count, open, unmatched;
  gint64 total, p90, p99, max;
  double median;
} Row;

static Row
read_row (EtlRegionsView *view, const char *name, const char *source)
{
  GtkTreeModel *model = gtk_tree_view_get_model (etl_regions_view_get_names_view (view));
  GtkTreeIter iter;
  Row r = { 0 };

  g_assert_true (find_row (view, name, source, &iter));
  gtk_tree_model_get (model, &iter, ETL_REGIONS_VIEW_NAME_COLUMN_COUNT, &r.count, ETL_REGIONS_VIEW_NAME_COLUMN_OPEN,
                      &r.open, ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL, &r.total, ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN,
                      &r.median, ETL_REGIONS_VIEW_NAME_COLUMN_P90, &r.p90, ETL_REGIONS_VIEW_NAME_COLUMN_P99, &r.p99,
                      ETL_REGIONS_VIEW_NAME_COLUMN_MAX, &r.max, ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED, &r.unmatched,
                      -1);
  return r;
}

/* The names table and the histogram selection. */
static void
test_view (Fixture *f, gconstpointer data)
{
  EtlRegionsView *view;
  EtlDurationHistogram *hist;
  const EtlSpanHistogram *h;
  GtkTreeModel *model;
  GtkTreeIter iter;
  Row r;
  guint64 sum = 0, tail = 0;
  guint first, n_sel = 0, n_spans = 0, expect = 0;
  const guint32 *sel;
  const EtlSpan *s;
  EtlSpanSet *set;
  guint32 name_id = ETL_SPAN_NONE, lane_id = ETL_SPAN_NONE;

  (void) data;
  if (!open_msbuild (f))
    return;
  view = etl_window_get_regions_view (f->window);
  g_assert_true (etl_window_show_view_tab (f->window, "regions"));
  model = gtk_tree_view_get_model (etl_regions_view_get_names_view (view));
  /* The CLI's 508 names, the 3 that have only unmatched Stops
   * (EvaluateStop 6, Target 3, BuildProject 2) with Count 0. */
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 508);
  g_test_message ("%s", etl_regions_view_get_message (view));
  g_assert_nonnull (strstr (etl_regions_view_get_message (view), "508 names · 2828 intervals · 17 Stops without a Start"));
  r = read_row (view, "EvaluateStop", NULL);
  g_assert_cmpuint (r.count, ==, 0);
  g_assert_cmpuint (r.unmatched, ==, 6);
  r = read_row (view, "Target", "Microsoft-Build");
  g_assert_cmpuint (r.count, ==, 0);
  g_assert_cmpuint (r.unmatched, ==, 3);
  r = read_row (view, "BuildProject", NULL);
  g_assert_cmpuint (r.count, ==, 0);
  g_assert_cmpuint (r.unmatched, ==, 2);
  r = read_row (view, "RequestThreadProc", NULL);
  g_assert_cmpuint (r.count, ==, 6);
  g_assert_cmpuint (r.unmatched, ==, 2);
  /* Such a name selected: no instance, nothing to summarise. */
  g_assert_true (etl_regions_view_select_name (view, "EvaluateStop", NULL));
  wait_idle (f->window);
  etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, 0);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (etl_regions_view_get_summary_button (view))));

  /* `etlscope-cli regions` on the same trace, in 100-ns ticks. */
  r = read_row (view, "ExecuteTask", NULL);
  g_assert_cmpuint (r.count, ==, 455);
  g_assert_cmpuint (r.open, ==, 0);
  g_assert_cmpuint (r.unmatched, ==, 4);
  g_assert_cmpint (r.total, ==, 790045);
  g_assert_cmpfloat (r.median, ==, 304.0);
  g_assert_cmpint (r.p90, ==, 1565);
  g_assert_cmpint (r.p99, ==, 25456);
  g_assert_cmpint (r.max, ==, 219769);
  r = read_row (view, "ApplyLazyItemOperations(PropertyPageSchema)", NULL);
  g_assert_cmpuint (r.count, ==, 318);
  g_assert_cmpint (r.total, ==, 27340);
  g_assert_cmpint (r.max, ==, 328);

  /* The histogram of ExecuteTask counts its 455 closed instances. */
  g_assert_true (etl_regions_view_select_name (view, "ExecuteTask", NULL));
  wait_idle (f->window);
  hist = etl_regions_view_get_histogram (view);
  h = etl_duration_histogram_get_histogram (hist);
  g_assert_nonnull (h);
  g_assert_cmpuint (h->n_buckets, ==, ETL_REGIONS_VIEW_BUCKETS);
  for (guint b = 0; b < h->n_buckets; b++)
    sum += h->counts[b];
  g_assert_cmpuint (sum, ==, 455);
  g_assert_cmpint (h->hi, ==, 219769);
  etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, 455);

  /* The slow tail: from P99's bucket to the last, as a drag would. */
  first = etl_span_histogram_bucket_of (h, 25456);
  for (guint b = first; b < h->n_buckets; b++)
    tail += h->counts[b];
  g_test_message ("tail: buckets %u-%u, %" G_GUINT64_FORMAT " instances", first, h->n_buckets - 1, tail);
  g_assert_cmpuint (tail, >=, 5);
  g_assert_cmpuint (tail, <, 455);
  etl_duration_histogram_set_selection (hist, (int) h->n_buckets - 1, (int) first);
  wait_idle (f->window);
  sel = etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, tail);

  /* Exactly the instances of the name whose bucket is in the selection,
   * counted from the spans themselves. */
  set = etl_regions_view_get_spans (view);
  s = etl_span_set_get (set, &n_spans);
  for (guint i = 0; i < n_spans; i++)
    if (g_strcmp0 (etl_span_set_get_string (set, s[i].name), "ExecuteTask") == 0)
      {
        name_id = s[i].name;
        lane_id = s[i].lane;
        break;
      }
  g_assert_cmpuint (name_id, !=, ETL_SPAN_NONE);
  for (guint i = 0; i < n_spans; i++)
    if (s[i].name == name_id && s[i].lane == lane_id && (s[i].flags & ETL_SPAN_OPEN) == 0
        && etl_span_histogram_bucket_of (h, s[i].stop - s[i].start) >= first)
      expect++;
  g_assert_cmpuint (expect, ==, tail);
  for (guint i = 0; i < n_sel; i++)
    {
      g_assert_cmpuint (s[sel[i]].name, ==, name_id);
      g_assert_cmpuint (etl_span_histogram_bucket_of (h, s[sel[i]].stop - s[sel[i]].start), >=, first);
    }

  /* The table lists them, the longest (21.9769 ms) first. */
  model = gtk_tree_view_get_model (etl_regions_view_get_instances_view (view));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, (int) tail);
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  {
    gint64 d = 0;

    gtk_tree_model_get (model, &iter, ETL_REGIONS_VIEW_INSTANCE_COLUMN_DURATION, &d, -1);
    g_assert_cmpint (d, ==, 219769);
  }

  /* Clearing the selection: all 455 again. */
  etl_duration_histogram_set_selection (hist, -1, -1);
  wait_idle (f->window);
  etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, 455);
  /* A new selection's rows come in a new store (the old one is dropped whole). */
  model = gtk_tree_view_get_model (etl_regions_view_get_instances_view (view));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 455);

  /* No main-loop step of the view was long. */
  g_test_message ("longest step %" G_GINT64_FORMAT " µs", etl_regions_view_get_longest_step (view));
  g_assert_cmpint (etl_regions_view_get_longest_step (view), <, 100000);
}

/* The Regions area: MSBuild's lane, nesting, click, lanes by thread. */
static void
test_lanes (Fixture *f, gconstpointer data)
{
  EtlRegionLanes *lanes;
  EtlSpanSet *set;
  const EtlSpan *s;
  guint n = 0;
  guint32 child = ETL_SPAN_NONE;
  GdkRectangle rc, rp;
  g_autoptr (GHashTable) threads = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree char *tip = NULL;

  (void) data;
  if (!open_msbuild (f))
    return;
  lanes = etl_window_get_region_lanes (f->window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (lanes)));
  for (guint i = 0; i < etl_region_lanes_get_n_lanes (lanes); i++)
    g_test_message ("lane %u: %s", i, etl_region_lanes_get_lane_label (lanes, i));
  /* PerfView's own Start/Stop events, then MSBuild's (first Start first). */
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (lanes), ==, 2);
  g_assert_cmpstr (etl_region_lanes_get_lane_label (lanes, 0), ==, "PerfView");
  g_assert_cmpstr (etl_region_lanes_get_lane_label (lanes, 1), ==, "Microsoft-Build");
  etl_test_wait_paint (GTK_WIDGET (f->window));
  g_assert_cmpuint (etl_region_lanes_get_n_drawn (lanes), >, 0);

  /* A span nested in another of its thread is drawn one row lower. */
  set = etl_region_lanes_get_spans (lanes);
  s = etl_span_set_get (set, &n);
  g_assert_cmpuint (n, ==, 2828);
  for (guint i = 0; i < n && child == ETL_SPAN_NONE; i++)
    if (s[i].parent != ETL_SPAN_NONE && s[s[i].parent].tid == s[i].tid
        && g_str_has_prefix (etl_span_set_get_string (set, s[s[i].parent].name), "Target("))
      child = i;
  g_assert_cmpuint (child, !=, ETL_SPAN_NONE);
  etl_zoom_manager_set_visible (etl_window_get_zoom_manager (f->window), s[s[child].parent].start,
                                s[s[child].parent].stop + 1);
  etl_test_wait_paint (GTK_WIDGET (f->window));
  etl_region_lanes_span_rect (lanes, child, &rc);
  etl_region_lanes_span_rect (lanes, s[child].parent, &rp);
  g_assert_cmpint (rc.y, >, rp.y);
  g_assert_cmpint (rc.x, >=, rp.x);
  g_assert_cmpint (rc.x + rc.width, <=, rp.x + rp.width + 1);
  /* What is under the parent's bar is the parent. */
  g_assert_cmpuint (etl_region_lanes_span_at (lanes, rp.x + rp.width / 2.0, rp.y + 2), ==, s[child].parent);

  /* Hover: name, duration, the Start's fields. */
  tip = etl_region_lanes_dup_tooltip (lanes, s[child].parent);
  g_test_message ("%s", tip);
  g_assert_true (g_str_has_prefix (tip, etl_span_set_get_string (set, s[s[child].parent].name)));
  g_assert_nonnull (strstr (tip, "targetName="));

  /* A click selects the Start in the event list. */
  etl_region_lanes_select_span (lanes, s[child].parent);
  g_assert_cmpuint (etl_event_list_get_selected_row (etl_window_get_event_list (f->window)), ==,
                    s[s[child].parent].start_record);

  /* The filter: only MSBuild's events kept, PerfView's lane goes. */
  etl_window_filter_by_row (f->window, "provider", FALSE, s[child].start_record);
  wait_idle (f->window);
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (lanes), ==, 1);
  g_assert_cmpstr (etl_region_lanes_get_lane_label (lanes, 0), ==, "Microsoft-Build");
  etl_document_clear_conditions (etl_window_get_document (f->window));
  etl_window_filter_by_row (f->window, "provider", TRUE, s[child].start_record);
  wait_idle (f->window);
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (lanes), ==, 1);
  g_assert_cmpstr (etl_region_lanes_get_lane_label (lanes, 0), ==, "PerfView");
  etl_document_clear_conditions (etl_window_get_document (f->window));
  wait_idle (f->window);
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (lanes), ==, 2);

  /* Lanes by thread: one per thread that began a span. */
  for (guint i = 0; i < n; i++)
    g_hash_table_add (threads, GUINT_TO_POINTER (s[i].tid));
  etl_region_lanes_set_mode (lanes, ETL_REGION_LANES_BY_THREAD);
  wait_idle (f->window);
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (lanes), ==, g_hash_table_size (threads));
  g_assert_true (g_str_has_prefix (etl_region_lanes_get_lane_label (lanes, 0), "Thread "));
}

/* File ▸ Load Regions…: a good file beside the activities, a bad one. */
static void
test_load_regions (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *good = NULL;
  g_autofree char *bad = NULL;
  EtlRegionsView *view;
  Row r;

  (void) data;
  if (!open_msbuild (f))
    return;
  dir = g_dir_make_tmp ("etlscope-roi-gui-XXXXXX", &error);
  g_assert_no_error (error);
  good = g_build_filename (dir, "msbuild.regions.xml", NULL);
  bad = g_build_filename (dir, "bad.regions.xml", NULL);
  g_file_set_contents (good, msbuild_roi, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (bad, "<InstrumentationManifest>\n<Instrumentation>\n<Regions>\n<RegionRoot Guid=\"{zz}\"", -1,
                       &error);
  g_assert_no_error (error);

  view = etl_window_get_regions_view (f->window);
  etl_window_load_regions (f->window, good);
  wait_idle (f->window);
  g_assert_null (etl_window_get_regions_error (f->window));
  g_assert_cmpstr (etl_window_get_view_tab (f->window), ==, "regions");
  /* `etlscope-cli regions --regions`: Target 393 (5 open), Task 678 (all
   * open: their Stop carries no taskID to match). */
  r = read_row (view, "Target", "Regions: msbuild.regions.xml");
  g_assert_cmpuint (r.count, ==, 393);
  g_assert_cmpuint (r.open, ==, 5);
  g_assert_cmpint (r.total, ==, 6991305);
  g_assert_cmpint (r.p99, ==, 377533);
  g_assert_cmpint (r.max, ==, 1029370);
  r = read_row (view, "Task", "Regions: msbuild.regions.xml");
  g_assert_cmpuint (r.count, ==, 678);
  g_assert_cmpuint (r.open, ==, 678);
  /* Beside the activities (508 names). */
  g_assert_cmpint (gtk_tree_model_iter_n_children (gtk_tree_view_get_model (etl_regions_view_get_names_view (view)),
                                                   NULL), ==, 508 + 2);
  g_assert_cmpuint (etl_region_lanes_get_n_lanes (etl_window_get_region_lanes (f->window)), ==, 3);
  g_assert_cmpstr (etl_region_lanes_get_lane_label (etl_window_get_region_lanes (f->window), 2), ==,
                   "Regions: msbuild.regions.xml");

  /* The malformed file: its name and line in the error; what was loaded
   * stays. */
  etl_window_load_regions (f->window, bad);
  wait_idle (f->window);
  g_test_message ("%s", etl_window_get_regions_error (f->window));
  g_assert_nonnull (etl_window_get_regions_error (f->window));
  g_assert_nonnull (strstr (etl_window_get_regions_error (f->window), "bad.regions.xml:4"));
  g_assert_nonnull (strstr (etl_window_get_info_message (f->window), "bad.regions.xml:4"));
  r = read_row (view, "Target", "Regions: msbuild.regions.xml");
  g_assert_cmpuint (r.count, ==, 393);

  g_remove (good);
  g_remove (bad);
  g_rmdir (dir);
}

/* The flame graph of the selected instances on net.4.5.2.x64.etl (528
 * GarbageCollection activities, sampled stacks): its root counts exactly
 * the SampledProfile records with a stack whose ThreadId is a selected
 * instance's thread, within that instance, counted here from the records. */
static void
test_flame (Fixture *f, gconstpointer data)
{
  g_autofree char *path = NULL;
  EtlRegionsView *view;
  EtlTrace *trace;
  EtlStacks *stacks;
  EtlSpanSet *set;
  const EtlSpan *s;
  const guint32 *sel;
  guint n_sel = 0, n = 0, n_nodes = 0;
  guint64 expect = 0, n_records;
  EtlStackTree *tree;

  (void) data;
  if (etl_test_skip_without_display (have_display))
    return;
  if ((path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  f->window = g_object_ref_sink (etl_window_new (NULL));
  gtk_widget_show (GTK_WIDGET (f->window));
  etl_test_window_open (f->window, (const char *const *) &path, 1);
  wait_idle (f->window);
  view = etl_window_get_regions_view (f->window);
  g_assert_true (etl_regions_view_select_name (view, "GarbageCollection", NULL));
  wait_idle (f->window);
  sel = etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, 264); /* GCStart is logged in two versions: one activity each */
  set = etl_regions_view_get_spans (view);
  s = etl_span_set_get (set, &n);
  trace = etl_window_get_trace (f->window);
  stacks = etl_document_get_stacks (etl_window_get_document (f->window));
  g_assert_nonnull (stacks);
  n_records = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n_records; i++)
    {
      EtlRecordBrief rec = { 0 };
      gsize ptr;
      guint32 tid;

      if (!etl_stacks_has_stack (stacks, i) || !etl_trace_peek_record (trace, i, &rec))
        continue;
      ptr = rec.header_type == ETL_HEADER_TYPE_PERFINFO32 ? 4 : 8;
      if (rec.hook_id == 0x0F2E && rec.user_data != NULL && rec.user_data_len >= ptr + 4)
        {
          memcpy (&tid, rec.user_data + ptr, 4);
          for (guint k = 0; k < n_sel; k++)
            if (s[sel[k]].tid == GUINT32_FROM_LE (tid) && rec.filetime >= s[sel[k]].start
                && rec.filetime < s[sel[k]].stop)
              {
                expect++;
                break;
              }
        }
      etl_record_brief_clear (&rec);
    }
  tree = etl_flame_graph_get_tree (etl_regions_view_get_flame_graph (view));
  g_assert_nonnull (tree);
  g_test_message ("%" G_GUINT64_FORMAT " samples in the 264 collections", expect);
  g_assert_cmpuint (etl_stack_tree_get_nodes (tree, &n_nodes)[0].total, ==, expect);
  g_assert_cmpuint (expect, >, 0);
}

/* The child of @group labelled @label, NULL when none. */
static const EtlGroup *
find_group (const EtlGroup *group, const char *label)
{
  for (guint i = 0; group->children != NULL && i < group->children->len; i++)
    {
      const EtlGroup *child = g_ptr_array_index (group->children, i);

      if (g_strcmp0 (child->label, label) == 0)
        return child;
    }
  return NULL;
}

/* The selected instances of the Regions tab as etl_thread_rows_new() takes
 * them for "Summary of these": their threads from their Start to their Stop
 * included. */
static EtlRowSet *
expected_rows (EtlWindow *window)
{
  EtlRegionsView *view = etl_window_get_regions_view (window);
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeSpan));
  g_autoptr (GError) error = NULL;
  const EtlSpan *s;
  const guint32 *sel;
  guint n = 0, n_sel = 0;
  EtlRowSet *rows;

  s = etl_span_set_get (etl_regions_view_get_spans (view), &n);
  sel = etl_regions_view_get_selected (view, &n_sel);
  for (guint i = 0; i < n_sel; i++)
    {
      EtlStackTreeSpan t = { s[sel[i]].tid, s[sel[i]].start, s[sel[i]].stop + 1 };

      g_assert_cmpuint (s[sel[i]].tid, !=, 0);
      g_array_append_val (spans, t);
    }
  rows = etl_thread_rows_new (etl_window_get_trace (window), (const EtlStackTreeSpan *) (gpointer) spans->data,
                              spans->len, NULL, &error);
  g_assert_no_error (error);
  return rows;
}

/* "Summary of these" on the 455 ExecuteTask instances: the Summary tab
 * groups exactly their records (the row set computed here from the same
 * spans): each instance's Start and Stop and two schema records, and says
 * so; "Show all" and a new
 * filter bring the filter's rows back. */
static void
test_summary (Fixture *f, gconstpointer data)
{
  EtlRegionsView *view;
  EtlGroupView *groups;
  EtlGroupSummary *summary;
  const EtlGroup *provider, *event;
  g_autoptr (EtlRowSet) expect = NULL;
  g_autofree char *want = NULL;
  const guint32 *sel;
  const EtlSpan *s;
  guint n_sel = 0, n = 0;
  EtlRowSet *rows;

  (void) data;
  if (!open_msbuild (f))
    return;
  view = etl_window_get_regions_view (f->window);
  groups = etl_window_get_group_view (f->window);
  g_assert_true (etl_window_show_view_tab (f->window, "regions"));
  g_assert_true (etl_regions_view_select_name (view, "ExecuteTask", NULL));
  wait_idle (f->window);
  sel = etl_regions_view_get_selected (view, &n_sel);
  g_assert_cmpuint (n_sel, ==, 455);
  s = etl_span_set_get (etl_regions_view_get_spans (view), &n);
  expect = expected_rows (f->window);
  g_test_message ("the 455 instances' threads within their intervals: %" G_GUINT64_FORMAT " records",
                  etl_row_set_get_n (expect));

  /* The click only starts the work: nothing is shown yet, the view is
   * busy, the main loop runs on. */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (etl_regions_view_get_summary_button (view))));
  gtk_button_clicked (etl_regions_view_get_summary_button (view));
  g_assert_true (etl_regions_view_is_busy (view));
  g_assert_null (etl_group_view_get_title (groups));
  wait_idle (f->window);
  g_assert_cmpstr (etl_window_get_view_tab (f->window), ==, "summary");
  g_test_message ("%s", etl_group_view_get_title (groups));
  want = g_strdup_printf ("455 instances of ExecuteTask: their threads within their intervals — %'" G_GUINT64_FORMAT
                          " records",
                          etl_row_set_get_n (expect));
  g_assert_cmpstr (etl_group_view_get_title (groups), ==, want);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (etl_group_view_get_show_all_button (groups))));
  summary = etl_group_view_get_summary (groups);
  g_assert_nonnull (summary);
  g_assert_cmpuint (etl_group_summary_get_total (summary), ==, etl_row_set_get_n (expect));
  /* Every instance's Start and Stop (all 455 closed, each Stop on its
   * Start's thread), and no other ExecuteTask record: the trace has 678
   * of each. */
  provider = find_group (etl_group_summary_get_root (summary), "Microsoft-Build");
  g_assert_nonnull (provider);
  event = find_group (provider, "ExecuteTask/Start");
  g_assert_nonnull (event);
  g_assert_cmpuint (event->count, ==, 455);
  event = find_group (provider, "ExecuteTask/Stop");
  g_assert_nonnull (event);
  g_assert_cmpuint (event->count, ==, 455);
  for (guint i = 0; i < etl_group_summary_get_root (summary)->children->len; i++)
    {
      const EtlGroup *p = g_ptr_array_index (etl_group_summary_get_root (summary)->children, i);

      for (guint k = 0; p->children != NULL && k < p->children->len; k++)
        g_test_message ("%s ▸ %s: %" G_GUINT64_FORMAT, p->label,
                        ((const EtlGroup *) g_ptr_array_index (p->children, k))->label,
                        ((const EtlGroup *) g_ptr_array_index (p->children, k))->count);
    }
  /* And the two KernelTraceControl MetaData/EventInfo records PerfView
   * logged on those threads (the ExecuteTask events' schemas). */
  provider = find_group (etl_group_summary_get_root (summary), "KernelTraceControl");
  g_assert_nonnull (provider);
  g_assert_cmpuint (provider->count, ==, 2);
  g_assert_cmpuint (etl_row_set_get_n (expect), ==, 912);

  /* "Show all": the filter's rows (all of them), no title. */
  gtk_button_clicked (etl_group_view_get_show_all_button (groups));
  wait_idle (f->window);
  g_assert_null (etl_group_view_get_title (groups));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (etl_group_view_get_show_all_button (groups))));
  g_assert_cmpuint (etl_group_summary_get_total (etl_group_view_get_summary (groups)), ==,
                    etl_trace_get_n_records (etl_window_get_trace (f->window)));

  /* Again, then a filter: its rows replace the instances'. */
  g_assert_true (etl_window_show_view_tab (f->window, "regions"));
  gtk_button_clicked (etl_regions_view_get_summary_button (view));
  wait_idle (f->window);
  g_assert_nonnull (etl_group_view_get_title (groups));
  etl_window_filter_by_row (f->window, "provider", FALSE, s[sel[0]].start_record);
  wait_idle (f->window);
  g_assert_null (etl_group_view_get_title (groups));
  rows = etl_document_get_row_set (etl_window_get_document (f->window));
  g_assert_cmpuint (etl_row_set_get_n (rows), ==, 5682);
  g_assert_cmpuint (etl_group_summary_get_total (etl_group_view_get_summary (groups)), ==, 5682);

  g_test_message ("longest step %" G_GINT64_FORMAT " µs", etl_regions_view_get_longest_step (view));
  g_assert_cmpint (etl_regions_view_get_longest_step (view), <, 100000);
}

/* `etlscope --regions FILE TRACE`: the file set before the trace opens is
 * loaded with it. */
static void
test_pending_regions (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *good = NULL;
  g_autofree char *path = NULL;
  Row r;

  (void) data;
  if (etl_test_skip_without_display (have_display))
    return;
  if ((path = etl_test_corpus_path ("real/msbuild_PerfViewData.etl")) == NULL)
    return;
  dir = g_dir_make_tmp ("etlscope-roi-gui-XXXXXX", &error);
  g_assert_no_error (error);
  good = g_build_filename (dir, "msbuild.regions.xml", NULL);
  g_file_set_contents (good, msbuild_roi, -1, &error);
  g_assert_no_error (error);
  f->window = g_object_ref_sink (etl_window_new (NULL));
  gtk_widget_show (GTK_WIDGET (f->window));
  etl_window_set_pending_regions (f->window, good);
  etl_test_window_open (f->window, (const char *const *) &path, 1);
  wait_idle (f->window);
  /* Loaded after the trace (its worker), then the table recomputed. */
  etl_test_wait_for (all_idle, f->window, "the Regions file");
  g_assert_null (etl_window_get_regions_error (f->window));
  r = read_row (etl_window_get_regions_view (f->window), "Target", "Regions: msbuild.regions.xml");
  g_assert_cmpuint (r.count, ==, 393);
  g_remove (good);
  g_rmdir (dir);
}

static void
save_png (GtkWidget *window, const char *name, int want_w)
{
  const char *dir = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  GdkWindow *gdk = gtk_widget_get_window (window);
  int w = gdk_window_get_width (gdk), h = gdk_window_get_height (gdk);
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  pixbuf = gdk_pixbuf_get_from_window (gdk, 0, 0, w, h);
  g_assert_nonnull (pixbuf);
  gdk_pixbuf_save (pixbuf, path, "png", &error, NULL);
  g_assert_no_error (error);
  g_test_message ("saved %s (%dx%d)", path, w, h);
  g_assert_cmpint (w, ==, want_w); /* the Regions view and area do not widen the window */
}

/* The window at @width × @height, decorations included, without the
 * session panel. */
static void
size_window (Fixture *f, int width, int height)
{
  g_action_group_change_action_state (G_ACTION_GROUP (f->window), "show-session", g_variant_new_boolean (FALSE));
  gtk_window_move (GTK_WINDOW (f->window), 0, 0);
  gtk_window_resize (GTK_WINDOW (f->window), width, height);
  etl_test_wait_paint (GTK_WIDGET (f->window));
  for (int pass = 0, ask_w = width, ask_h = height; pass < 3; pass++)
    {
      int extra_h = gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (f->window))) - height;
      int extra_w = gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (f->window))) - width;

      if (extra_h == 0 && extra_w == 0)
        break;
      ask_h -= extra_h;
      ask_w -= extra_w;
      gtk_window_resize (GTK_WINDOW (f->window), ask_w, ask_h);
      etl_test_wait_paint (GTK_WIDGET (f->window));
    }
}

/* Screenshots: a target selected in the timeline's Regions area; the
 * Regions tab with the slow tail of ExecuteTask selected. */
static void
test_screenshot (Fixture *f, gconstpointer data)
{
  const char *dir = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  const char *size = g_getenv ("ETLSCOPE_SCREENSHOT_SIZE");
  int width = 1600, height = 1000;
  EtlRegionLanes *lanes;
  EtlRegionsView *view;
  EtlSpanSet *set;
  const EtlSpan *s;
  guint n = 0;
  guint32 target = ETL_SPAN_NONE;
  const EtlSpanHistogram *h;
  g_autofree char *name = NULL;

  (void) data;
  if (dir == NULL)
    {
      g_test_skip ("ETLSCOPE_SCREENSHOT_DIR not set");
      return;
    }
  if (size != NULL)
    sscanf (size, "%dx%d", &width, &height);
  if (!open_msbuild (f))
    return;
  size_window (f, width, height);
  etl_window_set_panel_height (f->window, height * 2 / 5);
  lanes = etl_window_get_region_lanes (f->window);
  set = etl_region_lanes_get_spans (lanes);
  s = etl_span_set_get (set, &n);
  /* The longest closed target with tasks nested in it. */
  for (guint i = 0; i < n; i++)
    if (s[i].parent != ETL_SPAN_NONE && g_str_has_prefix (etl_span_set_get_string (set, s[s[i].parent].name), "Target(")
        && (s[s[i].parent].flags & ETL_SPAN_OPEN) == 0
        && (target == ETL_SPAN_NONE || s[s[i].parent].stop - s[s[i].parent].start > s[target].stop - s[target].start))
      target = s[i].parent;
  g_assert_cmpuint (target, !=, ETL_SPAN_NONE);
  {
    gint64 d = s[target].stop - s[target].start;

    etl_zoom_manager_set_visible (etl_window_get_zoom_manager (f->window), s[target].start - d / 3,
                                  s[target].stop + d / 3);
  }
  etl_region_lanes_select_span (lanes, target);
  g_assert_true (etl_window_show_view_tab (f->window, "events"));
  wait_idle (f->window);
  etl_test_wait_transitions (GTK_WIDGET (f->window));
  name = g_strdup_printf ("regions-timeline-%dx%d.png", width, height);
  save_png (GTK_WIDGET (f->window), name, width);

  view = etl_window_get_regions_view (f->window);
  etl_window_set_panel_height (f->window, height * 3 / 5);
  g_assert_true (etl_window_show_view_tab (f->window, "regions"));
  g_assert_true (etl_regions_view_select_name (view, "ExecuteTask", NULL));
  wait_idle (f->window);
  h = etl_duration_histogram_get_histogram (etl_regions_view_get_histogram (view));
  g_assert_nonnull (h);
  etl_duration_histogram_set_selection (etl_regions_view_get_histogram (view), (int) h->n_buckets - 1,
                                        (int) etl_span_histogram_bucket_of (h, h->lo + (h->hi - h->lo) / 20));
  wait_idle (f->window);
  etl_test_wait_transitions (GTK_WIDGET (f->window));
  g_free (name);
  name = g_strdup_printf ("regions-view-%dx%d.png", width, height);
  save_png (GTK_WIDGET (f->window), name, width);

  /* "Summary of these" on that tail, by provider and event, expanded. */
  gtk_button_clicked (etl_regions_view_get_summary_button (view));
  wait_idle (f->window);
  g_assert_nonnull (etl_group_view_get_title (etl_window_get_group_view (f->window)));
  g_assert_true (etl_group_view_set_keys (etl_window_get_group_view (f->window), "provider,event"));
  wait_idle (f->window);
  gtk_tree_view_expand_all (etl_group_view_get_tree_view (etl_window_get_group_view (f->window)));
  etl_test_wait_transitions (GTK_WIDGET (f->window));
  g_free (name);
  name = g_strdup_printf ("regions-summary-%dx%d.png", width, height);
  save_png (GTK_WIDGET (f->window), name, width);
}

/* The GC pauses of net.4.5.2.x64.etl: the timeline zoomed about the
 * longest pause (the gen 1 collection's), selected in the ".NET GC" lane,
 * and the Regions tab on "GC pause" with its histogram. */
static void
test_screenshot_gc (Fixture *f, gconstpointer data)
{
  const char *dir = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  const char *size = g_getenv ("ETLSCOPE_SCREENSHOT_SIZE");
  int width = 1600, height = 1000;
  EtlRegionLanes *lanes;
  EtlSpanSet *set;
  const EtlSpan *s;
  guint n = 0;
  guint32 longest = ETL_SPAN_NONE;
  g_autofree char *name = NULL;

  (void) data;
  if (dir == NULL)
    {
      g_test_skip ("ETLSCOPE_SCREENSHOT_DIR not set");
      return;
    }
  if (size != NULL)
    sscanf (size, "%dx%d", &width, &height);
  if (!open_corpus (f, "net.4.5.2.x64.etl"))
    return;
  size_window (f, width, height);
  /* The timeline down to the .NET GC lane, the Regions tab below. */
  etl_window_set_panel_height (f->window, height < 900 ? height * 3 / 10 : height * 2 / 5);
  lanes = etl_window_get_region_lanes (f->window);
  set = etl_region_lanes_get_spans (lanes);
  s = etl_span_set_get (set, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (etl_span_set_get_string (set, s[i].name), "GC pause") == 0
        && (longest == ETL_SPAN_NONE || s[i].stop - s[i].start > s[longest].stop - s[longest].start))
      longest = i;
  g_assert_cmpuint (longest, !=, ETL_SPAN_NONE);
  g_assert_cmpstr (etl_span_set_get_string (set, s[longest].lane), ==, ".NET GC");
  /* 10.877 ms: the gen 1 collection's pause. */
  g_assert_cmpint (s[longest].stop - s[longest].start, >, 100000);
  g_assert_cmpint (s[longest].stop - s[longest].start, <, 120000);
  etl_zoom_manager_set_visible (etl_window_get_zoom_manager (f->window), s[longest].start - 400000,
                                s[longest].stop + 400000);
  etl_region_lanes_select_span (lanes, longest);
  g_assert_true (etl_window_show_view_tab (f->window, "regions"));
  g_assert_true (etl_regions_view_select_name (etl_window_get_regions_view (f->window), "GC pause", NULL));
  /* The pointer on the title, where no tooltip opens. */
  gdk_device_warp (gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())),
                   gdk_screen_get_default (), width / 2, 4);
  wait_idle (f->window);
  etl_test_wait_transitions (GTK_WIDGET (f->window));
  name = g_strdup_printf ("regions-gc-%dx%d.png", width, height);
  save_png (GTK_WIDGET (f->window), name, width);
}

/* ---- Lane heights that follow the visible range; the area's own scroller ---- */

/* The lane labelled @label, G_MAXUINT when none. */
static guint
find_lane (EtlRegionLanes *lanes, const char *label)
{
  for (guint i = 0; i < etl_region_lanes_get_n_lanes (lanes); i++)
    if (g_strcmp0 (etl_region_lanes_get_lane_label (lanes, i), label) == 0)
      return i;
  return G_MAXUINT;
}

static int
lane_height (EtlRegionLanes *lanes, guint lane)
{
  int y = -1, h = -1;

  g_assert_true (etl_region_lanes_get_lane_extent (lanes, lane, &y, &h));
  return h;
}

/* The longest "GC pause" of net.4.5.2.x64.etl (10.877 ms, the gen 1
 * collection's), as test_screenshot_gc() finds it. */
static guint32
longest_gc_pause (EtlSpanSet *set)
{
  guint n = 0;
  const EtlSpan *s = etl_span_set_get (set, &n);
  guint32 longest = ETL_SPAN_NONE;

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (etl_span_set_get_string (set, s[i].name), "GC pause") == 0
        && (longest == ETL_SPAN_NONE || s[i].stop - s[i].start > s[longest].stop - s[longest].start))
      longest = i;
  g_assert_cmpuint (longest, !=, ETL_SPAN_NONE);
  return longest;
}

/* The lanes (labels) with a span meeting [@vb, @ve), counted from the
 * spans themselves (lanes by source: a lane's label is its spans' @lane). */
static GHashTable *
lanes_in_view (EtlSpanSet *set, gint64 vb, gint64 ve)
{
  GHashTable *in = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;
  const EtlSpan *s = etl_span_set_get (set, &n);

  for (guint i = 0; i < n; i++)
    if (s[i].start < ve && s[i].stop >= vb)
      g_hash_table_add (in, (gpointer) etl_span_set_get_string (set, s[i].lane));
  return in;
}

/* net.4.5.2.x64.etl zoomed to the longest GC pause ± 0.4 ms: the built-in
 * lanes come first; a lane is as high as the rows its spans there need
 * (.NET GC: the pause and the gen 1 collection inside it, 2 rows; Disk
 * I/O: one write, 1 row), a lane with none collapses; zooming out grows
 * them at once, zooming back shrinks them only once the range stays still. */
static void
test_lane_heights (Fixture *f, gconstpointer data)
{
  EtlRegionLanes *lanes;
  EtlZoomManager *zoom;
  EtlSpanSet *set;
  const EtlSpan *s;
  guint n = 0, gc, disk, n_lanes, n_empty = 0, builtin_end = 0;
  guint32 pause;
  gint64 vb, ve, lo, hi;
  g_autoptr (GHashTable) in_view = NULL;
  g_autoptr (GHashTable) builtin = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree int *full = NULL;

  (void) data;
  if (!open_corpus (f, "net.4.5.2.x64.etl"))
    return;
  lanes = etl_window_get_region_lanes (f->window);
  zoom = etl_window_get_zoom_manager (f->window);
  set = etl_region_lanes_get_spans (lanes);
  s = etl_span_set_get (set, &n);
  n_lanes = etl_region_lanes_get_n_lanes (lanes);
  g_assert_cmpuint (n_lanes, >=, 6);

  /* The built-in lanes first, then the providers'. */
  for (guint i = 0; i < n; i++)
    if (s[i].kind == ETL_SPAN_KIND_BUILTIN)
      g_hash_table_add (builtin, (gpointer) etl_span_set_get_string (set, s[i].lane));
  g_assert_cmpuint (g_hash_table_size (builtin), >=, 2);
  while (builtin_end < n_lanes && g_hash_table_contains (builtin, etl_region_lanes_get_lane_label (lanes, builtin_end)))
    builtin_end++;
  g_assert_cmpuint (builtin_end, ==, g_hash_table_size (builtin));
  gc = find_lane (lanes, ".NET GC");
  disk = find_lane (lanes, "Disk I/O");
  g_assert_cmpuint (gc, <, builtin_end);
  g_assert_cmpuint (disk, <, builtin_end);

  /* The whole trace in view: every lane has spans, at its full depth. */
  etl_zoom_manager_get_bounds (zoom, &lo, &hi);
  etl_zoom_manager_set_visible (zoom, lo, hi);
  wait_idle (f->window);
  g_assert_cmpuint (etl_region_lanes_get_n_collapsed (lanes), ==, 0);
  full = g_new (int, n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      full[i] = lane_height (lanes, i);
      g_test_message ("lane %u %s: %d px with the whole trace", i, etl_region_lanes_get_lane_label (lanes, i), full[i]);
      g_assert_cmpint (full[i] % ETL_REGION_LANES_ROW_HEIGHT, ==, 0);
      g_assert_cmpint (full[i], >=, ETL_REGION_LANES_ROW_HEIGHT);
    }
  g_assert_cmpint (full[gc], >=, 2 * ETL_REGION_LANES_ROW_HEIGHT);
  /* Taller than the area: it keeps to its scroller's height. */
  etl_test_wait_paint (GTK_WIDGET (f->window));
  {
    GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (lanes), GTK_TYPE_SCROLLED_WINDOW);

    g_test_message ("lanes %d px in a %d px area", gtk_widget_get_allocated_height (GTK_WIDGET (lanes)),
                    gtk_widget_get_allocated_height (scroller));
    g_assert_cmpint (gtk_widget_get_allocated_height (GTK_WIDGET (lanes)), >, ETL_REGION_LANES_MAX_AREA_HEIGHT);
    g_assert_cmpint (gtk_widget_get_allocated_height (scroller), <=, ETL_REGION_LANES_MAX_AREA_HEIGHT);
  }

  /* Zoomed to the pause: the rows its spans there need, or collapsed. */
  pause = longest_gc_pause (set);
  vb = s[pause].start - 400000;
  ve = s[pause].stop + 400000;
  etl_zoom_manager_set_visible (zoom, vb, ve);
  /* Not yet: the range has not stayed still. */
  g_assert_true (etl_region_lanes_is_busy (lanes));
  g_assert_cmpint (lane_height (lanes, gc), ==, full[gc]);
  g_assert_cmpuint (etl_region_lanes_get_n_collapsed (lanes), ==, 0);
  wait_idle (f->window);
  etl_zoom_manager_get_visible (zoom, &vb, &ve);
  in_view = lanes_in_view (set, vb, ve);
  for (guint i = 0; i < n_lanes; i++)
    {
      const char *label = etl_region_lanes_get_lane_label (lanes, i);
      int h = lane_height (lanes, i);

      g_test_message ("lane %u %s: %d px about the pause", i, label, h);
      if (!g_hash_table_contains (in_view, label))
        {
          g_assert_cmpint (h, ==, ETL_REGION_LANES_COLLAPSED_HEIGHT);
          n_empty++;
        }
      else
        {
          g_assert_cmpint (h % ETL_REGION_LANES_ROW_HEIGHT, ==, 0);
          g_assert_cmpint (h, >=, ETL_REGION_LANES_ROW_HEIGHT);
          g_assert_cmpint (h, <=, full[i]);
        }
    }
  g_assert_cmpuint (n_empty, >=, 1);
  g_assert_cmpuint (etl_region_lanes_get_n_collapsed (lanes), ==, n_empty);
  g_assert_cmpint (lane_height (lanes, gc), ==, 2 * ETL_REGION_LANES_ROW_HEIGHT);
  g_assert_cmpint (lane_height (lanes, disk), ==, ETL_REGION_LANES_ROW_HEIGHT);
  /* Lanes follow each other: each top is the previous bottom and gap. */
  for (guint i = 1; i < n_lanes; i++)
    {
      int y0, h0, y1;

      etl_region_lanes_get_lane_extent (lanes, i - 1, &y0, &h0);
      etl_region_lanes_get_lane_extent (lanes, i, &y1, NULL);
      g_assert_cmpint (y1, ==, y0 + h0 + ETL_REGION_LANES_GAP);
    }
  /* The pause in the first row of its lane, the gen 1 collection in the
   * second; what is drawn there is what span_at() finds. */
  etl_test_wait_paint (GTK_WIDGET (f->window));
  {
    GdkRectangle r;
    int gy;

    etl_region_lanes_get_lane_extent (lanes, gc, &gy, NULL);
    etl_region_lanes_span_rect (lanes, pause, &r);
    g_assert_cmpint (r.y, ==, gy);
    g_assert_cmpint (r.width, >, 0);
    g_assert_cmpuint (etl_region_lanes_span_at (lanes, r.x + r.width / 2.0, r.y + 2), ==, pause);
  }

  /* Zooming out again: the lanes grow at once, before any frame. */
  etl_zoom_manager_set_visible (zoom, lo, hi);
  g_assert_cmpuint (etl_region_lanes_get_n_collapsed (lanes), ==, 0);
  for (guint i = 0; i < n_lanes; i++)
    g_assert_cmpint (lane_height (lanes, i), ==, full[i]);
  wait_idle (f->window);
  g_assert_cmpint (lane_height (lanes, gc), ==, full[gc]);
}

/* The scroller of the Regions area (etl_region_lanes_new_scrolled()) and
 * the timeline's, which holds the tracks. */
static GtkWidget *
region_scroller (EtlRegionLanes *lanes)
{
  GtkWidget *w = gtk_widget_get_ancestor (GTK_WIDGET (lanes), GTK_TYPE_SCROLLED_WINDOW);

  g_assert_nonnull (w);
  return w;
}

/* Whether rows [@y, @y + @h) of the area are in sight in @scroller (its
 * viewport's scroll offsets included). */
static gboolean
in_sight (EtlRegionLanes *lanes, GtkWidget *scroller, int y, int h)
{
  int sx = 0, sy = 0;

  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (lanes), scroller, 0, y, &sx, &sy));
  g_test_message ("rows %d-%d at %d-%d of a %d-px scroller", y, y + h, sy, sy + h,
                  gtk_widget_get_allocated_height (scroller));
  return sy >= 0 && sy + h <= gtk_widget_get_allocated_height (scroller);
}

static void
wheel (GtkWidget *widget, GdkScrollDirection direction)
{
  GdkEvent *ev = gdk_event_new (GDK_SCROLL);

  ev->scroll.window = g_object_ref (gtk_widget_get_window (widget));
  ev->scroll.direction = direction;
  ev->scroll.x = gtk_widget_get_allocated_width (widget) / 2.0;
  ev->scroll.y = 4;
  ev->scroll.time = GDK_CURRENT_TIME;
  gdk_event_set_device (ev, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_main_do_event (ev);
  gdk_event_free (ev);
}

static gboolean
scrolled_down (gpointer data)
{
  GtkAdjustment *adj = data;

  return gtk_adjustment_get_value (adj) > 0;
}

/* At 1366×768 (the panel as test_screenshot_gc() leaves it): the ".NET GC"
 * lane and its selected pause are in sight, in the area and in the
 * timeline's scroller; with the whole trace in view the lanes outgrow the
 * area's %ETL_REGION_LANES_MAX_AREA_HEIGHT and the mouse wheel over them
 * scrolls the area, which brings the last lane into sight. */
static void
test_gc_lane_small (Fixture *f, gconstpointer data)
{
  EtlRegionLanes *lanes;
  EtlZoomManager *zoom;
  EtlSpanSet *set;
  const EtlSpan *s;
  GtkWidget *scroller, *tracks;
  GtkAdjustment *adj;
  guint n = 0, gc, last;
  guint32 pause;
  int y, h;
  gint64 lo, hi;
  GdkRectangle r;

  (void) data;
  if (!open_corpus (f, "net.4.5.2.x64.etl"))
    return;
  size_window (f, 1366, 768);
  etl_window_set_panel_height (f->window, 768 * 3 / 10);
  lanes = etl_window_get_region_lanes (f->window);
  zoom = etl_window_get_zoom_manager (f->window);
  set = etl_region_lanes_get_spans (lanes);
  s = etl_span_set_get (set, &n);
  pause = longest_gc_pause (set);
  etl_zoom_manager_set_visible (zoom, s[pause].start - 400000, s[pause].stop + 400000);
  etl_region_lanes_select_span (lanes, pause);
  wait_idle (f->window);
  etl_test_wait_paint (GTK_WIDGET (f->window));

  scroller = region_scroller (lanes);
  tracks = gtk_widget_get_ancestor (gtk_widget_get_parent (scroller), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (tracks);
  g_assert_cmpint (gtk_widget_get_allocated_height (scroller), <=, ETL_REGION_LANES_MAX_AREA_HEIGHT);
  g_assert_cmpint (gtk_widget_get_allocated_height (scroller), >=, ETL_REGION_LANES_MAX_AREA_HEIGHT / 2);
  gc = find_lane (lanes, ".NET GC");
  g_assert_cmpuint (gc, !=, G_MAXUINT);
  g_assert_true (etl_region_lanes_get_lane_extent (lanes, gc, &y, &h));
  g_assert_cmpint (h, ==, 2 * ETL_REGION_LANES_ROW_HEIGHT);
  g_assert_true (in_sight (lanes, scroller, y, h));
  g_assert_true (in_sight (lanes, tracks, y, h));
  /* The selected pause, drawn there. */
  g_assert_cmpuint (etl_region_lanes_get_selected_span (lanes), ==, pause);
  etl_region_lanes_span_rect (lanes, pause, &r);
  g_assert_cmpint (r.width, >, 10);
  g_assert_true (in_sight (lanes, tracks, r.y, r.height));

  /* The whole trace: taller than the area; the wheel scrolls it. */
  etl_zoom_manager_get_bounds (zoom, &lo, &hi);
  etl_zoom_manager_set_visible (zoom, lo, hi);
  wait_idle (f->window);
  etl_test_wait_paint (GTK_WIDGET (f->window));
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_test_message ("area: %d px of lanes in %.0f px", gtk_widget_get_allocated_height (GTK_WIDGET (lanes)),
                  gtk_adjustment_get_page_size (adj));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  last = etl_region_lanes_get_n_lanes (lanes) - 1;
  g_assert_true (etl_region_lanes_get_lane_extent (lanes, last, &y, &h));
  g_assert_false (in_sight (lanes, scroller, y, h));
  wheel (GTK_WIDGET (lanes), GDK_SCROLL_DOWN);
  etl_test_wait_for (scrolled_down, adj, "the wheel to scroll the Regions area");
  /* To the end, as more turns of the wheel would. */
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  etl_test_wait_paint (GTK_WIDGET (f->window));
  g_assert_true (in_sight (lanes, scroller, y, h));
  /* The timeline's lanes above keep their place: the area scrolled alone. */
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (tracks))), ==,
                     0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  have_display = gtk_init_check (&argc, &argv);
  g_test_add ("/etl/gui/regions/view", Fixture, NULL, NULL, test_view, fixture_teardown);
  g_test_add ("/etl/gui/regions/lanes", Fixture, NULL, NULL, test_lanes, fixture_teardown);
  g_test_add ("/etl/gui/regions/load-regions", Fixture, NULL, NULL, test_load_regions, fixture_teardown);
  g_test_add ("/etl/gui/regions/flame", Fixture, NULL, NULL, test_flame, fixture_teardown);
  g_test_add ("/etl/gui/regions/summary", Fixture, NULL, NULL, test_summary, fixture_teardown);
  g_test_add ("/etl/gui/regions/pending-regions", Fixture, NULL, NULL, test_pending_regions, fixture_teardown);
  g_test_add ("/etl/gui/regions/screenshot", Fixture, NULL, NULL, test_screenshot, fixture_teardown);
  g_test_add ("/etl/gui/regions/screenshot-gc", Fixture, NULL, NULL, test_screenshot_gc, fixture_teardown);
  g_test_add ("/etl/gui/regions/lane-heights", Fixture, NULL, NULL, test_lane_heights, fixture_teardown);
  g_test_add ("/etl/gui/regions/gc-lane-small", Fixture, NULL, NULL, test_gc_lane_small, fixture_teardown);
  return g_test_run ();
}
