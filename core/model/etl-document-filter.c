/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlDocument: the filter (an #EtlFilter, then the conditions the event
 * list's context menu and the summary add) and the #EtlRowSet it keeps,
 * computed in a worker: etl_filter_apply(), then the conditions over the
 * rows it keeps.  A new filter or condition cancels the job still running;
 * an empty filter without conditions shows every row at once. */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-decode.h"
#include "etl-document-private.h"
#include "etl-names.h"
#include "etl-worker.h"

/* Rows between two checks of the cancellable in the conditions' pass. */
#define CANCEL_CHECK_MASK 0xFFFF

/* ------------------------------------------------------------------------ */
/* Conditions                                                               */
/* ------------------------------------------------------------------------ */

static void
condition_clear (gpointer data)
{
  EtlDocumentCondition *c = data;

  g_free (c->field);
  g_free (c->name);
  g_clear_pointer (&c->matcher, etl_group_matcher_free);
}

void
etl_document_condition_unref (gpointer condition)
{
  g_atomic_rc_box_release_full (condition, condition_clear);
}

static gboolean
condition_matches (const EtlDocumentCondition *c, EtlTrace *trace, guint64 row)
{
  if (c->matcher != NULL)
    return etl_group_matcher_matches (c->matcher, row);
  if (g_str_equal (c->field, "provider"))
    return etl_trace_get_provider_index (trace, row) == c->provider;
  if (g_str_equal (c->field, "process"))
    {
      guint32 pid;

      return etl_trace_get_pid (trace, row, &pid) && pid == c->value;
    }
  if (g_str_equal (c->field, "event") && etl_trace_get_provider_index (trace, row) != c->provider)
    return FALSE;
  {
    EtlRecord record;
    gboolean match = FALSE;

    if (!etl_trace_get_record (trace, row, &record, NULL))
      return FALSE;
    if (g_str_equal (c->field, "thread"))
      match = record.has_pid && record.tid == c->value;
    else
      {
        g_autofree char *name = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &record);

        match = g_strcmp0 (name, c->name) == 0;
      }
    etl_record_clear (&record);
    return match;
  }
}

/* The conditions with @c (transfer full) added: a new array, since a
 * worker may hold the old one. */
static void
append_condition (EtlDocument *self, EtlDocumentCondition *c)
{
  GPtrArray *conditions = g_ptr_array_new_full (self->conditions->len + 1, etl_document_condition_unref);

  for (guint i = 0; i < self->conditions->len; i++)
    g_ptr_array_add (conditions, g_atomic_rc_box_acquire (g_ptr_array_index (self->conditions, i)));
  g_ptr_array_add (conditions, c);
  g_ptr_array_unref (self->conditions);
  self->conditions = conditions;
  etl_document_apply_filter (self);
}

/**
 * etl_document_add_condition:
 * @self: a document with a trace open
 * @field: "provider", "process", "thread" or "event"
 * @exclude: %TRUE to leave out the records sharing @record's value, %FALSE
 *   to keep only them
 * @record: a record of the open trace
 * @error: return location for a #GError
 *
 * What the event list's context menu does: adds a condition on @record's
 * provider (by provider index), process id, thread id or event (provider
 * index and event name, etl_decode_dup_event_name()) and runs the filter
 * in a worker; the conditions apply to the rows the #EtlFilter keeps.
 * etl_document_clear_conditions() removes them; an open clears them.
 *
 * Errors: %G_IO_ERROR_INVALID_ARGUMENT (an unknown @field, @record beyond
 * the trace); %G_IO_ERROR_NOT_FOUND (@record has no process or thread id,
 * or no event name); the reader's error when @record cannot be read.
 *
 * Returns: %TRUE when the condition was added
 */
gboolean
etl_document_add_condition (EtlDocument *self, const char *field, gboolean exclude, guint64 record, GError **error)
{
  EtlDocumentCondition *c;
  EtlRecord r;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (field != NULL, FALSE);

  if (!g_str_equal (field, "provider") && !g_str_equal (field, "process") && !g_str_equal (field, "thread")
      && !g_str_equal (field, "event"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” is not a field a condition can use", field);
      return FALSE;
    }
  if (record >= etl_document_get_n_records (self))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "record %" G_GUINT64_FORMAT " is not in the open trace (%" G_GUINT64_FORMAT " records)", record,
                   etl_document_get_n_records (self));
      return FALSE;
    }
  if (!etl_trace_get_record (self->trace, record, &r, error))
    return FALSE;

  c = g_atomic_rc_box_new0 (EtlDocumentCondition);
  c->field = g_strdup (field);
  c->exclude = exclude;
  c->provider = etl_trace_get_provider_index (self->trace, record);
  if (g_str_equal (field, "provider"))
    c->name = etl_record_dup_provider_name (&r);
  else if (g_str_equal (field, "process") && r.has_pid)
    {
      c->value = r.pid;
      c->name = g_strdup_printf ("%u", r.pid);
    }
  else if (g_str_equal (field, "thread") && r.has_pid)
    {
      c->value = r.tid;
      c->name = g_strdup_printf ("%u", r.tid);
    }
  else if (g_str_equal (field, "event"))
    c->name = etl_decode_dup_event_name (etl_trace_get_schema_registry (self->trace), &r);
  etl_record_clear (&r);
  if (c->name == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "record %" G_GUINT64_FORMAT " has no %s", record,
                   g_str_equal (field, "event") ? "event name" : g_str_equal (field, "thread") ? "thread id"
                                                                                                : "process id");
      etl_document_condition_unref (c);
      return FALSE;
    }
  append_condition (self, c);
  return TRUE;
}

/**
 * etl_document_add_group_condition:
 * @self: a document with a trace open
 * @group: a group of a summary of the open trace (etl_group_summary_compute()),
 *   not its root
 *
 * What activating a group of the summary does: keeps only its records
 * (etl_group_matcher_matches(): the summary's own rules) and runs the
 * filter in a worker.
 *
 * Returns: %FALSE (nothing added) with nothing open or for the root
 */
gboolean
etl_document_add_group_condition (EtlDocument *self, const EtlGroup *group)
{
  EtlDocumentCondition *c;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (group != NULL, FALSE);

  if (self->trace == NULL || group->parent == NULL)
    return FALSE;
  c = g_atomic_rc_box_new0 (EtlDocumentCondition);
  c->field = g_strdup ("group");
  c->matcher = etl_group_matcher_new (self->trace, group);
  c->name = g_strdup (etl_group_matcher_get_description (c->matcher));
  append_condition (self, c);
  return TRUE;
}

/**
 * etl_document_clear_conditions:
 * @self: a document
 *
 * Removes the conditions (the #EtlFilter stays) and runs the filter again
 * when there were some.
 */
void
etl_document_clear_conditions (EtlDocument *self)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));

  if (self->conditions->len == 0)
    return;
  g_ptr_array_unref (self->conditions);
  self->conditions = g_ptr_array_new_with_free_func (etl_document_condition_unref);
  etl_document_apply_filter (self);
}

/**
 * etl_document_get_n_conditions:
 * @self: a document
 *
 * Returns: the conditions added since the open or the last
 *   etl_document_clear_conditions()
 */
guint
etl_document_get_n_conditions (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0);
  return self->conditions->len;
}

/**
 * etl_document_get_condition:
 * @self: a document
 * @i: a condition, in the order added
 * @exclude: (out) (optional): whether it leaves records out
 * @name: (out) (optional) (transfer none): its value as text: the provider
 *   or event name, the process or thread id, or the summary group's
 *   description
 *
 * Returns: (transfer none) (nullable): its field ("provider", "process",
 *   "thread", "event" or "group"), %NULL when @i is out of range
 */
const char *
etl_document_get_condition (EtlDocument *self, guint i, gboolean *exclude, const char **name)
{
  const EtlDocumentCondition *c;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  if (i >= self->conditions->len)
    return NULL;
  c = g_ptr_array_index (self->conditions, i);
  if (exclude != NULL)
    *exclude = c->exclude;
  if (name != NULL)
    *name = c->name;
  return c->field;
}

/* ------------------------------------------------------------------------ */
/* The filter's job                                                         */
/* ------------------------------------------------------------------------ */

typedef struct
{
  EtlTrace *trace;
  EtlFilter *filter;
  GPtrArray *conditions;
} FilterData;

static void
filter_data_free (gpointer data)
{
  FilterData *fd = data;

  etl_trace_unref (fd->trace);
  etl_filter_free (fd->filter);
  g_ptr_array_unref (fd->conditions);
  g_free (fd);
}

static void
filter_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FilterData *fd = task_data;
  GError *error = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  g_autoptr (GArray) kept = NULL;
  guint64 n;

  if (etl_filter_is_empty (fd->filter))
    rows = etl_row_set_new_all (etl_trace_get_n_records (fd->trace));
  else if ((rows = etl_filter_apply (fd->trace, fd->filter, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (fd->conditions->len == 0)
    {
      g_task_return_pointer (task, g_steal_pointer (&rows), (GDestroyNotify) etl_row_set_unref);
      return;
    }
  n = etl_row_set_get_n (rows);
  kept = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 i = 0; i < n; i++)
    {
      guint64 row = etl_row_set_get (rows, i);
      gboolean keep = TRUE;

      if ((i & CANCEL_CHECK_MASK) == 0 && g_task_return_error_if_cancelled (task))
        return;
      for (guint c = 0; c < fd->conditions->len && keep; c++)
        {
          const EtlDocumentCondition *cond = g_ptr_array_index (fd->conditions, c);

          keep = condition_matches (cond, fd->trace, row) != cond->exclude;
        }
      if (keep)
        g_array_append_val (kept, row);
    }
  n = kept->len;
  g_task_return_pointer (task, etl_row_set_new_take ((guint64 *) g_array_free (g_steal_pointer (&kept), FALSE), n),
                         (GDestroyNotify) etl_row_set_unref);
}

static gboolean
row_set_contains (EtlRowSet *rows, guint64 record)
{
  guint64 pos = etl_row_set_find (rows, record);

  return pos < etl_row_set_get_n (rows) && etl_row_set_get (rows, pos) == record;
}

/* The filter's new rows: a selected record they hide is no longer
 * selected. */
static void
set_rows (EtlDocument *self, EtlRowSet *rows)
{
  gboolean selection_changed = FALSE;

  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->rows = etl_row_set_ref (rows);
  etl_document_notify (self, ETL_DOCUMENT_PROP_ROW_SET);
  if (self->selected >= 0 && !row_set_contains (rows, (guint64) self->selected))
    selection_changed = etl_document_change_selection (self, ETL_DOCUMENT_NO_RECORD, self->range_start,
                                                       self->range_end);
  etl_document_emit (self, ETL_DOCUMENT_SIGNAL_ROWS_CHANGED);
  if (selection_changed)
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED);
}

static void
on_filter_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlDocument *self = ETL_DOCUMENT (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  gboolean current;

  current = etl_document_end_job (self, ETL_DOCUMENT_JOB_KIND_FILTER, g_task_get_cancellable (G_TASK (result)));
  rows = g_task_propagate_pointer (G_TASK (result), &error);
  if (rows != NULL && current)
    set_rows (self, rows);
  etl_document_emit_job_finished (self, ETL_DOCUMENT_JOB_KIND_FILTER, error);
}

/* Runs the filter and the conditions on the open trace, replacing the job
 * still running; an empty filter without conditions shows every row at
 * once. */
void
etl_document_apply_filter (EtlDocument *self)
{
  g_autoptr (GTask) task = NULL;
  GCancellable *cancellable;
  FilterData *fd;

  etl_document_cancel_jobs (self, ETL_DOCUMENT_JOB_FILTER);
  if (self->trace == NULL)
    return;

  if (etl_filter_is_empty (self->filter) && self->conditions->len == 0)
    {
      if (self->rows == NULL || !etl_row_set_is_all (self->rows))
        {
          g_autoptr (EtlRowSet) all = etl_row_set_new_all (etl_trace_get_n_records (self->trace));

          set_rows (self, all);
        }
      return;
    }

  cancellable = etl_document_start_job (self, ETL_DOCUMENT_JOB_KIND_FILTER);
  fd = g_new0 (FilterData, 1);
  fd->trace = etl_trace_ref (self->trace);
  fd->filter = etl_filter_copy (self->filter);
  fd->conditions = g_ptr_array_ref (self->conditions);
  task = g_task_new (self, cancellable, on_filter_done, NULL);
  g_task_set_source_tag (task, etl_document_apply_filter);
  g_task_set_task_data (task, fd, filter_data_free);
  etl_worker_run (task, filter_thread);
}

/* For an open or a close: no conditions, every row of the open trace
 * (%NULL rows when nothing is open); no signal. */
void
etl_document_reset_rows (EtlDocument *self)
{
  g_clear_pointer (&self->rows, etl_row_set_unref);
  if (self->trace != NULL)
    self->rows = etl_row_set_new_all (etl_trace_get_n_records (self->trace));
  if (self->conditions->len > 0)
    {
      g_ptr_array_unref (self->conditions);
      self->conditions = g_ptr_array_new_with_free_func (etl_document_condition_unref);
    }
}

/* ------------------------------------------------------------------------ */
/* Filter                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * etl_document_get_filter:
 * @self: a document
 *
 * Returns: (transfer none): the filter (never %NULL; an empty one keeps
 *   every record)
 */
const EtlFilter *
etl_document_get_filter (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->filter;
}

/**
 * etl_document_set_filter:
 * @self: a document
 * @filter: (nullable): the new filter (copied); %NULL keeps every record
 *
 * Sets the filter and, when it keeps other records than the one before
 * (etl_filter_equal()), runs it with the conditions on the open trace in a
 * worker (#EtlDocument:filtering), cancelling the filter's job still
 * running; #EtlDocument::rows-changed follows when it ends.  An empty
 * filter without conditions shows every row at once.  The filter stays
 * for later opens.
 */
void
etl_document_set_filter (EtlDocument *self, const EtlFilter *filter)
{
  g_autoptr (EtlFilter) copy = NULL;
  gboolean text_changed;

  g_return_if_fail (ETL_IS_DOCUMENT (self));

  if (etl_filter_equal (self->filter, filter))
    return;
  copy = filter != NULL ? etl_filter_copy (filter) : etl_filter_new ();
  text_changed = g_strcmp0 (etl_document_get_filter_text (self), copy->text != NULL ? copy->text : "") != 0;
  etl_filter_free (self->filter);
  self->filter = g_steal_pointer (&copy);
  etl_document_notify (self, ETL_DOCUMENT_PROP_FILTER);
  if (text_changed)
    etl_document_notify (self, ETL_DOCUMENT_PROP_FILTER_TEXT);
  etl_document_apply_filter (self);
}

/**
 * etl_document_get_filter_text:
 * @self: a document
 *
 * Returns: (transfer none): the filter's free text (#EtlFilter.text), ""
 *   for none
 */
const char *
etl_document_get_filter_text (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), "");
  return self->filter->text != NULL ? self->filter->text : "";
}

/**
 * etl_document_set_filter_text:
 * @self: a document
 * @text: (nullable): a substring of the provider name, event name, process
 *   or decoded payload, case-insensitive (#EtlFilter.text); %NULL or "" for
 *   none
 *
 * etl_document_set_filter() with the filter's other conditions kept and
 * @text as its free text.
 */
void
etl_document_set_filter_text (EtlDocument *self, const char *text)
{
  g_autoptr (EtlFilter) filter = NULL;

  g_return_if_fail (ETL_IS_DOCUMENT (self));

  filter = etl_filter_copy (self->filter);
  g_free (filter->text);
  filter->text = text != NULL && text[0] != '\0' ? g_strdup (text) : NULL;
  etl_document_set_filter (self, filter);
}

/**
 * etl_document_get_row_set:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the rows the filter and conditions
 *   keep (#EtlDocument:row-set), %NULL when nothing is open
 */
EtlRowSet *
etl_document_get_row_set (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->rows;
}

/**
 * etl_document_is_shown:
 * @self: a document
 * @record: a record of the open trace
 *
 * Returns: whether the row set holds @record (%FALSE with nothing open)
 */
gboolean
etl_document_is_shown (EtlDocument *self, guint64 record)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  return self->rows != NULL && row_set_contains (self->rows, record);
}
