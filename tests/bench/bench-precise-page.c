/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-precise-page: the CPU Usage (Precise) table on a large trace.
 *
 *   bench-precise-page [--cpus N] [--schedule-ms N] [FILE.etl]
 *
 * Opens FILE.etl, or the synthetic schedule trace bench-thread-states uses
 * (generated once into $ETL_BENCH_DIR or the temporary folder: 8
 * processors, 16.0 M records, 5.3 M CSwitch), puts an EtlPreciseView in a
 * window and measures what issue 20 asks of it:
 *   - from etl_precise_view_set_trace() to the table shown (the thread
 *     states and the grouping, in workers), wall time;
 *   - the table's fill on the main thread (etl_precise_view_get_last_fill():
 *     the model over the groups set on the view, open groups reopened), in
 *     ms and per 1,000 rows of the table;
 *   - a 1,000-row page formatted: every group opened, the text of the
 *     first 1,000 rows in the table's order made as the table shows it
 *     (the label, etl_precise_view_dup_cell_text() for the five numbers),
 *     median of 9 — target ≤ 2 ms; for comparison the same rows given to
 *     every column's cell renderers as a drawing does
 *     (gtk_tree_view_column_cell_set_cell_data(): GTK's property setting
 *     and notification on top of the formatting), and the table drawn into
 *     an image surface (the rows the window shows), medians of 9;
 *   - in Visible range mode, a zoom to 1/16 of the trace and a scroll by
 *     half of that: the regrouping's wall time and its fill;
 *   - the longest main-loop iteration throughout — target ≤ 100 ms.
 * Prints "BENCH name value unit" lines; exits 77 without a display.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <gtk/gtk.h>

#include "bench-util.h"
#include "etl-precise-view.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

#define PAGE_TARGET_MS 2.0
#define STALL_TARGET_MS 100.0

static double longest_ms;

/* Iterates the main loop until @view is idle, keeping the longest
 * iteration; returns the wall time in ms. */
static double
wait_idle (EtlPreciseView *view)
{
  gint64 t0 = g_get_monotonic_time ();

  /* A range change waits out a short coalescing timeout first. */
  while (g_get_monotonic_time () - t0 < 400 * 1000 || etl_precise_view_is_busy (view))
    {
      gint64 i0 = g_get_monotonic_time ();

      g_main_context_iteration (NULL, FALSE);
      longest_ms = MAX (longest_ms, (double) (g_get_monotonic_time () - i0) / 1000.0);
      g_usleep (500);
    }
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

static double
report_fill (EtlPreciseView *view, const char *what)
{
  guint n_rows = 0;
  gint64 usec = 0;
  double per_page;

  etl_precise_view_get_last_fill (view, &n_rows, &usec);
  per_page = n_rows > 0 ? (double) usec / 1000.0 * 1000.0 / n_rows : 0;
  printf ("BENCH precise_fill_%s_rows %u\nBENCH precise_fill_%s_ms %.3f ms\nBENCH precise_fill_per_1000_%s_ms %.4f ms\n", what,
          n_rows, what, (double) usec / 1000.0, what, per_page);
  return per_page;
}

static const EtlPreciseViewColumn numeric_columns[] = {
  ETL_PRECISE_VIEW_COLUMN_COUNT, ETL_PRECISE_VIEW_COLUMN_READY, ETL_PRECISE_VIEW_COLUMN_WAITS,
  ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN,
};

/* Makes the text of the first @n rows under @parent, in the table's order
 * and depth first, as the table shows it (the label and the numbers'
 * etl_precise_view_dup_cell_text()), or with @cells gives them to every
 * column's cell renderers as a drawing does; returns the rows done. */
static guint
format_rows (GtkTreeView *tree_view, GtkTreeModel *model, GtkTreeIter *parent, guint n, gboolean cells)
{
  GtkTreeIter iter;
  guint done = 0;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return 0;
  do
    {
      if (cells)
        for (guint c = 0; c < gtk_tree_view_get_n_columns (tree_view); c++)
          {
            GtkTreeViewColumn *column = gtk_tree_view_get_column (tree_view, (int) c);

            gtk_tree_view_column_cell_set_cell_data (column, model, &iter, TRUE, TRUE);
          }
      else
        {
          char *label = NULL;

          gtk_tree_model_get (model, &iter, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, -1);
          g_free (label);
          for (guint c = 0; c < G_N_ELEMENTS (numeric_columns); c++)
            g_free (etl_precise_view_dup_cell_text (model, &iter, numeric_columns[c]));
        }
      done++;
      if (done < n)
        done += format_rows (tree_view, model, &iter, n - done, cells);
    }
  while (done < n && gtk_tree_model_iter_next (model, &iter));
  return done;
}

/* A 1,000-row page's text made, the same rows given to the cell
 * renderers, and the table drawn: medians of 9, ms; every group open. */
static void
measure_page (EtlPreciseView *view, double *format_ms, double *cells_ms, double *draw_ms, guint *n_rows)
{
  GtkTreeView *tree_view = etl_precise_view_get_tree_view (view);
  GtkTreeModel *model = gtk_tree_view_get_model (tree_view);
  GtkWidget *widget = GTK_WIDGET (tree_view);
  cairo_surface_t *surface;
  double format[9], cells[9], draw[9];

  gtk_tree_view_expand_all (tree_view);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (1, gtk_widget_get_allocated_width (widget)),
                                        MAX (1, gtk_widget_get_allocated_height (widget)));
  for (guint i = 0; i < 9; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      cairo_t *cr;

      *n_rows = format_rows (tree_view, model, NULL, 1000, FALSE);
      format[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      t0 = g_get_monotonic_time ();
      format_rows (tree_view, model, NULL, 1000, TRUE);
      cells[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      cr = cairo_create (surface);
      t0 = g_get_monotonic_time ();
      gtk_widget_draw (widget, cr);
      draw[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);
  qsort (format, 9, sizeof (double), bench_compare_double);
  qsort (draw, 9, sizeof (double), bench_compare_double);
  qsort (cells, 9, sizeof (double), bench_compare_double);
  *format_ms = format[4];
  *cells_ms = cells[4];
  *draw_ms = draw[4];
}

int
main (int argc, char **argv)
{
  static int n_cpus = 8, schedule_ms = 470588;
  static const GOptionEntry entries[] = {
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "schedule-ms", 0, 0, G_OPTION_ARG_INT, &schedule_ms, "Schedule length in 1-ms slots (default 470,588)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - the CPU Usage (Precise) table");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlZoomManager) zoom = NULL;
  GtkWidget *window, *view;
  gint64 first, last, span;
  double shown_ms, zoom_ms, scroll_ms, page_whole, page_zoom, page_scroll, format_ms, cells_ms, draw_ms;
  guint page_rows = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-precise-page: %s\n", error->message);
      return 2;
    }
  if (!gtk_init_check (&argc, &argv))
    {
      printf ("bench-precise-page: no display; run under xvfb-run (skipped)\n");
      return 77;
    }
  path = argc > 1 ? g_strdup (argv[1]) : bench_schedule_trace ((guint) n_cpus, (guint) schedule_ms, &error);
  if (path == NULL || (trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error)) == NULL)
    {
      fprintf (stderr, "bench-precise-page: %s\n", error->message);
      return 1;
    }
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace) + 1;
  span = last - first;
  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, first, last);
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  view = etl_precise_view_new (zoom);
  gtk_container_add (GTK_CONTAINER (window), view);
  gtk_widget_show_all (window);
  wait_idle (ETL_PRECISE_VIEW (view));
  longest_ms = 0;

  /* The whole trace: the states and the grouping in workers. */
  etl_precise_view_set_range_mode (ETL_PRECISE_VIEW (view), ETL_PRECISE_VIEW_RANGE_WHOLE);
  etl_precise_view_set_trace (ETL_PRECISE_VIEW (view), trace, NULL);
  shown_ms = wait_idle (ETL_PRECISE_VIEW (view));
  printf ("BENCH precise_shown_ms %.1f ms\n", shown_ms);
  page_whole = report_fill (ETL_PRECISE_VIEW (view), "whole");

  /* Visible range: a zoom to 1/16 about the centre, then a scroll. */
  etl_precise_view_set_range_mode (ETL_PRECISE_VIEW (view), ETL_PRECISE_VIEW_RANGE_VISIBLE);
  etl_zoom_manager_set_visible (zoom, first + span / 2 - span / 32, first + span / 2 + span / 32);
  zoom_ms = wait_idle (ETL_PRECISE_VIEW (view));
  printf ("BENCH precise_zoom_regroup_ms %.1f ms\n", zoom_ms);
  page_zoom = report_fill (ETL_PRECISE_VIEW (view), "zoom");
  etl_zoom_manager_set_visible (zoom, first + span / 2, first + span / 2 + span / 16);
  scroll_ms = wait_idle (ETL_PRECISE_VIEW (view));
  printf ("BENCH precise_scroll_regroup_ms %.1f ms\n", scroll_ms);
  page_scroll = report_fill (ETL_PRECISE_VIEW (view), "scroll");
  printf ("BENCH precise_longest_iteration_ms %.1f ms\n", longest_ms);
  measure_page (ETL_PRECISE_VIEW (view), &format_ms, &cells_ms, &draw_ms, &page_rows);
  printf ("BENCH precise_format_page_ms %.3f ms\nBENCH precise_cells_page_ms %.3f ms\n"
          "BENCH precise_draw_table_ms %.3f ms\n",
          format_ms, cells_ms, draw_ms);

  printf ("\ntrace: %s, %" G_GUINT64_FORMAT " records\n", path, etl_trace_get_n_records (trace));
  printf ("| measure | figure | target |\n|---|---|---|\n");
  printf ("| set_trace → table shown (states + grouping in workers) | %.0f ms | |\n", shown_ms);
  printf ("| zoom to 1/16 / scroll: regrouping, wall (incl. the 150 ms coalescing) | %.0f / %.0f ms | |\n", zoom_ms,
          scroll_ms);
  printf ("| fill on the main thread per 1,000 rows of the table (whole / zoom / scroll) | %.4f / %.4f / %.4f ms "
          "| |\n",
          page_whole, page_zoom, page_scroll);
  printf ("| a %u-row page formatted (its text: label and five numbers a row, groups open) | %.3f ms | ≤ %.0f ms: %s "
          "|\n",
          page_rows, format_ms, PAGE_TARGET_MS, format_ms <= PAGE_TARGET_MS && page_rows == 1000 ? "met" : "MISSED");
  printf ("| the same rows given to GTK's cell renderers (what drawing them adds) | %.3f ms | |\n", cells_ms);
  printf ("| the table drawn (%d × %d px) | %.3f ms | |\n",
          gtk_widget_get_allocated_width (GTK_WIDGET (etl_precise_view_get_tree_view (ETL_PRECISE_VIEW (view)))),
          gtk_widget_get_allocated_height (GTK_WIDGET (etl_precise_view_get_tree_view (ETL_PRECISE_VIEW (view)))),
          draw_ms);
  printf ("| longest main-loop iteration | %.1f ms | ≤ %.0f ms: %s |\n", longest_ms, STALL_TARGET_MS,
          longest_ms <= STALL_TARGET_MS ? "met" : "MISSED");
  gtk_widget_destroy (window);
  return 0;
}
