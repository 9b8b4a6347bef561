/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The stacks dialog's PerfView pages (issue 22, widgets/etl-call-views.c)
 * and its Symbols page: the CppCon synthetic trace (etl-test-cppcon.h) with
 * a resolver over ../shared/symbols: the frames turn into CppCon.pdb's
 * function names in the worker, then By Name, Call Tree (hot path expanded)
 * and Callers/Callees of the recursive main are checked row by row, and
 * grouping, folding and an exclude change the pages and the flame graph
 * alike.  Then net.4.5.2.x64.etl with an empty symbol path: frames stay
 * modules and every image says why on the Symbols page; a symbol server
 * with downloads off says so; the Preferences' two settings in the state
 * file (app/etl-preferences.c).  Run under Xvfb; skipped without a
 * display. */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "etl-call-views.h"
#include "etl-preferences.h"
#include "etl-test-gui-util.h"
#include "etl-flame-graph.h"
#include "etl-stacks-dialog.h"
#include "etl-symbol-path.h"
#include "etl-symbol-resolver.h"
#include "etl-test-cppcon.h"
#include "etl-trace.h"
#include "etl-window.h"

static gboolean have_display;

/* What is pending run, then whether @dialog has no job running. */
static gboolean
dialog_settled (gpointer dialog)
{
  etl_test_drain ();
  return etl_test_stacks_dialog_not_busy (dialog);
}

static void
wait_dialog (GtkWidget *dialog)
{
  etl_test_wait_for_seconds (dialog_settled, dialog, 90, "the stacks dialog's jobs to finish");
}

/* Row @n of @model: its name, Inc and Exc. */
static void
assert_row (GtkTreeModel *model, GtkTreeIter *iter, const char *name, guint64 inclusive, guint64 exclusive)
{
  g_autofree char *got = NULL;
  guint64 inc, exc;

  gtk_tree_model_get (model, iter, ETL_CALL_VIEWS_COLUMN_NAME, &got, ETL_CALL_VIEWS_COLUMN_INCLUSIVE, &inc,
                      ETL_CALL_VIEWS_COLUMN_EXCLUSIVE, &exc, -1);
  g_assert_cmpstr (got, ==, name);
  g_assert_cmpuint (inc, ==, inclusive);
  g_assert_cmpuint (exc, ==, exclusive);
}

static void
assert_nth (GtkTreeModel *model, int n, const char *name, guint64 inclusive, guint64 exclusive)
{
  GtkTreeIter iter;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, n));
  assert_row (model, &iter, name, inclusive, exclusive);
}

static EtlStacks *
open_stacks (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  EtlStacks *stacks;

  g_assert_no_error (error);
  stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return stacks;
}

static gint64 last_stall_us;

static GtkWidget *
open_dialog (EtlStacks *stacks, EtlSymbolResolver *resolver, const char *text)
{
  GtkWidget *dialog = etl_stacks_dialog_new (NULL, stacks, G_MININT64, G_MAXINT64, "the whole trace");
  EtlTestStall stall;

  gtk_window_set_default_size (GTK_WINDOW (dialog), 1200, 800);
  etl_stacks_dialog_set_resolver (ETL_STACKS_DIALOG (dialog), resolver, text, FALSE);
  gtk_widget_show (dialog);
  etl_test_stall_start (&stall);
  wait_dialog (dialog);
  last_stall_us = etl_test_stall_stop (&stall);
  g_test_message ("longest main-loop stall while the dialog computed and named: %.1f ms", last_stall_us / 1000.0);
  return dialog;
}

static void
test_cppcon (void)
{
  g_autofree char *sym = NULL, *dir = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) sympath = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  GtkWidget *dialog;
  EtlCallViews *views;
  GtkTreeModel *model;
  GtkTreeIter root, it, child;
  g_autofree char *status = NULL, *reason = NULL;

  if (etl_test_skip_without_display (have_display))
    return;
  if ((sym = etl_test_cppcon_symbols_dir ()) == NULL)
    return;
  dir = g_dir_make_tmp ("etl-call-views-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "cppcon.etl", NULL);
  etl_test_write_cppcon_trace (path);
  stacks = open_stacks (path);
  sympath = etl_symbol_path_parse (sym, &error);
  g_assert_no_error (error);
  /* Not on demand: naming a frame never loads a PDB; the dialog's worker does. */
  resolver = etl_symbol_resolver_new (stacks, sympath, FALSE);
  etl_symbol_resolver_attach (resolver);
  dialog = open_dialog (stacks, resolver, sym);
  views = etl_stacks_dialog_get_call_views (ETL_STACKS_DIALOG (dialog));

  /* Symbols page: CppCon.exe from the folder, ntdll.dll without DbgID. */
  model = etl_stacks_dialog_get_symbols_model (ETL_STACKS_DIALOG (dialog));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 2);
  g_assert_true (gtk_tree_model_get_iter_first (model, &it));
  do
    {
      g_autofree char *module = NULL, *guid = NULL;

      g_clear_pointer (&status, g_free);
      g_clear_pointer (&reason, g_free);
      gtk_tree_model_get (model, &it, 0, &module, 2, &guid, 4, &status, 5, &reason, -1);
      if (strcmp (module, "CppCon.exe") == 0)
        {
          g_assert_cmpstr (status, ==, "resolved");
          g_assert_cmpstr (guid, ==, "{12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}");
          g_assert_true (g_str_has_prefix (reason, "resolved from "));
          g_assert_true (g_str_has_suffix (reason, "CppCon.pdb"));
        }
      else
        {
          g_assert_cmpstr (module, ==, "ntdll.dll");
          g_assert_cmpstr (status, ==, "no-dbgid");
          g_assert_nonnull (strstr (reason, "DbgID_RSDS"));
        }
    }
  while (gtk_tree_model_iter_next (model, &it));

  /* By Name: the PDB's names (the samples were named again after the load). */
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_BY_NAME);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 5);
  assert_nth (model, 0, CPPCON_ENTROPY, 7, 7);
  assert_nth (model, 1, CPPCON_OPERATOR, 9, 2);
  assert_nth (model, 2, CPPCON_COMMIT, 1, 1);
  assert_nth (model, 3, CPPCON_MAIN, 10, 0);
  assert_nth (model, 4, "ntdll.dll", 10, 0);

  /* Call Tree: ROOT, the hot path expanded down to std::operator<<. */
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_CALL_TREE);
  g_assert_true (gtk_tree_model_get_iter_first (model, &root));
  assert_row (model, &root, ETL_CALL_TREE_ROOT, 10, 0);
  g_assert_true (gtk_tree_model_iter_children (model, &it, &root));
  assert_row (model, &it, "ntdll.dll", 10, 0);
  g_assert_true (gtk_tree_model_iter_children (model, &child, &it));
  assert_row (model, &child, CPPCON_MAIN, 10, 0);
  it = child;
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, &it), ==, 2);
  g_assert_true (gtk_tree_model_iter_children (model, &child, &it));
  assert_row (model, &child, CPPCON_OPERATOR, 9, 2);
  {
    g_autoptr (GtkTreePath) p = gtk_tree_model_get_path (model, &child);

    g_assert_true (gtk_tree_view_row_expanded (
        GTK_TREE_VIEW (etl_call_views_get_tree_view (views, ETL_CALL_VIEWS_MODEL_CALL_TREE)), p));
  }

  /* Callers/Callees of main: its deepest instance. */
  etl_call_views_set_focus (views, CPPCON_MAIN);
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_CALLERS);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 2);
  assert_nth (model, 0, "ntdll.dll", 6, 0);
  assert_nth (model, 1, CPPCON_OPERATOR, 4, 0);
  assert_nth (etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_FOCUS), 0, CPPCON_MAIN, 10, 0);
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_CALLEES);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 3);
  assert_nth (model, 0, CPPCON_OPERATOR, 5, 2);
  assert_nth (model, 1, CPPCON_ENTROPY, 4, 4);
  assert_nth (model, 2, CPPCON_COMMIT, 1, 1);

  /* Grouping: two modules in By Name and in the flame graph. */
  etl_call_views_set_group_by_module (views, TRUE);
  wait_dialog (dialog);
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_BY_NAME);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 2);
  assert_nth (model, 0, "CppCon.exe!*", 10, 10);
  {
    EtlStackTree *tree = etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (ETL_STACKS_DIALOG (dialog)));
    guint nt = etl_stack_tree_find_child (tree, 0, "ntdll.dll!*");

    g_assert_cmpuint (nt, !=, ETL_STACK_TREE_NONE);
    g_assert_cmpuint (etl_stack_tree_find_child (tree, nt, "CppCon.exe!*"), !=, ETL_STACK_TREE_NONE);
  }
  etl_call_views_set_group_by_module (views, FALSE);

  /* Fold 15 %: _get_startup_commit_mode goes into main. */
  etl_call_views_set_fold_percent (views, 15.0);
  wait_dialog (dialog);
  model = etl_call_views_get_model (views, ETL_CALL_VIEWS_MODEL_BY_NAME);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 4);
  assert_nth (model, 2, CPPCON_MAIN, 10, 1);
  etl_call_views_set_fold_percent (views, 0.0);

  /* Exclude __get_entropy (the context menu's action): 3 samples left. */
  etl_call_views_add_exclude (views, CPPCON_ENTROPY);
  wait_dialog (dialog);
  g_assert_cmpuint (etl_call_tree_get_total (etl_call_views_get_tree (views)), ==, 3);
  g_assert_cmpuint (etl_stack_tree_get_nodes (etl_flame_graph_get_tree (etl_stacks_dialog_get_flame_graph (
                                                  ETL_STACKS_DIALOG (dialog))),
                                              &(guint){ 0 })[0].total,
                    ==, 3);
  etl_call_views_clear_filters (views);
  wait_dialog (dialog);
  g_assert_cmpuint (etl_call_tree_get_total (etl_call_views_get_tree (views)), ==, 10);

  gtk_widget_destroy (dialog);
  etl_symbol_resolver_detach (resolver);
  etl_test_rm_rf (dir);
}

/* No PDB anywhere: modules in the pages, a reason per image. */
static void
test_net_without_pdbs (void)
{
  g_autofree char *path = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  GtkWidget *dialog;
  GtkTreeModel *model;
  GtkTreeIter it;
  guint rows = 0;

  if (etl_test_skip_without_display (have_display))
    return;
  if ((path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  stacks = open_stacks (path);
  resolver = etl_symbol_resolver_new (stacks, NULL, FALSE);
  etl_symbol_resolver_attach (resolver);
  dialog = open_dialog (stacks, resolver, "");
  /* Issue 22: no stall over 100 ms while symbols load; the machine running
   * the suite is shared, so only a gross stall (a PDB read or the stacks
   * named in the main loop) fails here; the figure is in the log.  Under
   * AddressSanitizer GTK's own first layout of the dialog took 670 ms. */
#ifdef __SANITIZE_ADDRESS__
  g_assert_cmpint (last_stall_us, <, 2500000);
#else
  g_assert_cmpint (last_stall_us, <, 500000);
#endif
  model = etl_stacks_dialog_get_symbols_model (ETL_STACKS_DIALOG (dialog));
  g_assert_true (gtk_tree_model_get_iter_first (model, &it));
  do
    {
      g_autofree char *status = NULL, *reason = NULL;

      gtk_tree_model_get (model, &it, 4, &status, 5, &reason, -1);
      g_assert_cmpstr (status, !=, "resolved");
      g_assert_cmpstr (status, !=, "pending");
      g_assert_cmpuint (strlen (reason), >, 0);
      rows++;
    }
  while (gtk_tree_model_iter_next (model, &it));
  g_assert_cmpuint (rows, >, 10);
  /* By Name: modules and JIT methods, no function of a PDB. */
  model = etl_call_views_get_model (etl_stacks_dialog_get_call_views (ETL_STACKS_DIALOG (dialog)),
                                    ETL_CALL_VIEWS_MODEL_BY_NAME);
  g_assert_true (gtk_tree_model_get_iter_first (model, &it));
  do
    {
      g_autofree char *name = NULL;

      gtk_tree_model_get (model, &it, ETL_CALL_VIEWS_COLUMN_NAME, &name, -1);
      g_assert_null (strchr (name, '!'));
    }
  while (gtk_tree_model_iter_next (model, &it));
  gtk_widget_destroy (dialog);
  etl_symbol_resolver_detach (resolver);
}

/* With ETLSCOPE_SCREENSHOT_DIR set, the CppCon trace's dialog at 1600×1000
 * and 1366×768: its flame graph (function names from CppCon.pdb), the
 * Callers/Callees of main and the Symbols page, as
 * symbols-{flame-graph,callers-callees,status}-WxH.png (for
 * docs/screenshots; not an assertion). */
static void
save_page (GtkWidget *dialog, GtkNotebook *notebook, const char *tab, const char *dir, const char *name, int w,
           int h)
{
  g_autofree char *out = g_strdup_printf ("%s/%s-%dx%d.png", dir, name, w, h);
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autoptr (GError) error = NULL;
  GdkWindow *window;

  for (int k = 0; k < gtk_notebook_get_n_pages (notebook); k++)
    if (g_strcmp0 (gtk_notebook_get_tab_label_text (notebook, gtk_notebook_get_nth_page (notebook, k)), tab) == 0)
      gtk_notebook_set_current_page (notebook, k);
  etl_test_wait_transitions (dialog);
  window = gtk_widget_get_window (dialog);
  pixbuf = gdk_pixbuf_get_from_window (window, 0, 0, gdk_window_get_width (window), gdk_window_get_height (window));
  g_assert_nonnull (pixbuf);
  gdk_pixbuf_save (pixbuf, out, "png", &error, NULL);
  g_assert_no_error (error);
  g_test_message ("saved %s (%d×%d)", out, gdk_window_get_width (window), gdk_window_get_height (window));
}

static GtkNotebook *
find_notebook (GtkWidget *widget)
{
  if (GTK_IS_NOTEBOOK (widget))
    return GTK_NOTEBOOK (widget);
  if (GTK_IS_CONTAINER (widget))
    {
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (widget));

      for (GList *l = children; l != NULL; l = l->next)
        {
          GtkNotebook *n = find_notebook (l->data);

          if (n != NULL)
            return n;
        }
    }
  return NULL;
}

static void
test_screenshots (void)
{
  const char *out = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  const int sizes[][2] = { { 1600, 1000 }, { 1366, 768 } };
  g_autofree char *sym = NULL, *dir = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) sympath = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;

  if (out == NULL || !have_display)
    {
      g_test_skip ("set ETLSCOPE_SCREENSHOT_DIR (and a display) to save symbols-*-WxH.png");
      return;
    }
  if ((sym = etl_test_cppcon_symbols_dir ()) == NULL)
    return;
  dir = g_dir_make_tmp ("etl-call-views-shot-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "cppcon.etl", NULL);
  etl_test_write_cppcon_trace (path);
  stacks = open_stacks (path);
  sympath = etl_symbol_path_parse (sym, &error);
  g_assert_no_error (error);
  resolver = etl_symbol_resolver_new (stacks, sympath, FALSE);
  etl_symbol_resolver_attach (resolver);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      int w = sizes[i][0], h = sizes[i][1];
      GtkWidget *dialog = open_dialog (stacks, resolver, "..\\shared\\symbols");
      GtkNotebook *notebook = find_notebook (dialog);

      gtk_window_move (GTK_WINDOW (dialog), 0, 0);
      for (int pass = 0, ask_w = w, ask_h = h; pass < 3; pass++)
        {
          GdkWindow *window;

          gtk_window_resize (GTK_WINDOW (dialog), ask_w, ask_h);
          etl_test_wait_paint (dialog);
          window = gtk_widget_get_window (dialog);
          if (gdk_window_get_width (window) == w && gdk_window_get_height (window) == h)
            break;
          ask_w -= gdk_window_get_width (window) - w;
          ask_h -= gdk_window_get_height (window) - h;
        }
      save_page (dialog, notebook, "Flame Graph", out, "symbols-flame-graph", w, h);
      etl_call_views_set_focus (etl_stacks_dialog_get_call_views (ETL_STACKS_DIALOG (dialog)), CPPCON_MAIN);
      save_page (dialog, notebook, "Callers/Callees", out, "symbols-callers-callees", w, h);
      save_page (dialog, notebook, "Symbols", out, "symbols-status", w, h);
      gtk_widget_destroy (dialog);
    }
  etl_symbol_resolver_detach (resolver);
  etl_test_rm_rf (dir);
}

/* Preferences: the symbol path defaults to $_NT_SYMBOL_PATH, downloads are
 * off, and both are saved into the window's state file beside its other
 * keys. */
static void
test_preferences (void)
{
  g_autofree char *state = etl_window_get_state_path ();
  g_autofree char *dir = g_path_get_dirname (state);
  g_autofree char *path = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;

  g_setenv ("_NT_SYMBOL_PATH", "srv*C:\\cache*https://msdl.microsoft.com/download/symbols", TRUE);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (state, "[window]\nwidth=1234\n", -1, NULL));
  path = etl_preferences_get_symbol_path ();
  g_assert_cmpstr (path, ==, "srv*C:\\cache*https://msdl.microsoft.com/download/symbols");
  g_assert_false (etl_preferences_get_download_symbols ());

  g_assert_true (etl_preferences_save_symbols ("D:\\symbols;cache*E:\\c", TRUE, &error));
  g_assert_no_error (error);
  g_clear_pointer (&path, g_free);
  path = etl_preferences_get_symbol_path ();
  g_assert_cmpstr (path, ==, "D:\\symbols;cache*E:\\c");
  g_assert_true (etl_preferences_get_download_symbols ());
  g_assert_true (g_key_file_load_from_file (kf, state, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_key_file_get_integer (kf, "window", "width", NULL), ==, 1234);

  /* Empty: back to the environment. */
  g_assert_true (etl_preferences_save_symbols ("", FALSE, NULL));
  g_clear_pointer (&path, g_free);
  path = etl_preferences_get_symbol_path ();
  g_assert_cmpstr (path, ==, "srv*C:\\cache*https://msdl.microsoft.com/download/symbols");
  g_unsetenv ("_NT_SYMBOL_PATH");
}

/* A symbol server in the path with downloads off: the image's reason says
 * so (nothing is fetched). */
static void
test_downloads_off (void)
{
  g_autofree char *dir = NULL, *path = NULL, *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) sympath = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  GtkWidget *dialog;
  GtkTreeModel *model;
  GtkTreeIter it;
  gboolean seen = FALSE;

  if (etl_test_skip_without_display (have_display))
    return;
  dir = g_dir_make_tmp ("etl-call-views-srv-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "cppcon.etl", NULL);
  etl_test_write_cppcon_trace (path);
  stacks = open_stacks (path);
  text = g_strdup_printf ("srv*%s*https://symbols.invalid/", dir);
  sympath = etl_symbol_path_parse (text, &error);
  g_assert_no_error (error);
  resolver = etl_symbol_resolver_new (stacks, sympath, FALSE);
  etl_symbol_resolver_attach (resolver);
  dialog = open_dialog (stacks, resolver, text);
  model = etl_stacks_dialog_get_symbols_model (ETL_STACKS_DIALOG (dialog));
  g_assert_true (gtk_tree_model_get_iter_first (model, &it));
  do
    {
      g_autofree char *module = NULL, *status = NULL, *reason = NULL;

      gtk_tree_model_get (model, &it, 0, &module, 4, &status, 5, &reason, -1);
      if (strcmp (module, "CppCon.exe") != 0)
        continue;
      seen = TRUE;
      g_assert_cmpstr (status, ==, "not-found");
      g_assert_nonnull (strstr (reason, "downloads from symbol servers are off"));
    }
  while (gtk_tree_model_iter_next (model, &it));
  g_assert_true (seen);
  /* The frames stay modules. */
  assert_nth (etl_call_views_get_model (etl_stacks_dialog_get_call_views (ETL_STACKS_DIALOG (dialog)),
                                        ETL_CALL_VIEWS_MODEL_BY_NAME),
              0, "CppCon.exe", 10, 10);
  gtk_widget_destroy (dialog);
  etl_symbol_resolver_detach (resolver);
  etl_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  /* Before anything asks GLib for the user's folders (they are cached). */
  g_autofree char *xdg = etl_test_private_xdg ("etl-call-views-config-XXXXXX");

  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  have_display = gtk_init_check (&argc, &argv);
  g_test_add_func ("/etl/call-views-gui/cppcon", test_cppcon);
  g_test_add_func ("/etl/call-views-gui/net-without-pdbs", test_net_without_pdbs);
  g_test_add_func ("/etl/call-views-gui/screenshots", test_screenshots);
  g_test_add_func ("/etl/call-views-gui/preferences", test_preferences);
  g_test_add_func ("/etl/call-views-gui/downloads-off", test_downloads_off);
  {
    int status = g_test_run ();

    if (xdg != NULL)
      etl_test_rm_rf (xdg);
    return status;
  }
}
