/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Export: the selected range's records that the filter keeps written to a
 * new .etl file by the window's #EtlDocument (etl_document_export_async(),
 * in a worker with progress), and the timeline
 * written as a PNG, SVG or PDF image.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "etl-loss-plot.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"

/* ------------------------------------------------------------------------ */
/* Export                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  EtlWindow *self;
  char *path;
} ExportRequest;

static void
on_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ExportRequest *request = user_data;
  g_autoptr (EtlWindow) self = request->self;
  g_autofree char *path = request->path;
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;
  EtlWriterStats stats;

  g_free (request);
  /* The window went away (its dispose cancelled the document's jobs). */
  if (self->document == NULL)
    return;
  update_actions (self);
  if (!etl_document_export_finish (ETL_DOCUMENT (source), result, &stats, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          message = g_strdup_printf ("Export to %s failed: %s", path, error->message);
          show_message (self, GTK_MESSAGE_ERROR, message);
        }
      return;
    }
  message = g_strdup_printf ("Exported %'" G_GUINT64_FORMAT " records (%'" G_GUINT64_FORMAT " bytes) to %s",
                             stats.n_records, stats.file_size, path);
  show_message (self, GTK_MESSAGE_INFO, message);
}

/**
 * etl_window_get_export_range:
 * @self: a window
 * @begin: (out): start, FILETIME
 * @end: (out): end (exclusive), FILETIME
 *
 * The range File ▸ Export Selection writes: the timeline's selected range,
 * else the visible range, clipped to the trace's records (the visible range
 * has margins before the first and after the last record; a title or
 * export name must not start at a negative time).
 */
void
etl_window_get_export_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  EtlTrace *trace;

  g_return_if_fail (ETL_IS_WINDOW (self));
  if (!etl_timeline_view_get_selection (self->timeline, begin, end))
    etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
  trace = etl_document_get_trace (self->document);
  if (trace != NULL && etl_trace_get_n_records (trace) > 0)
    {
      gint64 first = etl_trace_get_first_filetime (trace), last = etl_trace_get_last_filetime (trace) + 1;

      if (*end > first && *begin < last)
        {
          *begin = MAX (*begin, first);
          *end = MIN (*end, last);
        }
    }
}

/**
 * etl_window_export_selection:
 * @self: a window
 * @path: (type filename): the .etl file to write
 *
 * Writes the records of the export range (etl_window_get_export_range())
 * that the current filter keeps to @path with etl_writer_write_slice(), in
 * a worker with progress.  The outcome is shown in the info bar.
 */
void
etl_window_export_selection (EtlWindow *self, const char *path)
{
  ExportRequest *request;
  gint64 from, to;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);
  if (etl_document_get_trace (self->document) == NULL)
    return;

  etl_window_get_export_range (self, &from, &to);
  request = g_new0 (ExportRequest, 1);
  request->self = g_object_ref (self);
  request->path = g_strdup (path);
  etl_document_export_async (self->document, path, from, to, on_export_done, request);
  update_actions (self);
}

typedef struct
{
  GOutputStream *stream;
  GError *error;
} WriteStream;

static cairo_status_t
write_to_stream (void *closure, const unsigned char *data, unsigned int length)
{
  WriteStream *ws = closure;

  if (ws->error != NULL || !g_output_stream_write_all (ws->stream, data, length, NULL, NULL, &ws->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/**
 * etl_window_export_image:
 * @self: a window
 * @path: (type filename): the file to write; its extension picks the format:
 *   .svg, .pdf, else PNG
 * @error: return location for a #GError
 *
 * Draws the visible part of the timeline — time ruler, lanes and loss plot,
 * at their size on screen — into a cairo image, SVG or PDF surface.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_window_export_image (EtlWindow *self, const char *path, GError **error)
{
  GtkWidget *parts[3];
  int heights[3], width, total = 0;
  g_autofree char *lower = NULL;
  g_autoptr (GFile) file = NULL;
  WriteStream ws = { NULL, NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gboolean png;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  parts[0] = GTK_WIDGET (self->time_ruler);
  parts[1] = GTK_WIDGET (self->timeline);
  parts[2] = GTK_WIDGET (self->loss_plot);
  width = MAX (gtk_widget_get_allocated_width (parts[1]), 400);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      heights[i] = MAX (gtk_widget_get_allocated_height (parts[i]), 1);
      if (i == 1 && heights[i] < 100)
        heights[i] = 400;
      total += heights[i];
    }

  /* Written through g_file_replace(): a temporary file renamed over @path
   * on success, so an interrupted export leaves the old file intact. */
  file = g_file_new_for_path (path);
  ws.stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error));
  if (ws.stream == NULL)
    return FALSE;

  lower = g_ascii_strdown (path, -1);
  png = FALSE;
  if (g_str_has_suffix (lower, ".svg"))
    surface = cairo_svg_surface_create_for_stream (write_to_stream, &ws, width, total);
  else if (g_str_has_suffix (lower, ".pdf"))
    surface = cairo_pdf_surface_create_for_stream (write_to_stream, &ws, width, total);
  else
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, total);
      png = TRUE;
    }
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_save (cr);
  etl_time_ruler_render (self->time_ruler, cr, width, heights[0]);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_translate (cr, 0, heights[0]);
  cairo_rectangle (cr, 0, 0, width, heights[1]);
  cairo_clip (cr);
  etl_timeline_view_render (self->timeline, cr, width, heights[1]);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_translate (cr, 0, heights[0] + heights[1]);
  etl_loss_plot_render (self->loss_plot, cr, width, heights[2]);
  cairo_restore (cr);
  cairo_destroy (cr);

  cairo_surface_flush (surface);
  if (png)
    status = cairo_surface_write_to_png_stream (surface, write_to_stream, &ws);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS || ws.error != NULL)
    {
      g_autoptr (GCancellable) abandon = g_cancellable_new ();

      /* A cancelled close keeps the original file and drops the temporary one. */
      g_cancellable_cancel (abandon);
      g_output_stream_close (ws.stream, abandon, NULL);
      g_object_unref (ws.stream);
      if (ws.error != NULL)
        g_propagate_prefixed_error (error, ws.error, "%s: ", path);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  if (!g_output_stream_close (ws.stream, NULL, error))
    {
      g_object_unref (ws.stream);
      return FALSE;
    }
  g_object_unref (ws.stream);
  return TRUE;
}
