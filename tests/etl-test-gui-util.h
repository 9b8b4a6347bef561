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

/* Skips the test (TRUE) when gtk_init_check() found no display. */
static inline gboolean
etl_test_skip_without_display (gboolean have_display)
{
  if (have_display)
    return FALSE;
  g_test_skip ("no display (gtk_init_check failed); run under xvfb-run");
  return TRUE;
}

/* A new temporary folder (@templ as g_dir_make_tmp() takes it) whose
 * config, data and cache subfolders become $XDG_CONFIG_HOME, $XDG_DATA_HOME
 * and $XDG_CACHE_HOME, so that the recent-files list, state.ini and the
 * manifests a test writes stay in it.  Call before gtk_init_check() (GLib
 * and GTK read them once); remove it with etl_test_rm_rf().
 * Returns: (transfer full) (nullable): the folder, %NULL when none could be
 * made (the variables are then left alone) */
static inline char *
etl_test_private_xdg (const char *templ)
{
  char *xdg = g_dir_make_tmp (templ, NULL);
  const char *vars[][2] = { { "XDG_CONFIG_HOME", "config" }, { "XDG_DATA_HOME", "data" }, { "XDG_CACHE_HOME", "cache" } };

  for (guint i = 0; xdg != NULL && i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *dir = g_build_filename (xdg, vars[i][1], NULL);

      g_setenv (vars[i][0], dir, TRUE);
    }
  return xdg;
}

/* Runs what the default main context has pending, without waiting. */
static inline void
etl_test_drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* etl_test_wait_for(), then the events that are pending. */
static inline void
etl_test_wait_drained (gboolean (*done) (gpointer data), gpointer data, const char *what)
{
  etl_test_wait_for (done, data, what);
  etl_test_drain ();
}

/* A main-loop stall probe: a 5 ms timeout that keeps the longest gap
 * between two of its runs, i.e. how long the main loop was kept from
 * running while a worker computed. */
typedef struct
{
  gint64 last;  /* µs, g_get_monotonic_time() of the last run; 0 before the first */
  gint64 worst; /* µs, the longest gap so far */
  guint tick;   /* the timeout's source id */
} EtlTestStall;

static inline gboolean
etl_test_stall_on_tick (gpointer data)
{
  EtlTestStall *stall = data;
  gint64 now = g_get_monotonic_time ();

  if (stall->last != 0)
    stall->worst = MAX (stall->worst, now - stall->last);
  stall->last = now;
  return G_SOURCE_CONTINUE;
}

/* Starts @stall's 5 ms timeout in the default main context (from zero). */
static inline void
etl_test_stall_start (EtlTestStall *stall)
{
  stall->last = 0;
  stall->worst = 0;
  stall->tick = g_timeout_add (5, etl_test_stall_on_tick, stall);
}

/* Stops @stall's timeout.  Returns: the longest stall seen, in µs. */
static inline gint64
etl_test_stall_stop (EtlTestStall *stall)
{
  g_source_remove (stall->tick);
  stall->tick = 0;
  return stall->worst;
}

#ifdef ETL_TEST_GUI_WINDOW
/* The application window (app/etl-window.h): for the tests linked with
 * tests/meson.build's etl_window_test_dep, which defines ETL_TEST_GUI_WINDOW. */
#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-group-view.h"
#include "etl-stacks-dialog.h"
#include "etl-timeline-view.h"
#include "etl-window.h"

/* A new window of @width × @height, shown. (transfer full) */
static inline EtlWindow *
etl_test_window_new (int width, int height)
{
  EtlWindow *window = g_object_ref_sink (etl_window_new (NULL));

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_widget_show (GTK_WIDGET (window));
  return window;
}

/* Destroys *@window and drops the test's reference; nothing when NULL. */
static inline void
etl_test_window_clear (EtlWindow **window)
{
  if (*window == NULL)
    return;
  gtk_widget_destroy (GTK_WIDGET (*window));
  g_clear_object (window);
}

/* Starts opening the @n_paths files of @paths in @window (no wait). */
static inline void
etl_test_window_open (EtlWindow *window, const char *const *paths, guint n_paths)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_paths; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  etl_window_open_files (window, (GFile **) files->pdata, files->len);
}

/* Selects @row (a record index) in @window's event list as a click does
 * (the list's "row-selected" signal included).
 * Returns: (transfer full): the details pane's text for it */
static inline char *
etl_test_window_select_and_read (EtlWindow *window, guint64 row)
{
  EtlEventList *list = etl_window_get_event_list (window);

  etl_event_list_select_row (list, row);
  g_signal_emit_by_name (list, "row-selected", row);
  return etl_details_dup_text (etl_window_get_details (window));
}

/* Whether @window (an #EtlWindow) has no job running. */
static inline gboolean
etl_test_window_not_busy (gpointer window)
{
  return !etl_window_get_busy (window);
}

/* Whether @dialog (an #EtlStacksDialog) has no job running. */
static inline gboolean
etl_test_stacks_dialog_not_busy (gpointer dialog)
{
  return !etl_stacks_dialog_get_busy (ETL_STACKS_DIALOG (dialog));
}

/* Whether @window (an #EtlWindow) is not loading, has no job running and
 * its timeline none either. */
static inline gboolean
etl_test_window_timeline_idle (gpointer window)
{
  return !etl_window_get_loading (window) && !etl_window_get_busy (window)
         && !etl_timeline_view_is_busy (etl_window_get_timeline (window));
}

/* etl_test_window_timeline_idle(), and the group view has no job running. */
static inline gboolean
etl_test_window_views_idle (gpointer window)
{
  return etl_test_window_timeline_idle (window) && !etl_group_view_is_busy (etl_window_get_group_view (window));
}

/* Runs the main loop until @window and its timeline are idle, lets the
 * frame clock run a layout and a paint, and waits for idle again (the
 * paint may start timeline jobs).  Fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_timeline_idle (EtlWindow *window)
{
  etl_test_wait_for (etl_test_window_timeline_idle, window, "the window and its timeline to be idle");
  etl_test_wait_paint (GTK_WIDGET (window));
  etl_test_wait_for (etl_test_window_timeline_idle, window, "the window and its timeline to be idle");
}

/* With the environment variable @env_var set to a folder DIR: @window at
 * 1600×1000 and 1366×768, each after @wait_idle, saved as
 * DIR/NAME-WxH.png (for docs/screenshots; not an assertion). */
static inline void
etl_test_maybe_screenshot (EtlWindow *window, const char *env_var, const char *name,
                           void (*wait_idle) (EtlWindow *window))
{
  const char *dir = g_getenv (env_var);
  const int sizes[][2] = { { 1600, 1000 }, { 1366, 768 } };

  if (dir == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s/%s-%dx%d.png", dir, name, sizes[i][0], sizes[i][1]);
      g_autoptr (GdkPixbuf) pixbuf = NULL;
      GdkWindow *gdk_window;

      gtk_window_move (GTK_WINDOW (window), 0, 0);
      gtk_window_resize (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
      wait_idle (window);
      gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
      pixbuf = gdk_pixbuf_get_from_window (gdk_window, 0, 0, gdk_window_get_width (gdk_window),
                                           gdk_window_get_height (gdk_window));
      g_assert_nonnull (pixbuf);
      g_assert_true (gdk_pixbuf_save (pixbuf, file, "png", NULL, NULL));
    }
}
#endif /* ETL_TEST_GUI_WINDOW */

G_END_DECLS
