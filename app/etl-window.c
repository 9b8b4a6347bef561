/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-window
 * @title: EtlWindow
 * @short_description: the main window
 *
 * Built from the template ui/etl-window.ui.  The header bar holds Open (with
 * a Recent menu), the session panel toggle, the zoom buttons, the lane-mode
 * switch (CPU / Provider / Process) and the primary menu.  Below it, an info
 * bar shown only for problems and a progress bar with a Cancel button shown
 * while a job runs; then a #GtkStack: the start page (Open, Open a demo
 * trace, the recent traces) when no trace is shown, else the trace area: a
 * vertical #GtkPaned with, on top, the time ruler, the timeline's lanes
 * (scrolling in their own pane), the provider legend, the loss plot (one
 * line when nothing was lost) and the CPU usage graph (#EtlCpuGraph, hidden
 * for traces without SampledProfile or CSwitch records); below the handle,
 * one bottom panel of tabs (#EtlViewPanel), as Perfetto's tracks above its
 * tabs and WPA's graph above its table: Events (the filter bar over the
 * event list, the selected event's details right of it, shown only while
 * an event is selected) and Summary (#EtlGroupView); an analysis adds its
 * tab with etl_window_add_view_tab().  Alt+1…9 show the tabs, Ctrl+Shift+M
 * gives the panel the whole trace area and back, Alt+Return shows or hides
 * the details.  The session configuration panel (#EtlSessionPanel) sits in
 * a left pane (F9).
 *
 * Loading (etl_window_open_files()) runs in a #GTask — the trace index, its
 * per-CPU summary and its loss summary — while the progress bar moves.
 * Cancel leaves the window as it was.  A file that cannot be opened is left
 * out and reported in the info bar with the reader's message (file, offset,
 * reason); a file read only in part is shown with what was read and its
 * problems listed.
 *
 * The filter bar's filter runs in a worker (etl_filter_apply_async()); its
 * #EtlRowSet goes to the event list and to the timeline, which rebuilds its
 * summaries from it.  Selecting an event in the list selects and centres it
 * in the timeline, and the other way round; the details pane shows it.
 *
 * Navigation: Go to Time (Ctrl+G: a time since the start in any unit, or
 * a wall-clock time), the next / previous event of the same provider and
 * event (F3 / Shift+F3, searched in a worker), named markers (Ctrl+M) shown
 * on the ruler and in a list from the header bar, kept per trace in
 * g_get_user_config_dir()/etlscope/markers.ini, Zoom to Data (the range of
 * 99.9 % of the records, also the first view when a few outliers would
 * squeeze the data into a pixel); the keyboard zoom centres on the
 * selected event.  The event list's context menu filters to or excludes a
 * row's provider, process, thread or event (conditions applied in the
 * filter's worker after the filter bar's filter); a loss point clicked in
 * the loss plot selects the event at that time.  A merged set of files is
 * one entry of the Recent menu and reopens as a set.
 *
 * The window's actions (prefix "win") are grouped by menu below: file,
 * view, export.  Window size and position (clamped to the monitor's work
 * area when read back), maximised state, the session pane, the bottom
 * panel's tab, height and maximised state, the details' width, the session
 * panel's closed sections and the list's hidden columns are kept in
 * g_get_user_config_dir()/etlscope/state.ini (#GKeyFile, written
 * atomically); app.quit writes it too.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gstdio.h>

#include "etl-cpu-graph.h"
#include "etl-details.h"
#include "etl-view-panel.h"
#include "etl-stacks-dialog.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-filter.h"
#include "etl-group-summary.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-names.h"
#include "etl-session-panel.h"
#include "etl-summary.h"
#include "etl-synth.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-window.h"
#include "etl-writer.h"
#include "etl-worker.h"

#define MAX_MESSAGES_SHOWN 6
#define PROGRESS_POLL_MS 50
#define MAX_RECENT 10
#define DEMO_RECORDS 200000
#define DEMO_CPUS 8

struct _EtlWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkHeaderBar *header_bar;
  GtkMenuButton *menu_button;
  GtkMenuButton *recent_button;
  GtkBox *zoom_box;
  GtkBox *lane_box;
  GtkPaned *paned;
  GtkBox *session_box;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkBox *progress_box;
  GtkProgressBar *progress_bar;
  GtkStack *stack;
  GtkListBox *recent_list;
  GtkLabel *recent_title;
  GtkPaned *trace_paned;
  GtkBox *timeline_box;       /* the trace paned's top: ruler, lanes, plots */
  EtlViewPanel *view_panel;   /* its bottom: the tabs */
  GtkPaned *events_paned;     /* the Events tab: list | details */
  EtlTimeRuler *time_ruler;
  EtlTimelineView *timeline;
  EtlLossPlot *loss_plot;
  EtlCpuGraph *cpu_graph;
  EtlFilterBar *filter_bar;
  EtlEventList *event_list;
  EtlDetails *details;
  GtkLabel *status_label;
  EtlStacks *stacks; /* the trace's stacks (load worker), or NULL */
  EtlGroupView *group_view; /* the grouped summary, the Summary tab */

  EtlSessionPanel *session_panel;
  EtlZoomManager *zoom_manager;
  GtkRecentManager *recent_manager;
  GMenu *recent_menu;

  EtlTrace *trace;
  EtlRowSet *rows;       /* the filter's rows; NULL = all */
  EtlFilter *filter;     /* the filter bar's last filter */
  GPtrArray *conditions; /* Condition*: the list's context menu filters */
  GArray *markers;       /* WindowMarker, by time: this trace's markers */
  GtkMenuButton *markers_button;
  GtkListBox *markers_list;
  GtkBox *legend_box;
  GtkWidget *legend_scroller;
  GCancellable *find_cancellable;

  /* Jobs: loading (or generating the demo), filtering, exporting. */
  GCancellable *load_cancellable;
  GCancellable *filter_cancellable;
  GCancellable *export_cancellable;
  GCancellable *manifest_cancellable;
  GPtrArray *manifests;  /* char*: manifest files loaded; later opens use them too */
  struct Progress *progress;
  guint progress_source;
  char *progress_label;

  gboolean syncing;
  gboolean state_saved;
  int panel_height;        /* the bottom panel's height, pixels; 0 = not set yet */
  int details_width;       /* the details pane's width, pixels; 0 = not set yet */
  int handle_size;         /* the trace paned's handle, pixels; -1 until measured */
  gboolean panel_sized;    /* the panel got its first height */
  gboolean panel_pending;  /* its height was set before the handle was measured */
};

G_DEFINE_TYPE (EtlWindow, etl_window, GTK_TYPE_APPLICATION_WINDOW)

/* ------------------------------------------------------------------------ */
/* Progress shared with a worker                                            */
/* ------------------------------------------------------------------------ */

typedef struct Progress
{
  gatomicrefcount ref_count;
  int permille; /* -1: unknown, pulse */
  const char *stage; /* atomic; static text: what the worker does after the percentages */
} Progress;

/* The worker's current step, shown after the label while the bar pulses. */
static void
progress_set_stage (Progress *p, const char *stage)
{
  g_atomic_pointer_set (&p->stage, stage);
}

static Progress *
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

static void
progress_unref (Progress *p)
{
  if (g_atomic_ref_count_dec (&p->ref_count))
    g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Progress, progress_unref)

static void
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

static void
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

static void
stop_progress (EtlWindow *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, progress_unref);
  gtk_widget_hide (GTK_WIDGET (self->progress_box));
}

static void update_actions (EtlWindow *self);

/* ------------------------------------------------------------------------ */
/* Info bar and status line                                                 */
/* ------------------------------------------------------------------------ */

static void
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

static void
show_message (EtlWindow *self, GtkMessageType type, const char *message)
{
  g_autoptr (GPtrArray) messages = g_ptr_array_new ();

  g_ptr_array_add (messages, (gpointer) message);
  show_messages (self, messages, type);
}

/* A filter from the event list's context menu: keep only, or leave out,
 * rows sharing a provider, process, thread or event with a chosen row. */
typedef struct
{
  char *field;     /* "provider", "process", "thread", "event" */
  gboolean exclude;
  guint provider;  /* provider index (provider, event) */
  guint32 value;   /* process or thread id */
  char *name;      /* event name; for the status line: the value's name */
  EtlGroupMatcher *matcher; /* "group": a summary group's rows */
} Condition;

static void
condition_free (gpointer data)
{
  Condition *c = data;

  g_free (c->field);
  g_free (c->name);
  etl_group_matcher_free (c->matcher);
  g_free (c);
}

static void
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

/* ------------------------------------------------------------------------ */
/* The bottom panel: tabs, height, maximised; the details beside the list   */
/* ------------------------------------------------------------------------ */

static gboolean
action_state_bool (EtlWindow *self, const char *name)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), name);

  return state != NULL && g_variant_get_boolean (state);
}

static gboolean
panel_maximized (EtlWindow *self)
{
  return !gtk_widget_get_visible (GTK_WIDGET (self->timeline_box));
}

/* The first height of the panel in a trace area @total pixels high: 400 px
 * (the list's 13 rows at 1366×768, issue 18) or 48 % where that is more
 * (16 rows at 1600×1000, the lanes, loss plot and CPU graph the rest), but
 * never more than 70 % of a small window. */
static int
default_panel_height (int total)
{
  return MIN (MAX (400, total * 48 / 100), total * 70 / 100);
}

/* Puts the trace paned's handle @height pixels above its bottom.  GtkPaned
 * keeps the top's minimum height (shrink False) whatever is asked. */
static void
apply_panel_height (EtlWindow *self, int height)
{
  int total = gtk_widget_get_allocated_height (GTK_WIDGET (self->trace_paned));

  self->panel_height = height;
  if (total > 1 && !panel_maximized (self))
    {
      gtk_paned_set_position (self->trace_paned, MAX (total - MAX (self->handle_size, 0) - height, 0));
      /* Set again once the handle's size is known. */
      self->panel_pending = self->handle_size < 0;
    }
}

static void
on_trace_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self)
{
  GtkWidget *top = GTK_WIDGET (self->timeline_box), *panel = GTK_WIDGET (self->view_panel);

  /* The handle, from the children's allocations (its CSS size). */
  if (!panel_maximized (self) && gtk_widget_get_visible (panel))
    {
      self->handle_size = MAX (allocation->height - gtk_widget_get_allocated_height (top)
                               - gtk_widget_get_allocated_height (panel), 0);
      if (self->panel_pending)
        apply_panel_height (self, self->panel_height);
    }
  /* The first allocation of a real size: the height left last time, or the
   * default; later the panel keeps its height (resize False) and the lanes
   * take what the window gains or loses. */
  if (self->panel_sized || allocation->height < 300)
    return;
  self->panel_sized = TRUE;
  if (self->panel_height <= 0)
    self->panel_height = default_panel_height (allocation->height);
  apply_panel_height (self, self->panel_height);
}

static void
place_details (EtlWindow *self)
{
  int width = gtk_widget_get_allocated_width (GTK_WIDGET (self->events_paned));

  if (width <= 1)
    return;
  if (self->details_width <= 0)
    self->details_width = CLAMP (width * 42 / 100, 320, 640);
  gtk_paned_set_position (self->events_paned, MAX (width - self->details_width, 0));
}

/* The details pane right of the list: shown while an event is selected and
 * the user has not hidden it (win.show-details); otherwise it takes no room
 * at all. */
static void
update_details_visible (EtlWindow *self)
{
  GtkWidget *details = GTK_WIDGET (self->details);
  gboolean want = action_state_bool (self, "show-details") && etl_details_get_has_event (self->details);

  if (want == gtk_widget_get_visible (details))
    return;
  if (!want)
    {
      if (gtk_widget_get_mapped (details))
        self->details_width = gtk_widget_get_allocated_width (details);
      gtk_widget_hide (details);
      return;
    }
  gtk_widget_show (details);
  place_details (self);
}

static void
on_details_has_event (EtlDetails *details, GParamSpec *pspec, EtlWindow *self)
{
  update_details_visible (self);
}

static void
show_details_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;

  g_simple_action_set_state (action, state);
  update_details_visible (self);
}

static void
maximize_panel_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;
  GtkWidget *top = GTK_WIDGET (self->timeline_box);
  gboolean maximize = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  if (maximize == panel_maximized (self))
    return;
  if (maximize)
    {
      GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

      /* The height to come back to. */
      if (self->panel_sized && gtk_widget_get_mapped (GTK_WIDGET (self->view_panel)))
        self->panel_height = gtk_widget_get_allocated_height (GTK_WIDGET (self->view_panel));
      gtk_widget_hide (top);
      /* The focus was in the lanes: into the panel. */
      if (focus != NULL && gtk_widget_is_ancestor (focus, top))
        gtk_widget_child_focus (GTK_WIDGET (self->view_panel), GTK_DIR_TAB_FORWARD);
      return;
    }
  gtk_widget_show (top);
  if (self->panel_sized)
    apply_panel_height (self, self->panel_height);
}

/* Alt+1…9: the Nth tab, and the focus into it (the list for Events). */
static void
show_view_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = user_data;
  GtkWidget *page;

  if (!etl_view_panel_show_nth (self->view_panel, (guint) MAX (g_variant_get_int32 (param), 0)))
    return;
  page = etl_view_panel_get_view_widget (self->view_panel, etl_view_panel_get_view (self->view_panel));
  if (page == GTK_WIDGET (self->events_paned))
    page = GTK_WIDGET (self->event_list);
  if (page != NULL && gtk_widget_get_mapped (page))
    gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

static void
load_panel_state (EtlWindow *self, GKeyFile *kf)
{
  g_autofree char *tab = g_key_file_get_string (kf, "panel", "tab", NULL);
  int height = g_key_file_get_integer (kf, "panel", "height", NULL);
  int details_width = g_key_file_get_integer (kf, "panel", "details-width", NULL);

  if (tab != NULL)
    etl_view_panel_show_view (self->view_panel, tab);
  if (height > 0)
    self->panel_height = height;
  if (details_width > 0)
    self->details_width = details_width;
  if (g_key_file_has_key (kf, "panel", "details-visible", NULL))
    g_action_group_change_action_state (
        G_ACTION_GROUP (self), "show-details",
        g_variant_new_boolean (g_key_file_get_boolean (kf, "panel", "details-visible", NULL)));
  if (g_key_file_get_boolean (kf, "panel", "maximized", NULL))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "maximize-panel", g_variant_new_boolean (TRUE));
}

static void
save_panel_state (EtlWindow *self, GKeyFile *kf)
{
  const char *tab = etl_view_panel_get_view (self->view_panel);
  int height = etl_window_get_panel_height (self);
  int details_width = gtk_widget_get_mapped (GTK_WIDGET (self->details))
                          ? gtk_widget_get_allocated_width (GTK_WIDGET (self->details))
                          : self->details_width;

  if (tab != NULL)
    g_key_file_set_string (kf, "panel", "tab", tab);
  if (height > 0)
    g_key_file_set_integer (kf, "panel", "height", height);
  g_key_file_set_boolean (kf, "panel", "maximized", panel_maximized (self));
  g_key_file_set_boolean (kf, "panel", "details-visible", action_state_bool (self, "show-details"));
  if (details_width > 0)
    g_key_file_set_integer (kf, "panel", "details-width", details_width);
}

/* ------------------------------------------------------------------------ */
/* State file                                                               */
/* ------------------------------------------------------------------------ */

static char *
state_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "etlscope", "state.ini", NULL);
}

/* EtlTimelineProcessColorFunc: the CPU usage graph's colour of @pid. */
static gboolean
process_color_cb (guint32 pid, GdkRGBA *rgba, gpointer user_data)
{
  return etl_cpu_graph_get_process_color (ETL_CPU_GRAPH (user_data), pid, rgba);
}

/* The work area of the primary monitor (or the first), where a window opens. */
static gboolean
get_workarea (GdkRectangle *area)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkMonitor *monitor = display != NULL ? gdk_display_get_primary_monitor (display) : NULL;

  if (monitor == NULL && display != NULL && gdk_display_get_n_monitors (display) > 0)
    monitor = gdk_display_get_monitor (display, 0);
  if (monitor == NULL)
    return FALSE;
  gdk_monitor_get_workarea (monitor, area);
  return area->width > 0 && area->height > 0;
}

static void
load_state (EtlWindow *self)
{
  g_autofree char *path = state_path ();
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  GdkRectangle area;
  int width, height;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    {
      /* First run: fill most of the monitor; maximised where a window
       * manager allows. */
      if (get_workarea (&area))
        {
          gtk_window_set_default_size (GTK_WINDOW (self), MAX (area.width - 24, 800), MAX (area.height - 64, 600));
          /* The CPU usage graph only where the lanes keep room (~900 px). */
          etl_cpu_graph_set_expanded (self->cpu_graph, area.height >= 900);
        }
      gtk_window_maximize (GTK_WINDOW (self));
      return;
    }

  width = g_key_file_get_integer (kf, "window", "width", NULL);
  height = g_key_file_get_integer (kf, "window", "height", NULL);
  /* A size saved on a bigger monitor (a laptop taken off its dock) would
   * put the status bar and the list's last rows off screen: fit it to this
   * monitor's work area, and the position so that the window lies inside
   * it (the window's minimum size is within 1024×700). */
  if (get_workarea (&area))
    {
      width = MIN (width, area.width);
      height = MIN (height, area.height);
      if (g_key_file_has_key (kf, "window", "x", NULL) && g_key_file_has_key (kf, "window", "y", NULL))
        {
          int x = g_key_file_get_integer (kf, "window", "x", NULL);
          int y = g_key_file_get_integer (kf, "window", "y", NULL);

          x = CLAMP (x, area.x, area.x + area.width - MAX (width, 1));
          y = CLAMP (y, area.y, area.y + area.height - MAX (height, 1));
          gtk_window_move (GTK_WINDOW (self), x, y);
        }
    }
  if (width >= 400 && height >= 300)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_key_file_get_boolean (kf, "window", "maximized", NULL))
    gtk_window_maximize (GTK_WINDOW (self));

#define RESTORE_PANE(key, paned)                                                                                     \
  G_STMT_START                                                                                                       \
  {                                                                                                                  \
    int pos = g_key_file_get_integer (kf, "panes", key, &error);                                                     \
    if (error == NULL && pos > 0)                                                                                    \
      gtk_paned_set_position (paned, pos);                                                                           \
    g_clear_error (&error);                                                                                          \
  }                                                                                                                  \
  G_STMT_END
  RESTORE_PANE ("session", self->paned);
#undef RESTORE_PANE
  load_panel_state (self, kf);

  /* The CPU usage graph: as the user left it; the first time, shown only
   * on screens tall enough for it and the lanes (about 900 px). */
  {
    g_autoptr (GError) graph_error = NULL;
    gboolean expanded = g_key_file_get_boolean (kf, "cpu-graph", "expanded", &graph_error);

    if (graph_error != NULL)
      expanded = !get_workarea (&area) || area.height >= 900;
    etl_cpu_graph_set_expanded (self->cpu_graph, expanded);
  }

  /* Timeline lanes without events in view: hidden as the user left it. */
  etl_timeline_view_set_hide_empty_lanes (self->timeline,
                                          g_key_file_get_boolean (kf, "timeline", "hide-empty-lanes", NULL));

  /* Sections the user closed in the session panel. */
  {
    g_auto (GStrv) closed = g_key_file_get_string_list (kf, "session-panel", "collapsed-sections", NULL, NULL);

    for (guint i = 0; closed != NULL && closed[i] != NULL; i++)
      etl_session_panel_set_section_expanded (self->session_panel, closed[i], FALSE);
  }

  /* Columns the user hid in the event list. */
  {
    g_auto (GStrv) hidden = g_key_file_get_string_list (kf, "list", "hidden-columns", NULL, NULL);

    for (guint i = 0; hidden != NULL && hidden[i] != NULL; i++)
      etl_event_list_set_column_visible (self->event_list, hidden[i], FALSE);
  }

  /* The window is split in two by default: session panel | trace area. */
  if (g_key_file_has_key (kf, "panes", "session-visible", NULL))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "show-session",
                                        g_variant_new_boolean (g_key_file_get_boolean (kf, "panes", "session-visible",
                                                                                       NULL)));
}

/**
 * etl_window_save_state:
 * @self: a window
 * @error: return location for a #GError
 *
 * Writes the window size and position, maximised state, the session pane,
 * the bottom panel's tab, height and maximised state, the details' width
 * and whether they are shown, the session panel's closed sections, the
 * event list's hidden columns and whether the timeline hides lanes without
 * events in view to
 * g_get_user_config_dir()/etlscope/state.ini, atomically
 * (g_key_file_save_to_file() goes through g_file_set_contents()).
 *
 * Returns: %TRUE on success
 */
gboolean
etl_window_save_state (EtlWindow *self, GError **error)
{
  g_autofree char *path = state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  gboolean maximized;
  int width, height;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);

  /* Keep keys this version does not know. */
  g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  maximized = gtk_window_is_maximized (GTK_WINDOW (self));
  gtk_window_get_size (GTK_WINDOW (self), &width, &height);
  if (!maximized)
    {
      int x, y;

      g_key_file_set_integer (kf, "window", "width", width);
      g_key_file_set_integer (kf, "window", "height", height);
      if (gtk_widget_get_realized (GTK_WIDGET (self)))
        {
          gtk_window_get_position (GTK_WINDOW (self), &x, &y);
          g_key_file_set_integer (kf, "window", "x", x);
          g_key_file_set_integer (kf, "window", "y", y);
        }
    }
  g_key_file_set_boolean (kf, "window", "maximized", maximized);
  g_key_file_set_integer (kf, "panes", "session", gtk_paned_get_position (self->paned));
  g_key_file_set_boolean (kf, "panes", "session-visible", gtk_widget_get_visible (GTK_WIDGET (self->session_box)));
  /* Keys of the layout before the bottom panel (issue 18). */
  g_key_file_remove_key (kf, "panes", "trace", NULL);
  g_key_file_remove_key (kf, "panes", "list", NULL);
  save_panel_state (self, kf);
  g_key_file_set_boolean (kf, "cpu-graph", "expanded", etl_cpu_graph_get_expanded (self->cpu_graph));
  g_key_file_set_boolean (kf, "timeline", "hide-empty-lanes", etl_timeline_view_get_hide_empty_lanes (self->timeline));
  {
    g_auto (GStrv) closed = etl_session_panel_dup_collapsed_sections (self->session_panel);

    g_key_file_set_string_list (kf, "session-panel", "collapsed-sections", (const char *const *) closed,
                                g_strv_length (closed));
  }
  {
    g_auto (GStrv) hidden = etl_event_list_dup_hidden_columns (self->event_list);

    g_key_file_set_string_list (kf, "list", "hidden-columns", (const char *const *) hidden, g_strv_length (hidden));
  }

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, path, error);
}

/**
 * etl_window_get_state_path:
 *
 * Returns: (transfer full): where the window keeps its state
 */
char *
etl_window_get_state_path (void)
{
  return state_path ();
}

/* ------------------------------------------------------------------------ */
/* Recent files                                                             */
/* ------------------------------------------------------------------------ */

static gint
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;
  time_t ma = gtk_recent_info_get_modified (ia);
  time_t mb = gtk_recent_info_get_modified (ib);

  return ma < mb ? 1 : ma > mb ? -1 : 0;
}

static GPtrArray *
recent_traces (EtlWindow *self)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *all = gtk_recent_manager_get_items (self->recent_manager);

  for (GList *l = all; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      g_autofree char *lower = g_ascii_strdown (uri, -1);

      if (g_str_has_suffix (lower, ".etl") && gtk_recent_info_exists (info))
        g_ptr_array_add (items, gtk_recent_info_ref (info));
    }
  g_list_free_full (all, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (items, compare_recent);
  if (items->len > MAX_RECENT)
    g_ptr_array_set_size (items, MAX_RECENT);
  return items;
}

#define RECENT_SET_TAG "etlscope-set\n"

/* A merged set is one recent entry: its first file's URI, whose description
 * is RECENT_SET_TAG followed by every URI of the set, one a line.  The other
 * files of the set are not added on their own. */
static char **
recent_info_dup_uris (GtkRecentInfo *info)
{
  const char *description = gtk_recent_info_get_description (info);

  if (description != NULL && g_str_has_prefix (description, RECENT_SET_TAG))
    {
      g_auto (GStrv) lines = g_strsplit (description + strlen (RECENT_SET_TAG), "\n", 64);
      GPtrArray *uris = g_ptr_array_new ();

      for (guint i = 0; lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          g_ptr_array_add (uris, g_strdup (lines[i]));
      g_ptr_array_add (uris, NULL);
      return (char **) g_ptr_array_free (uris, FALSE);
    }
  return g_strdupv ((char *[]) { (char *) gtk_recent_info_get_uri (info), NULL });
}

/* A menu label shows a file name as it is: underscores are mnemonics in a
 * GMenu label, so each is doubled. */
static char *
escape_mnemonics (const char *text)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '_')
        g_string_append_c (out, '_');
      g_string_append_c (out, *c);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
recent_label (GtkRecentInfo *info, char **uris)
{
  g_autofree char *name = gtk_recent_info_get_short_name (info);
  guint n = g_strv_length (uris);

  if (n > 1)
    return g_strdup_printf ("%s + %u more (merged)", name, n - 1);
  return g_steal_pointer (&name);
}

static void
rebuild_recent (EtlWindow *self)
{
  g_autoptr (GPtrArray) items = recent_traces (self);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->recent_list));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_menu_remove_all (self->recent_menu);

  for (guint i = 0; i < items->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (items, i);
      g_auto (GStrv) uris = recent_info_dup_uris (info);
      g_autofree char *name = recent_label (info, uris);
      g_autofree char *where = gtk_recent_info_get_uri_display (info);
      g_autofree char *escaped = escape_mnemonics (name);
      GtkWidget *row, *box, *title, *subtitle;

      row = gtk_list_box_row_new ();
      g_object_set_data_full (G_OBJECT (row), "uris", g_strdupv (uris), (GDestroyNotify) g_strfreev);
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_object_set (box, "margin", 8, NULL);
      title = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      subtitle = gtk_label_new (where);
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_MIDDLE);
      gtk_style_context_add_class (gtk_widget_get_style_context (subtitle), "dim-label");
      gtk_container_add (GTK_CONTAINER (box), title);
      gtk_container_add (GTK_CONTAINER (box), subtitle);
      gtk_container_add (GTK_CONTAINER (row), box);
      gtk_widget_show_all (row);
      gtk_container_add (GTK_CONTAINER (self->recent_list), row);

      {
        g_autoptr (GMenuItem) item = g_menu_item_new (escaped, NULL);

        g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                                 g_variant_new_strv ((const char *const *) uris, -1));
        g_menu_append_item (self->recent_menu, item);
      }
    }

  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), items->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_title), items->len > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), items->len > 0);
}

/* Adds the files of @trace to the recent list: one entry for one file, one
 * entry for a merged set. */
static void
add_recent (EtlWindow *self, EtlTrace *trace)
{
  guint n_files = etl_trace_get_n_files (trace);
  g_autoptr (GString) description = g_string_new (RECENT_SET_TAG);
  g_autofree char *first = NULL;
  GtkRecentData data = { 0 };

  for (guint f = 0; f < n_files; f++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (etl_trace_get_file_info (trace, f)->path);
      g_autofree char *uri = g_file_get_uri (file);

      g_string_append_printf (description, "%s\n", uri);
      if (f == 0)
        first = g_steal_pointer (&uri);
    }
  if (first == NULL)
    return;
  /* An empty description turns a former set entry back into one file. */
  data.description = n_files > 1 ? description->str : (char *) "";
  data.mime_type = (char *) "application/octet-stream";
  data.app_name = (char *) "etlscope";
  data.app_exec = (char *) "etlscope %u";
  gtk_recent_manager_add_full (self->recent_manager, first, &data);
}

static void
open_uris (EtlWindow *self, const char *const *uris)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; uris[i] != NULL; i++)
    if (uris[i][0] != '\0')
      g_ptr_array_add (files, g_file_new_for_commandline_arg (uris[i]));
  if (files->len > 0)
    etl_window_open_files (self, (GFile **) files->pdata, files->len);
}

static void
on_recent_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self)
{
  const char *const *uris = g_object_get_data (G_OBJECT (row), "uris");

  if (uris != NULL)
    open_uris (self, uris);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  char **paths;
  char **manifests;
  Progress *progress;
  /* Results */
  EtlTrace *trace;
  EtlSummary *summary;
  EtlLossSummary *loss_summary;
  EtlStacks *stacks;    /* for the details pane's Stack section */
  GPtrArray *errors;
  GArray *legend;       /* LegendEntry: the most frequent providers */
} LoadData;

/* One provider in the colour legend. */
typedef struct
{
  guint provider;      /* provider index: picks the colour */
  guint64 count;
  char *name;
} LegendEntry;

#define MAX_LEGEND 12

static void
legend_entry_clear (gpointer data)
{
  g_free (((LegendEntry *) data)->name);
}

static gint
compare_legend (gconstpointer a, gconstpointer b)
{
  guint64 ca = ((const LegendEntry *) a)->count, cb = ((const LegendEntry *) b)->count;

  return ca > cb ? -1 : ca < cb;
}

/* Counts records per provider index (from the index: no record read) and
 * names the MAX_LEGEND most frequent from their first record. */
static GArray *
build_legend (EtlTrace *trace, GCancellable *cancellable)
{
  guint n_providers = etl_trace_get_n_providers (trace);
  guint64 n = etl_trace_get_n_records (trace);
  g_autofree guint64 *counts = g_new0 (guint64, n_providers + 1);
  g_autofree guint64 *first = g_new0 (guint64, n_providers + 1);
  GArray *legend = g_array_new (FALSE, TRUE, sizeof (LegendEntry));

  g_array_set_clear_func (legend, legend_entry_clear);
  for (guint64 i = 0; i < n; i++)
    {
      guint p = etl_trace_get_provider_index (trace, i);

      if ((i & 0xFFFFF) == 0 && g_cancellable_is_cancelled (cancellable))
        return legend;
      if (p >= n_providers)
        continue;
      if (counts[p]++ == 0)
        first[p] = i;
    }
  for (guint p = 0; p < n_providers; p++)
    if (counts[p] > 0)
      {
        LegendEntry e = { p, counts[p], NULL };

        g_array_append_val (legend, e);
      }
  g_array_sort (legend, compare_legend);
  if (legend->len > MAX_LEGEND)
    g_array_set_size (legend, MAX_LEGEND);
  for (guint i = 0; i < legend->len; i++)
    {
      LegendEntry *e = &g_array_index (legend, LegendEntry, i);
      EtlRecord record;

      if (etl_trace_get_record (trace, first[e->provider], &record, NULL))
        {
          e->name = etl_record_dup_provider_name (&record);
          etl_record_clear (&record);
        }
      else
        e->name = g_strdup ("?");
    }
  return legend;
}

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_strfreev (ld->paths);
  g_strfreev (ld->manifests);
  progress_unref (ld->progress);
  g_clear_pointer (&ld->trace, etl_trace_unref);
  g_clear_pointer (&ld->summary, etl_summary_unref);
  g_clear_pointer (&ld->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&ld->stacks, etl_stacks_unref);
  g_clear_pointer (&ld->errors, g_ptr_array_unref);
  g_clear_pointer (&ld->legend, g_array_unref);
  g_free (ld);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *ld = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) good = NULL;

  ld->trace = etl_trace_open_full ((const char *const *) ld->paths, (const char *const *) ld->manifests, on_progress,
                                   ld->progress, cancellable, &error);
  if (ld->trace == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (ld->trace == NULL)
    {
      /* Find which files fail on their own, report them, and open the rest
       * together. */
      if (g_strv_length (ld->paths) == 1)
        g_ptr_array_add (ld->errors, g_steal_pointer (&error));
      else
        {
          g_clear_error (&error);
          good = g_ptr_array_new ();
          for (guint i = 0; ld->paths[i] != NULL; i++)
            {
              const char *one[] = { ld->paths[i], NULL };
              g_autoptr (EtlTrace) t = NULL;
              GError *e = NULL;

              t = etl_trace_open (one, NULL, NULL, cancellable, &e);
              if (t != NULL)
                g_ptr_array_add (good, ld->paths[i]);
              else if (g_error_matches (e, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_task_return_error (task, e);
                  return;
                }
              else
                g_ptr_array_add (ld->errors, e);
            }
          if (good->len > 0)
            {
              g_ptr_array_add (good, NULL);
              ld->trace = etl_trace_open_full ((const char *const *) good->pdata,
                                               (const char *const *) ld->manifests, on_progress, ld->progress,
                                               cancellable, &error);
              if (ld->trace == NULL)
                {
                  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                    {
                      g_task_return_error (task, g_steal_pointer (&error));
                      return;
                    }
                  g_ptr_array_add (ld->errors, g_steal_pointer (&error));
                }
            }
        }
    }

  if (ld->trace != NULL)
    {
      g_atomic_int_set (&ld->progress->permille, -1);
      /* The process table is decoded on first use: do it here, in the
       * worker, so the list and lanes never pay for it on the main loop. */
      progress_set_stage (ld->progress, "— processes and threads");
      (void) etl_trace_get_process_table (ld->trace);
      progress_set_stage (ld->progress, "— timeline");
      ld->summary = etl_summary_new (ld->trace, NULL, ETL_LANE_CPU, 0, 0, 16, cancellable, &error);
      if (ld->summary == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      ld->loss_summary = etl_loss_summary_new (ld->trace, 14);
      progress_set_stage (ld->progress, "— stacks");
      ld->stacks = etl_stacks_compute (ld->trace, NULL, NULL, cancellable, NULL);
      progress_set_stage (ld->progress, "— providers");
      ld->legend = build_legend (ld->trace, cancellable);
    }
  /* The merge and the summaries freed much in this thread's heap arena. */
  etl_worker_release_memory ();

  g_task_return_boolean (task, TRUE);
}


/* The provider colour legend under the timeline ------------------------- */

static gboolean
draw_swatch (GtkWidget *widget, cairo_t *cr, gpointer user_data)
{
  GdkRGBA rgba;

  etl_timeline_view_get_provider_color (GPOINTER_TO_UINT (user_data), &rgba);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_rectangle (cr, 0, 2, gtk_widget_get_allocated_width (widget), gtk_widget_get_allocated_height (widget) - 4);
  cairo_fill (cr);
  return FALSE;
}

static void
show_legend (EtlWindow *self, GArray *legend)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->legend_box));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; legend != NULL && i < legend->len; i++)
    {
      const LegendEntry *e = &g_array_index (legend, LegendEntry, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      GtkWidget *swatch = gtk_drawing_area_new ();
      /* Provider names differ at their end: keep it, whole in the tooltip. */
      g_autofree char *shown = g_utf8_strlen (e->name, -1) > 24
                                   ? g_strconcat ("…", g_utf8_offset_to_pointer (e->name, g_utf8_strlen (e->name, -1) - 22),
                                                  NULL)
                                   : g_strdup (e->name);
      GtkWidget *label = gtk_label_new (shown);
      g_autofree char *tip = g_strdup_printf ("%s: %'" G_GUINT64_FORMAT " events", e->name, e->count);

      gtk_widget_set_size_request (swatch, 12, 14);
      g_signal_connect (swatch, "draw", G_CALLBACK (draw_swatch), GUINT_TO_POINTER (e->provider));
      gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
      gtk_widget_set_tooltip_text (box, tip);
      gtk_container_add (GTK_CONTAINER (box), swatch);
      gtk_container_add (GTK_CONTAINER (box), label);
      gtk_widget_show_all (box);
      gtk_container_add (GTK_CONTAINER (self->legend_box), box);
    }
  gtk_widget_set_visible (self->legend_scroller, legend != NULL && legend->len > 0);
}

static void apply_filter (EtlWindow *self);
static void load_markers (EtlWindow *self);
static void show_markers (EtlWindow *self);

static void
show_trace (EtlWindow *self, LoadData *ld)
{
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_ptr_array_set_size (self->conditions, 0);
  self->trace = etl_trace_ref (ld->trace);

  etl_zoom_manager_set_bounds (self->zoom_manager,
                               etl_trace_get_first_filetime (ld->trace),
                               etl_trace_get_last_filetime (ld->trace) + 1);
  etl_time_ruler_set_origin (self->time_ruler, etl_trace_get_origin (ld->trace));
  if (etl_timeline_view_get_lane_mode (self->timeline) == ETL_LANE_CPU)
    etl_timeline_view_set_trace (self->timeline, ld->trace, ld->summary);
  else
    etl_timeline_view_set_trace (self->timeline, ld->trace, NULL);
  etl_loss_plot_set_trace (self->loss_plot, ld->trace, ld->loss_summary);
  etl_cpu_graph_set_trace (self->cpu_graph, ld->trace);
  etl_event_list_set_rows (self->event_list, ld->trace, NULL);
  etl_group_view_set_range (self->group_view, 0, 0);
  etl_group_view_set_rows (self->group_view, ld->trace, NULL);
  etl_zoom_manager_set_focus (self->zoom_manager, G_MININT64);
  load_markers (self);
  show_legend (self, ld->legend);
  /* A few records far from the rest (a header hours before the data) would
   * squeeze the data into a pixel: start on the range of 99.9 % of them. */
  {
    gint64 begin, end, full = etl_trace_get_last_filetime (ld->trace) + 1 - etl_trace_get_first_filetime (ld->trace);

    if (etl_window_get_data_range (self, &begin, &end) && (end - begin) < full / 20)
      etl_window_zoom_to_data (self);
  }
  etl_details_set_stacks (self->details, ld->stacks);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  self->stacks = ld->stacks != NULL ? etl_stacks_ref (ld->stacks) : NULL;
  etl_details_clear (self->details);
  etl_filter_bar_set_counts (self->filter_bar, etl_trace_get_n_records (ld->trace),
                             etl_trace_get_n_records (ld->trace));
  gtk_stack_set_visible_child_name (self->stack, "trace");

  /* Recent files: the file, or the merged set as one entry. */
  add_recent (self, ld->trace);

  if (!etl_filter_is_empty (self->filter) || self->conditions->len > 0)
    apply_filter (self);
  update_status (self);
  update_actions (self);
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  LoadData *ld = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);

  /* A load replaced by a newer one, or the window went away. */
  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;

  stop_progress (self);
  g_clear_object (&self->load_cancellable);
  update_actions (self);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          update_status (self);
          return;
        }
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }

  for (guint i = 0; i < ld->errors->len; i++)
    g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (ld->errors, i))->message));

  if (ld->trace != NULL)
    {
      for (guint f = 0; f < etl_trace_get_n_files (ld->trace); f++)
        {
          const EtlFileInfo *info = etl_trace_get_file_info (ld->trace, f);

          for (guint p = 0; p < info->problems->len; p++)
            g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (info->problems, p))->message));
          if (info->n_problems_dropped > 0)
            g_ptr_array_add (messages, g_strdup_printf ("%s: %" G_GUINT64_FORMAT " more problems not listed",
                                                        info->path, info->n_problems_dropped));
        }
      show_trace (self, ld);
    }

  show_messages (self, messages, ld->trace != NULL ? GTK_MESSAGE_WARNING : GTK_MESSAGE_ERROR);
}

static void
cancel_jobs (EtlWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  stop_progress (self);
}

/**
 * etl_window_open_files:
 * @self: a window
 * @files: (array length=n_files): the .etl files to show as one timeline
 * @n_files: number of files, at least one
 *
 * Starts loading @files in a worker thread, cancelling a job in progress.
 * The trace shown is replaced when the load finishes; problems and files
 * that cannot be opened are listed in the info bar.
 */
void
etl_window_open_files (EtlWindow *self, GFile **files, guint n_files)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GString) label = g_string_new ("Loading ");
  LoadData *ld;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  cancel_jobs (self);

  ld = g_new0 (LoadData, 1);
  ld->progress = progress_new ();
  ld->paths = g_new0 (char *, n_files + 1);
  /* Manifests loaded earlier describe this trace too; one deleted since
   * would fail the whole open, so only those still there. */
  ld->manifests = g_new0 (char *, self->manifests->len + 1);
  for (guint i = 0, k = 0; i < self->manifests->len; i++)
    if (g_file_test (g_ptr_array_index (self->manifests, i), G_FILE_TEST_IS_REGULAR))
      ld->manifests[k++] = g_strdup (g_ptr_array_index (self->manifests, i));
  ld->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *base = g_file_get_basename (files[i]);

      ld->paths[i] = g_file_get_path (files[i]);
      if (ld->paths[i] == NULL)
        ld->paths[i] = g_file_get_uri (files[i]);
      g_string_append_printf (label, "%s%s", i > 0 ? ", " : "", base);
    }
  g_string_append (label, "…");

  self->load_cancellable = g_cancellable_new ();
  start_progress (self, label->str, ld->progress);
  update_actions (self);

  task = g_task_new (self, self->load_cancellable, on_load_done, NULL);
  g_task_set_source_tag (task, etl_window_open_files);
  g_task_set_task_data (task, ld, load_data_free);
  etl_worker_run (task, load_thread);
}

/**
 * etl_window_cancel:
 * @self: a window
 *
 * Cancels loading and exporting.  What was shown before stays.
 */
void
etl_window_cancel (EtlWindow *self)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  if (self->load_cancellable == NULL && self->export_cancellable == NULL)
    return;
  cancel_jobs (self);
  update_status (self);
  update_actions (self);
}

/**
 * etl_window_close_trace:
 * @self: a window
 *
 * Stops every job, forgets the trace and shows the start page.
 */
void
etl_window_close_trace (EtlWindow *self)
{
  g_return_if_fail (ETL_IS_WINDOW (self));

  cancel_jobs (self);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);

  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_ptr_array_set_size (self->conditions, 0);
  etl_event_list_set_rows (self->event_list, NULL, NULL);
  etl_group_view_set_rows (self->group_view, NULL, NULL);
  g_array_set_size (self->markers, 0);
  show_markers (self);
  show_legend (self, NULL);
  etl_timeline_view_set_trace (self->timeline, NULL, NULL);
  etl_loss_plot_set_trace (self->loss_plot, NULL, NULL);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  etl_details_set_stacks (self->details, NULL);
  etl_cpu_graph_set_trace (self->cpu_graph, NULL);
  etl_details_clear (self->details);
  etl_filter_bar_set_counts (self->filter_bar, 0, 0);
  gtk_widget_hide (GTK_WIDGET (self->info_bar));
  gtk_stack_set_visible_child_name (self->stack, "start");
  update_status (self);
  update_actions (self);
  etl_window_save_state (self, NULL);
}

/* Demo trace ------------------------------------------------------------- */

static char *
demo_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "etlscope", "demo.etl", NULL);
}

static void
demo_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const char *path = task_data;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return;
    }
  etl_synth_params_init (&params);
  params.n_cpus = DEMO_CPUS;
  params.n_records = DEMO_RECORDS;
  params.loss_rate = 0.02;
  params.seed = 2024;
  /* Written atomically: an existing demo.etl is always complete. */
  if (!etl_synth_write (&params, path, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_demo_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  const char *path = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;
  stop_progress (self);
  g_clear_object (&self->load_cancellable);
  update_actions (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *message = g_strdup_printf ("Could not generate the demo trace %s: %s", path, error->message);

      show_message (self, GTK_MESSAGE_ERROR, message);
      return;
    }
  file = g_file_new_for_path (path);
  etl_window_open_files (self, &file, 1);
}

/**
 * etl_window_open_demo:
 * @self: a window
 *
 * Opens g_get_user_cache_dir()/etlscope/demo.etl, generating it first (in a
 * worker, etl_synth_write(): 8 CPUs, 200,000 records, 2 % of buffers lost)
 * when it does not exist yet.
 */
void
etl_window_open_demo (EtlWindow *self)
{
  g_autofree char *path = demo_path ();
  g_autoptr (GTask) task = NULL;
  g_autoptr (Progress) progress = NULL;

  g_return_if_fail (ETL_IS_WINDOW (self));

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);

      etl_window_open_files (self, &file, 1);
      return;
    }

  cancel_jobs (self);
  self->load_cancellable = g_cancellable_new ();
  progress = progress_new ();
  progress->permille = -1;
  start_progress (self, "Generating the demo trace…", progress);
  update_actions (self);

  task = g_task_new (self, self->load_cancellable, on_demo_done, NULL);
  g_task_set_source_tag (task, etl_window_open_demo);
  g_task_set_task_data (task, g_steal_pointer (&path), g_free);
  etl_worker_run (task, demo_thread);
}

/* ------------------------------------------------------------------------ */
/* Filter and selection                                                     */
/* ------------------------------------------------------------------------ */

static void
show_rows (EtlWindow *self, EtlRowSet *rows)
{
  guint64 selected = etl_timeline_view_get_selected_row (self->timeline);

  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->rows = etl_row_set_ref (rows);
  etl_event_list_set_rows (self->event_list, self->trace, rows);
  etl_group_view_set_rows (self->group_view, self->trace, rows);
  etl_timeline_view_set_rows (self->timeline, etl_row_set_is_all (rows) ? NULL : rows);
  etl_filter_bar_set_counts (self->filter_bar, etl_row_set_get_n (rows), etl_trace_get_n_records (self->trace));
  if (selected != ETL_TIMELINE_NO_ROW && etl_event_list_get_selected_row (self->event_list) == ETL_EVENT_LIST_NO_ROW)
    {
      guint64 pos = etl_row_set_find (rows, selected);

      if (pos < etl_row_set_get_n (rows) && etl_row_set_get (rows, pos) == selected)
        etl_event_list_select_row (self->event_list, selected);
      else
        {
          /* The filter hides the selected event: nothing stays selected. */
          self->syncing = TRUE;
          etl_timeline_view_select_row (self->timeline, ETL_TIMELINE_NO_ROW, FALSE);
          etl_details_clear (self->details);
          self->syncing = FALSE;
        }
    }
  update_status (self);
}

static gboolean
condition_matches (const Condition *c, EtlTrace *trace, guint64 row)
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

/* The filter bar's filter (etl_filter_apply()), then the context menu's
 * conditions over the rows it keeps. */
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

      if ((i & 0xFFFF) == 0 && g_task_return_error_if_cancelled (task))
        return;
      for (guint c = 0; c < fd->conditions->len && keep; c++)
        {
          const Condition *cond = g_ptr_array_index (fd->conditions, c);

          keep = condition_matches (cond, fd->trace, row) != cond->exclude;
        }
      if (keep)
        g_array_append_val (kept, row);
    }
  n = kept->len;
  g_task_return_pointer (task, etl_row_set_new_take ((guint64 *) g_array_free (g_steal_pointer (&kept), FALSE), n),
                         (GDestroyNotify) etl_row_set_unref);
}

static void
on_filter_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRowSet) rows = g_task_propagate_pointer (G_TASK (result), &error);

  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (g_task_get_cancellable (G_TASK (result)) != self->filter_cancellable || self->trace == NULL)
    return;
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);
  show_rows (self, rows);
}

static void
apply_filter (EtlWindow *self)
{
  g_autoptr (GTask) task = NULL;
  FilterData *fd;

  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);
  if (self->trace == NULL)
    return;

  if (etl_filter_is_empty (self->filter) && self->conditions->len == 0)
    {
      g_autoptr (EtlRowSet) all = etl_row_set_new_all (etl_trace_get_n_records (self->trace));

      if (self->rows != NULL && !etl_row_set_is_all (self->rows))
        show_rows (self, all);
      return;
    }

  self->filter_cancellable = g_cancellable_new ();
  etl_filter_bar_set_busy (self->filter_bar, TRUE);
  fd = g_new0 (FilterData, 1);
  fd->trace = etl_trace_ref (self->trace);
  fd->filter = self->filter != NULL ? etl_filter_copy (self->filter) : etl_filter_new ();
  fd->conditions = g_ptr_array_ref (self->conditions);
  task = g_task_new (NULL, self->filter_cancellable, on_filter_done, g_object_ref (self));
  g_task_set_source_tag (task, apply_filter);
  g_task_set_task_data (task, fd, filter_data_free);
  etl_worker_run (task, filter_thread);
}

/**
 * etl_window_filter_by_row:
 * @self: a window
 * @field: "provider", "process", "thread" or "event"
 * @exclude: %TRUE to leave out the rows sharing @row's value, %FALSE to keep
 *   only them
 * @row: a row of the trace
 *
 * What the event list's context menu does: adds a condition on @row's
 * provider (by provider index), process id, thread id or event (provider
 * and event name) to the filter and applies it in a worker.  Clear Filter
 * removes the conditions.  A row without a process or thread adds nothing.
 */
void
etl_window_filter_by_row (EtlWindow *self, const char *field, gboolean exclude, guint64 row)
{
  g_autoptr (GError) error = NULL;
  EtlRecord record;
  Condition *c;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (field != NULL);
  if (self->trace == NULL || row >= etl_trace_get_n_records (self->trace))
    return;
  if (!etl_trace_get_record (self->trace, row, &record, &error))
    {
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  c = g_new0 (Condition, 1);
  c->field = g_strdup (field);
  c->exclude = exclude;
  c->provider = etl_trace_get_provider_index (self->trace, row);
  if (g_str_equal (field, "provider"))
    c->name = etl_record_dup_provider_name (&record);
  else if (g_str_equal (field, "process") && record.has_pid)
    {
      c->value = record.pid;
      c->name = g_strdup_printf ("%u", record.pid);
    }
  else if (g_str_equal (field, "thread") && record.has_pid)
    {
      c->value = record.tid;
      c->name = g_strdup_printf ("%u", record.tid);
    }
  else if (g_str_equal (field, "event"))
    c->name = etl_decode_dup_event_name (etl_trace_get_schema_registry (self->trace), &record);
  etl_record_clear (&record);
  if (c->name == NULL)
    {
      condition_free (c);
      return;
    }
  g_ptr_array_add (self->conditions, c);
  apply_filter (self);
  update_status (self);
}

/* A group of the summary activated: keep only its rows (the same rules
 * as the summary's, etl_group_matcher_matches()). */
static void
on_group_activated (EtlGroupView *view, const EtlGroup *group, EtlWindow *self)
{
  Condition *c;

  if (self->trace == NULL || group == NULL || group->parent == NULL)
    return;
  c = g_new0 (Condition, 1);
  c->field = g_strdup ("group");
  c->matcher = etl_group_matcher_new (self->trace, group);
  c->name = g_strdup (etl_group_matcher_get_description (c->matcher));
  g_ptr_array_add (self->conditions, c);
  apply_filter (self);
  update_status (self);
  /* The group's rows: in the Events tab. */
  etl_view_panel_show_view (self->view_panel, "events");
}

static void
on_timeline_range_selected (EtlTimelineView *timeline, gint64 begin, gint64 end, EtlWindow *self)
{
  etl_group_view_set_range (self->group_view, begin, end);
}

static void
on_list_filter_request (EtlEventList *list, const char *field, gboolean exclude, guint64 row, EtlWindow *self)
{
  etl_window_filter_by_row (self, field, exclude, row);
}

static void select_everywhere (EtlWindow *self, guint64 row);

/* A loss point clicked: the event at that time, centred in the timeline. */
static void
on_loss_activated (EtlLossPlot *plot, gint64 filetime, EtlWindow *self)
{
  if (self->trace == NULL || etl_trace_get_n_records (self->trace) == 0)
    return;
  select_everywhere (self, MIN (etl_trace_lower_bound (self->trace, filetime), etl_trace_get_n_records (self->trace) - 1));
}

static void
on_list_show_in_timeline (EtlEventList *list, guint64 row, EtlWindow *self)
{
  self->syncing = TRUE;
  etl_timeline_view_select_row (self->timeline, row, TRUE);
  self->syncing = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static void
on_filter_changed (EtlFilterBar *bar, EtlFilter *filter, EtlWindow *self)
{
  etl_filter_free (self->filter);
  self->filter = etl_filter_copy (filter);
  apply_filter (self);
}

static void
on_list_row_selected (EtlEventList *list, guint64 row, EtlWindow *self)
{
  if (self->syncing || self->trace == NULL)
    return;
  self->syncing = TRUE;
  etl_timeline_view_select_row (self->timeline, row, TRUE);
  etl_details_show_row (self->details, self->trace, row);
  etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (self->trace, row));
  self->syncing = FALSE;
}

static void
on_timeline_event_selected (EtlTimelineView *view, guint64 row, EtlWindow *self)
{
  if (self->syncing || self->trace == NULL)
    return;
  self->syncing = TRUE;
  if (row == ETL_TIMELINE_NO_ROW)
    {
      etl_details_clear (self->details);
      etl_zoom_manager_set_focus (self->zoom_manager, G_MININT64);
    }
  else
    {
      etl_event_list_select_row (self->event_list, row);
      etl_details_show_row (self->details, self->trace, row);
      etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (self->trace, row));
    }
  self->syncing = FALSE;
}

/* ------------------------------------------------------------------------ */
/* Navigation: the selected event, go to time, next of the same event        */
/* ------------------------------------------------------------------------ */

/* Selects @row everywhere: list (the nearest following row the filter
 * keeps), timeline (centred), details; the keyboard zoom centres on it. */
static void
select_everywhere (EtlWindow *self, guint64 row)
{
  guint64 shown;

  if (self->trace == NULL || row >= etl_trace_get_n_records (self->trace))
    return;
  self->syncing = TRUE;
  etl_event_list_select_row (self->event_list, row);
  shown = etl_event_list_get_selected_row (self->event_list);
  if (shown == ETL_EVENT_LIST_NO_ROW)
    shown = row;
  etl_timeline_view_select_row (self->timeline, shown, TRUE);
  etl_details_show_row (self->details, self->trace, shown);
  etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (self->trace, shown));
  self->syncing = FALSE;
}

static guint64
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
    gint64 first = etl_trace_get_first_filetime (self->trace);
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
  g_autofree char *stripped = NULL;
  gint64 filetime, ticks;
  guint64 n, row;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->trace == NULL || (n = etl_trace_get_n_records (self->trace)) == 0)
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
    filetime = etl_trace_get_origin (self->trace) + ticks;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a time since the start (ms, or a number with µs, ms, s, min, h)", stripped);
      return FALSE;
    }
  row = MIN (etl_trace_lower_bound (self->trace, filetime), n - 1);
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
static GtkWidget *
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

static void
go_to_time_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);

  if (self->trace == NULL)
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
  g_autoptr (GTask) task = NULL;
  guint64 row;
  FindData *fd;

  g_return_if_fail (ETL_IS_WINDOW (self));
  row = selected_row (self);
  if (self->trace == NULL || row == ETL_EVENT_LIST_NO_ROW || row >= etl_trace_get_n_records (self->trace))
    return;
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);
  self->find_cancellable = g_cancellable_new ();

  fd = g_new0 (FindData, 1);
  fd->trace = etl_trace_ref (self->trace);
  fd->rows = self->rows != NULL ? etl_row_set_ref (self->rows) : etl_row_set_new_all (etl_trace_get_n_records (self->trace));
  fd->from = row;
  fd->forward = forward;
  task = g_task_new (NULL, self->find_cancellable, on_find_done, g_object_ref (self));
  g_task_set_source_tag (task, etl_window_find_same_event);
  g_task_set_task_data (task, fd, find_data_free);
  etl_worker_run (task, find_thread);
}

static void
find_next_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_find_same_event (ETL_WINDOW (user_data), TRUE);
}

static void
find_previous_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_find_same_event (ETL_WINDOW (user_data), FALSE);
}

/* Markers ------------------------------------------------------------------ */

/* Markers are kept per trace in g_get_user_config_dir()/etlscope/markers.ini
 * (#GKeyFile, written atomically), never beside or inside the trace: one
 * group per trace, named by the SHA-256 of its files' paths and sizes, with
 * the paths for a reader, and two lists: FILETIMEs and names. */

typedef struct
{
  gint64 filetime;
  char *name;
} WindowMarker;

static void
window_marker_clear (gpointer data)
{
  g_free (((WindowMarker *) data)->name);
}

static char *
markers_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "etlscope", "markers.ini", NULL);
}

/* The group naming @trace: its files and their sizes. */
static char *
markers_group (EtlTrace *trace)
{
  g_autoptr (GString) key = g_string_new (NULL);

  for (guint f = 0; f < etl_trace_get_n_files (trace); f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, f);

      g_string_append_printf (key, "%s\n%" G_GUINT64_FORMAT "\n", info->path, info->file_size);
    }
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, key->str, -1);
}

static gint
compare_markers (gconstpointer a, gconstpointer b)
{
  gint64 ta = ((const WindowMarker *) a)->filetime, tb = ((const WindowMarker *) b)->filetime;

  return ta < tb ? -1 : ta > tb;
}

static void
on_marker_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self)
{
  int i = gtk_list_box_row_get_index (row);

  if (i >= 0 && (guint) i < self->markers->len && self->trace != NULL)
    {
      const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);

      select_everywhere (self, MIN (etl_trace_lower_bound (self->trace, m->filetime),
                                    etl_trace_get_n_records (self->trace) - 1));
      gtk_widget_hide (GTK_WIDGET (gtk_menu_button_get_popover (self->markers_button)));
    }
}

/* Shows the markers on the ruler and in the Markers list. */
static void
show_markers (EtlWindow *self)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->markers_list));
  g_autofree gint64 *times = g_new (gint64, self->markers->len + 1);
  g_autofree const char **names = g_new (const char *, self->markers->len + 1);

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; i < self->markers->len; i++)
    {
      const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);
      g_autofree char *when = self->trace != NULL ? etl_time_format_span (m->filetime - etl_trace_get_origin (self->trace))
                                                  : g_strdup ("");
      g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>  <span alpha=\"60%%\">%s</span>", m->name, when);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      g_object_set (label, "margin", 6, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
      times[i] = m->filetime;
      names[i] = m->name;
    }
  if (self->markers->len == 0)
    {
      GtkWidget *label = gtk_label_new ("No markers yet: select an event and press Ctrl+M.");

      g_object_set (label, "margin", 8, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
    }
  etl_time_ruler_set_markers (self->time_ruler, times, names, self->markers->len);
}

static void
load_markers (EtlWindow *self)
{
  g_autofree char *path = markers_path ();
  g_autofree char *group = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) times = NULL;
  g_auto (GStrv) names = NULL;
  gsize n_times = 0, n_names = 0;

  g_array_set_size (self->markers, 0);
  if (self->trace != NULL && g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    {
      group = markers_group (self->trace);
      times = g_key_file_get_string_list (kf, group, "filetimes", &n_times, NULL);
      names = g_key_file_get_string_list (kf, group, "names", &n_names, NULL);
      for (gsize i = 0; i < MIN (n_times, n_names) && i < 10000; i++)
        {
          WindowMarker m = { g_ascii_strtoll (times[i], NULL, 10), g_strdup (names[i]) };

          g_array_append_val (self->markers, m);
        }
      g_array_sort (self->markers, compare_markers);
    }
  show_markers (self);
}

static gboolean
save_markers (EtlWindow *self, GError **error)
{
  g_autofree char *path = markers_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *group = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) files = g_string_new (NULL);

  if (self->trace == NULL)
    return TRUE;
  g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  group = markers_group (self->trace);
  g_key_file_remove_group (kf, group, NULL);
  if (self->markers->len > 0)
    {
      for (guint i = 0; i < self->markers->len; i++)
        {
          const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);

          g_ptr_array_add (times, g_strdup_printf ("%" G_GINT64_FORMAT, m->filetime));
          g_ptr_array_add (names, m->name);
        }
      for (guint f = 0; f < etl_trace_get_n_files (self->trace); f++)
        g_string_append_printf (files, "%s%s", f > 0 ? " | " : "", etl_trace_get_file_info (self->trace, f)->path);
      g_key_file_set_string (kf, group, "files", files->str);
      g_key_file_set_string_list (kf, group, "filetimes", (const char *const *) times->pdata, times->len);
      g_key_file_set_string_list (kf, group, "names", (const char *const *) names->pdata, names->len);
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, path, error);
}

/**
 * etl_window_add_marker:
 * @self: a window
 * @filetime: where, FILETIME
 * @name: the marker's name
 *
 * Adds a named marker, shows it on the ruler and in the Markers list, and
 * keeps it for this trace (g_get_user_config_dir()/etlscope/markers.ini).
 */
void
etl_window_add_marker (EtlWindow *self, gint64 filetime, const char *name)
{
  g_autoptr (GError) error = NULL;
  WindowMarker m;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (name != NULL);
  if (self->trace == NULL)
    return;
  m.filetime = filetime;
  m.name = g_strdup (name);
  g_array_append_val (self->markers, m);
  g_array_sort (self->markers, compare_markers);
  show_markers (self);
  if (!save_markers (self, &error))
    show_message (self, GTK_MESSAGE_WARNING, error->message);
}

/**
 * etl_window_get_n_markers:
 * @self: a window
 *
 * Returns: markers of the trace shown
 */
guint
etl_window_get_n_markers (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return self->markers->len;
}

/**
 * etl_window_get_marker:
 * @self: a window
 * @i: a marker, in time order
 * @filetime: (out) (optional): where it is
 *
 * Returns: (transfer none) (nullable): its name
 */
const char *
etl_window_get_marker (EtlWindow *self, guint i, gint64 *filetime)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  if (i >= self->markers->len)
    return NULL;
  if (filetime != NULL)
    *filetime = g_array_index (self->markers, WindowMarker, i).filetime;
  return g_array_index (self->markers, WindowMarker, i).name;
}

static void
on_marker_response (GtkDialog *dialog, int response, EtlWindow *self)
{
  if (response == GTK_RESPONSE_OK)
    {
      GtkEntry *entry = g_object_get_data (G_OBJECT (dialog), "entry");
      gint64 *at = g_object_get_data (G_OBJECT (dialog), "filetime");
      const char *name = gtk_entry_get_text (entry);

      etl_window_add_marker (self, *at, name[0] != '\0' ? name : "Marker");
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
add_marker_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  g_autofree char *name = NULL;
  guint64 row;
  gint64 *at;
  GtkWidget *dialog;

  if (self->trace == NULL)
    return;
  at = g_new (gint64, 1);
  row = selected_row (self);
  if (row != ETL_EVENT_LIST_NO_ROW && row < etl_trace_get_n_records (self->trace))
    *at = etl_trace_get_filetime (self->trace, row);
  else
    {
      gint64 b, e;

      etl_zoom_manager_get_visible (self->zoom_manager, &b, &e);
      *at = b + (e - b) / 2;
    }
  name = g_strdup_printf ("Marker %u", self->markers->len + 1);
  dialog = entry_dialog (self, "Add a Marker", "A name for the marker at the selected event:", name, "_Add",
                         G_CALLBACK (on_marker_response));
  g_object_set_data_full (G_OBJECT (dialog), "filetime", at, g_free);
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
  guint64 n, lo, hi;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  if (self->trace == NULL || (n = etl_trace_get_n_records (self->trace)) == 0)
    return FALSE;
  lo = n / 2000;
  hi = n - 1 - n / 2000;
  *begin = etl_trace_get_filetime (self->trace, lo);
  *end = MAX (etl_trace_get_filetime (self->trace, hi) + 1, *begin + 1);
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
 *
 * Returns: (transfer none) (nullable): the dialog, or %NULL when the trace
 *   has no stacks
 */
GtkWidget *
etl_window_show_stacks (EtlWindow *self)
{
  gint64 begin, end;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *range = NULL;
  GtkWidget *dialog;

  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  if (self->trace == NULL || self->stacks == NULL)
    {
      show_message (self, GTK_MESSAGE_INFO, "This trace has no stacks (no StackWalk records).");
      return NULL;
    }
  etl_window_get_export_range (self, &begin, &end);
  from = etl_time_format_span (begin - etl_trace_get_origin (self->trace));
  to = etl_time_format_span (end - etl_trace_get_origin (self->trace));
  range = g_strdup_printf ("%s – %s", from, to);
  dialog = etl_stacks_dialog_new (GTK_WINDOW (self), self->stacks, begin, end, range);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (dialog);
  return dialog;
}

static void
stacks_summary_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_show_stacks (ETL_WINDOW (user_data));
}

static void
zoom_to_data_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_zoom_to_data (ETL_WINDOW (user_data));
}


/* ------------------------------------------------------------------------ */
/* Export                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  gint64 from;
  gint64 to;
  char *path;
  Progress *progress;
  EtlWriterStats stats;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *ed = data;

  etl_trace_unref (ed->trace);
  g_clear_pointer (&ed->rows, etl_row_set_unref);
  g_free (ed->path);
  progress_unref (ed->progress);
  g_free (ed);
}

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
  if (etl_writer_write_slice (ed->trace, &options, ed->path, on_progress, ed->progress, cancellable, &ed->stats,
                              &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  ExportData *ed = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->export_cancellable)
    return;
  stop_progress (self);
  g_clear_object (&self->export_cancellable);
  update_actions (self);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          message = g_strdup_printf ("Export to %s failed: %s", ed->path, error->message);
          show_message (self, GTK_MESSAGE_ERROR, message);
        }
      return;
    }
  message = g_strdup_printf ("Exported %'" G_GUINT64_FORMAT " records (%'" G_GUINT64_FORMAT " bytes) to %s",
                             ed->stats.n_records, ed->stats.file_size, ed->path);
  show_message (self, GTK_MESSAGE_INFO, message);
}

/**
 * etl_window_get_export_range:
 * @self: a window
 * @begin: (out): start, FILETIME
 * @end: (out): end (exclusive), FILETIME
 *
 * The range File ▸ Export Selection writes: the timeline's selected range,
 * else the visible range.
 */
void
etl_window_get_export_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  if (!etl_timeline_view_get_selection (self->timeline, begin, end))
    etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
}

/**
 * etl_window_export_selection:
 * @self: a window
 * @path: (type filename): the .etl file to write
 *
 * Writes the records of the export range (etl_window_get_export_range())
 * that the current filter keeps to @path with etl_writer_write_slice(), in
 * a worker with progress.  The outcome is shown in the info bar.
 */
void
etl_window_export_selection (EtlWindow *self, const char *path)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *base = NULL;
  g_autofree char *label = NULL;
  ExportData *ed;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);
  if (self->trace == NULL)
    return;

  cancel_jobs (self);
  ed = g_new0 (ExportData, 1);
  ed->trace = etl_trace_ref (self->trace);
  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    ed->rows = etl_row_set_ref (self->rows);
  etl_window_get_export_range (self, &ed->from, &ed->to);
  ed->path = g_strdup (path);
  ed->progress = progress_new ();

  base = g_path_get_basename (path);
  label = g_strdup_printf ("Exporting %s…", base);
  self->export_cancellable = g_cancellable_new ();
  start_progress (self, label, ed->progress);
  update_actions (self);

  task = g_task_new (self, self->export_cancellable, on_export_done, NULL);
  g_task_set_source_tag (task, etl_window_export_selection);
  g_task_set_task_data (task, ed, export_data_free);
  etl_worker_run (task, export_thread);
}

typedef struct
{
  GOutputStream *stream;
  GError *error;
} WriteStream;

static cairo_status_t
write_to_stream (void *closure, const unsigned char *data, unsigned int length)
{
  WriteStream *ws = closure;

  if (ws->error != NULL || !g_output_stream_write_all (ws->stream, data, length, NULL, NULL, &ws->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/**
 * etl_window_export_image:
 * @self: a window
 * @path: (type filename): the file to write; its extension picks the format:
 *   .svg, .pdf, else PNG
 * @error: return location for a #GError
 *
 * Draws the visible part of the timeline — time ruler, lanes and loss plot,
 * at their size on screen — into a cairo image, SVG or PDF surface.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_window_export_image (EtlWindow *self, const char *path, GError **error)
{
  GtkWidget *parts[3];
  int heights[3], width, total = 0;
  g_autofree char *lower = NULL;
  g_autoptr (GFile) file = NULL;
  WriteStream ws = { NULL, NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gboolean png;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  parts[0] = GTK_WIDGET (self->time_ruler);
  parts[1] = GTK_WIDGET (self->timeline);
  parts[2] = GTK_WIDGET (self->loss_plot);
  width = MAX (gtk_widget_get_allocated_width (parts[1]), 400);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      heights[i] = MAX (gtk_widget_get_allocated_height (parts[i]), 1);
      if (i == 1 && heights[i] < 100)
        heights[i] = 400;
      total += heights[i];
    }

  /* Written through g_file_replace(): a temporary file renamed over @path
   * on success, so an interrupted export leaves the old file intact. */
  file = g_file_new_for_path (path);
  ws.stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error));
  if (ws.stream == NULL)
    return FALSE;

  lower = g_ascii_strdown (path, -1);
  png = FALSE;
  if (g_str_has_suffix (lower, ".svg"))
    surface = cairo_svg_surface_create_for_stream (write_to_stream, &ws, width, total);
  else if (g_str_has_suffix (lower, ".pdf"))
    surface = cairo_pdf_surface_create_for_stream (write_to_stream, &ws, width, total);
  else
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, total);
      png = TRUE;
    }
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_save (cr);
  etl_time_ruler_render (self->time_ruler, cr, width, heights[0]);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_translate (cr, 0, heights[0]);
  cairo_rectangle (cr, 0, 0, width, heights[1]);
  cairo_clip (cr);
  etl_timeline_view_render (self->timeline, cr, width, heights[1]);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_translate (cr, 0, heights[0] + heights[1]);
  etl_loss_plot_render (self->loss_plot, cr, width, heights[2]);
  cairo_restore (cr);
  cairo_destroy (cr);

  cairo_surface_flush (surface);
  if (png)
    status = cairo_surface_write_to_png_stream (surface, write_to_stream, &ws);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS || ws.error != NULL)
    {
      g_autoptr (GCancellable) abandon = g_cancellable_new ();

      /* A cancelled close keeps the original file and drops the temporary one. */
      g_cancellable_cancel (abandon);
      g_output_stream_close (ws.stream, abandon, NULL);
      g_object_unref (ws.stream);
      if (ws.error != NULL)
        g_propagate_prefixed_error (error, ws.error, "%s: ", path);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  if (!g_output_stream_close (ws.stream, NULL, error))
    {
      g_object_unref (ws.stream);
      return FALSE;
    }
  g_object_unref (ws.stream);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Actions: File menu                                                        */
/* ------------------------------------------------------------------------ */

static GtkFileFilter *
etl_file_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, "Event trace logs (*.etl)");
  gtk_file_filter_add_pattern (filter, "*.etl");
  gtk_file_filter_add_pattern (filter, "*.ETL");
  return filter;
}

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  EtlWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      GSList *files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (GSList *l = files; l != NULL; l = l->next)
        g_ptr_array_add (array, l->data);
      g_slist_free (files);
      if (array->len > 0)
        etl_window_open_files (self, (GFile **) array->pdata, array->len);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

/**
 * etl_window_show_open_dialog:
 * @self: a window
 *
 * Shows a #GtkFileChooserNative for one or more .etl files.
 */
void
etl_window_show_open_dialog (EtlWindow *self)
{
  GtkFileChooserNative *dialog;
  GtkFileFilter *all;

  g_return_if_fail (ETL_IS_WINDOW (self));

  dialog = gtk_file_chooser_native_new ("Open Trace Files", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                        "_Open", "_Cancel");
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), etl_file_filter ());
  all = gtk_file_filter_new ();
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Manifests --------------------------------------------------------------- */

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

  etl_trace_unref (md->trace);
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

static void
on_manifest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  ManifestData *md = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_path_get_basename (md->path);
  g_autofree char *message = NULL;
  guint64 selected;

  if (g_task_get_cancellable (G_TASK (result)) != self->manifest_cancellable)
    return;
  g_clear_object (&self->manifest_cancellable);
  update_status (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (!g_ptr_array_find_with_equal_func (self->manifests, md->path, g_str_equal, NULL))
    g_ptr_array_add (self->manifests, g_strdup (md->path));
  etl_details_add_manifest (self->details, md->path, md->info.provider_names);
  if (md->trace != self->trace)
    return;

  /* Names, processes and payloads read anew: the list's formatted rows,
   * the details, and a text filter that may match differently now. */
  etl_event_list_refresh (self->event_list);
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
  selected = etl_event_list_get_selected_row (self->event_list);
  if (selected != ETL_EVENT_LIST_NO_ROW)
    etl_details_show_row (self->details, self->trace, selected);
  if (self->filter != NULL && self->filter->text != NULL && self->filter->text[0] != '\0')
    apply_filter (self);

  message = g_strdup_printf ("%s: %u event%s of %u provider%s described%s", base, md->info.n_events,
                             md->info.n_events == 1 ? "" : "s", md->info.n_providers,
                             md->info.n_providers == 1 ? "" : "s",
                             md->info.n_warnings > 0 ? " (with warnings)" : "");
  show_message (self, md->info.n_warnings > 0 ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO, message);
}

/**
 * etl_window_load_manifest:
 * @self: a window
 * @path: an instrumentation manifest (.man or .xml)
 *
 * File ▸ Load Manifest…: registers the events @path describes with the
 * trace shown (etl_trace_load_manifest(), in a worker), then shows the new
 * names in the list, the details and the timeline's tooltips.  Traces
 * opened later in this window use the manifest too.  Errors go to the info
 * bar; see etl_window_get_busy().
 */
void
etl_window_load_manifest (EtlWindow *self, const char *path)
{
  g_autoptr (GTask) task = NULL;
  ManifestData *md;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->trace == NULL)
    {
      /* Nothing open: the next trace opened gets it. */
      if (!g_ptr_array_find_with_equal_func (self->manifests, path, g_str_equal, NULL))
        g_ptr_array_add (self->manifests, g_strdup (path));
      return;
    }
  if (self->manifest_cancellable != NULL)
    g_cancellable_cancel (self->manifest_cancellable);
  g_clear_object (&self->manifest_cancellable);
  self->manifest_cancellable = g_cancellable_new ();
  md = g_new0 (ManifestData, 1);
  md->trace = etl_trace_ref (self->trace);
  md->path = g_strdup (path);
  task = g_task_new (NULL, self->manifest_cancellable, on_manifest_done, g_object_ref (self));
  g_task_set_source_tag (task, etl_window_load_manifest);
  g_task_set_task_data (task, md, manifest_data_free);
  etl_worker_run (task, manifest_thread);
}

static void
on_manifest_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  EtlWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        etl_window_load_manifest (self, path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
load_manifest_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;
  g_autofree char *dir = etl_manifest_dup_user_dir ();

  dialog = gtk_file_chooser_native_new ("Load Manifest", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, "_Load",
                                        "_Cancel");
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "Instrumentation manifests (*.man, *.xml)");
  gtk_file_filter_add_pattern (filter, "*.man");
  gtk_file_filter_add_pattern (filter, "*.MAN");
  gtk_file_filter_add_pattern (filter, "*.xml");
  gtk_file_filter_add_pattern (filter, "*.XML");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "All files");
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), dir);
  g_signal_connect (dialog, "response", G_CALLBACK (on_manifest_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_show_open_dialog (ETL_WINDOW (user_data));
}

static void
open_files_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autofree const char **uris = g_variant_get_strv (param, NULL);

  open_uris (ETL_WINDOW (user_data), uris);
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autofree const char **uris = g_variant_get_strv (param, NULL);

  open_uris (ETL_WINDOW (user_data), uris);
}

static void
open_demo_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_open_demo (ETL_WINDOW (user_data));
}

static void
close_trace_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_close_trace (ETL_WINDOW (user_data));
}

static void
cancel_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_cancel (ETL_WINDOW (user_data));
}

static char *
suggested_name (EtlWindow *self, const char *suffix)
{
  g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (self->trace, 0)->path);
  char *dot = strrchr (base, '.');

  if (dot != NULL)
    *dot = '\0';
  return g_strconcat (base, suffix, NULL);
}

typedef void (*SaveFunc) (EtlWindow *self, const char *path);

typedef struct
{
  EtlWindow *self;
  SaveFunc save;
} SaveRequest;

static void
on_save_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  SaveRequest *request = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        request->save (request->self, path);
    }
  g_object_unref (dialog);
  g_object_unref (request->self);
  g_free (request);
}

/* A save dialog named after the trace ("net-selection.etl"); @save gets the
 * chosen path.  @filters: name and pattern pairs, NULL-terminated. */
static void
ask_save_path (EtlWindow *self, const char *title, const char *suffix, const char *const *filters, SaveFunc save)
{
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;
  SaveRequest *request;

  if (self->trace == NULL)
    return;
  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  for (guint i = 0; filters[i] != NULL && filters[i + 1] != NULL; i += 2)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, filters[i]);
      gtk_file_filter_add_pattern (filter, filters[i + 1]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  name = suggested_name (self, suffix);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  request = g_new0 (SaveRequest, 1);
  request->self = g_object_ref (self);
  request->save = save;
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_selection_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *const filters[] = { "Event trace logs (*.etl)", "*.etl", NULL };

  ask_save_path (ETL_WINDOW (user_data), "Export Selection as .etl", "-selection.etl", filters,
                 etl_window_export_selection);
}

static void
save_image (EtlWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  if (!etl_window_export_image (self, path, &error))
    show_message (self, GTK_MESSAGE_ERROR, error->message);
}

static void
export_image_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *const filters[] = {
    "PNG image (*.png)", "*.png",
    "SVG drawing (*.svg)", "*.svg",
    "PDF document (*.pdf)", "*.pdf",
    NULL
  };

  ask_save_path (ETL_WINDOW (user_data), "Export Timeline Image", "-timeline.png", filters, save_image);
}

/* ------------------------------------------------------------------------ */
/* Actions: View menu                                                        */
/* ------------------------------------------------------------------------ */

static void
find_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_filter_bar_focus (ETL_WINDOW (user_data)->filter_bar);
}

static void
clear_filter_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);

  if (self->conditions->len > 0)
    {
      g_ptr_array_set_size (self->conditions, 0);
      apply_filter (self);
      update_status (self);
    }
  etl_filter_bar_set_filter (self->filter_bar, NULL);
}

static void
show_session_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;

  gtk_widget_set_visible (GTK_WIDGET (self->session_box), g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

static void
show_menu_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = user_data;

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->menu_button),
                                !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->menu_button)));
}

static void
update_actions (EtlWindow *self)
{
  static const char *const need_trace[] = { "close-trace", "export-selection", "export-image", "find",
                                            "clear-filter", "go-to-time", "find-next", "find-previous",
                                            "add-marker", "zoom-to-data", "load-manifest",
                                            "stacks-summary" };
  gboolean busy = self->load_cancellable != NULL || self->export_cancellable != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (need_trace); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), need_trace[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->trace != NULL);
    }
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "cancel")), busy);
  /* Zoom and lanes mean nothing on the start page. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->zoom_box), self->trace != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lane_box), self->trace != NULL);
}

/* ------------------------------------------------------------------------ */
/* Drag and drop                                                            */
/* ------------------------------------------------------------------------ */

static void
on_drag_data_received (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data,
                       guint info, guint time, EtlWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);

  if (uris != NULL && uris[0] != NULL)
    {
      open_uris (self, (const char *const *) uris);
      gtk_drag_finish (context, TRUE, FALSE, time);
    }
  else
    gtk_drag_finish (context, FALSE, FALSE, time);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */
/* ------------------------------------------------------------------------ */

static void
on_session_stopped (EtlSessionPanel *panel, const char *path, EtlWindow *self)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  etl_window_open_files (self, &file, 1);
}

static void
on_info_bar_response (GtkInfoBar *info_bar, int response, EtlWindow *self)
{
  gtk_widget_hide (GTK_WIDGET (info_bar));
}

static void
etl_window_dispose (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  if (!self->state_saved && self->paned != NULL)
    {
      self->state_saved = TRUE;
      etl_window_save_state (self, NULL);
    }
  /* No widget calls here: dispose runs again after the children are gone. */
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, progress_unref);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  if (self->manifest_cancellable != NULL)
    g_cancellable_cancel (self->manifest_cancellable);
  g_clear_object (&self->manifest_cancellable);
  if (self->recent_manager != NULL)
    g_signal_handlers_disconnect_by_data (self->recent_manager, self);
  g_clear_object (&self->recent_manager);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_clear_pointer (&self->filter, etl_filter_free);
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);

  G_OBJECT_CLASS (etl_window_parent_class)->dispose (object);
}

static void
etl_window_finalize (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  g_clear_object (&self->zoom_manager);
  g_clear_object (&self->recent_menu);
  g_free (self->progress_label);
  g_clear_pointer (&self->manifests, g_ptr_array_unref);
  g_clear_pointer (&self->markers, g_array_unref);
  g_clear_pointer (&self->conditions, g_ptr_array_unref);

  G_OBJECT_CLASS (etl_window_parent_class)->finalize (object);
}

static void
etl_window_class_init (EtlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_window_dispose;
  object_class->finalize = etl_window_finalize;

  g_type_ensure (ETL_TYPE_TIME_RULER);
  g_type_ensure (ETL_TYPE_TIMELINE_VIEW);
  g_type_ensure (ETL_TYPE_LOSS_PLOT);
  g_type_ensure (ETL_TYPE_CPU_GRAPH);
  g_type_ensure (ETL_TYPE_FILTER_BAR);
  g_type_ensure (ETL_TYPE_EVENT_LIST);
  g_type_ensure (ETL_TYPE_DETAILS);
  g_type_ensure (ETL_TYPE_VIEW_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/etlscope/Etlscope/ui/etl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, lane_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, session_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, progress_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_title);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, trace_paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, timeline_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, view_panel);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, events_paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, time_ruler);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, loss_plot);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, cpu_graph);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, details);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_info_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_list_row_selected);
}

static void
etl_window_init (EtlWindow *self)
{
  /* Grouped as in the menus: File, View, Export. */
  static const GActionEntry entries[] = {
    { "open", open_action },
    { "open-files", open_files_action, "as" },
    { "open-recent", open_recent_action, "as" },
    { "open-demo", open_demo_action },
    { "load-manifest", load_manifest_action },
    { "close-trace", close_trace_action },
    { "cancel", cancel_action },

    { "find", find_action },
    { "clear-filter", clear_filter_action },
    { "show-session", NULL, NULL, "true", show_session_change_state },
    { "show-view", show_view_action, "i" },
    { "maximize-panel", NULL, NULL, "false", maximize_panel_change_state },
    { "show-details", NULL, NULL, "true", show_details_change_state },
    { "show-menu", show_menu_action },

    { "go-to-time", go_to_time_action },
    { "find-next", find_next_action },
    { "find-previous", find_previous_action },
    { "add-marker", add_marker_action },
    { "zoom-to-data", zoom_to_data_action },
    { "stacks-summary", stacks_summary_action },

    { "export-selection", export_selection_action },
    { "export-image", export_image_action },
  };
  g_autoptr (GPropertyAction) utc = NULL;
  GActionGroup *timeline_actions;
  GtkApplication *app;

  self->handle_size = -1;
  self->conditions = g_ptr_array_new_with_free_func (condition_free);
  self->manifests = g_ptr_array_new_with_free_func (g_free);
  self->markers = g_array_new (FALSE, FALSE, sizeof (WindowMarker));
  g_array_set_clear_func (self->markers, window_marker_clear);
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The provider colour legend, under the timeline. */
  {
    /* The timeline sits in its own scrolled pane; the legend goes into the
     * box of tracks around that pane, right under it. */
    GtkWidget *parent = gtk_widget_get_ancestor (GTK_WIDGET (self->timeline), GTK_TYPE_BOX);

    /* One line, most frequent first; scrolls sideways when narrow. */
    self->legend_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 14));
    g_object_set (self->legend_box, "margin-start", 8, "margin-end", 8, "margin-top", 2, "margin-bottom", 2, NULL);
    gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->legend_box)), "provider-legend");
    gtk_widget_show (GTK_WIDGET (self->legend_box));
    self->legend_scroller = gtk_scrolled_window_new (NULL, NULL);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->legend_scroller), GTK_POLICY_AUTOMATIC,
                                    GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->legend_scroller), TRUE);
    gtk_container_add (GTK_CONTAINER (self->legend_scroller), GTK_WIDGET (self->legend_box));
    if (GTK_IS_BOX (parent))
      {
        gtk_box_pack_start (GTK_BOX (parent), self->legend_scroller, FALSE, FALSE, 0);
        gtk_box_reorder_child (GTK_BOX (parent), self->legend_scroller, 1);
      }
  }

  /* Markers: a header bar button with the list in a popover. */
  {
    GtkWidget *popover, *scroller, *box, *title;

    self->markers_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
    gtk_button_set_image (GTK_BUTTON (self->markers_button),
                          gtk_image_new_from_icon_name ("user-bookmarks-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->markers_button), "Markers (Ctrl+M adds one at the selected event)");
    popover = gtk_popover_new (GTK_WIDGET (self->markers_button));
    box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
    g_object_set (box, "margin", 8, NULL);
    title = gtk_label_new (NULL);
    gtk_label_set_markup (GTK_LABEL (title), "<b>Markers</b>");
    gtk_label_set_xalign (GTK_LABEL (title), 0);
    scroller = gtk_scrolled_window_new (NULL, NULL);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
    gtk_widget_set_size_request (scroller, 280, -1);
    self->markers_list = GTK_LIST_BOX (gtk_list_box_new ());
    g_signal_connect_object (self->markers_list, "row-activated", G_CALLBACK (on_marker_row_activated), self, 0);
    gtk_container_add (GTK_CONTAINER (scroller), GTK_WIDGET (self->markers_list));
    gtk_container_add (GTK_CONTAINER (box), title);
    gtk_container_add (GTK_CONTAINER (box), scroller);
    gtk_widget_show_all (box);
    gtk_container_add (GTK_CONTAINER (popover), box);
    gtk_menu_button_set_popover (self->markers_button, popover);
    gtk_widget_show (GTK_WIDGET (self->markers_button));
    gtk_header_bar_pack_end (self->header_bar, GTK_WIDGET (self->markers_button));
  }

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  utc = g_property_action_new ("utc", self->time_ruler, "utc");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (utc));

  self->session_panel = ETL_SESSION_PANEL (etl_session_panel_new ());
  gtk_widget_show_all (GTK_WIDGET (self->session_panel));
  /* The panel is one column that scrolls up and down by itself and fits a
   * pane of about 400 px. */
  gtk_box_pack_start (self->session_box, GTK_WIDGET (self->session_panel), TRUE, TRUE, 0);
  g_signal_connect_object (self->session_panel, "session-stopped", G_CALLBACK (on_session_stopped), self, 0);

  self->zoom_manager = etl_zoom_manager_new ();
  etl_time_ruler_set_zoom_manager (self->time_ruler, self->zoom_manager);
  etl_timeline_view_set_zoom_manager (self->timeline, self->zoom_manager);
  etl_loss_plot_set_zoom_manager (self->loss_plot, self->zoom_manager);
  etl_cpu_graph_set_zoom_manager (self->cpu_graph, self->zoom_manager);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "zoom", G_ACTION_GROUP (self->zoom_manager));

  /* The timeline's own actions (zoom-to-selection, lane-mode), reachable
   * from the header bar and the accelerators too. */
  timeline_actions = gtk_widget_get_action_group (GTK_WIDGET (self->timeline), "timeline");
  if (timeline_actions != NULL)
    gtk_widget_insert_action_group (GTK_WIDGET (self), "timeline", timeline_actions);
  g_signal_connect_object (self->timeline, "event-selected", G_CALLBACK (on_timeline_event_selected), self, 0);
  /* A process has the same colour in the CPU lanes as in the usage graph. */
  etl_timeline_view_set_process_color_func (self->timeline, process_color_cb,
                                            self->cpu_graph, NULL);
  g_signal_connect_object (self->cpu_graph, "series-changed", G_CALLBACK (gtk_widget_queue_draw), self->timeline,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->loss_plot, "loss-activated", G_CALLBACK (on_loss_activated), self, 0);
  g_signal_connect_object (self->event_list, "filter-request", G_CALLBACK (on_list_filter_request), self, 0);

  /* The bottom panel: Events (from the template), then Summary. */
  etl_view_panel_set_page_id (self->view_panel, GTK_WIDGET (self->events_paned), "events");
  self->group_view = ETL_GROUP_VIEW (etl_group_view_new ());
  etl_window_add_view_tab (self, "summary", "Summary", GTK_WIDGET (self->group_view));
  g_signal_connect_object (self->group_view, "group-activated", G_CALLBACK (on_group_activated), self, 0);
  g_signal_connect_object (self->timeline, "range-selected", G_CALLBACK (on_timeline_range_selected), self, 0);
  g_signal_connect (self->trace_paned, "size-allocate", G_CALLBACK (on_trace_paned_allocated), self);
  g_signal_connect_object (self->details, "notify::has-event", G_CALLBACK (on_details_has_event), self, 0);
  g_signal_connect_object (self->event_list, "show-in-timeline", G_CALLBACK (on_list_show_in_timeline), self, 0);

  self->recent_menu = g_menu_new ();
  gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (self->recent_menu));
  self->recent_manager = g_object_ref (gtk_recent_manager_get_default ());
  g_signal_connect_object (self->recent_manager, "changed", G_CALLBACK (rebuild_recent), self, G_CONNECT_SWAPPED);
  rebuild_recent (self);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, NULL, 0, GDK_ACTION_COPY);
  gtk_drag_dest_add_uri_targets (GTK_WIDGET (self));
  g_signal_connect (self, "drag-data-received", G_CALLBACK (on_drag_data_received), self);

  gtk_stack_set_visible_child_name (self->stack, "start");
  load_state (self);
  update_status (self);
  update_actions (self);

  app = GTK_APPLICATION (g_application_get_default ());
  if (app != NULL)
    {
      GMenu *menu = gtk_application_get_menu_by_id (app, "primary_menu");

      if (menu != NULL)
        gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
    }
}

/**
 * etl_window_new:
 * @application: (nullable): the application
 *
 * Returns: (transfer none): a new window showing the start page
 */
EtlWindow *
etl_window_new (GtkApplication *application)
{
  return g_object_new (ETL_TYPE_WINDOW, "application", application, NULL);
}

/* ------------------------------------------------------------------------ */
/* Accessors (tests, application)                                           */
/* ------------------------------------------------------------------------ */

/**
 * etl_window_get_loading:
 * @self: a window
 *
 * Returns: whether files are being loaded (or the demo generated)
 */
gboolean
etl_window_get_loading (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL;
}

/**
 * etl_window_get_busy:
 * @self: a window
 *
 * Returns: whether a load, a filter, a sort of the list or an export is
 *   running
 */
gboolean
etl_window_get_busy (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL || self->filter_cancellable != NULL || self->export_cancellable != NULL
         || self->manifest_cancellable != NULL || self->find_cancellable != NULL
         || etl_event_list_get_sorting (self->event_list);
}

/**
 * etl_window_get_trace:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the trace shown
 */
EtlTrace *
etl_window_get_trace (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->trace;
}

/**
 * etl_window_get_rows:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the rows the filter keeps; %NULL
 *   before any filter ran (every row)
 */
EtlRowSet *
etl_window_get_rows (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->rows;
}

/**
 * etl_window_get_zoom_manager:
 * @self: a window
 *
 * Returns: (transfer none): the visible range shared by the trace area
 */
EtlZoomManager *
etl_window_get_zoom_manager (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_window_get_timeline:
 * @self: a window
 *
 * Returns: (transfer none): the timeline
 */
EtlTimelineView *
etl_window_get_timeline (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->timeline;
}

/**
 * etl_window_get_event_list:
 * @self: a window
 *
 * Returns: (transfer none): the event list
 */
EtlEventList *
etl_window_get_event_list (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->event_list;
}

/**
 * etl_window_add_view_tab:
 * @self: a window
 * @id: the view's id, kept in state.ini as the tab last shown (e.g.
 *   "cpu-precise"); unique among the tabs
 * @title: the tab's text (e.g. "CPU Usage (Precise)")
 * @widget: (transfer floating): the view
 *
 * Adds a view to the bottom panel as its last tab: Alt+N shows the Nth tab.
 * The window's own tabs are "events" (Alt+1) and "summary" (Alt+2).
 */
void
etl_window_add_view_tab (EtlWindow *self, const char *id, const char *title, GtkWidget *widget)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  etl_view_panel_add_view (self->view_panel, id, title, widget);
}

/**
 * etl_window_show_view_tab:
 * @self: a window
 * @id: a view's id ("events", "summary", …)
 *
 * Returns: %FALSE when the panel has no such tab (nothing changes)
 */
gboolean
etl_window_show_view_tab (EtlWindow *self, const char *id)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_view_panel_show_view (self->view_panel, id);
}

/**
 * etl_window_get_view_tab:
 * @self: a window
 *
 * Returns: (nullable): the id of the tab shown in the bottom panel
 */
const char *
etl_window_get_view_tab (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_view_panel_get_view (self->view_panel);
}

/**
 * etl_window_get_view_panel:
 * @self: a window
 *
 * Returns: (transfer none): the bottom panel of tabs
 */
EtlViewPanel *
etl_window_get_view_panel (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->view_panel;
}

/**
 * etl_window_get_panel_height:
 * @self: a window
 *
 * Returns: the bottom panel's height in pixels, as laid out; while it is
 *   maximised or before it is shown, the height it returns to (0 when not
 *   known yet)
 */
int
etl_window_get_panel_height (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);

  if (self->panel_sized && !panel_maximized (self) && gtk_widget_get_mapped (GTK_WIDGET (self->view_panel)))
    return gtk_widget_get_allocated_height (GTK_WIDGET (self->view_panel));
  return self->panel_height;
}

/**
 * etl_window_set_panel_height:
 * @self: a window
 * @height: pixels
 *
 * Moves the handle between the lanes and the bottom panel so the panel is
 * @height pixels high (the lanes keep their minimum), as a drag would.
 */
void
etl_window_set_panel_height (EtlWindow *self, int height)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (height > 0);
  apply_panel_height (self, height);
}

/**
 * etl_window_get_group_view:
 * @self: a window
 *
 * Returns: (transfer none): the grouped summary (the Summary tab)
 */
EtlGroupView *
etl_window_get_group_view (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->group_view;
}

/**
 * etl_window_get_filter_bar:
 * @self: a window
 *
 * Returns: (transfer none): the filter bar
 */
EtlFilterBar *
etl_window_get_filter_bar (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->filter_bar;
}

/**
 * etl_window_get_details:
 * @self: a window
 *
 * Returns: (transfer none): the details pane
 */
EtlDetails *
etl_window_get_details (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->details;
}

/**
 * etl_window_get_page:
 * @self: a window
 *
 * Returns: (transfer none): "start" or "trace", the page shown
 */
const char *
etl_window_get_page (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * etl_window_get_n_lanes:
 * @self: a window
 *
 * Returns: lanes in the timeline
 */
guint
etl_window_get_n_lanes (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_timeline_view_get_n_lanes (self->timeline);
}

/**
 * etl_window_get_n_loss_files:
 * @self: a window
 *
 * Returns: files in the loss plot's legend
 */
guint
etl_window_get_n_loss_files (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_loss_plot_get_n_files (self->loss_plot);
}

/**
 * etl_window_get_loss_totals:
 * @self: a window
 * @file: file index
 * @events_lost: (out) (optional): EventsLost shown in the legend
 * @buffers_lost: (out) (optional): BuffersLost shown in the legend
 *
 * Returns: %FALSE when the legend has no such file
 */
gboolean
etl_window_get_loss_totals (EtlWindow *self, guint file, guint64 *events_lost, guint64 *buffers_lost)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_loss_plot_get_legend_totals (self->loss_plot, file, events_lost, buffers_lost);
}

/**
 * etl_window_dup_loss_legend:
 * @self: a window
 * @file: file index
 *
 * Returns: (transfer full) (nullable): the loss plot's legend text for @file
 */
char *
etl_window_dup_loss_legend (EtlWindow *self, guint file)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_loss_plot_dup_legend_text (self->loss_plot, file);
}

/**
 * etl_window_get_session_panel:
 * @self: a window
 *
 * Returns: (transfer none): the session configuration panel
 */
EtlSessionPanel *
etl_window_get_session_panel (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->session_panel;
}

/**
 * etl_window_get_cpu_graph:
 * @self: a window
 *
 * Returns: (transfer none): the CPU usage graph under the loss plot
 */
EtlCpuGraph *
etl_window_get_cpu_graph (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->cpu_graph;
}

/**
 * etl_window_get_loss_plot:
 * @self: a window
 *
 * Returns: (transfer none): the loss plot
 */
EtlLossPlot *
etl_window_get_loss_plot (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->loss_plot;
}

/**
 * etl_window_get_visible_range:
 * @self: a window
 * @begin: (out) (optional): start of the visible range, FILETIME
 * @end: (out) (optional): end of the visible range, FILETIME
 */
void
etl_window_get_visible_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
}

/**
 * etl_window_get_info_bar_visible:
 * @self: a window
 *
 * Returns: whether the info bar shows problems
 */
gboolean
etl_window_get_info_bar_visible (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar));
}

/**
 * etl_window_get_info_message:
 * @self: a window
 *
 * Returns: (transfer none): the info bar's text
 */
const char *
etl_window_get_info_message (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->info_label);
}

/**
 * etl_window_get_recent_menu:
 * @self: a window
 *
 * Returns: (transfer none): the Recent menu: each item's target is the
 *   array of URIs it opens (one file, or a merged set)
 */
GMenuModel *
etl_window_get_recent_menu (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

/**
 * etl_window_get_status:
 * @self: a window
 *
 * Returns: (transfer none): the status line's text
 */
const char *
etl_window_get_status (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->status_label);
}
