/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Progress of the window's jobs and what the window says about them: a
 * #Progress shared with a worker (it writes a fraction or a stage, the main
 * loop polls it into the progress bar), the info bar that lists problems
 * and the status line (records, CPUs, files, what the filter keeps).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-window-private.h"

#define MAX_MESSAGES_SHOWN 6
#define PROGRESS_POLL_MS 50

/* ------------------------------------------------------------------------ */
/* Progress shared with a worker                                            */
/* ------------------------------------------------------------------------ */

/* The worker's current step, shown after the label while the bar pulses. */
void
progress_set_stage (Progress *p, const char *stage)
{
  g_atomic_pointer_set (&p->stage, stage);
}

Progress *
progress_new (void)
{
  Progress *p = g_new0 (Progress, 1);

  g_atomic_ref_count_init (&p->ref_count);
  return p;
}

static Progress *
progress_ref (Progress *p)
{
  g_atomic_ref_count_inc (&p->ref_count);
  return p;
}

void
progress_unref (Progress *p)
{
  if (g_atomic_ref_count_dec (&p->ref_count))
    g_free (p);
}

void
on_progress (double fraction, gpointer user_data)
{
  Progress *p = user_data;

  g_atomic_int_set (&p->permille, (int) (fraction * 1000));
}

static gboolean
progress_poll_cb (gpointer user_data)
{
  EtlWindow *self = user_data;
  int permille;

  if (self->progress == NULL)
    {
      self->progress_source = 0;
      return G_SOURCE_REMOVE;
    }
  permille = g_atomic_int_get (&self->progress->permille);
  if (permille < 0)
    {
      const char *stage = g_atomic_pointer_get (&self->progress->stage);
      g_autofree char *text = stage != NULL ? g_strdup_printf ("%s %s", self->progress_label, stage) : NULL;

      gtk_progress_bar_pulse (self->progress_bar);
      gtk_progress_bar_set_text (self->progress_bar, text != NULL ? text : self->progress_label);
    }
  else
    {
      /* The text replaces GTK's own percentage, so it carries one. */
      g_autofree char *text = g_strdup_printf ("%s %d %%", self->progress_label, permille / 10);

      gtk_progress_bar_set_fraction (self->progress_bar, permille / 1000.0);
      gtk_progress_bar_set_text (self->progress_bar, text);
    }
  return G_SOURCE_CONTINUE;
}

void
start_progress (EtlWindow *self, const char *label, Progress *progress)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, progress_unref);
  self->progress = progress_ref (progress);
  g_free (self->progress_label);
  self->progress_label = g_strdup (label);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_text (self->progress_bar, label);
  gtk_widget_show (GTK_WIDGET (self->progress_box));
  self->progress_source = g_timeout_add (PROGRESS_POLL_MS, progress_poll_cb, self);
}

void
stop_progress (EtlWindow *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, progress_unref);
  gtk_widget_hide (GTK_WIDGET (self->progress_box));
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
  guint n_files;

  if (self->trace == NULL)
    {
      gtk_label_set_text (self->status_label, "No trace loaded");
      gtk_header_bar_set_subtitle (self->header_bar, NULL);
      gtk_window_set_title (GTK_WINDOW (self), "etlscope");
      return;
    }

  n_files = etl_trace_get_n_files (self->trace);
  for (guint f = 0; f < n_files; f++)
    {
      g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (self->trace, f)->path);

      if (f > 0)
        g_string_append (names, ", ");
      g_string_append (names, base);
    }
  g_string_append_printf (status, "%'" G_GUINT64_FORMAT " records · %u CPUs · %s",
                          etl_trace_get_n_records (self->trace),
                          etl_trace_get_n_cpus (self->trace),
                          names->str);
  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    g_string_append_printf (status, " · filter keeps %'" G_GUINT64_FORMAT, etl_row_set_get_n (self->rows));
  for (guint i = 0; i < self->conditions->len; i++)
    {
      const Condition *c = g_ptr_array_index (self->conditions, i);

      g_string_append_printf (status, " · %s %s %s", c->exclude ? "without" : "only", c->field, c->name);
    }
  gtk_label_set_text (self->status_label, status->str);
  gtk_header_bar_set_subtitle (self->header_bar, names->str);
  /* The X window title (task bars, window lists) names the trace too. */
  {
    g_autofree char *title = g_strdup_printf ("%s — etlscope", names->str);

    gtk_window_set_title (GTK_WINDOW (self), title);
  }
}
