/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The details pane's Stack section (issue 10): net.4.5.2.x64.etl opened in
 * the window, the SampledProfile at row 1637 selected; its stack (StackWalk
 * record 1638 plus a StackKeyUser key) resolved from the trace's Image and
 * CLR rundown records (see test-stacks.c for the figures by hand).  Run
 * under Xvfb; skipped without a display. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-flame-graph.h"
#include "etl-stacks-dialog.h"
#include "etl-test-util.h"
#include "etl-window.h"

static gboolean have_display;

static gboolean
on_timeout (gpointer user_data)
{
  *(gboolean *)user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_idle (EtlWindow *window)
{
  gboolean timed_out = FALSE;
  guint timeout = g_timeout_add_seconds (60, on_timeout, &timed_out);

  while (etl_window_get_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static char *
select_and_read (EtlWindow *window, guint64 row)
{
  EtlEventList *list = etl_window_get_event_list (window);

  etl_event_list_select_row (list, row);
  g_signal_emit_by_name (list, "row-selected", row);
  return etl_details_dup_text (etl_window_get_details (window));
}

static void
test_details_stack (void)
{
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  g_autofree char *text = NULL;
  g_autofree char *plain = NULL;
  EtlWindow *window;

  if (!have_display)
    {
      g_test_skip ("no display (gtk_init_check failed); run under xvfb-run");
      return;
    }
  if ((path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  window = g_object_ref_sink (etl_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_widget_show (GTK_WIDGET (window));
  file = g_file_new_for_path (path);
  etl_window_open_files (window, &file, 1);
  wait_idle (window);

  text = select_and_read (window, 1637);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "\nStack\n#0\t0xffffffffffd03003\n#1\tntoskrnl.exe+0x151e37\n#2\tntdll.dll+0x455b\n"));
  g_assert_nonnull (strstr (text, "\n#15\tMicrosoft.Diagnostics.Tracing.Extensions.ETWKernelControl.StartKernelSession\n"));
  /* The StackWalk record itself and the trace header have none. */
  plain = select_and_read (window, 1638);
  g_assert_null (strstr (plain, "\nStack\n"));
  g_clear_pointer (&plain, g_free);
  plain = select_and_read (window, 0);
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
    gboolean timed_out = FALSE;
    guint timeout = g_timeout_add_seconds (60, on_timeout, &timed_out);

    g_assert_nonnull (dialog);
    while (etl_stacks_dialog_get_busy (ETL_STACKS_DIALOG (dialog)) && !timed_out)
      g_main_context_iteration (NULL, TRUE);
    g_assert_false (timed_out);
    g_source_remove (timeout);
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

  gtk_widget_destroy (GTK_WIDGET (window));
  g_object_unref (window);
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = g_dir_make_tmp ("etlscope-stacks-gui-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (xdg, "config", NULL);
  g_autofree char *data = g_build_filename (xdg, "data", NULL);
  g_autofree char *cache = g_build_filename (xdg, "cache", NULL);
  int status;

  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/gui/stacks/details", test_details_stack);

  status = g_test_run ();
  g_rmdir (config);
  g_rmdir (data);
  g_rmdir (cache);
  g_rmdir (xdg);
  return status;
}
