/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Progress of the document's jobs and what the window says about them: the
 * progress bar follows #EtlDocument:progress and :progress-label, the info
 * bar lists problems and the status line says what is shown (records, CPUs,
 * files, what the filter and its conditions keep).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-window-private.h"

#define MAX_MESSAGES_SHOWN 6
#define PULSE_MS 50

/* ------------------------------------------------------------------------ */
/* Progress of the document's open or export                                */
/* ------------------------------------------------------------------------ */

static gboolean
pulse_cb (gpointer user_data)
{
  EtlWindow *self = user_data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

void
stop_pulse (EtlWindow *self)
{
  g_clear_handle_id (&self->pulse_source, g_source_remove);
}

/* notify::progress and notify::progress-label of the document (which
 * change at most every 50 ms): the bar shows the fraction with a
 * percentage, or pulses with the worker's current step while the fraction
 * is unknown; it hides when no open or export runs. */
void
on_document_progress (EtlDocument *document, GParamSpec *pspec, EtlWindow *self)
{
  const char *label = etl_document_get_progress_label (document);
  double fraction = etl_document_get_progress (document);

  if (label == NULL)
    {
      stop_pulse (self);
      gtk_widget_hide (GTK_WIDGET (self->progress_box));
      return;
    }
  if (fraction < 0)
    {
      if (self->pulse_source == 0)
        self->pulse_source = g_timeout_add (PULSE_MS, pulse_cb, self);
      gtk_progress_bar_set_text (self->progress_bar, label);
    }
  else
    {
      /* The text replaces GTK's own percentage, so it carries one. */
      g_autofree char *text = g_strdup_printf ("%s %d %%", label, (int) (fraction * 100));

      stop_pulse (self);
      gtk_progress_bar_set_fraction (self->progress_bar, fraction);
      gtk_progress_bar_set_text (self->progress_bar, text);
    }
  gtk_widget_show (GTK_WIDGET (self->progress_box));
}

/* ------------------------------------------------------------------------ */
/* Info bar and status line                                                 */
/* ------------------------------------------------------------------------ */

void
show_messages (EtlWindow *self, GPtrArray *messages, GtkMessageType type)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (messages->len == 0)
    {
      gtk_widget_hide (GTK_WIDGET (self->info_bar));
      gtk_label_set_text (self->info_label, "");
      return;
    }
  for (guint i = 0; i < messages->len && i < MAX_MESSAGES_SHOWN; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, g_ptr_array_index (messages, i));
    }
  if (messages->len > MAX_MESSAGES_SHOWN)
    g_string_append_printf (text, "\n… and %u more problems", messages->len - MAX_MESSAGES_SHOWN);
  gtk_label_set_text (self->info_label, text->str);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_widget_show (GTK_WIDGET (self->info_bar));
}

void
show_message (EtlWindow *self, GtkMessageType type, const char *message)
{
  g_autoptr (GPtrArray) messages = g_ptr_array_new ();

  g_ptr_array_add (messages, (gpointer) message);
  show_messages (self, messages, type);
}

void
update_status (EtlWindow *self)
{
  g_autoptr (GString) status = g_string_new (NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  EtlTrace *trace = etl_document_get_trace (self->document);
  EtlRowSet *rows = etl_document_get_row_set (self->document);
  guint n_files;

  if (trace == NULL)
    {
      gtk_label_set_text (self->status_label, "No trace loaded");
      gtk_header_bar_set_subtitle (self->header_bar, NULL);
      gtk_window_set_title (GTK_WINDOW (self), "etlscope");
      return;
    }

  n_files = etl_trace_get_n_files (trace);
  for (guint f = 0; f < n_files; f++)
    {
      g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (trace, f)->path);

      if (f > 0)
        g_string_append (names, ", ");
      g_string_append (names, base);
    }
  g_string_append_printf (status, "%'" G_GUINT64_FORMAT " records · %u CPUs · %s",
                          etl_trace_get_n_records (trace),
                          etl_trace_get_n_cpus (trace),
                          names->str);
  if (rows != NULL && !etl_row_set_is_all (rows))
    g_string_append_printf (status, " · filter keeps %'" G_GUINT64_FORMAT, etl_row_set_get_n (rows));
  for (guint i = 0; i < etl_document_get_n_conditions (self->document); i++)
    {
      gboolean exclude = FALSE;
      const char *name = NULL;
      const char *field = etl_document_get_condition (self->document, i, &exclude, &name);

      g_string_append_printf (status, " · %s %s %s", exclude ? "without" : "only", field, name);
    }
  gtk_label_set_text (self->status_label, status->str);
  gtk_header_bar_set_subtitle (self->header_bar, names->str);
  /* The X window title (task bars, window lists) names the trace too. */
  {
    g_autofree char *title = g_strdup_printf ("%s — etlscope", names->str);

    gtk_window_set_title (GTK_WINDOW (self), title);
  }
}
