/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-gui: main-loop stalls of the real window on a 1 GiB trace (issue 11).
 *
 *   bench-gui [--records N] [--cpus N] [--text TEXT] [--phases LIST]
 *             [--activities [--region NAME]] [--symbols N] [FILE.etl]
 *
 * Generates (once; reused afterwards) the synthetic trace of the issue —
 * etl_synth_write() with 8 processors, 16,000,000 records, 64 KiB buffers,
 * seed 11, as `etlscope-cli synth --cpus 8 --records 16000000 --seed 11`
 * writes it — as $ETL_BENCH_DIR/synth11.etl (or in the temporary folder;
 * other sizes get their parameters in the name), or takes FILE.etl.  Then it
 * builds the application's EtlWindow (1600×1000) and drives it as a user
 * would, one phase after the other:
 *
 *   load     open the file, wait until the window, lanes, CPU graph and
 *            grouped summary are idle
 *   filter   type TEXT (default "Thread") into the filter bar's text entry,
 *            key by key, and wait for the filtered rows
 *   clear    Ctrl+A, BackSpace in the entry, wait for every row again
 *   lanes    lane mode CPU → Process → Provider → CPU, each shown
 *   sort     click the Provider column header, then the Time header
 *   select   a row of the list (the cursor on its sixth row on screen), then
 *            an event in the timeline
 *            (a click in the first lane)
 *   cancel   open the file again, click Cancel half-way through the load:
 *            the window stops loading at once, keeps the first trace, and
 *            the worker stops (this process's CPU time outside the main
 *            thread stops growing)
 *   regions  (issue 21; only when --phases names it) the Regions tab: its
 *            names, the name --region selected (its instances, histogram
 *            and flame graph), every histogram bucket selected (the flame
 *            graph of all its instances), then "Summary of these" (their
 *            threads within their intervals, grouped)
 *
 *   symbols  (issue 22; with --symbols N) the first record with a stack
 *            selected: its frames shown at once as module+0xOFFSET, named
 *            `module!function+0xOFFSET` in the details pane when the worker
 *            has read the PDB of N functions (bench-resolve's, written once
 *            into $ETL_BENCH_DIR/gui-symbols-N/, the symbol path)
 *
 * --phases runs the listed phases (load always); --activities takes the
 * activities trace of bench-activities (16,000,000 records, 2,000,000
 * Start/Stop pairs of two names: `gui-stall-regions` runs
 * `--activities --phases load,regions`).
 *
 * A G_PRIORITY_HIGH timeout every 10 ms inside the application records the
 * longest gap between its runs: the longest the main loop could not run
 * anything (input, drawing, the Cancel button).  Prints per phase and overall
 * "BENCH gui_stall_<phase>_ms N" and "BENCH gui_max_stall_ms N" — and, on
 * Linux, the main thread's own CPU time within a gap (schedstat), apart from
 * time spent waiting for a processor on a busy machine, as
 * "BENCH gui_stall_cpu_<phase>_ms N" — the peak
 * resident memory (VmHWM, before the cancel phase) minus the file size per
 * record "BENCH gui_rss_bytes_per_record N" (the mapped file's pages are
 * resident too, hence the subtraction), the resident memory after the load,
 * and a Markdown table.  Targets: no stall over 100 ms; at most 48 bytes a
 * record.  Needs a display (xvfb-run -a -s "-screen 0 1600x1000x24"); exits
 * 77 (skipped) without one.  With ETL_BENCH_SHOTS=DIR it saves the window
 * after each phase as DIR/gui-<phase>.png; with ETL_BENCH_VERBOSE set it
 * prints every gap over 50 ms with its CLOCK_MONOTONIC times (to match with
 * `perf record -k mono`).  See tests/bench/README.md.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#ifndef G_OS_WIN32
#include <unistd.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "etl-application.h"
#include "etl-cpu-graph.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-duration-histogram.h"
#include "etl-group-view.h"
#include "etl-regions-view.h"
#include "etl-row-set.h"
#include "bench-symbols.h"
#include "bench-util.h"
#include "etl-details.h"
#include "etl-document.h"
#include "etl-stacks.h"
#include "etl-synth.h"
#include "etl-timeline-view.h"
#include "etl-view-panel.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-window.h"
#include "etl-zoom-manager.h"

#define TICK_MS           10
#define TARGET_STALL_MS   100.0
#define TARGET_BYTES      48.0
#define SETTLE_MS         500   /* idle this long = the phase's work is done */
#define PHASE_TIMEOUT_S   600
#define KEY_INTERVAL_MS   120   /* typing speed: below the filter bar's debounce */
#define CANCEL_QUIET_MS   150   /* worker CPU below 10 % over this long = stopped */

typedef enum
{
  PHASE_LOAD,
  PHASE_FILTER,
  PHASE_CLEAR,
  PHASE_LANES,
  PHASE_SORT,
  PHASE_SELECT,
  PHASE_CANCEL,
  PHASE_REGIONS,
  PHASE_SYMBOLS,
  N_PHASES
} Phase;

static const char *const phase_names[N_PHASES] = { "load",   "filter", "clear",   "lanes",  "sort",
                                                   "select", "cancel", "regions", "symbols" };

typedef struct
{
  EtlWindow *window;
  Phase phase;
  gint64 last_tick;                /* µs, monotonic */
  guint64 last_run_ns, last_wait_ns; /* sched_times() at the last tick */
  gint64 max_gap[N_PHASES];        /* µs */
  gint64 max_run[N_PHASES];        /* ns: the main thread's most CPU time between two runs */
  guint n_stalls[N_PHASES];        /* gaps over the target */
  double duration_ms[N_PHASES];    /* until the phase's result was shown */
  const char *shots;
  gboolean verbose;                /* ETL_BENCH_VERBOSE: every gap over 50 ms */
} Bench;

static Bench bench;

/* The main thread's time on a CPU and waiting for one, in ns (Linux
 * schedstat; 0 elsewhere): tells a stall's own work from starvation on a
 * busy machine (the rest of a gap is time blocked: I/O, page faults, locks). */
static void
sched_times (guint64 *run_ns, guint64 *wait_ns)
{
  char buf[128] = "";
  FILE *f = fopen ("/proc/thread-self/schedstat", "r");

  *run_ns = *wait_ns = 0;
  if (f == NULL)
    return;
  if (fgets (buf, sizeof buf, f) != NULL)
    sscanf (buf, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, run_ns, wait_ns);
  fclose (f);
}

/* The probe: how long since its last run. */
static gboolean
tick_cb (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 gap = now - bench.last_tick;
  guint64 run_ns = 0, wait_ns = 0;

  sched_times (&run_ns, &wait_ns);
  if (bench.last_run_ns != 0 && (gint64) (run_ns - bench.last_run_ns) > bench.max_run[bench.phase])
    bench.max_run[bench.phase] = (gint64) (run_ns - bench.last_run_ns);

  if (gap > bench.max_gap[bench.phase])
    bench.max_gap[bench.phase] = gap;
  if (gap > (gint64) (TARGET_STALL_MS * 1000))
    bench.n_stalls[bench.phase]++;
  if (bench.verbose && gap > 50000)
    printf ("  stall %.1f ms in %s (on CPU %.1f ms, waiting for a CPU %.1f ms), from %" G_GINT64_FORMAT
            " to %" G_GINT64_FORMAT " µs (monotonic)\n",
            (double) gap / 1000.0, phase_names[bench.phase], (double) (run_ns - bench.last_run_ns) / 1e6,
            (double) (wait_ns - bench.last_wait_ns) / 1e6, bench.last_tick, now);
  bench.last_run_ns = run_ns;
  bench.last_wait_ns = wait_ns;
  bench.last_tick = now;
  return G_SOURCE_CONTINUE;
}

static double
ms_since (gint64 t0)
{
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

/* A field of /proc/self/status in bytes (0 when unknown). */
static guint64
status_bytes (const char *field)
{
  g_autofree char *status = NULL;
  g_autofree char *key = g_strconcat (field, ":", NULL);
  const char *line;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) && (line = strstr (status, key)) != NULL)
    return g_ascii_strtoull (line + strlen (key), NULL, 10) * 1024;
  return 0;
}

/* CPU time (µs) of this process outside the main thread: the workers'.
 * Each thread's schedstat run time (Linux; 0 elsewhere): precise, where
 * getrusage()'s per-thread and per-process figures are scaled differently. */
static gint64
worker_cpu_us (void)
{
#ifdef G_OS_WIN32
  return 0;
#else
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  g_autofree char *main_tid = g_strdup_printf ("%d", (int) getpid ());
  const char *name;
  guint64 total = 0;

  if (dir == NULL)
    return 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;

      if (g_str_equal (name, main_tid))
        continue;
      path = g_build_filename ("/proc/self/task", name, "schedstat", NULL);
      if (g_file_get_contents (path, &text, NULL, NULL))
        total += g_ascii_strtoull (text, NULL, 10);
    }
  return (gint64) (total / 1000);
#endif
}

static gboolean
app_busy (void)
{
  EtlWindow *w = bench.window;

  return etl_window_get_busy (w) || etl_timeline_view_is_busy (etl_window_get_timeline (w))
         || etl_group_view_is_busy (etl_window_get_group_view (w)) || etl_window_get_regions_busy (w)
         || etl_regions_view_is_busy (etl_window_get_regions_view (w)) || etl_window_get_symbols_busy (w)
         || etl_cpu_graph_is_busy (etl_window_get_cpu_graph (w));
}

/* Runs the main loop for @ms. */
static void
pump (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Runs the main loop until the application has been idle for SETTLE_MS;
 * returns the ms from @t0 until it last became idle. */
static double
wait_quiet (gint64 t0)
{
  gint64 idle_since = 0, deadline = g_get_monotonic_time () + (gint64) PHASE_TIMEOUT_S * G_USEC_PER_SEC;

  for (;;)
    {
      gint64 now;

      while (g_main_context_iteration (NULL, FALSE))
        ;
      now = g_get_monotonic_time ();
      if (app_busy ())
        idle_since = 0;
      else if (idle_since == 0)
        idle_since = now;
      if (idle_since != 0 && now - idle_since >= (gint64) SETTLE_MS * 1000)
        return (double) (idle_since - t0) / 1000.0;
      if (now > deadline)
        {
          fprintf (stderr, "bench-gui: phase %s did not finish in %d s\n", phase_names[bench.phase], PHASE_TIMEOUT_S);
          exit (1);
        }
      g_main_context_iteration (NULL, TRUE);
    }
}

/* After the benchmark's own work on the main thread (a screenshot, heap
 * statistics): the probe starts over, so the gap is not the application's. */
static void
probe_restart (void)
{
  guint64 wait_ns;

  bench.last_tick = g_get_monotonic_time ();
  sched_times (&bench.last_run_ns, &wait_ns);
  bench.last_wait_ns = wait_ns;
}

static void
screenshot (const char *name)
{
  g_autofree char *file = NULL;
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  GdkWindow *gdk_window;

  if (bench.shots == NULL)
    return;
  gdk_window = gtk_widget_get_window (GTK_WIDGET (bench.window));
  pixbuf = gdk_pixbuf_get_from_window (gdk_window, 0, 0, gdk_window_get_width (gdk_window),
                                       gdk_window_get_height (gdk_window));
  file = g_strdup_printf ("%s/gui-%s.png", bench.shots, name);
  if (pixbuf != NULL)
    gdk_pixbuf_save (pixbuf, file, "png", NULL, NULL);
  probe_restart ();
}

static void
begin_phase (Phase phase)
{
  /* The gap running into the phase is its own: the user's action starts it. */
  bench.phase = phase;
  printf ("phase %s ...\n", phase_names[phase]);
  fflush (stdout);
}

static void
end_phase (double duration_ms)
{
  bench.duration_ms[bench.phase] = duration_ms;
  printf ("  %s: %.0f ms, longest stall %.1f ms\n", phase_names[bench.phase], duration_ms,
          bench.max_gap[bench.phase] / 1000.0);
  fflush (stdout);
  screenshot (phase_names[bench.phase]);
}

/* A key press and release on the toplevel, as the display server would
 * deliver them: the window passes them to its focus widget. */
static void
send_key (guint keyval, GdkModifierType state)
{
  GdkWindow *gdk_window = gtk_widget_get_window (GTK_WIDGET (bench.window));
  GdkDisplay *display = gdk_window_get_display (gdk_window);
  g_autofree GdkKeymapKey *keys = NULL;
  gint n_keys = 0;

  gdk_keymap_get_entries_for_keyval (gdk_keymap_get_for_display (display), keyval, &keys, &n_keys);
  for (int i = 0; i < 2; i++)
    {
      GdkEvent *event = gdk_event_new (i == 0 ? GDK_KEY_PRESS : GDK_KEY_RELEASE);

      event->key.window = g_object_ref (gdk_window);
      event->key.send_event = TRUE;
      event->key.time = GDK_CURRENT_TIME;
      event->key.keyval = keyval;
      event->key.state = state;
      event->key.hardware_keycode = n_keys > 0 ? (guint16) keys[0].keycode : 0;
      event->key.group = n_keys > 0 ? (guint8) keys[0].group : 0;
      gdk_event_set_device (event, gdk_seat_get_keyboard (gdk_display_get_default_seat (display)));
      gtk_main_do_event (event);
      gdk_event_free (event);
    }
}

static GtkEntry *
find_focus_entry (void)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (bench.window));

  if (!GTK_IS_ENTRY (focus))
    {
      fprintf (stderr, "bench-gui: the filter bar's text entry did not take the focus\n");
      exit (1);
    }
  return GTK_ENTRY (focus);
}

/* A primary-button press and release at (@x, @y) in @widget's window. */
static void
click (GtkWidget *widget, double x, double y)
{
  for (int i = 0; i < 2; i++)
    {
      GdkEvent *event = gdk_event_new (i == 0 ? GDK_BUTTON_PRESS : GDK_BUTTON_RELEASE);

      event->button.window = g_object_ref (gtk_widget_get_window (widget));
      event->button.send_event = TRUE;
      event->button.time = GDK_CURRENT_TIME;
      event->button.x = x;
      event->button.y = y;
      event->button.button = GDK_BUTTON_PRIMARY;
      gdk_event_set_device (event, gdk_seat_get_pointer (gdk_display_get_default_seat (gtk_widget_get_display (widget))));
      gtk_widget_event (widget, event);
      gdk_event_free (event);
    }
}

/* The first descendant of @widget of @type (a depth-first walk). */
static GtkWidget *
find_widget (GtkWidget *widget, GType type)
{
  g_autoptr (GList) children = NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l != NULL; l = l->next)
    {
      GtkWidget *found = find_widget (l->data, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first button under @widget labelled @label. */
static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  g_autoptr (GList) children = NULL;

  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l != NULL; l = l->next)
    {
      GtkWidget *found = find_button (l->data, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
open_file (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  etl_window_open_files (bench.window, &file, 1);
}

static GtkTreeViewColumn *
list_column (const char *id)
{
  EtlEventList *list = etl_window_get_event_list (bench.window);

  for (guint c = 0; c < etl_event_list_get_n_columns (list); c++)
    if (g_strcmp0 (etl_event_list_get_column_id (list, c), id) == 0)
      return gtk_tree_view_get_column (etl_event_list_get_tree_view (list), (int) c);
  fprintf (stderr, "bench-gui: no %s column\n", id);
  exit (1);
}

static void
set_lane_mode (const char *mode)
{
  GActionGroup *group = gtk_widget_get_action_group (GTK_WIDGET (bench.window), "timeline");
  gint64 t0 = g_get_monotonic_time ();

  g_action_group_activate_action (group, "lane-mode", g_variant_new_string (mode));
  printf ("  lanes %s: %u lanes, %.0f ms\n", mode, etl_window_get_n_lanes (bench.window), wait_quiet (t0));
}

static const char *
verdict (gboolean ok)
{
  return ok ? "met" : "MISSED";
}

int
main (int argc, char **argv)
{
  gint64 n_records = 16000000;
  gint n_cpus = 8;
  g_autofree char *text = NULL;
  g_autofree char *phases = NULL;
  gboolean activities = FALSE;
  gint n_functions = 0;
  g_autofree char *region_name = NULL;
  gboolean want[N_PHASES] = { FALSE };
  GOptionEntry entries[] = {
    { "phases", 0, 0, G_OPTION_ARG_STRING, &phases,
      "Phases to run, comma-separated (default load,filter,clear,lanes,sort,select,cancel; also regions)", "LIST" },
    { "region", 0, 0, G_OPTION_ARG_STRING, &region_name,
      "The region name the regions phase selects (default Request(request), the activities trace's)", "NAME" },
    { "symbols", 0, 0, G_OPTION_ARG_INT, &n_functions,
      "The symbols trace and a PDB of N functions (bench-resolve's) instead of synth11, as _NT_SYMBOL_PATH", "N" },
    { "activities", 0, 0, G_OPTION_ARG_NONE, &activities,
      "The activities trace (synth --activities --activity-pairs 2000000, 4 processors) instead of synth11", NULL },
    { "records", 0, 0, G_OPTION_ARG_INT64, &n_records, "Records in the synthetic trace (default 16,000,000)", "N" },
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "text", 0, 0, G_OPTION_ARG_STRING, &text, "Text typed into the filter (default Thread)", "TEXT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - main-loop stalls of the window");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *xdg = NULL;
  double max_run = 0.0, synth_ms = -1.0, load_ms, cancel_ui_ms = -1.0, cancel_quiet_ms = -1.0, max_stall = 0.0;
  guint64 file_size, records, rss_before, rss_after_load, anon_after_load, anon_worker_done, hwm;
  EtlTrace *trace;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-gui: %s\n", error->message);
      return 2;
    }
  if (text == NULL)
    text = g_strdup ("Thread");
  if (region_name == NULL)
    region_name = g_strdup ("Request(request)");
  {
    g_auto (GStrv) names = g_strsplit (phases != NULL ? phases : "load,filter,clear,lanes,sort,select,cancel", ",", -1);

    for (guint i = 0; names[i] != NULL; i++)
      {
        int p = 0;

        while (p < N_PHASES && !g_str_equal (g_strstrip (names[i]), phase_names[p]))
          p++;
        if (p == N_PHASES)
          {
            fprintf (stderr, "bench-gui: no phase \"%s\"\n", names[i]);
            return 2;
          }
        want[p] = TRUE;
      }
    want[PHASE_LOAD] = TRUE;
  }

  /* The user's saved window state and recent files must not change what is measured. */
  xdg = g_dir_make_tmp ("etlscope-bench-gui-XXXXXX", NULL);
  if (xdg != NULL)
    {
      g_autofree char *config = g_build_filename (xdg, "config", NULL);
      g_autofree char *data = g_build_filename (xdg, "data", NULL);
      g_autofree char *cache = g_build_filename (xdg, "cache", NULL);

      g_setenv ("XDG_CONFIG_HOME", config, TRUE);
      g_setenv ("XDG_DATA_HOME", data, TRUE);
      g_setenv ("XDG_CACHE_HOME", cache, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  if (!gtk_init_check (&argc, &argv))
    {
      printf ("bench-gui: no display; run under xvfb-run (skipped)\n");
      return 77;
    }
  bench.shots = g_getenv ("ETL_BENCH_SHOTS");
  bench.verbose = g_getenv ("ETL_BENCH_VERBOSE") != NULL;

  if (argc > 1)
    path = g_strdup (argv[1]);
  else if (n_functions > 0)
    {
      g_autofree char *dir = bench_dir ();
      g_autofree char *name = g_strdup_printf ("gui-symbols-%d", n_functions);
      g_autofree char *sym_dir = g_build_filename (dir, name, NULL);
      g_autofree char *pdb = g_build_filename (sym_dir, "bench.pdb", NULL);
      guint32 code_end;

      g_mkdir_with_parents (sym_dir, 0700);
      path = g_build_filename (sym_dir, "resolve-symbols-v1.etl", NULL);
      if (!g_file_test (pdb, G_FILE_TEST_IS_REGULAR))
        g_free (bench_symbols_write_pdb (sym_dir, (guint) n_functions, &code_end, &error));
      if (error == NULL && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_free (bench_symbols_write_trace (sym_dir, &error));
      if (error != NULL)
        {
          fprintf (stderr, "bench-gui: %s\n", error->message);
          return 1;
        }
      g_setenv ("_NT_SYMBOL_PATH", sym_dir, TRUE);
    }
  else if (activities)
    {
      path = bench_activities_trace (4, 16000000, 2000000, &error);
      if (path == NULL)
        {
          fprintf (stderr, "bench-gui: %s\n", error->message);
          return 1;
        }
    }
  else
    {
      g_autofree char *name = n_cpus == 8 && n_records == 16000000
                                  ? g_strdup ("synth11.etl")
                                  : g_strdup_printf ("synth11-%dcpu-%" G_GINT64_FORMAT "rec.etl", n_cpus, n_records);
      EtlSynthParams params;

      etl_synth_params_init (&params);
      params.n_cpus = (guint) n_cpus;
      params.n_records = (guint64) n_records;
      params.buffer_kb = 64;
      params.seed = 11;
      path = bench_write_once (name, &params, &synth_ms, &error);
      if (path == NULL)
        {
          fprintf (stderr, "bench-gui: %s\n", error->message);
          return 1;
        }
    }

  {
    GStatBuf st;

    if (g_stat (path, &st) != 0)
      {
        fprintf (stderr, "bench-gui: %s: cannot stat\n", path);
        return 1;
      }
    file_size = (guint64) st.st_size;
  }

  bench.window = g_object_ref_sink (etl_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1600, 1000);
  gtk_window_move (GTK_WINDOW (bench.window), 0, 0);
  gtk_widget_show (GTK_WIDGET (bench.window));
  gtk_window_present (GTK_WINDOW (bench.window));
  pump (500);
  rss_before = status_bytes ("VmRSS");

  bench.last_tick = g_get_monotonic_time ();
  g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick_cb, NULL, NULL);

  /* Load ------------------------------------------------------------------ */
  {
    gint64 t0;

    begin_phase (PHASE_LOAD);
    t0 = g_get_monotonic_time ();
    open_file (path);
    while (etl_window_get_loading (bench.window))
      g_main_context_iteration (NULL, TRUE);
    load_ms = ms_since (t0);
    anon_worker_done = status_bytes ("RssAnon");
    end_phase (wait_quiet (t0));
    trace = etl_window_get_trace (bench.window);
    if (trace == NULL)
      {
        fprintf (stderr, "bench-gui: %s did not load\n", path);
        return 1;
      }
    records = etl_trace_get_n_records (trace);
    rss_after_load = status_bytes ("VmRSS");
    anon_after_load = status_bytes ("RssAnon");
    printf ("  %" G_GUINT64_FORMAT " records, the load worker done after %.0f ms\n", records, load_ms);
#ifdef __GLIBC__
    if (bench.verbose)
      {
        /* Live heap against what malloc keeps: tells leaks from retained pages. */
        struct mallinfo2 mi = mallinfo2 ();

        printf ("  malloc: in use %.1f MiB, free but kept %.1f MiB, mmapped %.1f MiB\n", mi.uordblks / 1048576.0,
                mi.fordblks / 1048576.0, mi.hblkhd / 1048576.0);
        probe_restart ();
      }
#endif
  }

  /* Filter: typed key by key ------------------------------------------------ */
  if (want[PHASE_FILTER])
  {
    GtkEntry *entry;
    gint64 t0;

    begin_phase (PHASE_FILTER);
    etl_filter_bar_focus (etl_window_get_filter_bar (bench.window));
    entry = find_focus_entry ();
    t0 = g_get_monotonic_time ();
    for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
      {
        send_key (gdk_unicode_to_keyval (g_utf8_get_char (c)), 0);
        pump (KEY_INTERVAL_MS);
      }
    if (g_strcmp0 (gtk_entry_get_text (entry), text) != 0)
      {
        fprintf (stderr, "bench-gui: typed \"%s\", the entry holds \"%s\"\n", text, gtk_entry_get_text (entry));
        return 1;
      }
    /* The filter bar's debounce, then the filter. */
    pump (etl_filter_bar_get_debounce_ms (etl_window_get_filter_bar (bench.window)) + 50);
    end_phase (wait_quiet (t0));
    printf ("  filter \"%s\": %s\n", text, etl_filter_bar_get_count_text (etl_window_get_filter_bar (bench.window)));
    if (etl_window_get_rows (bench.window) == NULL
        || etl_row_set_get_n (etl_window_get_rows (bench.window)) >= records)
      {
        fprintf (stderr, "bench-gui: the filter kept every row\n");
        return 1;
      }

    /* Clear: select all, delete. */
    begin_phase (PHASE_CLEAR);
    t0 = g_get_monotonic_time ();
    send_key (GDK_KEY_a, GDK_CONTROL_MASK);
    pump (KEY_INTERVAL_MS);
    send_key (GDK_KEY_BackSpace, 0);
    if (gtk_entry_get_text (entry)[0] != '\0')
      {
        fprintf (stderr, "bench-gui: Ctrl+A, BackSpace left \"%s\"\n", gtk_entry_get_text (entry));
        return 1;
      }
    pump (etl_filter_bar_get_debounce_ms (etl_window_get_filter_bar (bench.window)) + 50);
    end_phase (wait_quiet (t0));
    if (etl_row_set_get_n (etl_window_get_rows (bench.window)) != records)
      {
        fprintf (stderr, "bench-gui: clearing the filter did not bring every row back\n");
        return 1;
      }
  }

  /* Lanes -------------------------------------------------------------------- */
  if (want[PHASE_LANES])
  {
    gint64 t0;

    begin_phase (PHASE_LANES);
    t0 = g_get_monotonic_time ();
    set_lane_mode ("process");
    set_lane_mode ("provider");
    set_lane_mode ("cpu");
    end_phase (ms_since (t0));
  }

  /* Sort: Provider, then back to Time ---------------------------------------- */
  if (want[PHASE_SORT])
  {
    gint64 t0, t1;

    begin_phase (PHASE_SORT);
    t0 = g_get_monotonic_time ();
    gtk_tree_view_column_clicked (list_column ("provider"));
    printf ("  by provider: %.0f ms\n", wait_quiet (t0));
    t1 = g_get_monotonic_time ();
    gtk_tree_view_column_clicked (list_column ("time"));
    printf ("  by time: %.0f ms\n", wait_quiet (t1));
    end_phase (ms_since (t0));
  }

  /* Select: a row of the list, an event of the timeline ---------------------- */
  if (want[PHASE_SELECT])
  {
    EtlEventList *list = etl_window_get_event_list (bench.window);
    EtlTimelineView *timeline = etl_window_get_timeline (bench.window);
    GtkWidget *widget = GTK_WIDGET (timeline);
    GtkTreeView *tree_view = etl_event_list_get_tree_view (list);
    g_autoptr (GtkTreePath) tree_path = NULL;
    g_autoptr (GtkTreePath) last_path = NULL;
    guint64 before;
    gint64 t0;
    int lane_h;

    begin_phase (PHASE_SELECT);
    t0 = g_get_monotonic_time ();
    /* The sixth row on screen, as a click would pick it. */
    if (!gtk_tree_view_get_visible_range (tree_view, &tree_path, &last_path))
      {
        fprintf (stderr, "bench-gui: the event list shows no rows\n");
        return 1;
      }
    for (int i = 0; i < 5 && gtk_tree_path_compare (tree_path, last_path) < 0; i++)
      gtk_tree_path_next (tree_path);
    gtk_tree_view_set_cursor (tree_view, tree_path, NULL, FALSE);
    wait_quiet (t0);
    printf ("  list row: %" G_GUINT64_FORMAT "\n", etl_event_list_get_selected_row (list));
    if (etl_event_list_get_selected_row (list) == ETL_EVENT_LIST_NO_ROW)
      {
        fprintf (stderr, "bench-gui: the cursor selected no row of the list\n");
        return 1;
      }
    before = etl_timeline_view_get_selected_row (timeline);
    lane_h = etl_timeline_view_get_lane_height (timeline, gtk_widget_get_allocated_height (widget));
    click (widget, ETL_LABEL_COLUMN_WIDTH + (gtk_widget_get_allocated_width (widget) - ETL_LABEL_COLUMN_WIDTH) / 3.0,
           lane_h / 2.0);
    end_phase (wait_quiet (t0));
    printf ("  timeline event: %" G_GUINT64_FORMAT " (was %" G_GUINT64_FORMAT ")\n",
            etl_timeline_view_get_selected_row (timeline), before);
    if (etl_timeline_view_get_selected_row (timeline) == ETL_TIMELINE_NO_ROW
        || etl_timeline_view_get_selected_row (timeline) == before)
      {
        fprintf (stderr, "bench-gui: the click in the timeline selected nothing new\n");
        return 1;
      }
  }

  /* Regions: the tab, its biggest name, every instance selected, their summary */
  if (want[PHASE_REGIONS])
  {
    EtlRegionsView *view = etl_window_get_regions_view (bench.window);
    EtlDurationHistogram *hist = etl_regions_view_get_histogram (view);
    GtkWidget *summary = find_button (GTK_WIDGET (view), "Summary of these");
    const EtlSpanHistogram *h;
    guint n_selected = 0;
    gint64 t0, t1;
    double summary_ms;

    begin_phase (PHASE_REGIONS);
    t0 = g_get_monotonic_time ();
    etl_view_panel_show_view (etl_window_get_view_panel (bench.window), "regions");
    printf ("  names: %.0f ms (%s)\n", wait_quiet (t0), etl_regions_view_get_message (view));
    t1 = g_get_monotonic_time ();
    if (!etl_regions_view_select_name (view, region_name, NULL))
      {
        fprintf (stderr, "bench-gui: the Regions tab has no \"%s\"\n", region_name);
        return 1;
      }
    printf ("  %s selected: %.0f ms\n", region_name, wait_quiet (t1));
    h = etl_duration_histogram_get_histogram (hist);
    if (h == NULL || h->n_buckets == 0 || summary == NULL)
      {
        fprintf (stderr, "bench-gui: no histogram or no \"Summary of these\" button\n");
        return 1;
      }
    t1 = g_get_monotonic_time ();
    etl_duration_histogram_set_selection (hist, 0, (int) h->n_buckets - 1);
    etl_regions_view_get_selected (view, &n_selected);
    printf ("  every bucket: %u instances, their flame graph %.0f ms\n", n_selected, wait_quiet (t1));
    if (n_selected == 0)
      {
        fprintf (stderr, "bench-gui: selecting every bucket selected no instance\n");
        return 1;
      }
    t1 = g_get_monotonic_time ();
    gtk_button_clicked (GTK_BUTTON (summary));
    summary_ms = wait_quiet (t1);
    printf ("  Summary of these: %.0f ms, on the %s tab\n", summary_ms, etl_window_get_view_tab (bench.window));
    end_phase (ms_since (t0));
  }

  /* Symbols: a sample's stack in the details pane, named as its PDB loads */
  if (want[PHASE_SYMBOLS])
  {
    EtlStacks *stacks = etl_document_get_stacks (etl_window_get_document (bench.window));
    EtlEventList *list = etl_window_get_event_list (bench.window);
    g_autofree char *first = NULL;
    g_autofree char *named = NULL;
    guint64 row = 0, n = etl_trace_get_n_records (trace);
    gint64 t0;

    begin_phase (PHASE_SYMBOLS);
    while (stacks != NULL && row < n && !etl_stacks_has_stack (stacks, row))
      row++;
    if (row == n || stacks == NULL)
      {
        fprintf (stderr, "bench-gui: no record with a stack (the symbols phase needs --symbols N)\n");
        return 1;
      }
    t0 = g_get_monotonic_time ();
    etl_event_list_select_row (list, row);
    g_signal_emit_by_name (list, "row-selected", row);
    first = etl_details_dup_text (etl_window_get_details (bench.window));
    end_phase (wait_quiet (t0));
    named = etl_details_dup_text (etl_window_get_details (bench.window));
    printf ("  row %" G_GUINT64_FORMAT ": first %s, then %s\n", row, strstr (first, "!") ? "named" : "module+0x…",
            strstr (named, "!Namespace") ? "named" : "NOT named");
    if (strstr (named, "!Namespace") == NULL)
      {
        fprintf (stderr, "bench-gui: the details pane did not name the stack:\n%s\n", named);
        return 1;
      }
  }

  hwm = status_bytes ("VmHWM");

  /* Cancel a second load half-way ------------------------------------------------ */
  if (want[PHASE_CANCEL])
  {
    GtkProgressBar *progress = GTK_PROGRESS_BAR (find_widget (GTK_WIDGET (bench.window), GTK_TYPE_PROGRESS_BAR));
    gint64 t0, t_cancel, quiet_from, cpu_mark;

    begin_phase (PHASE_CANCEL);
    t0 = g_get_monotonic_time ();
    open_file (path);
    /* Half-way: the progress bar shows it (the file's records indexed). */
    while (etl_window_get_loading (bench.window) && gtk_progress_bar_get_fraction (progress) < 0.5)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    printf ("  cancel at %.0f %% (%.0f ms)\n", gtk_progress_bar_get_fraction (progress) * 100, ms_since (t0));
    if (!etl_window_get_loading (bench.window))
      printf ("  the second load finished before the cancel\n");
    t_cancel = g_get_monotonic_time ();
    g_action_group_activate_action (G_ACTION_GROUP (bench.window), "cancel", NULL);
    while (etl_window_get_loading (bench.window) && ms_since (t_cancel) < PHASE_TIMEOUT_S * 1000.0)
      g_main_context_iteration (NULL, TRUE);
    cancel_ui_ms = ms_since (t_cancel);
    /* The worker stopped: CPU time outside the main thread stops growing. */
    quiet_from = g_get_monotonic_time ();
    cpu_mark = worker_cpu_us ();
    while (ms_since (t_cancel) < 30000.0)
      {
        pump (CANCEL_QUIET_MS);
        if (worker_cpu_us () - cpu_mark < CANCEL_QUIET_MS * 100)
          break;
        quiet_from = g_get_monotonic_time ();
        cpu_mark = worker_cpu_us ();
      }
    cancel_quiet_ms = (double) (quiet_from - t_cancel) / 1000.0;
    end_phase (wait_quiet (t0));
    printf ("  cancel: not loading after %.1f ms, the worker stopped after %.0f ms\n", cancel_ui_ms, cancel_quiet_ms);
    if (etl_window_get_trace (bench.window) != trace || etl_window_get_loading (bench.window))
      {
        fprintf (stderr, "bench-gui: the cancelled load replaced the trace shown\n");
        return 1;
      }
  }

  for (int p = 0; p < N_PHASES; p++)
    {
      max_stall = MAX (max_stall, bench.max_gap[p] / 1000.0);
      max_run = MAX (max_run, (double) bench.max_run[p]);
    }

  {
    double per_record = records ? ((double) hwm - (double) file_size) / (double) records : 0.0;
    double after_load = records ? ((double) rss_after_load - (double) file_size) / (double) records : 0.0;
    double anon = records ? (double) anon_after_load / (double) records : 0.0;

    printf ("\nfile: %s (%" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " records)\n", path, file_size, records);
    printf ("| phase | longest stall | most main-thread CPU in one gap | stalls > %.0f ms | phase time | target | |\n"
            "|---|---|---|---|---|---|---|\n",
            TARGET_STALL_MS);
    for (int p = 0; p < N_PHASES; p++)
      {
        gboolean ok = bench.max_gap[p] / 1000.0 <= TARGET_STALL_MS;

        if (!want[p])
          continue;
        printf ("| %s | %.1f ms | %.1f ms | %u | %.0f ms | ≤ %.0f ms | %s |\n", phase_names[p],
                bench.max_gap[p] / 1000.0, bench.max_run[p] / 1e6, bench.n_stalls[p], bench.duration_ms[p],
                TARGET_STALL_MS, verdict (ok));
      }
    printf ("| **all** | %.1f ms | %.1f ms | | | ≤ %.0f ms | %s |\n", max_stall, max_run / 1e6, TARGET_STALL_MS,
            verdict (max_stall <= TARGET_STALL_MS));
    if (want[PHASE_CANCEL])
      printf ("| cancel: window idle / worker stopped | %.1f ms / %.0f ms | | | | | |\n", cancel_ui_ms,
              cancel_quiet_ms);
    /* Per record only where records are many (not the symbols trace's 13). */
    if (records >= 1000000)
      printf ("| peak RSS − file size, per record | %.1f bytes | | | | ≤ %.0f | %s |\n", per_record, TARGET_BYTES,
              verdict (per_record <= TARGET_BYTES));
    if (records >= 1000000)
      {
        printf ("| RSS after load − file size, per record | %.1f bytes | | | | | |\n", after_load);
        printf ("| anonymous RSS when the load worker was done / after load, per record | %.1f / %.1f bytes | | | | | "
                "|\n",
                records ? (double) anon_worker_done / (double) records : 0.0, anon);
      }
    printf ("| RSS before load (empty window) | %.1f MiB | | | | | |\n", rss_before / 1048576.0);

    if (synth_ms >= 0)
      printf ("BENCH synth_write_ms %.1f ms\n", synth_ms);
    printf ("BENCH gui_max_stall_ms %.1f ms\n", max_stall);
    for (int p = 0; p < N_PHASES; p++)
      if (want[p])
        printf ("BENCH gui_stall_%s_ms %.1f ms\n", phase_names[p], bench.max_gap[p] / 1000.0);
    printf ("BENCH gui_max_stall_cpu_ms %.1f ms\n", max_run / 1e6);
    for (int p = 0; p < N_PHASES; p++)
      if (want[p])
        printf ("BENCH gui_stall_cpu_%s_ms %.1f ms\n", phase_names[p], bench.max_run[p] / 1e6);
    for (int p = 0; p < N_PHASES; p++)
      if (want[p])
        printf ("BENCH gui_%s_ms %.0f ms\n", phase_names[p], bench.duration_ms[p]);
    if (want[PHASE_CANCEL])
      printf ("BENCH gui_cancel_stop_ms %.0f ms\n", cancel_quiet_ms);
    if (records >= 1000000)
      {
        printf ("BENCH gui_rss_bytes_per_record %.1f bytes\n", per_record);
        printf ("BENCH gui_rss_after_load_bytes_per_record %.1f bytes\n", after_load);
        printf ("BENCH gui_anon_after_load_bytes_per_record %.1f bytes\n", anon);
      }
  }

  gtk_widget_destroy (GTK_WIDGET (bench.window));
  g_clear_object (&bench.window);
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return 0;
}
