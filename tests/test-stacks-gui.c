/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The details pane's Stack section (issue 10): net.4.5.2.x64.etl opened in
 * the window, the SampledProfile at row 1637 selected; its stack (StackWalk
 * record 1638 plus a StackKeyUser key) resolved from the trace's Image and
 * CLR rundown records (see test-stacks.c for the figures by hand); its
 * Stacks of Samples dialog, where Thread time is insensitive (no CSwitch).
 * Then the dialog's Thread time (issue 20) on the synthetic waits schedule
 * with stacks (`synth --waits --stacks`): every thread, and the thread of
 * the filter's TID, to the 100-ns tick as test-thread-time.c has them.  Run
 * under Xvfb; skipped without a display. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-flame-graph.h"
#include "etl-stacks-dialog.h"
#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-test-util.h"
#include "etl-thread-time.h"
#include "etl-timeline-view.h"
#include "etl-window.h"

static gboolean have_display;

/* The window's jobs done (60 s at the most), then what is pending. */
static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (etl_test_window_not_busy, window, "the window's jobs to finish");
}

/* The dialog's jobs done (60 s at the most). */
static void
wait_dialog (GtkWidget *dialog)
{
  etl_test_wait_for (etl_test_stacks_dialog_not_busy, dialog, "the stacks dialog's jobs to finish");
}

static void
test_details_stack (void)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *plain = NULL;
  EtlWindow *window;

  if (etl_test_skip_without_display (have_display))
    return;
  if ((path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  window = etl_test_window_new (1400, 900);
  etl_test_window_open (window, (const char *const *) &path, 1);
  wait_idle (window);

  text = etl_test_window_select_and_read (window, 1637);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "\nStack\n#0\t0xffffffffffd03003\n#1\tntoskrnl.exe+0x151e37\n#2\tntdll.dll+0x455b\n"));
  g_assert_nonnull (strstr (text, "\n#15\tMicrosoft.Diagnostics.Tracing.Extensions.ETWKernelControl.StartKernelSession\n"));
  /* The StackWalk record itself and the trace header have none. */
  plain = etl_test_window_select_and_read (window, 1638);
  g_assert_null (strstr (plain, "\nStack\n"));
  g_clear_pointer (&plain, g_free);
  plain = etl_test_window_select_and_read (window, 0);
  g_assert_null (strstr (plain, "\nStack\n"));

  /* Stacks of the samples in the (visible = whole) range: the dialog's rows
   * are etl_stacks_summarize()'s (test-stacks.c: 6318 samples with a stack,
   * System.DateTime.GetDatePart first with 1856 exclusive). */
  {
    GtkWidget *dialog = etl_window_show_stacks (window);
    GtkTreeModel *model;
    GtkTreeIter iter;
    g_autofree char *frame = NULL;
    guint64 exclusive = 0, inclusive = 0;

    g_assert_nonnull (dialog);
    wait_dialog (dialog);

    /* No CSwitch record in this trace: Thread time cannot be chosen, and
     * its tooltip says how to record them. */
    {
      GtkWidget *button
          = etl_stacks_dialog_get_source_button (ETL_STACKS_DIALOG (dialog), ETL_STACKS_DIALOG_SOURCE_THREAD_TIME);
      g_autofree char *tip = gtk_widget_get_tooltip_text (button);

      g_assert_false (gtk_widget_get_sensitive (button));
      g_assert_nonnull (strstr (tip, "no CSwitch records"));
      g_assert_nonnull (strstr (tip, "CSWITCH and DISPATCHER"));
      g_assert_nonnull (strstr (tip, "-stackwalk Profile+CSwitch+ReadyThread"));
      g_assert_true (gtk_widget_get_sensitive (
          etl_stacks_dialog_get_source_button (ETL_STACKS_DIALOG (dialog), ETL_STACKS_DIALOG_SOURCE_SAMPLES)));
      etl_stacks_dialog_set_source (ETL_STACKS_DIALOG (dialog), ETL_STACKS_DIALOG_SOURCE_THREAD_TIME);
      g_assert_cmpint (etl_stacks_dialog_get_source (ETL_STACKS_DIALOG (dialog)), ==,
                       ETL_STACKS_DIALOG_SOURCE_SAMPLES);
      g_assert_false (etl_stacks_dialog_get_busy (ETL_STACKS_DIALOG (dialog)));
    }
    model = etl_stacks_dialog_get_model (ETL_STACKS_DIALOG (dialog));
    g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
    gtk_tree_model_get (model, &iter, ETL_STACKS_DIALOG_COLUMN_FRAME, &frame, ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE,
                        &exclusive, ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, &inclusive, -1);
    g_assert_cmpstr (frame, ==, "System.DateTime.GetDatePart");
    g_assert_cmpuint (exclusive, ==, 1856);
    g_assert_cmpuint (inclusive, ==, 1856);
    g_test_message ("%s", etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)));
    g_assert_nonnull (strstr (etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)),
                              "79528 samples, 6318 with a stack"));

    /* The flame graph page: the same 6318 stacks, the root in the top row
     * across the whole width, each level's boxes summing to no more
     * than their caller; drawn in the root's grey and warm hues above. */
    {
      EtlFlameGraph *graph = etl_stacks_dialog_get_flame_graph (ETL_STACKS_DIALOG (dialog));
      EtlStackTree *tree = etl_flame_graph_get_tree (graph);
      const EtlStackTreeNode *nodes;
      guint n, top;
      int w = 900, rh = etl_flame_graph_get_row_height (graph), h;
      cairo_surface_t *surface;
      cairo_t *cr;
      const guint8 *pixels;
      guint32 px;

      g_assert_nonnull (tree);
      nodes = etl_stack_tree_get_nodes (tree, &n);
      g_assert_cmpuint (nodes[0].total, ==, 6318);
      g_assert_cmpuint (n, >, 10);
      for (guint k = 0; k < n; k++)
        {
          guint64 sum = nodes[k].self;

          for (guint c = nodes[k].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
            sum += nodes[c].total;
          g_assert_cmpuint (sum, ==, nodes[k].total);
        }
      h = (int) (etl_stack_tree_get_max_depth (tree) + 1) * rh;
      g_assert_cmpuint (etl_flame_graph_node_at (graph, 1, 1, w, h), ==, 0);
      g_assert_cmpuint (etl_flame_graph_node_at (graph, w - 1, rh / 2, w, h), ==, 0);
      /* The widest outermost group, hit in the middle of its box. */
      top = ETL_STACK_TREE_NONE;
      for (guint c = nodes[0].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
        if (top == ETL_STACK_TREE_NONE || nodes[c].total > nodes[top].total)
          top = c;
      g_assert_cmpuint (top, !=, ETL_STACK_TREE_NONE);
      {
        double x = 0;

        for (guint c = nodes[0].first_child; c != top; c = nodes[c].next_sibling)
          x += (double) nodes[c].total / (double) nodes[0].total * w;
        x += (double) nodes[top].total / (double) nodes[0].total * w / 2;
        g_assert_cmpuint (etl_flame_graph_node_at (graph, x, rh + rh / 2, w, h), ==, top);
        g_test_message ("widest outermost group: %s, %" G_GUINT64_FORMAT " samples", nodes[top].name,
                        nodes[top].total);

        surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
        cr = cairo_create (surface);
        etl_flame_graph_render (graph, cr, w, h);
        cairo_surface_flush (surface);
        pixels = cairo_image_surface_get_data (surface);
        /* Root: #c0bfbc, at its right end (no label there). */
        px = *(const guint32 *) (pixels + (gsize) (rh - 3) * cairo_image_surface_get_stride (surface) + (gsize) (w - 4) * 4);
        g_assert_cmphex (px & 0xffffff, ==, 0xc0bfbc);
        /* The widest group's box, near its bottom edge, below its label: warm. */
        px = *(const guint32 *) (pixels + (gsize) (2 * rh - 3) * cairo_image_surface_get_stride (surface)
                                 + (gsize) (int) x * 4);
        g_assert_cmpuint ((px >> 16) & 0xff, >, px & 0xff);
        cairo_destroy (cr);
        cairo_surface_destroy (surface);
      }
    }
    gtk_widget_destroy (dialog);
  }

  etl_test_window_clear (&window);
}

/* Thread time on the waits schedule: 0.1 ms in 100-ns ticks, the trace
 * ending 7 ms after its origin. */
#define T(x) ((guint64) (x) * 1000)
#define PROC_ALPHA "Process alpha.exe (1000)"
/* A's New Thread Stack after its WrAlertByThreadId wait, and its waker C's
 * Ready Thread Stack, as etl_stacks_symbolize() names them (restated from
 * etl-synth-waits.c's table, as in test-thread-time.c). */
#define A_AFTER_37                                                                                                    \
  "ntdll.dll+0x5e3c0", "alpha.exe+0x800", "alpha.exe+0x3500", "ntdll.dll+0xa0250", "ntoskrnl.exe+0x22500"
#define C_WAKES_A                                                                                                     \
  "READIED BY TID(3004) gamma.exe (3000)", "ntdll.dll+0x5e3c0 (READIED_BY)", "gamma.exe+0x800 (READIED_BY)",          \
      "gamma.exe+0x8000 (READIED_BY)", "ntdll.dll+0xb0000 (READIED_BY)", "ntoskrnl.exe+0x40000 (READIED_BY)"

/* The node at the end of @path (NULL-terminated names below the root). */
static guint
node_at (EtlStackTree *tree, const char *const *path)
{
  guint node = 0;

  for (guint k = 0; path[k] != NULL && node != ETL_STACK_TREE_NONE; k++)
    node = etl_stack_tree_find_child (tree, node, path[k]);
  return node;
}

static guint64
leaf_sum (EtlStackTree *tree, const char *leaf)
{
  guint n;
  const EtlStackTreeNode *nodes = etl_stack_tree_get_nodes (tree, &n);
  guint64 sum = 0;

  for (guint k = 1; k < n; k++)
    if (strcmp (nodes[k].name, leaf) == 0)
      sum += nodes[k].self;
  return sum;
}

/* Switches @dialog (its samples done) to Thread time by a click, waits for
 * the tree; returns it. */
static EtlStackTree *
show_thread_time (GtkWidget *dialog)
{
  EtlStacksDialog *d = ETL_STACKS_DIALOG (dialog);
  GtkWidget *button = etl_stacks_dialog_get_source_button (d, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME);
  g_autofree char *tip = NULL;
  EtlStackTree *tree;

  wait_dialog (dialog);
  g_assert_true (gtk_widget_get_sensitive (button));
  tip = gtk_widget_get_tooltip_text (button);
  g_assert_nonnull (strstr (tip, "READIED_BY"));
  g_assert_nonnull (etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (d)));
  g_assert_cmpint (etl_stack_tree_get_unit (etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (d))), ==,
                   ETL_STACK_TREE_UNIT_SAMPLES);
  gtk_button_clicked (GTK_BUTTON (button));
  g_assert_cmpint (etl_stacks_dialog_get_source (d), ==, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME);
  wait_dialog (dialog);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Thread Time: 0.0 µs – 7.0000 ms");
  tree = etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (d));
  g_assert_nonnull (tree);
  g_assert_cmpint (etl_stack_tree_get_unit (tree), ==, ETL_STACK_TREE_UNIT_TICKS);
  g_test_message ("%s", etl_stacks_dialog_get_summary_text (d));
  return tree;
}

/* Thread time in the stacks dialog, opened from the window over 0–7 ms:
 * every thread, then the filter's TID 1004; the BLOCKED_TIME box of A's
 * wait drawn blue (the off-CPU hue); back to CPU samples. */
static void
test_thread_time (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  EtlSynthParams params;
  EtlWindow *window;
  GtkWidget *dialog;
  EtlStackTree *tree;
  const EtlStackTreeNode *nodes;
  const guint32 *tids;
  guint n, n_tids, blocked;
  gint64 origin;
  const char *const a_blocked[] = { PROC_ALPHA, "Thread (1004)", A_AFTER_37, C_WAKES_A, "BLOCKED_TIME", NULL };

  if (etl_test_skip_without_display (have_display))
    return;
  dir = g_dir_make_tmp ("etlscope-thread-time-gui-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "waits.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  params.waits_stacks = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);

  window = etl_test_window_new (1400, 900);
  etl_test_window_open (window, (const char *const *) &path, 1);
  wait_idle (window);
  origin = etl_trace_get_origin (etl_window_get_trace (window));
  etl_timeline_view_set_selection (etl_window_get_timeline (window), origin, origin + T (70));
  g_assert_cmpuint (etl_event_list_get_selected_row (etl_window_get_event_list (window)), ==,
                    ETL_EVENT_LIST_NO_ROW);

  /* No filter, no selected event: every thread.  Each from its first
   * scheduler record to 7 ms: A 6.0, B 6.0, D 5.0, C 5.4 ms; the Waiting,
   * Ready and Running states of the schedule summed. */
  dialog = etl_window_show_stacks (window);
  g_assert_nonnull (dialog);
  tids = etl_stacks_dialog_get_threads (ETL_STACKS_DIALOG (dialog), &n_tids);
  g_assert_cmpuint (n_tids, ==, 0);
  g_assert_null (tids);
  tree = show_thread_time (dialog);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  g_assert_cmpuint (nodes[0].total, ==, T (60) + T (60) + T (50) + T (54));
  g_assert_cmpuint (leaf_sum (tree, ETL_THREAD_TIME_BLOCKED), ==, T (38) + T (35) + T (36) + T (27));
  blocked = node_at (tree, a_blocked);
  g_assert_cmpuint (blocked, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (nodes[blocked].total, ==, T (30));
  g_assert_cmpstr (etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)), ==,
                   "Thread time of all threads (4 with time in the range): 22.40 ms, of it BLOCKED_TIME 13.60 ms, "
                   "READIED_TIME 2.20 ms, CPU_TIME 6.60 ms. Top Frames counts CPU samples only.");
  /* Back to the samples (the schedule has none): their tree again. */
  etl_stacks_dialog_set_source (ETL_STACKS_DIALOG (dialog), ETL_STACKS_DIALOG_SOURCE_SAMPLES);
  g_assert_cmpint (etl_stack_tree_get_unit (
                       etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (ETL_STACKS_DIALOG (dialog)))),
                   ==, ETL_STACK_TREE_UNIT_SAMPLES);
  g_assert_true (g_str_has_prefix (etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)), "0 samples"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Stacks of Samples: 0.0 µs – 7.0000 ms");
  gtk_widget_destroy (dialog);

  /* The list filtered to TID 1004: A alone, 1.0–7.0 ms. */
  filter->has_tid = TRUE;
  filter->tid = 1004;
  etl_document_set_filter (etl_window_get_document (window), filter);
  wait_idle (window);
  dialog = etl_window_show_stacks (window);
  tids = etl_stacks_dialog_get_threads (ETL_STACKS_DIALOG (dialog), &n_tids);
  g_assert_cmpuint (n_tids, ==, 1);
  g_assert_cmpuint (tids[0], ==, 1004);
  tree = show_thread_time (dialog);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  g_assert_cmpuint (nodes[0].total, ==, T (60));
  g_assert_cmpuint (leaf_sum (tree, ETL_THREAD_TIME_BLOCKED), ==, T (38));
  g_assert_cmpuint (node_at (tree, (const char *const[]){ "Process beta.exe (2000)", NULL }), ==,
                    ETL_STACK_TREE_NONE);
  blocked = node_at (tree, a_blocked);
  g_assert_cmpuint (blocked, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (nodes[blocked].total, ==, T (30));
  g_assert_cmpstr (etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)), ==,
                   "Thread time of TID 1004 of alpha.exe (1000): 6.00 ms, of it BLOCKED_TIME 3.80 ms, "
                   "READIED_TIME 0.1000 ms, CPU_TIME 2.10 ms. Top Frames counts CPU samples only.");

  /* Drawn: A's 3.0 ms BLOCKED_TIME box (half the width) in the blocked
   * blue, near its bottom edge below its label. */
  {
    EtlFlameGraph *graph = etl_stacks_dialog_get_flame_graph (ETL_STACKS_DIALOG (dialog));
    int w = 1000, rh = etl_flame_graph_get_row_height (graph);
    int h = (int) (etl_stack_tree_get_max_depth (tree) + 1) * rh;
    double x = 0;
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create (surface);
    guint32 px;

    /* Its left edge: the earlier siblings of it and of its callers. */
    for (guint k = blocked; k != 0; k = nodes[k].parent)
      for (guint c = nodes[nodes[k].parent].first_child; c != k; c = nodes[c].next_sibling)
        x += (double) nodes[c].total / (double) nodes[0].total * w;
    x += (double) nodes[blocked].total / (double) nodes[0].total * w / 2;
    g_assert_cmpuint (etl_flame_graph_node_at (graph, x, nodes[blocked].depth * rh + rh / 2, w, h), ==, blocked);
    etl_flame_graph_render (graph, cr, w, h);
    cairo_surface_flush (surface);
    px = *(const guint32 *) (cairo_image_surface_get_data (surface)
                             + (gsize) ((int) nodes[blocked].depth * rh + rh - 3) * cairo_image_surface_get_stride (surface)
                             + (gsize) (int) x * 4);
    g_assert_cmphex (px & 0xffffff, ==, 0x62a0ea);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  gtk_widget_destroy (dialog);

  /* No filter, an event of B (2004) selected: B's thread time, 1.0–7.0 ms. */
  etl_filter_free (filter);
  filter = etl_filter_new ();
  etl_document_set_filter (etl_window_get_document (window), filter);
  wait_idle (window);
  {
    EtlTrace *trace = etl_window_get_trace (window);
    guint64 row = 0;
    g_autofree char *details = NULL;

    for (EtlRecordBrief brief; row < etl_trace_get_n_records (trace); row++)
      {
        gboolean of_b = etl_trace_peek_record (trace, row, &brief) && brief.has_pid && brief.tid == 2004;

        etl_record_brief_clear (&brief);
        if (of_b)
          break;
      }
    g_assert_cmpuint (row, <, etl_trace_get_n_records (trace));
    details = etl_test_window_select_and_read (window, row);
  }
  dialog = etl_window_show_stacks (window);
  tids = etl_stacks_dialog_get_threads (ETL_STACKS_DIALOG (dialog), &n_tids);
  g_assert_cmpuint (n_tids, ==, 1);
  g_assert_cmpuint (tids[0], ==, 2004);
  tree = show_thread_time (dialog);
  g_assert_cmpuint (etl_stack_tree_get_nodes (tree, &n)[0].total, ==, T (60));
  g_assert_true (g_str_has_prefix (etl_stacks_dialog_get_summary_text (ETL_STACKS_DIALOG (dialog)),
                                   "Thread time of TID 2004 of beta.exe (2000): 6.00 ms, of it BLOCKED_TIME 3.60 ms"));
  gtk_widget_destroy (dialog);

  /* Weights as the graph labels them. */
  {
    g_autofree char *one = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_SAMPLES, 1);
    g_autofree char *ms = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, T (38));
    g_autofree char *small = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, 3);
    g_autofree char *large = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, 12345678);
    g_autofree char *zero = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, 0);

    g_assert_cmpstr (one, ==, "1 sample");
    g_assert_cmpstr (ms, ==, "3.80 ms");
    g_assert_cmpstr (small, ==, "0.0003 ms");
    g_assert_cmpstr (large, ==, "1234.6 ms");
    g_assert_cmpstr (zero, ==, "0 ms");
  }

  etl_test_window_clear (&window);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = etl_test_private_xdg ("etlscope-stacks-gui-XXXXXX");
  int status;

  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add_func ("/etl/gui/stacks/details", test_details_stack);
  g_test_add_func ("/etl/gui/stacks/thread-time", test_thread_time);

  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
