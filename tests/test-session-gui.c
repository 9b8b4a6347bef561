/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-session-gui.c: EtlSessionPanel under a real display (the suite runs
 * it under Xvfb; it skips without a display).
 *
 * With ETLSCOPE_SCREENSHOT_WAIT set, /etl/session-panel/show keeps the
 * window on screen that many seconds so a screenshot can be taken
 * (docs/screenshots/session-panel-diagnostic-*.png).
 */
#include "config.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "etl-session-panel.h"
#include "etl-test-gui-util.h"

static void
pump (void)
{
  while (gtk_events_pending ())
    gtk_main_iteration_do (FALSE);
}

static guint32
le32_at (GBytes *bytes, guint off)
{
  const guint8 *d = g_bytes_get_data (bytes, NULL);

  g_assert_cmpuint (g_bytes_get_size (bytes), >=, off + 4);
  return (guint32) d[off] | (guint32) d[off + 1] << 8 | (guint32) d[off + 2] << 16 | (guint32) d[off + 3] << 24;
}

static void
test_circular_needs_size (void)
{
  GtkWidget *window = gtk_offscreen_window_new ();
  GtkWidget *panel = etl_session_panel_new ();
  EtlSessionPanel *p = ETL_SESSION_PANEL (panel);
  GtkWidget *circular, *sequential, *size_entry;
  const EtlSessionFieldInfo *info = etl_session_field_lookup ("MaximumFileSize");
  guint off = info->offset_x64;

  gtk_container_add (GTK_CONTAINER (window), panel);
  gtk_widget_show_all (window);
  pump ();

  size_entry = etl_session_panel_get_field_widget (p, "MaximumFileSize");
  g_assert_true (GTK_IS_ENTRY (size_entry));
  circular = etl_session_panel_get_flag_button (p, "LogFileMode", ETL_EVENT_TRACE_FILE_MODE_CIRCULAR);
  sequential = etl_session_panel_get_flag_button (p, "LogFileMode", ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (circular));
  g_assert_true (GTK_IS_TOGGLE_BUTTON (sequential));

  /* The default preset is a clean sequential file session. */
  gtk_entry_set_text (GTK_ENTRY (size_entry), "0");
  pump ();
  g_assert_cmpint (etl_session_panel_get_field_severity (p, "MaximumFileSize"), <, ETL_SESSION_SEVERITY_ERROR);
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (size_entry), GTK_ENTRY_ICON_SECONDARY));
  g_assert_cmpuint (le32_at (etl_session_panel_get_layout_bytes (p), off), ==, 0);

  /* Circular mode with MaximumFileSize 0: an error on MaximumFileSize. */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (sequential), FALSE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (circular), TRUE);
  pump ();
  g_assert_cmphex (etl_session_panel_get_session (p)->log_file_mode, ==, ETL_EVENT_TRACE_FILE_MODE_CIRCULAR);
  g_assert_cmpint (etl_session_panel_get_field_severity (p, "MaximumFileSize"), ==, ETL_SESSION_SEVERITY_ERROR);
  g_assert_cmpstr (gtk_entry_get_icon_name (GTK_ENTRY (size_entry), GTK_ENTRY_ICON_SECONDARY), ==,
                   "dialog-error-symbolic");
  g_assert_nonnull (strstr (gtk_entry_get_icon_tooltip_text (GTK_ENTRY (size_entry), GTK_ENTRY_ICON_SECONDARY),
                            "MaximumFileSize"));

  /* Setting a size clears it, and the bytes at MaximumFileSize's offset change. */
  gtk_entry_set_text (GTK_ENTRY (size_entry), "100");
  pump ();
  g_assert_cmpint (etl_session_panel_get_field_severity (p, "MaximumFileSize"), ==, -1);
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (size_entry), GTK_ENTRY_ICON_SECONDARY));
  g_assert_cmpuint (le32_at (etl_session_panel_get_layout_bytes (p), off), ==, 100);

  /* x86 view: same field, same offset (60); LoggerNameOffset moves to 112. */
  etl_session_panel_set_arch (p, ETL_SESSION_ARCH_X86);
  g_assert_cmpuint (le32_at (etl_session_panel_get_layout_bytes (p), info->offset_x86), ==, 100);
  g_assert_cmpuint (le32_at (etl_session_panel_get_layout_bytes (p), 112), ==, 120);

  /* A value that is not a number is an error on its field too. */
  gtk_entry_set_text (GTK_ENTRY (size_entry), "lots");
  pump ();
  g_assert_cmpint (etl_session_panel_get_field_severity (p, "MaximumFileSize"), ==, ETL_SESSION_SEVERITY_ERROR);

  gtk_widget_destroy (window);
}

static void
test_kernel_flags_sensitivity (void)
{
  GtkWidget *window = gtk_offscreen_window_new ();
  GtkWidget *panel = etl_session_panel_new ();
  EtlSessionPanel *p = ETL_SESSION_PANEL (panel);
  GtkWidget *process;
  g_autoptr (EtlSession) kernel = etl_session_new_preset ("kernel-basics", NULL);

  gtk_container_add (GTK_CONTAINER (window), panel);
  gtk_widget_show_all (window);
  pump ();
  process = etl_session_panel_get_flag_button (p, "EnableFlags", ETL_EVENT_TRACE_FLAG_PROCESS);
  g_assert_nonnull (process);
  g_assert_false (gtk_widget_is_sensitive (process));
  etl_session_panel_set_session (p, kernel);
  pump ();
  g_assert_true (gtk_widget_is_sensitive (process));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (process)));
  gtk_widget_destroy (window);
}

static void
test_show (void)
{
  const char *wait = g_getenv ("ETLSCOPE_SCREENSHOT_WAIT");
  GtkWidget *window;
  GtkWidget *panel;

  if (wait == NULL)
    {
      g_test_skip ("set ETLSCOPE_SCREENSHOT_WAIT=SECONDS to show the panel for a screenshot");
      return;
    }
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title (GTK_WINDOW (window), "etlscope — Session");
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_move (GTK_WINDOW (window), 0, 0);
  panel = etl_session_panel_new ();
  etl_session_panel_set_n_cpus (ETL_SESSION_PANEL (panel), 8);
  gtk_container_add (GTK_CONTAINER (window), panel);
  gtk_widget_show_all (window);
  {
    /* the example: circular mode without a size, then a pointer on the byte view */
    GtkWidget *circular = etl_session_panel_get_flag_button (ETL_SESSION_PANEL (panel), "LogFileMode",
                                                             ETL_EVENT_TRACE_FILE_MODE_CIRCULAR);
    GtkWidget *sequential = etl_session_panel_get_flag_button (ETL_SESSION_PANEL (panel), "LogFileMode",
                                                               ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL);

    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (sequential), FALSE);
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (circular), TRUE);
  }
  {
    /* keep the pointer off the form (no tooltip), show the field highlight */
    GdkSeat *seat = gdk_display_get_default_seat (gdk_display_get_default ());
    GdkScreen *screen = gdk_screen_get_default ();

    pump ();
    gdk_device_warp (gdk_seat_get_pointer (seat), screen, 1399, 899);
    pump ();
    etl_session_panel_highlight_field (ETL_SESSION_PANEL (panel), "MaximumFileSize");
  }
  {
    gint64 end = g_get_monotonic_time () + (gint64) (atof (wait) * G_USEC_PER_SEC);

    while (g_get_monotonic_time () < end)
      {
        pump ();
        g_usleep (20000);
      }
  }
  gtk_widget_destroy (window);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  if (!gtk_init_check (&argc, &argv))
    {
      /* TAP: skip the whole program */
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  g_test_add_func ("/etl/session-panel/circular-needs-size", test_circular_needs_size);
  g_test_add_func ("/etl/session-panel/kernel-flags-sensitivity", test_kernel_flags_sensitivity);
  g_test_add_func ("/etl/session-panel/show", test_show);
  return g_test_run ();
}
