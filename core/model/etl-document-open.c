/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlDocument: opening a set of files (or the demo trace), closing, and
 * the manifests that describe events. */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>
#include <string.h>

#include "etl-document-private.h"
#include "etl-names.h"
#include "etl-worker.h"

typedef struct
{
  char **paths;
  char **manifests;
  char *demo_path; /* generate it (demo_params) first when it does not exist */
  EtlSynthParams demo_params;
  EtlDocumentProgress *progress;
  /* Results */
  EtlTrace *trace;
  EtlSummary *summary;
  EtlLossSummary *loss_summary;
  EtlStacks *stacks;
  GArray *top_providers;
  GPtrArray *errors; /* GError*: files left out of a set */
} OpenData;

static void
open_data_free (gpointer data)
{
  OpenData *od = data;

  g_strfreev (od->paths);
  g_strfreev (od->manifests);
  g_free (od->demo_path);
  etl_document_progress_unref (od->progress);
  g_clear_pointer (&od->trace, etl_trace_unref);
  g_clear_pointer (&od->summary, etl_summary_unref);
  g_clear_pointer (&od->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&od->stacks, etl_stacks_unref);
  g_clear_pointer (&od->top_providers, g_array_unref);
  g_clear_pointer (&od->errors, g_ptr_array_unref);
  g_free (od);
}

static void
top_provider_clear (gpointer data)
{
  g_free (((EtlDocumentProvider *) data)->name);
}

static gint
compare_top_providers (gconstpointer a, gconstpointer b)
{
  guint64 ca = ((const EtlDocumentProvider *) a)->count, cb = ((const EtlDocumentProvider *) b)->count;

  return ca > cb ? -1 : ca < cb;
}

/* Counts records per provider index (from the index: no record read) and
 * names the most frequent from their first record. */
static GArray *
count_top_providers (EtlTrace *trace, GCancellable *cancellable)
{
  guint n_providers = etl_trace_get_n_providers (trace);
  guint64 n = etl_trace_get_n_records (trace);
  g_autofree guint64 *counts = g_new0 (guint64, n_providers + 1);
  g_autofree guint64 *first = g_new0 (guint64, n_providers + 1);
  GArray *top = g_array_new (FALSE, TRUE, sizeof (EtlDocumentProvider));

  g_array_set_clear_func (top, top_provider_clear);
  for (guint64 i = 0; i < n; i++)
    {
      guint p = etl_trace_get_provider_index (trace, i);

      if ((i & 0xFFFFF) == 0 && g_cancellable_is_cancelled (cancellable))
        return top;
      if (p >= n_providers)
        continue;
      if (counts[p]++ == 0)
        first[p] = i;
    }
  for (guint p = 0; p < n_providers; p++)
    if (counts[p] > 0)
      {
        EtlDocumentProvider e = { p, counts[p], NULL };

        g_array_append_val (top, e);
      }
  g_array_sort (top, compare_top_providers);
  if (top->len > ETL_DOCUMENT_MAX_TOP_PROVIDERS)
    g_array_set_size (top, ETL_DOCUMENT_MAX_TOP_PROVIDERS);
  for (guint i = 0; i < top->len; i++)
    {
      EtlDocumentProvider *e = &g_array_index (top, EtlDocumentProvider, i);
      EtlRecord record;

      if (etl_trace_get_record (trace, first[e->provider], &record, NULL))
        {
          e->name = etl_record_dup_provider_name (&record);
          etl_record_clear (&record);
        }
      else
        e->name = g_strdup ("?");
    }
  return top;
}

/* The errors of a set none of whose files opened, as one: the first's
 * domain and code, every message, one a line. */
static GError *
join_errors (GPtrArray *errors)
{
  const GError *first = g_ptr_array_index (errors, 0);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < errors->len; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, ((const GError *) g_ptr_array_index (errors, i))->message);
    }
  return g_error_new_literal (first->domain, first->code, text->str);
}

/* Opens the files together; when that fails, finds which fail on their
 * own (od->errors) and opens the rest together.  FALSE with @error when
 * cancelled or when no file opens. */
static gboolean
open_trace (OpenData *od, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GPtrArray) good = NULL;

  od->trace = etl_trace_open_full ((const char *const *) od->paths, (const char *const *) od->manifests, etl_document_progress_cb,
                                   od->progress, cancellable, &local);
  if (od->trace != NULL)
    return TRUE;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED) || g_strv_length (od->paths) == 1)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  g_clear_error (&local);
  good = g_ptr_array_new ();
  for (guint i = 0; od->paths[i] != NULL; i++)
    {
      const char *one[] = { od->paths[i], NULL };
      g_autoptr (EtlTrace) t = NULL;
      GError *e = NULL;

      t = etl_trace_open (one, NULL, NULL, cancellable, &e);
      if (t != NULL)
        g_ptr_array_add (good, od->paths[i]);
      else if (g_error_matches (e, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, e);
          return FALSE;
        }
      else
        g_ptr_array_add (od->errors, e);
    }
  if (good->len == 0)
    {
      g_propagate_error (error, join_errors (od->errors));
      return FALSE;
    }
  g_ptr_array_add (good, NULL);
  od->trace = etl_trace_open_full ((const char *const *) good->pdata, (const char *const *) od->manifests, etl_document_progress_cb,
                                   od->progress, cancellable, error);
  return od->trace != NULL;
}

static void
open_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OpenData *od = task_data;
  GError *error = NULL;

  if (od->demo_path != NULL && !g_file_test (od->demo_path, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *dir = g_path_get_dirname (od->demo_path);
      g_autofree char *base = g_path_get_basename (od->demo_path);
      g_autofree char *label = g_strdup_printf ("Loading %s…", base);

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved = errno;

          g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                                   "Could not generate the demo trace %s: %s: %s", od->demo_path, dir,
                                   g_strerror (saved));
          return;
        }
      /* Written atomically: an existing demo trace is always complete. */
      if (!etl_synth_write (&od->demo_params, od->demo_path, &error))
        {
          g_task_return_new_error (task, error->domain, error->code, "Could not generate the demo trace %s: %s",
                                   od->demo_path, error->message);
          g_error_free (error);
          return;
        }
      if (g_task_return_error_if_cancelled (task))
        return;
      etl_document_progress_set_label (od->progress, label);
      g_atomic_int_set (&od->progress->permille, 0);
    }

  if (!open_trace (od, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_atomic_int_set (&od->progress->permille, -1);
  /* The process table is decoded on first use: here, in the worker, so
   * views never pay for it on the main loop. */
  etl_document_progress_set_stage (od->progress, "— processes and threads");
  (void) etl_trace_get_process_table (od->trace);
  etl_document_progress_set_stage (od->progress, "— timeline");
  od->summary = etl_summary_new (od->trace, NULL, ETL_LANE_CPU, 0, 0, 16, cancellable, &error);
  if (od->summary == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  od->loss_summary = etl_loss_summary_new (od->trace, 14);
  etl_document_progress_set_stage (od->progress, "— stacks");
  od->stacks = etl_stacks_compute (od->trace, NULL, NULL, cancellable, NULL);
  etl_document_progress_set_stage (od->progress, "— providers");
  od->top_providers = count_top_providers (od->trace, cancellable);
  /* The merge and the summaries freed much in this thread's heap arena. */
  etl_worker_release_memory ();

  g_task_return_boolean (task, TRUE);
}

static GPtrArray *
collect_problems (OpenData *od)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < od->errors->len; i++)
    g_ptr_array_add (problems, g_strdup (((GError *) g_ptr_array_index (od->errors, i))->message));
  for (guint f = 0; f < etl_trace_get_n_files (od->trace); f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (od->trace, f);

      for (guint p = 0; p < info->problems->len; p++)
        g_ptr_array_add (problems, g_strdup (((GError *) g_ptr_array_index (info->problems, p))->message));
      if (info->n_problems_dropped > 0)
        g_ptr_array_add (problems, g_strdup_printf ("%s: %" G_GUINT64_FORMAT " more problems not listed", info->path,
                                                    info->n_problems_dropped));
    }
  return problems;
}

/* The open's results become what the document holds. */
static void
install_trace (EtlDocument *self, OpenData *od)
{
  gboolean markers_changed, selection_changed;

  /* A filter still running is the old trace's. */
  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_FILTER);

  g_object_freeze_notify (G_OBJECT (self));
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->summary, etl_summary_unref);
  g_clear_pointer (&self->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->top_providers, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = collect_problems (od);
  self->trace = g_steal_pointer (&od->trace);
  self->summary = g_steal_pointer (&od->summary);
  self->loss_summary = g_steal_pointer (&od->loss_summary);
  self->stacks = g_steal_pointer (&od->stacks);
  self->top_providers = g_steal_pointer (&od->top_providers);
  etl_document_reset_rows (self);
  selection_changed = etl_document_change_selection (self, ETL_DOCUMENT_NO_RECORD, 0, 0);
  markers_changed = etl_document_read_markers_file (self);
  etl_document_notify (self, ETL_DOCUMENT_PROP_TRACE);
  etl_document_notify (self, ETL_DOCUMENT_PROP_N_RECORDS);
  etl_document_notify (self, ETL_DOCUMENT_PROP_ROW_SET);
  g_object_thaw_notify (G_OBJECT (self));

  etl_document_emit (self, ETL_DOCUMENT_SIGNAL_LOADED);
  if (markers_changed)
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  if (selection_changed)
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED);
  if (!etl_filter_is_empty (self->filter))
    etl_document_apply_filter (self);
}

static void
on_open_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlDocument *self = ETL_DOCUMENT (source);
  g_autoptr (GTask) outer = user_data;
  OpenData *od = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  etl_document_end_job (self, ETL_DOCUMENT_JOB_KIND_OPEN, g_task_get_cancellable (G_TASK (result)));
  etl_document_stop_progress (self, od->progress);

  /* GTask reports a cancelled job as cancelled whatever the worker returned. */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        etl_document_emit_load_failed (self, error);
      etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_OPEN, error);
      g_task_return_error (outer, g_steal_pointer (&error));
      return;
    }
  install_trace (self, od);
  etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_OPEN, NULL);
  g_task_return_boolean (outer, TRUE);
}

/* Starts the open job of @od (paths and the demo's fields set). */
static void
start_open (EtlDocument *self, OpenData *od, gpointer source_tag, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  GCancellable *cancellable;
  GTask *outer = etl_document_new_outer_task (self, source_tag, callback, user_data);

  od->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  /* Manifests loaded earlier describe this trace too; one deleted since
   * would fail the whole open, so only those still there. */
  {
    GPtrArray *manifests = g_ptr_array_new ();

    for (guint i = 0; i < self->manifests->len; i++)
      if (g_file_test (g_ptr_array_index (self->manifests, i), G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (manifests, g_strdup (g_ptr_array_index (self->manifests, i)));
    g_ptr_array_add (manifests, NULL);
    od->manifests = (char **) g_ptr_array_free (manifests, FALSE);
  }

  /* One progress bar: an export stops for an open. */
  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_EXPORT);
  cancellable = etl_document_start_job (self, ETL_DOCUMENT_JOB_KIND_OPEN);
  etl_document_start_progress (self, od->progress);

  task = g_task_new (self, cancellable, on_open_done, outer);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, od, open_data_free);
  etl_worker_run (task, open_thread);
}

/**
 * etl_document_open_async:
 * @self: a document
 * @paths: (array zero-terminated=1) (type filename): the .etl files to show
 *   as one timeline, at least one
 * @manifests: (array zero-terminated=1) (nullable) (type filename):
 *   instrumentation manifests to describe events with, besides those loaded
 *   earlier (etl_document_add_manifest()); they are added to that list
 * @callback: called on the document's main context when the open ends
 * @user_data: closure for @callback
 *
 * Opens @paths in a worker, with progress (#EtlDocument:progress, "Loading
 * NAME, ……"), cancelling an open or export still running.  The worker
 * merges the files (etl_trace_open_full()), decodes the process table, and
 * computes the CPU-lane #EtlSummary, the #EtlLossSummary, the #EtlStacks and
 * the most frequent providers.  When the files cannot be opened together,
 * each is tried alone: those that fail are left out and listed first in
 * etl_document_dup_problems(), and the rest open together.  On success the
 * new trace replaces the old (#EtlDocument::loaded); else the old stays and
 * #EtlDocument::load-failed is emitted (not on cancellation).  Finish with
 * etl_document_open_finish().
 */
void
etl_document_open_async (EtlDocument *self, const char *const *paths, const char *const *manifests,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GString) label = g_string_new ("Loading ");
  OpenData *od;

  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (paths != NULL && paths[0] != NULL);

  for (guint i = 0; manifests != NULL && manifests[i] != NULL; i++)
    etl_document_add_manifest (self, manifests[i]);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);

      g_string_append_printf (label, "%s%s", i > 0 ? ", " : "", base);
    }
  g_string_append (label, "…");

  od = g_new0 (OpenData, 1);
  od->paths = g_strdupv ((char **) paths);
  od->progress = etl_document_progress_new (label->str, 0);
  start_open (self, od, etl_document_open_async, callback, user_data);
}

/**
 * etl_document_open_demo_async:
 * @self: a document
 * @path: (type filename): the demo trace
 * @params: what to generate when @path does not exist (etl_synth_write())
 * @callback: called on the document's main context when the open ends
 * @user_data: closure for @callback
 *
 * Opens @path as etl_document_open_async() does, generating it first with
 * etl_synth_write() (atomically, in the same worker; its folder created)
 * when it does not exist.  A generation error reads "Could not generate the
 * demo trace PATH: REASON".  Finish with etl_document_open_finish().
 */
void
etl_document_open_demo_async (EtlDocument *self, const char *path, const EtlSynthParams *params,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autofree char *base = NULL;
  g_autofree char *label = NULL;
  gboolean exists;
  OpenData *od;

  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (params != NULL);

  exists = g_file_test (path, G_FILE_TEST_IS_REGULAR);
  base = g_path_get_basename (path);
  label = exists ? g_strdup_printf ("Loading %s…", base) : g_strdup ("Generating the demo trace…");
  od = g_new0 (OpenData, 1);
  od->paths = g_strdupv ((char *[]) { (char *) path, NULL });
  od->demo_path = g_strdup (path);
  od->demo_params = *params;
  od->progress = etl_document_progress_new (label, exists ? 0 : -1);
  start_open (self, od, etl_document_open_demo_async, callback, user_data);
}

/**
 * etl_document_open_finish:
 * @self: a document
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * The end of etl_document_open_async() or etl_document_open_demo_async().
 * Errors: %G_IO_ERROR_CANCELLED (cancelled or replaced by a newer open or
 * etl_document_close()); the reader's #ETL_ERROR (%ETL_ERROR_OPEN,
 * %ETL_ERROR_EMPTY, %ETL_ERROR_NOT_ETL, …; its message names the file, the
 * offset and the reason; when no file of a set opens, the first error's
 * code with every message, one a line); a manifest's parser error; the demo
 * generation's error.
 *
 * Returns: %TRUE when the trace was opened and is now the document's
 */
gboolean
etl_document_open_finish (EtlDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * etl_document_close:
 * @self: a document
 *
 * Cancels the open, filter and export jobs and forgets the trace, its rows,
 * conditions, problems, markers (already written to the markers file) and
 * the selection.  The filter and the manifests stay for the next open;
 * a manifest job still running ends normally.  Emits notify for what
 * changed, #EtlDocument::markers-changed and
 * #EtlDocument::selection-changed when they were not empty.
 */
void
etl_document_close (EtlDocument *self)
{
  gboolean markers_changed, selection_changed;

  g_return_if_fail (ETL_IS_DOCUMENT (self));

  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_OPEN | ETL_DOCUMENT_JOB_FILTER | ETL_DOCUMENT_JOB_EXPORT);
  if (self->trace == NULL)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->summary, etl_summary_unref);
  g_clear_pointer (&self->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->top_providers, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  etl_document_reset_rows (self);
  markers_changed = self->markers->len > 0;
  g_array_set_size (self->markers, 0);
  selection_changed = etl_document_change_selection (self, ETL_DOCUMENT_NO_RECORD, 0, 0);
  etl_document_notify (self, ETL_DOCUMENT_PROP_TRACE);
  etl_document_notify (self, ETL_DOCUMENT_PROP_N_RECORDS);
  etl_document_notify (self, ETL_DOCUMENT_PROP_ROW_SET);
  g_object_thaw_notify (G_OBJECT (self));

  if (markers_changed)
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  if (selection_changed)
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED);
}

/* ------------------------------------------------------------------------ */
/* Manifests                                                                */
/* ------------------------------------------------------------------------ */

/**
 * etl_document_add_manifest:
 * @self: a document
 * @path: (type filename): an instrumentation manifest (.man or .xml)
 *
 * Adds @path to the manifests every later open describes events with
 * (those still on disk when the open starts).  The open trace is not
 * changed: see etl_document_load_manifest_async().
 */
void
etl_document_add_manifest (EtlDocument *self, const char *path)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);

  if (!g_ptr_array_find_with_equal_func (self->manifests, path, g_str_equal, NULL))
    g_ptr_array_add (self->manifests, g_strdup (path));
}

/**
 * etl_document_dup_manifests:
 * @self: a document
 *
 * Returns: (transfer full) (array zero-terminated=1) (type filename): the
 *   manifests later opens use, in the order they were added
 */
char **
etl_document_dup_manifests (EtlDocument *self)
{
  char **paths;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);

  paths = g_new0 (char *, self->manifests->len + 1);
  for (guint i = 0; i < self->manifests->len; i++)
    paths[i] = g_strdup (g_ptr_array_index (self->manifests, i));
  return paths;
}

typedef struct
{
  EtlTrace *trace;
  char *path;
  EtlManifestInfo info;
} ManifestData;

static void
manifest_data_free (gpointer data)
{
  ManifestData *md = data;

  g_clear_pointer (&md->trace, etl_trace_unref);
  g_free (md->path);
  etl_manifest_info_clear (&md->info);
  g_free (md);
}

static void
manifest_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ManifestData *md = task_data;
  GError *error = NULL;

  if (!etl_trace_load_manifest (md->trace, md->path, &md->info, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Hands the manifest's figures to the outer task (its data). */
static void
manifest_info_free (gpointer data)
{
  etl_manifest_info_clear (data);
  g_free (data);
}

static void
on_manifest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlDocument *self = ETL_DOCUMENT (source);
  g_autoptr (GTask) outer = user_data;
  ManifestData *md = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  EtlManifestInfo *info;

  etl_document_end_job (self, ETL_DOCUMENT_JOB_KIND_MANIFEST, g_task_get_cancellable (G_TASK (result)));
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_MANIFEST, error);
      g_task_return_error (outer, g_steal_pointer (&error));
      return;
    }
  etl_document_add_manifest (self, md->path);
  if (md->trace == self->trace)
    {
      /* Names and payloads may read differently now, and so may a text
       * filter match. */
      etl_document_emit (self, ETL_DOCUMENT_SIGNAL_SCHEMAS_CHANGED);
      if (self->filter->text != NULL && self->filter->text[0] != '\0')
        etl_document_apply_filter (self);
    }
  etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_MANIFEST, NULL);
  info = g_new0 (EtlManifestInfo, 1);
  *info = md->info;
  memset (&md->info, 0, sizeof md->info);
  g_task_set_task_data (outer, info, manifest_info_free);
  g_task_return_boolean (outer, TRUE);
}

/**
 * etl_document_load_manifest_async:
 * @self: a document
 * @path: (type filename): an instrumentation manifest (.man or .xml)
 * @callback: called on the document's main context when done
 * @user_data: closure for @callback
 *
 * Registers the events @path describes with the open trace
 * (etl_trace_load_manifest(), in a worker; a manifest job still running is
 * cancelled), then adds @path to the manifests later opens use, emits
 * #EtlDocument::schemas-changed when the same trace is still open, and runs
 * a text filter again.  With nothing open, @path is only added
 * (etl_document_add_manifest()) and the job succeeds with no figures.
 * Finish with etl_document_load_manifest_finish().
 */
void
etl_document_load_manifest_async (EtlDocument *self, const char *path, GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  GTask *outer;
  GCancellable *cancellable;
  ManifestData *md;

  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);

  outer = etl_document_new_outer_task (self, etl_document_load_manifest_async, callback, user_data);
  if (self->trace == NULL)
    {
      etl_document_add_manifest (self, path);
      g_task_return_boolean (outer, TRUE);
      g_object_unref (outer);
      return;
    }
  cancellable = etl_document_start_job (self, ETL_DOCUMENT_JOB_KIND_MANIFEST);
  md = g_new0 (ManifestData, 1);
  md->trace = etl_trace_ref (self->trace);
  md->path = g_strdup (path);
  task = g_task_new (self, cancellable, on_manifest_done, outer);
  g_task_set_source_tag (task, etl_document_load_manifest_async);
  g_task_set_task_data (task, md, manifest_data_free);
  etl_worker_run (task, manifest_thread);
}

/**
 * etl_document_load_manifest_finish:
 * @self: a document
 * @result: the #GAsyncResult given to the callback
 * @info: (out caller-allocates) (optional): what was registered, zeroed
 *   before (%ETL_MANIFEST_INFO_INIT); release with etl_manifest_info_clear()
 * @error: return location for a #GError
 *
 * The end of etl_document_load_manifest_async().  Errors: the manifest
 * parser's (etl_manifest_load_file(): the file, line and reason);
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: %TRUE when the manifest was registered (or, with nothing open,
 *   kept for later opens)
 */
gboolean
etl_document_load_manifest_finish (EtlDocument *self, GAsyncResult *result, EtlManifestInfo *info, GError **error)
{
  EtlManifestInfo *got;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  got = g_task_get_task_data (G_TASK (result));
  if (info != NULL && got != NULL)
    {
      *info = *got;
      memset (got, 0, sizeof *got);
    }
  return TRUE;
}
