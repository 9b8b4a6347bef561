/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Results derived once per trace and shared between threads
 * (etl_trace_get_derived(), etl_thread_states_get_shared()). */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-thread-states.h"
#include "etl-trace.h"

static const char key_counted[] = "test-counted";
static const char key_failing[] = "test-failing";
static gint n_builds;
static gint n_failures_left;

/* A result: a refcounted int (GBytes, for its ref/unref). */
static gpointer
build_slowly (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  static const guint32 v = 42;

  (void) trace;
  g_atomic_int_inc (&n_builds);
  for (int i = 0; i < 20; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (10 * 1000);
    }
  return g_bytes_new (&v, sizeof v);
}

static gpointer
build_or_fail (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  if (g_atomic_int_dec_and_test (&n_failures_left) || g_atomic_int_get (&n_failures_left) < 0)
    return build_slowly (trace, cancellable, error);
  g_atomic_int_inc (&n_builds);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "first build fails");
  return NULL;
}

static EtlTrace *
open_waits (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-derived-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "waits.etl", NULL);
  EtlSynthParams params;
  EtlTrace *trace;

  g_assert_no_error (error);
  etl_synth_params_init (&params);
  params.waits = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  trace = etl_trace_open ((const char *const[]) { path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_remove (path);
  g_rmdir (dir);
  return trace;
}

static gpointer
ask_counted (gpointer trace)
{
  return etl_trace_get_derived (trace, key_counted, build_slowly, (GBoxedCopyFunc) g_bytes_ref,
                                (GDestroyNotify) g_bytes_unref, NULL, NULL);
}

/* Four threads ask at once: one build, one result for all. */
static void
test_once (void)
{
  g_autoptr (EtlTrace) trace = open_waits ();
  GThread *threads[4];
  GBytes *results[4];
  GBytes *later;

  g_atomic_int_set (&n_builds, 0);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("ask", ask_counted, trace);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    results[i] = g_thread_join (threads[i]);
  g_assert_cmpint (g_atomic_int_get (&n_builds), ==, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_assert_nonnull (results[i]);
      g_assert_true (results[i] == results[0]);
    }
  later = ask_counted (trace);
  g_assert_true (later == results[0]);
  g_assert_cmpint (g_atomic_int_get (&n_builds), ==, 1);
  g_bytes_unref (later);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_bytes_unref (results[i]);
}

typedef struct
{
  EtlTrace *trace;
  GCancellable *cancellable;
  GError *error;
  gpointer value;
} Waiter;

static gpointer
wait_cancellable (gpointer data)
{
  Waiter *w = data;

  w->value = etl_trace_get_derived (w->trace, key_counted, build_slowly, (GBoxedCopyFunc) g_bytes_ref,
                                    (GDestroyNotify) g_bytes_unref, w->cancellable, &w->error);
  return NULL;
}

/* A request waiting for another's build is cancelled by its own
 * cancellable; the build goes on for the first. */
static void
test_cancel_wait (void)
{
  g_autoptr (EtlTrace) trace = open_waits ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Waiter w = { trace, cancellable, NULL, NULL };
  GThread *builder, *waiter;
  GBytes *built;

  g_atomic_int_set (&n_builds, 0);
  builder = g_thread_new ("build", ask_counted, trace);
  while (g_atomic_int_get (&n_builds) == 0)
    g_usleep (1000);
  waiter = g_thread_new ("wait", wait_cancellable, &w);
  g_usleep (30 * 1000);
  g_cancellable_cancel (cancellable);
  g_thread_join (waiter);
  g_assert_null (w.value);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&w.error);
  built = g_thread_join (builder);
  g_assert_nonnull (built);
  g_assert_cmpint (g_atomic_int_get (&n_builds), ==, 1);
  g_bytes_unref (built);
}

/* A failed build leaves nothing: the next request builds again. */
static void
test_failure_retried (void)
{
  g_autoptr (EtlTrace) trace = open_waits ();
  g_autoptr (GError) error = NULL;
  GBytes *value;

  g_atomic_int_set (&n_builds, 0);
  g_atomic_int_set (&n_failures_left, 2);
  value = etl_trace_get_derived (trace, key_failing, build_or_fail, (GBoxedCopyFunc) g_bytes_ref,
                                 (GDestroyNotify) g_bytes_unref, NULL, &error);
  g_assert_null (value);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  value = etl_trace_get_derived (trace, key_failing, build_or_fail, (GBoxedCopyFunc) g_bytes_ref,
                                 (GDestroyNotify) g_bytes_unref, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (value);
  g_assert_cmpint (g_atomic_int_get (&n_builds), ==, 2);
  g_bytes_unref (value);
}

/* The thread states: the same object for every request, equal to a
 * build of its own. */
static void
test_thread_states_shared (void)
{
  g_autoptr (EtlTrace) trace = open_waits ();
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlThreadStates) a = etl_thread_states_get_shared (trace, NULL, &error);
  g_autoptr (EtlThreadStates) b = etl_thread_states_get_shared (trace, NULL, &error);
  g_autoptr (EtlThreadStates) own = etl_thread_states_new (trace, NULL, &error);
  guint n_shared = 0, n_own = 0;

  g_assert_no_error (error);
  g_assert_true (a == b);
  g_assert_true (a != own);
  etl_thread_states_get_switch_ins (a, &n_shared);
  etl_thread_states_get_switch_ins (own, &n_own);
  g_assert_cmpuint (n_shared, ==, 17); /* the waits schedule's CSwitch records */
  g_assert_cmpuint (n_shared, ==, n_own);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-derived/once", test_once);
  g_test_add_func ("/trace-derived/cancel-wait", test_cancel_wait);
  g_test_add_func ("/trace-derived/failure-retried", test_failure_retried);
  g_test_add_func ("/trace-derived/thread-states", test_thread_states_shared);
  return g_test_run ();
}
