/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlDocument: exporting the records of a time range that the filter keeps
 * to an .etl file (etl_writer_write_slice(), which writes atomically), in a
 * worker with progress. */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-document-private.h"
#include "etl-worker.h"

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows; /* NULL: every record */
  gint64 from;
  gint64 to;
  char *path;
  EtlDocumentProgress *progress;
  EtlWriterStats stats;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *ed = data;

  etl_trace_unref (ed->trace);
  g_clear_pointer (&ed->rows, etl_row_set_unref);
  g_free (ed->path);
  etl_document_progress_unref (ed->progress);
  g_free (ed);
}

/* EtlSliceFilterFunc: whether the row set holds @index. */
static gboolean
row_in_set (EtlTrace *trace, guint64 index, gpointer user_data)
{
  EtlRowSet *rows = user_data;
  guint64 pos = etl_row_set_find (rows, index);

  return pos < etl_row_set_get_n (rows) && etl_row_set_get (rows, pos) == index;
}

static void
export_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ExportData *ed = task_data;
  GError *error = NULL;
  EtlSliceOptions options;

  etl_slice_options_init (&options);
  options.from = ed->from;
  options.to = ed->to;
  if (ed->rows != NULL)
    {
      options.filter = row_in_set;
      options.filter_data = ed->rows;
    }
  if (etl_writer_write_slice (ed->trace, &options, ed->path, etl_document_progress_cb, ed->progress, cancellable,
                              &ed->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlDocument *self = ETL_DOCUMENT (source);
  g_autoptr (GTask) outer = user_data;
  ExportData *ed = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  etl_document_end_job (self, ETL_DOCUMENT_JOB_KIND_EXPORT, g_task_get_cancellable (G_TASK (result)));
  etl_document_stop_progress (self, ed->progress);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_EXPORT, error);
      g_task_return_error (outer, g_steal_pointer (&error));
      return;
    }
  etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_EXPORT, NULL);
  g_task_set_task_data (outer, g_memdup2 (&ed->stats, sizeof ed->stats), g_free);
  g_task_return_boolean (outer, TRUE);
}

/**
 * etl_document_export_async:
 * @self: a document with a trace open
 * @path: (type filename): the .etl file to write (replaced atomically: an
 *   export that fails or is cancelled leaves what was there)
 * @from: first FILETIME kept (inclusive, 100-ns units since 1601), or
 *   %G_MININT64
 * @to: FILETIME where the export ends (exclusive), or %G_MAXINT64
 * @callback: called on the document's main context when done
 * @user_data: closure for @callback
 *
 * Writes the records of [@from, @to) that the row set keeps (every record
 * when it keeps all) to @path with etl_writer_write_slice(), in a worker
 * with progress ("Exporting NAME…", the fraction of records written).  An
 * open or export still running is cancelled: one progress bar shows them.
 * Finish with etl_document_export_finish().
 */
void
etl_document_export_async (EtlDocument *self, const char *path, gint64 from, gint64 to, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *base = NULL;
  g_autofree char *label = NULL;
  GCancellable *cancellable;
  GTask *outer;
  ExportData *ed;

  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (self->trace != NULL);

  outer = etl_document_new_outer_task (self, etl_document_export_async, callback, user_data);
  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_OPEN);
  cancellable = etl_document_start_job (self, ETL_DOCUMENT_JOB_KIND_EXPORT);

  base = g_path_get_basename (path);
  label = g_strdup_printf ("Exporting %s…", base);
  ed = g_new0 (ExportData, 1);
  ed->trace = etl_trace_ref (self->trace);
  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    ed->rows = etl_row_set_ref (self->rows);
  ed->from = from;
  ed->to = to;
  ed->path = g_strdup (path);
  ed->progress = etl_document_progress_new (label, 0);
  etl_document_start_progress (self, ed->progress);

  task = g_task_new (self, cancellable, on_export_done, outer);
  g_task_set_source_tag (task, etl_document_export_async);
  g_task_set_task_data (task, ed, export_data_free);
  etl_worker_run (task, export_thread);
}

/**
 * etl_document_export_finish:
 * @self: a document
 * @result: the #GAsyncResult given to the callback
 * @stats: (out caller-allocates) (optional): what was written
 * @error: return location for a #GError
 *
 * The end of etl_document_export_async().  Errors: the writer's
 * (#G_FILE_ERROR, #G_IO_ERROR, naming @path); %G_IO_ERROR_CANCELLED
 * (cancelled, or replaced by an open or another export).
 *
 * Returns: %TRUE when @path was written
 */
gboolean
etl_document_export_finish (EtlDocument *self, GAsyncResult *result, EtlWriterStats *stats, GError **error)
{
  const EtlWriterStats *got;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  got = g_task_get_task_data (G_TASK (result));
  if (stats != NULL && got != NULL)
    *stats = *got;
  return TRUE;
}
