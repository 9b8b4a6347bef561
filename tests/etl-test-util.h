/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

G_BEGIN_DECLS

/* Whether the tests run in CI: the environment variable CI is set to
 * anything but "", "0" or "false" (CI services set CI=true).  CI always has
 * ../shared/etl-corpus, so there a missing corpus file fails the test: a
 * renamed file must not turn tests into skips that still report "0 failed". */
static inline gboolean
etl_test_in_ci (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && g_strcmp0 (ci, "0") != 0 && g_ascii_strcasecmp (ci, "false") != 0;
}

/* The corpus folder: ETL_CORPUS_DIR (set by meson), else ../shared/etl-corpus. */
static inline const char *
etl_test_corpus_dir (void)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");

  return dir != NULL ? dir : "../shared/etl-corpus";
}

/* A corpus file or folder @what is missing: the test is skipped with a
 * message naming it, or, in CI (etl_test_in_ci()), fails with that message. */
static inline void
etl_test_corpus_missing (const char *what)
{
  if (etl_test_in_ci ())
    {
      g_test_message ("corpus file %s not found (CI is set: the corpus must be complete)", what);
      g_test_fail ();
    }
  else
    {
      g_autofree char *msg = g_strdup_printf ("corpus file %s not found (../shared/etl-corpus is absent)", what);

      g_test_skip (msg);
    }
}

/* The real traces in ../shared/etl-corpus: the path of @name (relative to
 * the corpus folder, e.g. "real/Tx_Process.etl").  Returns NULL when the file
 * is missing, after etl_test_corpus_missing() (a skip, or in CI a failure). */
static inline char *
etl_test_corpus_path (const char *name)
{
  char *path = g_build_filename (etl_test_corpus_dir (), name, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      etl_test_corpus_missing (path);
      g_free (path);
      return NULL;
    }
  return path;
}

static inline gint
etl_test_compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Every .etl file of the corpus, its top level and real/, as names relative
 * to the corpus folder ("gcevents.etl", "real/Tx_Process.etl"), sorted;
 * empty when the folder is absent.  (transfer full; element type: filename) */
static inline GPtrArray *
etl_test_corpus_list (void)
{
  const char *const folders[] = { "", "real" };
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *path = g_build_filename (etl_test_corpus_dir (), folders[f], NULL);
      GDir *d = g_dir_open (path, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".etl"))
          g_ptr_array_add (names, *folders[f] != '\0' ? g_strconcat (folders[f], "/", name, NULL) : g_strdup (name));
      if (d != NULL)
        g_dir_close (d);
    }
  g_ptr_array_sort (names, etl_test_compare_names);
  return names;
}

/* For a benchmark (a program, not a GLib test) whose corpus file @path is
 * missing: prints why and returns its exit status, 77 (meson's skip), or in
 * CI (etl_test_in_ci()) 1, a failure. */
static inline int
etl_test_bench_missing (const char *path)
{
  if (etl_test_in_ci ())
    {
      g_printerr ("FAIL %s not found (CI is set: the corpus must be complete)\n", path);
      return 1;
    }
  g_print ("SKIP %s not found (../shared/etl-corpus is absent)\n", path);
  return 77;
}

/* How long a test waits for a condition before it fails: generous, so a
 * loaded or slow machine (a sanitizer build) still passes. */
#define ETL_TEST_WAIT_SECONDS 60

static inline gboolean
etl_test_wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the default main context until @done (@data) holds, then returns;
 * aborts the test with a message naming @what when it does not hold within
 * @seconds.  A 10 ms wake-up also sees conditions that other threads change
 * without a main-loop event.  Use it instead of fixed sleeps. */
static inline void
etl_test_wait_for_seconds (gboolean (*done) (gpointer data), gpointer data, guint seconds, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  guint wake = g_timeout_add (10, etl_test_wake, NULL);

  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out after %u s waiting for %s", seconds, what);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (wake);
}

/* etl_test_wait_for_seconds() with ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_for (gboolean (*done) (gpointer data), gpointer data, const char *what)
{
  etl_test_wait_for_seconds (done, data, ETL_TEST_WAIT_SECONDS, what);
}

/* Removes @path and, for a folder, everything in it (a test's private
 * XDG folders, temporary traces). */
static inline void
etl_test_rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);

  if (dir != NULL)
    {
      const char *name;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          char *child = g_build_filename (path, name, NULL);

          etl_test_rm_rf (child);
          g_free (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

/* g_subprocess_newv() for the tests that run etlscope-cli or a test binary.
 * Under Wine, GLib's spawn helper (gspawn-win64-helper-console.exe) now and
 * then exits before it reports the child, and the spawn fails with
 * G_SPAWN_ERROR_FAILED "Failed to read from child pipe (EOF)": seen once in
 * about ten runs of test-untouched there, and once in CI.  That says nothing
 * of etlscope, so on Windows the spawn is tried again (at most 5 times, 0.2 s
 * apart); every other error, and any error elsewhere, is returned at once. */
static inline GSubprocess *
etl_test_subprocess_newv (const char *const *argv, GSubprocessFlags flags, GError **error)
{
  GSubprocess *proc = NULL;

  for (guint attempt = 1;; attempt++)
    {
      GError *local = NULL;

      proc = g_subprocess_newv (argv, flags, &local);
      if (proc != NULL)
        return proc;
#ifdef G_OS_WIN32
      if (attempt < 5 && g_error_matches (local, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED))
        {
          g_test_message ("spawning %s failed (%s); trying again", argv[0], local->message);
          g_error_free (local);
          g_usleep (200 * 1000);
          continue;
        }
#endif
      (void) attempt;
      g_propagate_error (error, local);
      return NULL;
    }
}

G_END_DECLS
