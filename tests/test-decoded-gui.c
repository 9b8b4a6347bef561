/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What the window shows of decoded events (issue 9): the event list's
 * Process and Payload columns and decoded names, the details pane's table of
 * fields and its schema source line, Process lanes named "name (PID)",
 * the timeline's hover text, and File ▸ Load Manifest… renaming events.
 * Expected values come from TraceEvent's baselines in ../shared/etl-corpus
 * (net.4.5.2.x64.baseline.txt line 243: the first GC/Start, process
 * Test.x64 3676, Count=1 Reason=AllocSmall Depth=0 Type=NonConcurrentGC
 * ClrInstanceID=9).  The trace's own TDH metadata names the task
 * "GarbageCollection" where TraceEvent says "GC", and lists the fields in
 * payload order (Count, Depth, Reason, Type, ClrInstanceID).  Run under Xvfb; skipped without a display.  XDG
 * directories point into a temporary folder, so no user manifest is loaded. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-filter.h"
#include "etl-summary.h"
#include "etl-test-gui-util.h"
#include "etl-test-util.h"
#include "etl-timeline-view.h"
#include "etl-window.h"
#include "etl-zoom-manager.h"

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (have_display)
    fixture->window = etl_test_window_new (1400, 900);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
}

static void
open_and_wait (EtlWindow *window, const char *path)
{
  etl_test_window_open (window, &path, 1);
  etl_test_wait_drained (etl_test_window_not_busy, window, "the window to be idle");
}

/* A text column of the list's model at @position. */
static char *
list_text (EtlWindow *window, guint64 position, int column)
{
  GtkTreeModel *model = GTK_TREE_MODEL (etl_event_list_get_model (etl_window_get_event_list (window)));
  GtkTreeIter iter;
  char *text = NULL;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, (int) position));
  gtk_tree_model_get (model, &iter, column, &text, -1);
  return text;
}

/* What the list's Event column shows at @position: its cell renderer's text
 * once the column's cell data function has run. */
static char *
event_cell_text (EtlWindow *window, guint64 position)
{
  EtlEventList *list = etl_window_get_event_list (window);
  GtkTreeView *view = etl_event_list_get_tree_view (list);
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter iter;
  char *text = NULL;

  GList *columns = gtk_tree_view_get_columns (view);

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, (int) position));
  for (GList *l = columns; l != NULL; l = l->next)
    if (g_strcmp0 (gtk_tree_view_column_get_title (l->data), "Event") == 0)
      {
        GList *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (l->data));

        gtk_tree_view_column_cell_set_cell_data (l->data, model, &iter, FALSE, FALSE);
        g_object_get (cells->data, "text", &text, NULL);
        g_list_free (cells);
      }
  g_list_free (columns);
  return text;
}

/* The position of the first DotNETRuntime GC/Start of net.4.5.2.x64. */
static guint64
first_gc_start (EtlWindow *window)
{
  guint64 n = etl_event_list_get_n_rows (etl_window_get_event_list (window));

  for (guint64 i = 0; i < n; i++)
    {
      g_autofree char *name = list_text (window, i, ETL_EVENT_MODEL_COLUMN_NAME);

      if (g_strcmp0 (name, "GarbageCollection/Start") == 0 || g_strcmp0 (name, "GC/Start") == 0)
        {
          g_autofree char *provider = list_text (window, i, ETL_EVENT_MODEL_COLUMN_PROVIDER);

          if (g_strcmp0 (provider, "Microsoft-Windows-DotNETRuntime") == 0)
            return i;
        }
    }
  return G_MAXUINT64;
}

/* The list: the decoded name, the process and the payload of the first
 * GC/Start, as TraceEvent shows them. */
static void
test_columns (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *time = NULL;
  g_autofree char *process = NULL;
  g_autofree char *payload = NULL;
  g_autofree char *copied = NULL;
  guint64 row;
  guint64 undecoded = 0;
  EtlEventList *list;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  list = etl_window_get_event_list (fixture->window);

  row = first_gc_start (fixture->window);
  g_assert_cmpuint (row, !=, G_MAXUINT64);
  time = list_text (fixture->window, row, ETL_EVENT_MODEL_COLUMN_TIME);
  process = list_text (fixture->window, row, ETL_EVENT_MODEL_COLUMN_PROCESS);
  payload = list_text (fixture->window, row, ETL_EVENT_MODEL_COLUMN_PAYLOAD);
  g_test_message ("row %" G_GUINT64_FORMAT ": %s, %s, %s", row, time, process, payload);
  /* Baseline: "EVENT 3,228.778: …/GC/Start PID=3676; …; PName=Test.x64". */
  g_assert_true (g_str_has_prefix (time, "3.22877"));
  g_assert_cmpstr (process, ==, "Test.x64.exe (3676)");
  g_assert_cmpstr (payload, ==, "Count=1 Depth=0 Reason=AllocSmall Type=NonConcurrentGC ClrInstanceID=9");

  /* Long payloads are cut to the column's length. */
  for (guint64 i = 0; i < 3000; i++)
    {
      g_autofree char *p = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_PAYLOAD);
      g_autofree char *name = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_NAME);

      if (p != NULL)
        g_assert_cmpint (g_utf8_strlen (p, -1), <=, ETL_EVENT_MODEL_PAYLOAD_CHARS);
      if (g_str_has_prefix (name, "Event("))
        undecoded++;
    }
  /* Kernel rundown and CLR events at the start all have names. */
  g_assert_cmpuint (undecoded, ==, 0);

  /* Copy carries the new columns. */
  etl_event_list_select_row (list, etl_event_model_get_row (etl_event_list_get_model (list), row));
  copied = etl_event_list_dup_selection_text (list);
  g_assert_nonnull (strstr (copied, "\tProcess\t"));
  g_assert_nonnull (strstr (copied, "Test.x64.exe (3676)"));
  g_assert_nonnull (strstr (copied, "Reason=AllocSmall"));

  /* The Process column sorts (by its text, in a worker). */
  g_assert_cmpstr (etl_event_list_get_column_id (list, 6), ==, "process");
  etl_event_list_sort (list, 6, FALSE);
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  g_assert_true (etl_event_model_get_sorted (etl_event_list_get_model (list)));
  {
    g_autofree char *prev = NULL;
    guint64 n = etl_event_list_get_n_rows (list);

    for (guint64 i = 0; i < n; i += n / 500)
      {
        g_autofree char *p = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_PROCESS);

        if (prev != NULL)
          g_assert_cmpint (g_utf8_collate (prev, p != NULL ? p : ""), <=, 0);
        g_free (prev);
        prev = g_strdup (p != NULL ? p : "");
      }
  }
}

/* The details pane: the fields of the first GC/Start as a table, with the
 * source that decoded them, and the hex dump still there. */
static void
test_details (Fixture *fixture, gconstpointer data)
{
  /* Name, value, in-type (the metadata's GCStart_V1 template). */
  static const char *const expected[][3] = {
    { "Count", "1", "UInt32" },
    { "Depth", "0", "UInt32" },
    { "Reason", "AllocSmall", "UInt32" },
    { "Type", "NonConcurrentGC", "UInt32" },
    { "ClrInstanceID", "9", "UInt16" },
  };
  g_autofree char *path = NULL;
  g_autofree char *source = NULL;
  g_autofree char *text = NULL;
  EtlDetails *details;
  EtlEventList *list;
  GtkTreeModel *fields;
  GtkTreeIter iter;
  guint64 row;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  list = etl_window_get_event_list (fixture->window);
  row = etl_event_model_get_row (etl_event_list_get_model (list), first_gc_start (fixture->window));
  etl_event_list_select_row (list, row);
  g_signal_emit_by_name (list, "row-selected", row);
  details = etl_window_get_details (fixture->window);

  fields = etl_details_get_fields (details);
  g_assert_cmpint (gtk_tree_model_iter_n_children (fields, NULL), >=, (int) G_N_ELEMENTS (expected));
  g_assert_true (gtk_tree_model_get_iter_first (fields, &iter));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;
      g_autofree char *type = NULL;

      gtk_tree_model_get (fields, &iter, 0, &name, 1, &value, 2, &type, -1);
      g_test_message ("%s = %s (%s)", name, value, type);
      g_assert_cmpstr (name, ==, expected[i][0]);
      g_assert_cmpstr (value, ==, expected[i][1]);
      g_assert_true (g_str_has_prefix (type, expected[i][2]));
      /* Reason and Type are mapped values: the type names the map. */
      if (g_str_equal (name, "Reason") || g_str_equal (name, "Type"))
        g_assert_nonnull (strstr (type, ", map "));
      gtk_tree_model_iter_next (fields, &iter);
    }

  source = etl_details_dup_source (details);
  g_test_message ("%s", source);
  g_assert_nonnull (strstr (source, "TDH metadata"));
  g_assert_nonnull (strstr (source, "complete"));
  g_assert_null (strstr (source, "incomplete"));

  text = etl_details_dup_text (details);
  g_assert_nonnull (strstr (text, "Microsoft-Windows-DotNETRuntime/GarbageCollection/Start"));
  g_assert_nonnull (strstr (text, "Process\tTest.x64.exe (3676)"));
  g_assert_nonnull (strstr (text, "Reason\tAllocSmall\t"));
  g_assert_nonnull (strstr (text, "0000  "));
}

/* The free text filter also finds payload text and process names. */
static void
test_filter_payload (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  EtlEventList *list;
  guint64 n;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  list = etl_window_get_event_list (fixture->window);

  filter->text = g_strdup ("Reason=AllocSmall");
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  n = etl_event_list_get_n_rows (list);
  g_test_message ("Reason=AllocSmall: %" G_GUINT64_FORMAT " rows", n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 10000);
  for (guint64 i = 0; i < n; i++)
    {
      g_autofree char *payload = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_PAYLOAD);

      g_assert_nonnull (strstr (payload, "Reason=AllocSmall"));
    }

  g_free (filter->text);
  filter->text = g_strdup ("Test.x64.exe");
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  n = etl_event_list_get_n_rows (list);
  g_test_message ("Test.x64.exe: %" G_GUINT64_FORMAT " rows", n);
  g_assert_cmpuint (n, >, 10000);
  for (guint64 i = 0; i < n; i += 97)
    {
      g_autofree char *process = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_PROCESS);
      g_autofree char *payload = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_PAYLOAD);

      g_autofree char *folded = payload != NULL ? g_utf8_casefold (payload, -1) : NULL;

      /* The payload column shows 200 characters; the filter read them all. */
      if (g_strcmp0 (process, "Test.x64.exe (3676)") != 0 && (folded == NULL || strstr (folded, "test.x64.exe") == NULL))
        {
          g_test_message ("row %" G_GUINT64_FORMAT ": %s | %s", i, process, payload);
          g_assert_nonnull (payload);
          g_assert_cmpint (g_utf8_strlen (payload, -1), ==, ETL_EVENT_MODEL_PAYLOAD_CHARS);
        }
    }
}

static gboolean
lanes_are_processes (gpointer data)
{
  EtlSummary *summary = etl_timeline_view_get_summary (data);

  return summary != NULL && etl_summary_get_mode (summary) == ETL_LANE_PROCESS;
}

/* Process lanes are named "name (PID)"; the hover text names the process
 * and shows fields. */
static void
test_process_lanes (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  EtlTimelineView *timeline;
  EtlSummary *summary;
  gboolean found_test = FALSE, found_perfview = FALSE;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  timeline = etl_window_get_timeline (fixture->window);
  etl_timeline_view_set_lane_mode (timeline, ETL_LANE_PROCESS);
  etl_test_wait_drained (lanes_are_processes, timeline, "the lanes to be processes");
  summary = etl_timeline_view_get_summary (timeline);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    {
      const char *label = etl_summary_get_lane_label (summary, lane);

      g_test_message ("lane %u: %s", lane, label);
      found_test = found_test || g_strcmp0 (label, "Test.x64.exe (3676)") == 0;
      found_perfview = found_perfview || g_strcmp0 (label, "PerfView.exe (3988)") == 0;
    }
  g_assert_true (found_test);
  g_assert_true (found_perfview);
}

/* Hovering over an event names its process and shows its first fields:
 * the CLRStack/CLRStackWalk just after the first GC/Start, alone at its
 * time on CPU 7. */
static void
test_tooltip (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *markup = NULL;
  EtlTimelineView *timeline;
  EtlZoomManager *zoom;
  EtlTrace *trace;
  guint64 gc, row = G_MAXUINT64;
  gint64 t;
  int width, height, lane_h;
  double x, y;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  trace = etl_window_get_trace (fixture->window);
  gc = etl_event_model_get_row (etl_event_list_get_model (etl_window_get_event_list (fixture->window)),
                                first_gc_start (fixture->window));
  for (guint64 i = gc + 1; i < gc + 20; i++)
    {
      g_autofree char *name = list_text (fixture->window, i, ETL_EVENT_MODEL_COLUMN_NAME);

      if (g_strcmp0 (name, "CLRStack/CLRStackWalk") == 0)
        {
          row = i;
          break;
        }
    }
  g_assert_cmpuint (row, !=, G_MAXUINT64);
  g_assert_cmpuint (etl_trace_get_cpu (trace, row), ==, 7);
  t = etl_trace_get_filetime (trace, row);

  timeline = etl_window_get_timeline (fixture->window);
  zoom = etl_window_get_zoom_manager (fixture->window);
  etl_zoom_manager_set_visible (zoom, t - 100, t + 100);
  etl_test_drain ();
  width = gtk_widget_get_allocated_width (GTK_WIDGET (timeline));
  height = gtk_widget_get_allocated_height (GTK_WIDGET (timeline));
  lane_h = etl_timeline_view_get_lane_height (timeline, height);
  x = ETL_LABEL_COLUMN_WIDTH + etl_zoom_manager_time_to_x (zoom, t, width - ETL_LABEL_COLUMN_WIDTH);
  y = 7 * lane_h + lane_h / 2.0;
  markup = etl_timeline_view_dup_tooltip_at (timeline, x, y, width, height);
  g_test_message ("%s", markup);
  g_assert_nonnull (markup);
  g_assert_nonnull (strstr (markup, "CLRStack/CLRStackWalk"));
  g_assert_nonnull (strstr (markup, "Test.x64.exe (3676)"));
  g_assert_nonnull (strstr (markup, "<small>ClrInstanceID</small> = 9"));
}

static gboolean
list_name_changed (gpointer data)
{
  EtlWindow *window = data;
  g_autofree char *name = NULL;

  if (etl_window_get_busy (window))
    return FALSE;
  name = list_text (window, 3, ETL_EVENT_MODEL_COLUMN_NAME);
  return !g_str_has_prefix (name, "Event(");
}

/* File ▸ Load Manifest… renames gcevents.etl's CLR events (the trace has
 * no metadata for them) in the list and the details. */
static void
test_load_manifest (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *manifest = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *source = NULL;
  g_autofree char *text = NULL;
  g_autofree char *decode = NULL;
  g_autofree char *shown = NULL;
  EtlEventList *list;
  guint64 row;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("gcevents.etl")) == NULL
      || (manifest = etl_test_corpus_path ("manifests/ClrEtwAll.man")) == NULL)
    return;
  open_and_wait (fixture->window, path);
  list = etl_window_get_event_list (fixture->window);

  /* gcevents.baseline.txt: the records after Runtime/Start are
   * GC/CreateSegment (event 5). */
  before = list_text (fixture->window, 3, ETL_EVENT_MODEL_COLUMN_NAME);
  g_assert_cmpstr (before, ==, "Event(5)");
  /* Why it is not decoded: in the list's Event column and the details. */
  decode = list_text (fixture->window, 3, ETL_EVENT_MODEL_COLUMN_DECODE);
  g_assert_cmpstr (decode, ==, "no metadata");
  shown = event_cell_text (fixture->window, 3);
  g_assert_cmpstr (shown, ==, "Event(5) — no metadata");
  row = etl_event_model_get_row (etl_event_list_get_model (list), 3);
  etl_event_list_select_row (list, row);
  g_signal_emit_by_name (list, "row-selected", row);
  source = etl_details_dup_source (etl_window_get_details (fixture->window));
  g_assert_cmpstr (source, ==,
                   "Microsoft-Windows-DotNETRuntime: no metadata in the trace — load its manifest "
                   "(File ▸ Load Manifest…).");
  text = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_nonnull (strstr (text, "Decode status\tno-schema — Microsoft-Windows-DotNETRuntime: no metadata in the "
                                  "trace — load its manifest (File ▸ Load Manifest…).\n"));
  g_clear_pointer (&source, g_free);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&decode, g_free);
  g_clear_pointer (&shown, g_free);

  etl_window_load_manifest (fixture->window, manifest);
  g_assert_true (etl_window_get_busy (fixture->window));
  etl_test_wait_drained (list_name_changed, fixture->window, "the list to show the manifest's name");
  after = list_text (fixture->window, 3, ETL_EVENT_MODEL_COLUMN_NAME);
  g_assert_cmpstr (after, ==, "GC/CreateSegment");
  decode = list_text (fixture->window, 3, ETL_EVENT_MODEL_COLUMN_DECODE);
  g_assert_null (decode);
  shown = event_cell_text (fixture->window, 3);
  g_assert_cmpstr (shown, ==, "GC/CreateSegment");

  /* The details shown were decoded again, naming the file. */
  source = etl_details_dup_source (etl_window_get_details (fixture->window));
  g_test_message ("%s", source);
  g_assert_nonnull (strstr (source, "manifest file ClrEtwAll.man"));
  text = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_nonnull (strstr (text, "Microsoft-Windows-DotNETRuntime/GC/CreateSegment"));
  g_assert_nonnull (strstr (text, "Address\t0x"));
  g_assert_nonnull (strstr (text, "Decode status\tdecoded\n"));
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), "ClrEtwAll.man"));
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = NULL;
  int status;

  /* Before GTK reads them. */
  xdg = etl_test_private_xdg ("etlscope-decoded-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/decoded/columns", Fixture, NULL, fixture_setup, test_columns, fixture_teardown);
  g_test_add ("/etl/gui/decoded/details", Fixture, NULL, fixture_setup, test_details, fixture_teardown);
  g_test_add ("/etl/gui/decoded/filter-payload", Fixture, NULL, fixture_setup, test_filter_payload,
              fixture_teardown);
  g_test_add ("/etl/gui/decoded/process-lanes", Fixture, NULL, fixture_setup, test_process_lanes, fixture_teardown);
  g_test_add ("/etl/gui/decoded/tooltip", Fixture, NULL, fixture_setup, test_tooltip, fixture_teardown);
  g_test_add ("/etl/gui/decoded/load-manifest", Fixture, NULL, fixture_setup, test_load_manifest, fixture_teardown);

  status = g_test_run ();
  etl_test_rm_rf (xdg);
  return status;
}
