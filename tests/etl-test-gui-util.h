/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-test-util.h"

G_BEGIN_DECLS

/* The warnings GTK 3.24.38 gives under Wine and with the Windows package's
 * GTK, which the GUI tests let pass (printed, not fatal), as
 * tests/windows/gui-wine.sh does for etlscope.exe:
 *  - GDK's keyboard layout and monitor warnings: Wine has no keyboard
 *    layout DLLs (KBDUS.DLL …) nor their registry keys, and no device-node
 *    properties (GDK, gdkkeys-win32.c, gdkmonitor-win32.c);
 *  - "Could not load a pixbuf from …/Adwaita/assets/….svg": the Windows
 *    GTK has no SVG loader; GTK says so and draws the PNG (on Windows too).
 * Everything else stays fatal (g_test_init() makes warnings and criticals
 * fatal).  Elsewhere nothing is let pass. */
static inline gboolean
etl_test_gui_allowed_warning (const char *domain, GLogLevelFlags level, const char *message)
{
#ifdef G_OS_WIN32
  if (message == NULL || !(level & G_LOG_LEVEL_WARNING))
    return FALSE;
  if (g_strcmp0 (domain, "Gdk") == 0
      && (g_str_has_prefix (message, "Could not open registry key 'SYSTEM\\CurrentControlSet\\Control\\Keyboard Layouts\\")
          || g_str_has_prefix (message, "Could not open registry key 'Keyboard Layout\\Substitutes'")
          || g_str_has_prefix (message, "Failed to load keyboard layout DLL for layout ")
          || g_str_has_prefix (message, "Failed to get device node property ")))
    return TRUE;
  if (g_strcmp0 (domain, "Gtk") == 0
      && g_str_has_prefix (message, "Could not load a pixbuf from /org/gtk/libgtk/theme/Adwaita/assets/")
      && strstr (message, ".svg.") != NULL)
    return TRUE;
#endif
  return FALSE;
}

/* g_log() (GLib's old API): fatal unless allowed. */
static inline gboolean
etl_test_gui_fatal_log (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  return !etl_test_gui_allowed_warning (domain, level, message);
}

/* GDK and GTK log through the structured API (G_LOG_USE_STRUCTURED), whose
 * default writer aborts on a level g_test_init() made fatal before any
 * fatal handler is asked: an allowed warning is printed here instead. */
static inline GLogWriterOutput
etl_test_gui_log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
        domain = fields[i].value;
      else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
        message = fields[i].value;
    }
  if (etl_test_gui_allowed_warning (domain, level, message))
    {
      g_autofree char *line = g_log_writer_format_fields (level, fields, n_fields, FALSE);

      g_printerr ("%s\n", line);
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (level, fields, n_fields, data);
}

/* Call right after g_test_init() (and before gtk_init_check() when it comes
 * later): see etl_test_gui_allowed_warning(). */
static inline void
etl_test_gui_init_log (void)
{
  g_test_log_set_fatal_handler (etl_test_gui_fatal_log, NULL);
  g_log_set_writer_func (etl_test_gui_log_writer, NULL, NULL);
}

typedef struct
{
  guint n_paints;
  guint want;
} EtlTestPaints;

static inline void
etl_test_on_after_paint (GdkFrameClock *clock, gpointer data)
{
  ((EtlTestPaints *) data)->n_paints++;
}

static inline gboolean
etl_test_painted (gpointer data)
{
  const EtlTestPaints *p = data;

  return p->n_paints >= p->want;
}

/* Redraws @widget (shown, in a realized window) and runs the main loop until
 * its frame clock has painted, twice: the layout that a size, page or zoom
 * change asks for, then a paint of it.  The condition, not a fixed wait;
 * fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_paint (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  EtlTestPaints paints = { 0, 0 };
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (etl_test_on_after_paint), &paints);
  for (paints.want = 1; paints.want <= 2; paints.want++)
    {
      gtk_widget_queue_draw (widget);
      etl_test_wait_for (etl_test_painted, &paints, "a paint of the window");
    }
  g_signal_handler_disconnect (clock, id);
}

static void
etl_test_find_running_stack (GtkWidget *widget, gpointer data)
{
  gboolean *running = data;

  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    *running = TRUE;
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), etl_test_find_running_stack, data);
}

static inline gboolean
etl_test_no_stack_transition (gpointer data)
{
  gboolean running = FALSE;

  etl_test_find_running_stack (GTK_WIDGET (data), &running);
  return !running;
}

/* Runs the main loop until no #GtkStack inside @widget is in a transition
 * (a crossfade caught half-way would show two pages in a screenshot), then
 * until a paint.  Fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_transitions (GtkWidget *widget)
{
  etl_test_wait_for (etl_test_no_stack_transition, widget, "the end of the stack transitions");
  etl_test_wait_paint (widget);
}

/* The reference count of @object (a window: the source object of its jobs). */
static inline guint
etl_test_ref_count (gpointer object)
{
  return (guint) g_atomic_int_get ((gint *) &G_OBJECT (object)->ref_count);
}

typedef struct
{
  GObject *object;
  guint ref_count;
} EtlTestRefs;

static inline gboolean
etl_test_refs_back (gpointer data)
{
  const EtlTestRefs *r = data;

  return etl_test_ref_count (r->object) <= r->ref_count;
}

/* A job's GTask holds a reference to its source object (the window) until
 * its worker has returned and its result has been handled in the main loop.
 * Runs the main loop until @object's reference count is back to @ref_count
 * (taken before the job started): the job, even a cancelled one, has
 * stopped and reported.  Fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_jobs_done (gpointer object, guint ref_count, const char *what)
{
  EtlTestRefs refs = { G_OBJECT (object), ref_count };

  etl_test_wait_for (etl_test_refs_back, &refs, what);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

G_END_DECLS
