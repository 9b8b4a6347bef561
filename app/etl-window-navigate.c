/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Navigation: the selected event, Go to Time (a time since the start in
 * any unit, or a wall-clock time), the next / previous event of the same
 * provider and event (searched in a worker), the stacks summary and Zoom to
 * Data (the range of 99.9 % of the records).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-names.h"
#include "etl-preferences.h"
#include "etl-stacks-dialog.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"
#include "etl-worker.h"

/* ------------------------------------------------------------------------ */
/* Navigation: the selected event, go to time, next of the same event        */
/* ------------------------------------------------------------------------ */

/* Selects @row everywhere: list (the nearest following row the filter
 * keeps), timeline (centred), details; the keyboard zoom centres on it. */
void
select_everywhere (EtlWindow *self, guint64 row)
{
  EtlTrace *trace = etl_document_get_trace (self->document);
  guint64 shown;

  if (trace == NULL || row >= etl_trace_get_n_records (trace))
    return;
  self->syncing = TRUE;
  etl_event_list_select_row (self->event_list, row);
  shown = etl_event_list_get_selected_row (self->event_list);
  if (shown == ETL_EVENT_LIST_NO_ROW)
    shown = row;
  etl_document_set_selected_record (self->document, (gint64) shown);
  etl_timeline_view_select_row (self->timeline, shown, TRUE);
  etl_details_show_row (self->details, trace, shown);
  etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (trace, shown));
  self->syncing = FALSE;
}

guint64
selected_row (EtlWindow *self)
{
  guint64 row = etl_event_list_get_selected_row (self->event_list);

  if (row == ETL_EVENT_LIST_NO_ROW)
    row = etl_timeline_view_get_selected_row (self->timeline);
  return row;
}

/* "1500", "1.5 s", "250 µs", "2 min", "1 h": a time since the start
 * (default unit ms), 100-ns ticks. */
static gboolean
parse_relative (const char *text, gint64 *ticks)
{
  static const struct
  {
    const char *unit;
    double ticks;
  } units[] = {
    { "", 1e4 }, { "ms", 1e4 }, { "s", 1e7 }, { "sec", 1e7 }, { "us", 10 }, { "µs", 10 }, { "ns", 0.01 },
    { "min", 6e8 }, { "m", 6e8 }, { "h", 3.6e10 },
  };
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end == text || !isfinite (value))
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_ascii_strcasecmp (end, units[i].unit) == 0 || g_str_equal (end, units[i].unit))
      {
        double t = value * units[i].ticks;

        if (fabs (t) > 9e18)
          return FALSE;
        *ticks = (gint64) llround (t);
        return TRUE;
      }
  return FALSE;
}

/* "14:03:22.125" (on the day of the trace's first event) or
 * "2016-03-01 14:03:22.125": a FILETIME, in UTC or the viewer's zone. */
static gboolean
parse_wall_clock (EtlWindow *self, const char *text, gint64 *filetime)
{
  EtlTrace *trace = etl_document_get_trace (self->document);
  g_autoptr (GTimeZone) tz = etl_time_ruler_get_utc (self->time_ruler) ? g_time_zone_new_utc ()
                                                                         : g_time_zone_new_local ();
  g_autoptr (GDateTime) dt = NULL;
  g_autofree char *iso = NULL;
  const gint64 epoch = G_GINT64_CONSTANT (116444736000000000);
  int hour, minute;
  double seconds = 0;
  char *end;

  if (strlen (text) >= 10 && text[4] == '-' && text[7] == '-')
    {
      iso = g_strdup (text);
      if (iso[10] == ' ')
        iso[10] = 'T';
      dt = g_date_time_new_from_iso8601 (iso, tz);
      if (dt == NULL)
        return FALSE;
      *filetime = epoch + g_date_time_to_unix (dt) * G_GINT64_CONSTANT (10000000)
                  + g_date_time_get_microsecond (dt) * 10;
      return TRUE;
    }

  hour = (int) g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != ':')
    return FALSE;
  text = end + 1;
  minute = (int) g_ascii_strtoll (text, &end, 10);
  if (end == text)
    return FALSE;
  if (*end == ':')
    {
      text = end + 1;
      seconds = g_ascii_strtod (text, &end);
      if (end == text)
        return FALSE;
    }
  if (*end != '\0' || hour < 0 || hour > 23 || minute < 0 || minute > 59 || seconds < 0 || seconds >= 61)
    return FALSE;
  {
    gint64 first = etl_trace_get_first_filetime (trace);
    g_autoptr (GDateTime) day = g_date_time_new (tz, 1970, 1, 1, 0, 0, 0);
    g_autoptr (GDateTime) first_dt = NULL;
    gint64 candidate;

    first_dt = g_date_time_add_seconds (day, (double) ((first - epoch) / 10000000));
    dt = g_date_time_new (tz, g_date_time_get_year (first_dt), g_date_time_get_month (first_dt),
                          g_date_time_get_day_of_month (first_dt), hour, minute, seconds);
    if (dt == NULL)
      return FALSE;
    candidate = epoch + g_date_time_to_unix (dt) * G_GINT64_CONSTANT (10000000)
                + (gint64) llround (fmod (seconds, 1.0) * 1e7);
    /* A time before the first event on its day is the next day's. */
    if (candidate < first - G_GINT64_CONSTANT (10000000))
      candidate += G_GINT64_CONSTANT (864000000000);
    *filetime = candidate;
  }
  return TRUE;
}

/**
 * etl_window_go_to_time:
 * @self: a window
 * @text: a time since the start ("1500" ms, "1.5 s", "250 µs", "2 min",
 *   "1 h") or a wall-clock time ("14:03:22.125" on the day of the trace's
 *   first event, or "2016-03-01 14:03:22"), in UTC when the ruler shows UTC,
 *   else the viewer's time zone
 * @error: return location for a #GError (%G_IO_ERROR_INVALID_ARGUMENT)
 *
 * Selects the first event at or after @text (the nearest following one the
 * filter keeps) in the list, the timeline (centred) and the details: what
 * Go to Time (Ctrl+G) does.
 *
 * Returns: %TRUE when @text was understood and a trace is shown
 */
gboolean
etl_window_go_to_time (EtlWindow *self, const char *text, GError **error)
{
  EtlTrace *trace;
  g_autofree char *stripped = NULL;
  gint64 filetime, ticks;
  guint64 n, row;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  trace = etl_document_get_trace (self->document);

  if (trace == NULL || (n = etl_trace_get_n_records (trace)) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "No trace is shown");
      return FALSE;
    }
  stripped = g_strstrip (g_strdup (text));
  if (strchr (stripped, ':') != NULL)
    {
      if (!parse_wall_clock (self, stripped, &filetime))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "“%s” is not a wall-clock time (HH:MM:SS.fff or YYYY-MM-DD HH:MM:SS)", stripped);
          return FALSE;
        }
    }
  else if (parse_relative (stripped, &ticks))
    filetime = etl_trace_get_origin (trace) + ticks;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a time since the start (ms, or a number with µs, ms, s, min, h)", stripped);
      return FALSE;
    }
  row = MIN (etl_trace_lower_bound (trace, filetime), n - 1);
  select_everywhere (self, row);
  return TRUE;
}

static void
on_go_to_response (GtkDialog *dialog, int response, EtlWindow *self)
{
  if (response == GTK_RESPONSE_OK)
    {
      GtkEntry *entry = g_object_get_data (G_OBJECT (dialog), "entry");
      g_autoptr (GError) error = NULL;

      if (!etl_window_go_to_time (self, gtk_entry_get_text (entry), &error))
        {
          gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY, "dialog-error-symbolic");
          gtk_entry_set_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY, error->message);
          gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
          return;
        }
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

/* A small dialog with one entry; @response handles it. */
GtkWidget *
entry_dialog (EtlWindow *self, const char *title, const char *label, const char *text, const char *accept,
              GCallback response)
{
  GtkWidget *dialog, *box, *caption, *entry;

  dialog = gtk_dialog_new_with_buttons (title, GTK_WINDOW (self),
                                        GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT | GTK_DIALOG_USE_HEADER_BAR,
                                        "_Cancel", GTK_RESPONSE_CANCEL, accept, GTK_RESPONSE_OK, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  box = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  g_object_set (box, "margin", 12, "spacing", 6, NULL);
  caption = gtk_label_new (label);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_label_set_line_wrap (GTK_LABEL (caption), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (caption), 48);
  entry = gtk_entry_new ();
  gtk_entry_set_text (GTK_ENTRY (entry), text);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (entry), 32);
  gtk_container_add (GTK_CONTAINER (box), caption);
  gtk_container_add (GTK_CONTAINER (box), entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect_object (dialog, "response", response, self, 0);
  gtk_widget_show_all (dialog);
  return dialog;
}

void
go_to_time_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  EtlTrace *trace = etl_document_get_trace (self->document);

  if (trace == NULL)
    return;
  entry_dialog (self, "Go to Time",
                "A time since the start — 1500 (ms), 1.5 s, 250 µs, 2 min — or a wall-clock time: 14:03:22.125 "
                "or 2016-03-01 14:03:22.",
                "", "_Go", G_CALLBACK (on_go_to_response));
}

/* Next / previous event of the same provider and event ------------------ */

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  guint64 from;      /* trace row */
  gboolean forward;
} FindData;

static void
find_data_free (gpointer data)
{
  FindData *fd = data;

  etl_trace_unref (fd->trace);
  etl_row_set_unref (fd->rows);
  g_free (fd);
}

static gboolean
same_event (const EtlRecord *a, const char *a_name, const EtlRecord *b)
{
  if (a->kind != b->kind || a->hook_id != b->hook_id || a->event_id != b->event_id || a->opcode != b->opcode)
    return FALSE;
  if (a->kind == ETL_RECORD_KIND_TRACELOGGING)
    {
      g_autofree char *name = etl_record_dup_event_name (b);

      return g_strcmp0 (a_name, name) == 0;
    }
  return TRUE;
}

/* Walks the shown rows from @from, provider index first (from the index),
 * the record header only for rows of the same provider. */
static void
find_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FindData *fd = task_data;
  guint64 n = etl_row_set_get_n (fd->rows);
  guint64 pos = etl_row_set_find (fd->rows, fd->from);
  guint provider = etl_trace_get_provider_index (fd->trace, fd->from);
  g_autofree char *name = NULL;
  EtlRecord ref;
  GError *error = NULL;

  if (!etl_trace_get_record (fd->trace, fd->from, &ref, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (ref.kind == ETL_RECORD_KIND_TRACELOGGING)
    name = etl_record_dup_event_name (&ref);
  /* Forward: from the first shown row after @from; backward: from the
   * last shown row before it. */
  if (fd->forward && pos < n && etl_row_set_get (fd->rows, pos) == fd->from)
    pos++;
  for (guint64 step = 0; fd->forward ? pos < n : pos > 0; step++)
    {
      guint64 row;
      EtlRecord rec;
      gboolean match;

      if (!fd->forward)
        pos--;
      row = etl_row_set_get (fd->rows, pos);
      if (fd->forward)
        pos++;
      if ((step & 0xFFFF) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          etl_record_clear (&ref);
          g_task_return_error_if_cancelled (task);
          return;
        }
      if (row == fd->from || etl_trace_get_provider_index (fd->trace, row) != provider)
        continue;
      if (!etl_trace_get_record (fd->trace, row, &rec, NULL))
        continue;
      match = same_event (&ref, name, &rec);
      etl_record_clear (&rec);
      if (match)
        {
          etl_record_clear (&ref);
          g_task_return_int (task, (gssize) MIN (row, (guint64) G_MAXSSIZE));
          return;
        }
    }
  etl_record_clear (&ref);
  g_task_return_int (task, -1);
}

static void
on_find_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  gssize row = g_task_propagate_int (G_TASK (result), &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->find_cancellable)
    return;
  g_clear_object (&self->find_cancellable);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (row < 0)
    {
      gtk_label_set_text (self->status_label, "No other event of this provider and event in that direction");
      return;
    }
  select_everywhere (self, (guint64) row);
}

/**
 * etl_window_find_same_event:
 * @self: a window
 * @forward: %TRUE for the next event (F3), %FALSE for the previous one
 *   (Shift+F3)
 *
 * Searches, in a worker, the rows the filter keeps for the next (or
 * previous) event of the selected event's provider and event (kind,
 * HookId or event id, opcode; the name for TraceLogging) and selects it.
 * The status line says so when there is none.
 */
void
etl_window_find_same_event (EtlWindow *self, gboolean forward)
{
  EtlTrace *trace;
  g_autoptr (GTask) task = NULL;
  guint64 row;
  FindData *fd;

  g_return_if_fail (ETL_IS_WINDOW (self));
  trace = etl_document_get_trace (self->document);
  row = selected_row (self);
  if (trace == NULL || row == ETL_EVENT_LIST_NO_ROW || row >= etl_trace_get_n_records (trace))
    return;
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);
  self->find_cancellable = g_cancellable_new ();

  fd = g_new0 (FindData, 1);
  fd->trace = etl_trace_ref (trace);
  fd->rows = etl_row_set_ref (etl_document_get_row_set (self->document));
  fd->from = row;
  fd->forward = forward;
  task = g_task_new (NULL, self->find_cancellable, on_find_done, g_object_ref (self));
  g_task_set_source_tag (task, etl_window_find_same_event);
  g_task_set_task_data (task, fd, find_data_free);
  etl_worker_run (task, find_thread);
}

void
find_next_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_find_same_event (ETL_WINDOW (user_data), TRUE);
}

void
find_previous_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_find_same_event (ETL_WINDOW (user_data), FALSE);
}

/* Zoom to data ------------------------------------------------------------ */

/**
 * etl_window_get_data_range:
 * @self: a window
 * @begin: (out): FILETIME of the record at the 0.05 % quantile
 * @end: (out): just past the FILETIME of the record at the 99.95 % quantile
 *
 * The range that holds 99.9 % of the records.  Records are in time order,
 * so the quantiles are two index look-ups.
 *
 * Returns: %FALSE when no trace is shown
 */
gboolean
etl_window_get_data_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  EtlTrace *trace;
  guint64 n, lo, hi;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  trace = etl_document_get_trace (self->document);
  if (trace == NULL || (n = etl_trace_get_n_records (trace)) == 0)
    return FALSE;
  lo = n / 2000;
  hi = n - 1 - n / 2000;
  *begin = etl_trace_get_filetime (trace, lo);
  *end = MAX (etl_trace_get_filetime (trace, hi) + 1, *begin + 1);
  return TRUE;
}

/**
 * etl_window_zoom_to_data:
 * @self: a window
 *
 * Shows the range of etl_window_get_data_range(): the few records far
 * from the rest (a header hours before the data) no longer squeeze the
 * data into one pixel.
 */
void
etl_window_zoom_to_data (EtlWindow *self)
{
  gint64 begin, end;

  g_return_if_fail (ETL_IS_WINDOW (self));
  if (etl_window_get_data_range (self, &begin, &end))
    etl_zoom_manager_set_visible (self->zoom_manager, begin, end);
}



/**
 * etl_window_show_stacks:
 * @self: a window
 *
 * Opens the "Stacks of Samples" dialog (#EtlStacksDialog) for the timeline's
 * selected range, else the visible range (etl_window_get_export_range()).
 * Its Thread time source covers the thread of the filter's TID condition
 * when there is one, else the selected event's thread, else every thread.
 *
 * Returns: (transfer none) (nullable): the dialog, or %NULL when the trace
 *   has no stacks
 */
GtkWidget *
etl_window_show_stacks (EtlWindow *self)
{
  EtlTrace *trace;
  gint64 begin, end;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *range = NULL;
  GtkWidget *dialog;
  EtlRecordBrief brief = { 0 };
  guint64 row;
  guint32 tid = 0;

  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  trace = etl_document_get_trace (self->document);
  if (trace == NULL || etl_document_get_stacks (self->document) == NULL)
    {
      show_message (self, GTK_MESSAGE_INFO, "This trace has no stacks (no StackWalk records).");
      return NULL;
    }
  etl_window_get_export_range (self, &begin, &end);
  from = etl_time_format_span (begin - etl_trace_get_origin (trace));
  to = etl_time_format_span (end - etl_trace_get_origin (trace));
  range = g_strdup_printf ("%s – %s", from, to);
  dialog = etl_stacks_dialog_new (GTK_WINDOW (self), etl_document_get_stacks (self->document), begin, end, range);
  {
    g_autofree char *text = etl_preferences_get_symbol_path ();
    EtlSymbolResolver *resolver = etl_window_symbols_update (self, etl_document_get_stacks (self->document), text,
                                                             etl_preferences_get_download_symbols ());

    etl_stacks_dialog_set_resolver (ETL_STACKS_DIALOG (dialog), resolver, text,
                                    etl_preferences_get_download_symbols ());
  }
  if (etl_document_get_filter (self->document)->has_tid)
    tid = etl_document_get_filter (self->document)->tid;
  else if ((row = selected_row (self)) < etl_trace_get_n_records (trace) && etl_trace_peek_record (trace, row, &brief))
    {
      if (brief.has_pid && brief.tid != G_MAXUINT32)
        tid = brief.tid; /* the idle thread, 0, has no thread time: every thread */
      etl_record_brief_clear (&brief);
    }
  if (tid != 0)
    etl_stacks_dialog_set_threads (ETL_STACKS_DIALOG (dialog), &tid, 1);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (dialog);
  return dialog;
}

void
stacks_summary_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_show_stacks (ETL_WINDOW (user_data));
}

void
zoom_to_data_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_zoom_to_data (ETL_WINDOW (user_data));
}
