/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-document
 * @title: EtlDocument
 * @short_description: what a window shows of one set of traces
 *
 * One #EtlDocument per opened set of .etl files, the way sysprof's
 * SysprofDisplay owns one capture (STYLE.md, "Window, document and views"):
 * it owns the #EtlTrace (with its schema registry, manifests and process
 * table), what the load computes besides (the CPU-lane #EtlSummary, the
 * #EtlLossSummary, the #EtlStacks, the most frequent providers), the
 * problems the open found, the filter (an #EtlFilter and the event list's
 * context-menu conditions) and the #EtlRowSet it keeps, the selected record
 * and time range, the named markers, and the jobs that compute all that.
 * Widgets read it and listen to its signals; it knows nothing of them (GLib
 * only, tested without a display).
 *
 * Jobs run in #GTask workers (etl_worker_run()), one of each kind at a time
 * (#EtlDocumentJobs): a new open, filter or export cancels the one of its
 * kind still running; an open and an export cancel each other too, since one
 * progress bar shows them.  Each job's #GCancellable belongs to the
 * document; etl_document_cancel() cancels them all.  A job's end is
 * announced by #EtlDocument::job-finished (with its error, cancellation
 * included), and the #EtlDocument:busy, :loading and :filtering properties
 * follow the jobs.
 *
 * The worker of an open or an export reports progress through atomics that
 * a timeout on the document's main context reads every 50
 * ms (the window's progress bar did the same): #EtlDocument:progress and
 * #EtlDocument:progress-label change at most that often, however often the
 * reader reports, and only when their value changed.
 *
 * Signals and what they mean for a view:
 * - #EtlDocument::loaded — a new trace replaced the old one: every row is
 *   shown (the filter, when one is set, then runs and ends with
 *   #EtlDocument::rows-changed), nothing is selected, the markers are the
 *   new trace's (followed by #EtlDocument::markers-changed when either set
 *   had markers);
 * - #EtlDocument::load-failed — an open failed (not when cancelled); what
 *   was open stays;
 * - #EtlDocument::rows-changed — the filter's row set was replaced;
 * - #EtlDocument::selection-changed — the selected record or range changed;
 * - #EtlDocument::markers-changed — markers added, removed or reloaded;
 * - #EtlDocument::schemas-changed — a manifest was registered with the open
 *   trace: names and payloads may read differently;
 * - #EtlDocument::job-finished — a job ended.
 *
 * Markers are kept per trace in a #GKeyFile (etl_document_set_markers_file();
 * the window uses g_get_user_config_dir()/etlscope/markers.ini), never
 * beside or inside the trace: one group per trace, named by the SHA-256 of
 * its files' paths and sizes (etl_document_dup_markers_group()), holding the
 * paths for a reader ("files", joined by " | ") and two lists, "filetimes"
 * (FILETIME, decimal) and "names".  The file is written atomically
 * (g_key_file_save_to_file()) after each change.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-document-private.h"

/* How often the progress properties may change: the window's progress bar
 * polled at this rate before the document existed (at most one change in
 * three frames at 60 Hz). */
#define PROGRESS_POLL_MS 50

static const char *const job_names[ETL_DOCUMENT_N_JOB_KINDS] = { "open", "filter", "export", "manifest" };

static GParamSpec *properties[ETL_DOCUMENT_N_PROPS];
static guint signals[ETL_DOCUMENT_N_SIGNALS];

G_DEFINE_FINAL_TYPE (EtlDocument, etl_document, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Progress shared with a worker                                            */
/* ------------------------------------------------------------------------ */

EtlDocumentProgress *
etl_document_progress_new (const char *label, int permille)
{
  EtlDocumentProgress *p = g_new0 (EtlDocumentProgress, 1);

  g_atomic_ref_count_init (&p->ref_count);
  g_mutex_init (&p->lock);
  p->label = g_strdup (label);
  p->permille = permille;
  return p;
}

EtlDocumentProgress *
etl_document_progress_ref (EtlDocumentProgress *p)
{
  g_atomic_ref_count_inc (&p->ref_count);
  return p;
}

void
etl_document_progress_unref (EtlDocumentProgress *p)
{
  if (g_atomic_ref_count_dec (&p->ref_count))
    {
      g_mutex_clear (&p->lock);
      g_free (p->label);
      g_free (p);
    }
}

/* EtlProgressFunc, from the worker: @user_data is the progress. */
void
etl_document_progress_cb (double fraction, gpointer user_data)
{
  EtlDocumentProgress *p = user_data;

  g_atomic_int_set (&p->permille, (int) (CLAMP (fraction, 0.0, 1.0) * 1000));
}

/* From the worker: its current step (static text), shown after the label
 * while the fraction is unknown. */
void
etl_document_progress_set_stage (EtlDocumentProgress *p, const char *stage)
{
  g_atomic_pointer_set (&p->stage, stage);
}

void
etl_document_progress_set_label (EtlDocumentProgress *p, const char *label)
{
  g_mutex_lock (&p->lock);
  g_free (p->label);
  p->label = g_strdup (label);
  g_mutex_unlock (&p->lock);
}

/* The label, with the current stage when the fraction is unknown. */
static char *
progress_dup_text (EtlDocumentProgress *p, int permille)
{
  const char *stage = g_atomic_pointer_get (&p->stage);
  char *text;

  g_mutex_lock (&p->lock);
  if (permille < 0 && stage != NULL)
    text = g_strdup_printf ("%s %s", p->label, stage);
  else
    text = g_strdup (p->label);
  g_mutex_unlock (&p->lock);
  return text;
}

static void
set_progress (EtlDocument *self, double value, const char *label)
{
  if (value != self->progress_value)
    {
      self->progress_value = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_PROGRESS]);
    }
  if (g_strcmp0 (label, self->progress_label) != 0)
    {
      g_free (self->progress_label);
      self->progress_label = g_strdup (label);
      g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_PROGRESS_LABEL]);
    }
}

static void
poll_progress (EtlDocument *self)
{
  int permille = g_atomic_int_get (&self->progress->permille);
  g_autofree char *text = progress_dup_text (self->progress, permille);

  set_progress (self, permille < 0 ? -1.0 : permille / 1000.0, text);
}

static gboolean
progress_poll_cb (gpointer user_data)
{
  EtlDocument *self = user_data;

  if (self->progress != NULL)
    poll_progress (self);
  return G_SOURCE_CONTINUE;
}

static void
clear_progress (EtlDocument *self)
{
  if (self->progress_source != NULL)
    {
      g_source_destroy (self->progress_source);
      g_clear_pointer (&self->progress_source, g_source_unref);
    }
  g_clear_pointer (&self->progress, etl_document_progress_unref);
}

/* @p becomes what the progress properties show, read every
 * PROGRESS_POLL_MS on the document's main context. */
void
etl_document_start_progress (EtlDocument *self, EtlDocumentProgress *p)
{
  clear_progress (self);
  self->progress = etl_document_progress_ref (p);
  poll_progress (self);
  self->progress_source = g_timeout_source_new (PROGRESS_POLL_MS);
  g_source_set_callback (self->progress_source, progress_poll_cb, self, NULL);
  g_source_set_static_name (self->progress_source, "[etlscope] document progress");
  g_source_attach (self->progress_source, self->context);
}

/* The job of @p ended: the progress properties go back to 0 and %NULL,
 * unless another job's progress is shown by now (@p %NULL: whichever). */
void
etl_document_stop_progress (EtlDocument *self, EtlDocumentProgress *p)
{
  if (self->progress == NULL || (p != NULL && p != self->progress))
    return;
  clear_progress (self);
  set_progress (self, 0.0, NULL);
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                     */
/* ------------------------------------------------------------------------ */

void
etl_document_notify (EtlDocument *self, EtlDocumentProp prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
etl_document_emit (EtlDocument *self, EtlDocumentSignal signal)
{
  g_assert (signal != ETL_DOCUMENT_SIGNAL_LOAD_FAILED && signal != ETL_DOCUMENT_SIGNAL_JOB_FINISHED);
  g_signal_emit (self, signals[signal], 0);
}

void
etl_document_emit_load_failed (EtlDocument *self, const GError *error)
{
  g_signal_emit (self, signals[ETL_DOCUMENT_SIGNAL_LOAD_FAILED], 0, error);
}

void
etl_document_emit_job_finished (EtlDocument *self, EtlDocumentJobKind kind, const GError *error)
{
  g_signal_emit (self, signals[ETL_DOCUMENT_SIGNAL_JOB_FINISHED], g_quark_from_static_string (job_names[kind]),
                 job_names[kind], error);
}

/**
 * etl_document_get_jobs:
 * @self: a document
 *
 * Returns: the kinds of job running now
 */
EtlDocumentJobs
etl_document_get_jobs (EtlDocument *self)
{
  EtlDocumentJobs jobs = 0;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0);
  for (guint k = 0; k < ETL_DOCUMENT_N_JOB_KINDS; k++)
    if (self->jobs[k] != NULL)
      jobs |= 1u << k;
  return jobs;
}

/* Notifies busy, loading and filtering where they changed. */
static void
update_jobs (EtlDocument *self)
{
  EtlDocumentJobs now = etl_document_get_jobs (self);
  EtlDocumentJobs before = self->notified_jobs;

  if (now == before)
    return;
  self->notified_jobs = now;
  if ((now != 0) != (before != 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_BUSY]);
  if ((now ^ before) & ETL_DOCUMENT_JOB_OPEN)
    g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_LOADING]);
  if ((now ^ before) & ETL_DOCUMENT_JOB_FILTER)
    g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_FILTERING]);
}

/* A new job of @kind replaces the one running; returns its cancellable
 * (transfer none: the document's, for the job's task). */
GCancellable *
etl_document_start_job (EtlDocument *self, EtlDocumentJobKind kind)
{
  if (self->jobs[kind] != NULL)
    g_cancellable_cancel (self->jobs[kind]);
  g_clear_object (&self->jobs[kind]);
  self->jobs[kind] = g_cancellable_new ();
  update_jobs (self);
  return self->jobs[kind];
}

/* A job's task has completed: TRUE when it was the current job of @kind
 * (neither cancelled by etl_document_cancel_jobs() nor replaced). */
gboolean
etl_document_end_job (EtlDocument *self, EtlDocumentJobKind kind, GCancellable *cancellable)
{
  if (cancellable == NULL || self->jobs[kind] != cancellable)
    return FALSE;
  g_clear_object (&self->jobs[kind]);
  update_jobs (self);
  return TRUE;
}

/* The task the caller's callback gets, for a job whose worker task
 * reports to the document first.  (transfer full) */
GTask *
etl_document_new_outer_task (EtlDocument *self, gpointer source_tag, GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *outer = g_task_new (self, NULL, callback, user_data);

  g_task_set_source_tag (outer, source_tag);
  return outer;
}

/**
 * etl_document_cancel_jobs:
 * @self: a document
 * @jobs: which kinds of job
 *
 * Cancels the jobs of @jobs that are running.  Each ends soon after on the
 * document's main context with %G_IO_ERROR_CANCELLED
 * (#EtlDocument::job-finished, its callback); what they would have
 * replaced stays.  The progress properties go back to 0 and %NULL when the
 * open or export showing progress is among them; #EtlDocument:busy,
 * :loading and :filtering change at once.
 */
void
etl_document_cancel_jobs (EtlDocument *self, EtlDocumentJobs jobs)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));

  for (guint k = 0; k < ETL_DOCUMENT_N_JOB_KINDS; k++)
    if ((jobs & (1u << k)) && self->jobs[k] != NULL)
      {
        g_cancellable_cancel (self->jobs[k]);
        g_clear_object (&self->jobs[k]);
        if (k == ETL_DOCUMENT_JOB_KIND_OPEN || k == ETL_DOCUMENT_JOB_KIND_EXPORT)
          etl_document_stop_progress (self, NULL);
      }
  update_jobs (self);
}

/**
 * etl_document_cancel:
 * @self: a document
 *
 * Cancels every job (etl_document_cancel_jobs() with
 * %ETL_DOCUMENT_JOB_ALL).  Call it before dropping the last reference
 * to a document with jobs running: each job holds a reference until it
 * ends.
 */
void
etl_document_cancel (EtlDocument *self)
{
  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_ALL);
}

/**
 * etl_document_get_busy:
 * @self: a document
 *
 * Returns: whether a job runs (#EtlDocument:busy)
 */
gboolean
etl_document_get_busy (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  return etl_document_get_jobs (self) != 0;
}

/**
 * etl_document_get_loading:
 * @self: a document
 *
 * Returns: whether an open (or the demo's generation) runs
 */
gboolean
etl_document_get_loading (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  return self->jobs[ETL_DOCUMENT_JOB_KIND_OPEN] != NULL;
}

/**
 * etl_document_get_filtering:
 * @self: a document
 *
 * Returns: whether the filter's rows are being computed
 */
gboolean
etl_document_get_filtering (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  return self->jobs[ETL_DOCUMENT_JOB_KIND_FILTER] != NULL;
}

/**
 * etl_document_get_progress:
 * @self: a document
 *
 * Returns: how far the open or export has come, 0.0 to 1.0 (of the bytes
 *   to read, or the records to write); -1.0 while it is unknown (the
 *   summaries after the read, the demo's generation); 0.0 with no such job
 */
double
etl_document_get_progress (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0.0);
  return self->progress_value;
}

/**
 * etl_document_get_progress_label:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): what the open or export does
 *   ("Loading net.4.5.2.x64.etl…", "Exporting a.etl…"), followed while the
 *   fraction is unknown by its current step ("— timeline"); %NULL with no
 *   such job
 */
const char *
etl_document_get_progress_label (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->progress_label;
}

/* ------------------------------------------------------------------------ */
/* What is open                                                             */
/* ------------------------------------------------------------------------ */

/**
 * etl_document_get_trace:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open trace, or %NULL
 */
EtlTrace *
etl_document_get_trace (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->trace;
}

/**
 * etl_document_get_n_records:
 * @self: a document
 *
 * Returns: the open trace's records (etl_trace_get_n_records()), 0 when
 *   nothing is open
 */
guint64
etl_document_get_n_records (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0);
  return self->trace != NULL ? etl_trace_get_n_records (self->trace) : 0;
}

/**
 * etl_document_get_schema_registry:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open trace's schema registry
 *   (etl_trace_get_schema_registry()), or %NULL
 */
EtlSchemaRegistry *
etl_document_get_schema_registry (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->trace != NULL ? etl_trace_get_schema_registry (self->trace) : NULL;
}

/**
 * etl_document_get_process_table:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open trace's process table,
 *   decoded by the open's worker, or %NULL
 */
EtlProcessTable *
etl_document_get_process_table (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->trace != NULL ? etl_trace_get_process_table (self->trace) : NULL;
}

/**
 * etl_document_get_summary:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open's per-CPU summary of every
 *   record (%ETL_LANE_CPU, 2^16 bins), or %NULL
 */
EtlSummary *
etl_document_get_summary (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->summary;
}

/**
 * etl_document_get_loss_summary:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open's loss summary (2^14
 *   bins), or %NULL
 */
EtlLossSummary *
etl_document_get_loss_summary (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->loss_summary;
}

/**
 * etl_document_get_stacks:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the open trace's stacks
 *   (etl_stacks_compute()), or %NULL when it has none or nothing is open
 */
EtlStacks *
etl_document_get_stacks (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->stacks;
}

/**
 * etl_document_get_top_providers:
 * @self: a document
 * @n_providers: (out): how many
 *
 * The most frequent providers of the open trace (at most
 * %ETL_DOCUMENT_MAX_TOP_PROVIDERS), most records first: counted by the
 * open's worker from the index, named from each one's first record.
 *
 * Returns: (transfer none) (array length=n_providers) (nullable): the
 *   providers, %NULL when nothing is open
 */
const EtlDocumentProvider *
etl_document_get_top_providers (EtlDocument *self, guint *n_providers)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (n_providers != NULL, NULL);

  *n_providers = self->top_providers != NULL ? self->top_providers->len : 0;
  return self->top_providers != NULL ? (const EtlDocumentProvider *) (gpointer) self->top_providers->data : NULL;
}

/**
 * etl_document_dup_problems:
 * @self: a document
 *
 * What the last successful open reported: the error of each file left out
 * of the set, then each file's problems (#EtlFileInfo.problems: file,
 * offset, reason) and a line for those beyond the first 1,000.
 *
 * Returns: (transfer full) (element-type utf8): the messages, empty when
 *   there were none or nothing is open
 */
GPtrArray *
etl_document_dup_problems (EtlDocument *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), copy);
  for (guint i = 0; self->problems != NULL && i < self->problems->len; i++)
    g_ptr_array_add (copy, g_strdup (g_ptr_array_index (self->problems, i)));
  return copy;
}

/* ------------------------------------------------------------------------ */
/* Selection                                                                */
/* ------------------------------------------------------------------------ */

/* Sets the selection and notifies its properties, without
 * selection-changed; TRUE when it changed.  An empty range is no range. */
gboolean
etl_document_change_selection (EtlDocument *self, gint64 record, gint64 start, gint64 end)
{
  gboolean changed = FALSE;

  if (start >= end)
    start = end = 0;
  if (record != self->selected)
    {
      self->selected = record;
      g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_SELECTED_RECORD]);
      changed = TRUE;
    }
  if (start != self->range_start)
    {
      self->range_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_RANGE_START]);
      changed = TRUE;
    }
  if (end != self->range_end)
    {
      self->range_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[ETL_DOCUMENT_PROP_RANGE_END]);
      changed = TRUE;
    }
  return changed;
}

/**
 * etl_document_get_selected_record:
 * @self: a document
 *
 * Returns: the selected record (a position in the trace's merged order),
 *   or %ETL_DOCUMENT_NO_RECORD
 */
gint64
etl_document_get_selected_record (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), ETL_DOCUMENT_NO_RECORD);
  return self->selected;
}

/**
 * etl_document_set_selected_record:
 * @self: a document
 * @record: a record of the open trace, or %ETL_DOCUMENT_NO_RECORD
 *
 * Selects @record (one the filter hides too) and emits
 * #EtlDocument::selection-changed when that changes the selection.  A
 * record beyond the trace (or any, with nothing open) selects nothing.
 * The filter's new rows unselect a record they hide.
 */
void
etl_document_set_selected_record (EtlDocument *self, gint64 record)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));

  if (record < 0 || (guint64) record >= etl_document_get_n_records (self))
    record = ETL_DOCUMENT_NO_RECORD;
  if (etl_document_change_selection (self, record, self->range_start, self->range_end))
    g_signal_emit (self, signals[ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED], 0);
}

/**
 * etl_document_get_range:
 * @self: a document
 * @start: (out) (optional): start of the selected range, FILETIME (100-ns
 *   units since 1601)
 * @end: (out) (optional): its end (exclusive), FILETIME
 *
 * Returns: %TRUE when a range is selected (else both are 0)
 */
gboolean
etl_document_get_range (EtlDocument *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);

  if (start != NULL)
    *start = self->range_start;
  if (end != NULL)
    *end = self->range_end;
  return self->range_start < self->range_end;
}

/**
 * etl_document_set_range:
 * @self: a document
 * @start: start of the range, FILETIME (100-ns units since 1601)
 * @end: its end (exclusive), FILETIME; @end ≤ @start selects no range
 *
 * Selects a time range (the timeline's drag selection) and emits
 * #EtlDocument::selection-changed when that changes the selection.  With
 * nothing open no range is selected.
 */
void
etl_document_set_range (EtlDocument *self, gint64 start, gint64 end)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));

  if (self->trace == NULL)
    start = end = 0;
  if (etl_document_change_selection (self, self->selected, start, end))
    g_signal_emit (self, signals[ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED], 0);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * etl_document_new:
 *
 * A document with nothing open.  Its jobs report on the thread-default
 * main context of the thread that creates it (g_main_context_ref_thread_default()),
 * which must run for them to end.
 *
 * Returns: (transfer full): a new document
 */
EtlDocument *
etl_document_new (void)
{
  return g_object_new (ETL_TYPE_DOCUMENT, NULL);
}

static void
etl_document_dispose (GObject *object)
{
  EtlDocument *self = ETL_DOCUMENT (object);

  for (guint k = 0; k < ETL_DOCUMENT_N_JOB_KINDS; k++)
    {
      if (self->jobs[k] != NULL)
        g_cancellable_cancel (self->jobs[k]);
      g_clear_object (&self->jobs[k]);
    }
  clear_progress (self);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->summary, etl_summary_unref);
  g_clear_pointer (&self->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->top_providers, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);

  G_OBJECT_CLASS (etl_document_parent_class)->dispose (object);
}

static void
etl_document_finalize (GObject *object)
{
  EtlDocument *self = ETL_DOCUMENT (object);

  g_clear_pointer (&self->filter, etl_filter_free);
  g_clear_pointer (&self->conditions, g_ptr_array_unref);
  g_clear_pointer (&self->markers, g_array_unref);
  g_free (self->markers_file);
  g_clear_pointer (&self->manifests, g_ptr_array_unref);
  g_free (self->progress_label);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (etl_document_parent_class)->finalize (object);
}

static void
etl_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlDocument *self = ETL_DOCUMENT (object);

  switch ((EtlDocumentProp) prop_id)
    {
    case ETL_DOCUMENT_PROP_TRACE:
      g_value_set_pointer (value, self->trace);
      break;
    case ETL_DOCUMENT_PROP_N_RECORDS:
      g_value_set_uint64 (value, etl_document_get_n_records (self));
      break;
    case ETL_DOCUMENT_PROP_FILTER:
      g_value_set_pointer (value, self->filter);
      break;
    case ETL_DOCUMENT_PROP_FILTER_TEXT:
      g_value_set_string (value, etl_document_get_filter_text (self));
      break;
    case ETL_DOCUMENT_PROP_ROW_SET:
      g_value_set_pointer (value, self->rows);
      break;
    case ETL_DOCUMENT_PROP_SELECTED_RECORD:
      g_value_set_int64 (value, self->selected);
      break;
    case ETL_DOCUMENT_PROP_RANGE_START:
      g_value_set_int64 (value, self->range_start);
      break;
    case ETL_DOCUMENT_PROP_RANGE_END:
      g_value_set_int64 (value, self->range_end);
      break;
    case ETL_DOCUMENT_PROP_BUSY:
      g_value_set_boolean (value, etl_document_get_busy (self));
      break;
    case ETL_DOCUMENT_PROP_LOADING:
      g_value_set_boolean (value, etl_document_get_loading (self));
      break;
    case ETL_DOCUMENT_PROP_FILTERING:
      g_value_set_boolean (value, etl_document_get_filtering (self));
      break;
    case ETL_DOCUMENT_PROP_PROGRESS:
      g_value_set_double (value, self->progress_value);
      break;
    case ETL_DOCUMENT_PROP_PROGRESS_LABEL:
      g_value_set_string (value, self->progress_label);
      break;
    case ETL_DOCUMENT_PROP_MARKERS_FILE:
      g_value_set_string (value, self->markers_file);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_document_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlDocument *self = ETL_DOCUMENT (object);

  switch ((EtlDocumentProp) prop_id)
    {
    case ETL_DOCUMENT_PROP_FILTER_TEXT:
      etl_document_set_filter_text (self, g_value_get_string (value));
      break;
    case ETL_DOCUMENT_PROP_SELECTED_RECORD:
      etl_document_set_selected_record (self, g_value_get_int64 (value));
      break;
    case ETL_DOCUMENT_PROP_MARKERS_FILE:
      etl_document_set_markers_file (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_document_class_init (EtlDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_document_dispose;
  object_class->finalize = etl_document_finalize;
  object_class->get_property = etl_document_get_property;
  object_class->set_property = etl_document_set_property;

  /**
   * EtlDocument:trace: (type gpointer)
   *
   * The open #EtlTrace (transfer none), or %NULL: set by a successful open,
   * cleared by etl_document_close().
   */
  properties[ETL_DOCUMENT_PROP_TRACE] =
    g_param_spec_pointer ("trace", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:n-records:
   *
   * The open trace's records; 0 when nothing is open.
   */
  properties[ETL_DOCUMENT_PROP_N_RECORDS] =
    g_param_spec_uint64 ("n-records", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:filter: (type gpointer)
   *
   * The #EtlFilter (transfer none, never %NULL): etl_document_set_filter().
   */
  properties[ETL_DOCUMENT_PROP_FILTER] =
    g_param_spec_pointer ("filter", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:filter-text:
   *
   * The filter's free text (#EtlFilter.text), "" for none; setting it keeps
   * the filter's other conditions and runs the filter.
   */
  properties[ETL_DOCUMENT_PROP_FILTER_TEXT] =
    g_param_spec_string ("filter-text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:row-set: (type gpointer)
   *
   * The #EtlRowSet the filter and conditions keep (transfer none): every
   * row after an open, the filter's once its job ends; %NULL when nothing
   * is open.
   */
  properties[ETL_DOCUMENT_PROP_ROW_SET] =
    g_param_spec_pointer ("row-set", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:selected-record:
   *
   * The selected record, or %ETL_DOCUMENT_NO_RECORD (-1).
   */
  properties[ETL_DOCUMENT_PROP_SELECTED_RECORD] =
    g_param_spec_int64 ("selected-record", NULL, NULL, -1, G_MAXINT64, ETL_DOCUMENT_NO_RECORD,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:range-start:
   *
   * Start of the selected time range, FILETIME; 0 with no range
   * (etl_document_set_range()).
   */
  properties[ETL_DOCUMENT_PROP_RANGE_START] =
    g_param_spec_int64 ("range-start", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:range-end:
   *
   * End (exclusive) of the selected time range, FILETIME; 0 with no range.
   */
  properties[ETL_DOCUMENT_PROP_RANGE_END] =
    g_param_spec_int64 ("range-end", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:busy:
   *
   * Whether any job runs (open, filter, export, manifest).
   */
  properties[ETL_DOCUMENT_PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:loading:
   *
   * Whether an open runs.
   */
  properties[ETL_DOCUMENT_PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:filtering:
   *
   * Whether the filter's job runs.
   */
  properties[ETL_DOCUMENT_PROP_FILTERING] =
    g_param_spec_boolean ("filtering", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:progress:
   *
   * The open's or export's progress, 0.0 to 1.0, -1.0 while unknown, 0.0
   * with neither running; changes at most every 50 ms.
   */
  properties[ETL_DOCUMENT_PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, -1.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:progress-label:
   *
   * What the open or export does (etl_document_get_progress_label()), or
   * %NULL.
   */
  properties[ETL_DOCUMENT_PROP_PROGRESS_LABEL] =
    g_param_spec_string ("progress-label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlDocument:markers-file:
   *
   * Where markers are kept (etl_document_set_markers_file()), or %NULL.
   */
  properties[ETL_DOCUMENT_PROP_MARKERS_FILE] =
    g_param_spec_string ("markers-file", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, ETL_DOCUMENT_N_PROPS, properties);

  /**
   * EtlDocument::loaded:
   * @self: the document
   *
   * A new trace replaced the old: every row is shown (a filter set then
   * runs), nothing is selected, the markers are the new trace's.
   */
  signals[ETL_DOCUMENT_SIGNAL_LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * EtlDocument::load-failed:
   * @self: the document
   * @error: why (as etl_document_open_finish() reports it)
   *
   * An open failed; what was open stays.  Not emitted on cancellation.
   */
  signals[ETL_DOCUMENT_SIGNAL_LOAD_FAILED] =
    g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * EtlDocument::rows-changed:
   * @self: the document
   *
   * The filter's row set (#EtlDocument:row-set) was replaced.  Not emitted
   * by an open or a close (#EtlDocument::loaded, notify::trace).
   */
  signals[ETL_DOCUMENT_SIGNAL_ROWS_CHANGED] =
    g_signal_new ("rows-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * EtlDocument::selection-changed:
   * @self: the document
   *
   * The selected record or the selected range changed.
   */
  signals[ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * EtlDocument::markers-changed:
   * @self: the document
   *
   * Markers were added, removed, or read for a newly open trace.
   */
  signals[ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED] =
    g_signal_new ("markers-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  0);

  /**
   * EtlDocument::schemas-changed:
   * @self: the document
   *
   * A manifest was registered with the open trace: event names and
   * payloads may read differently.
   */
  signals[ETL_DOCUMENT_SIGNAL_SCHEMAS_CHANGED] =
    g_signal_new ("schemas-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  0);

  /**
   * EtlDocument::job-finished:
   * @self: the document
   * @job: "open", "filter", "export" or "manifest" (also the detail)
   * @error: (nullable): %NULL on success, else why it ended
   *   (%G_IO_ERROR_CANCELLED when cancelled or replaced)
   *
   * A job ended, after the document took its result and before the
   * caller's callback runs.
   */
  signals[ETL_DOCUMENT_SIGNAL_JOB_FINISHED] =
    g_signal_new ("job-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
marker_clear (gpointer data)
{
  g_free (((EtlDocumentMarker *) data)->name);
}

static void
etl_document_init (EtlDocument *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->filter = etl_filter_new ();
  self->conditions = g_ptr_array_new_with_free_func (etl_document_condition_unref);
  self->selected = ETL_DOCUMENT_NO_RECORD;
  self->markers = g_array_new (FALSE, FALSE, sizeof (EtlDocumentMarker));
  g_array_set_clear_func (self->markers, marker_clear);
  self->manifests = g_ptr_array_new_with_free_func (g_free);
}
