/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Workers (issue 11): etl_worker_run() runs the task function in another
 * thread, below the main thread's priority on Linux, and completes the task
 * in the caller's main context; etl_worker_free() frees in another thread. */

#include "config.h"

#include <gio/gio.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "etl-test-util.h"
#include "etl-worker.h"

typedef struct
{
  GThread *thread;   /* where the task function ran */
  int nice;          /* its nice value there (Linux), else 0 */
  int answer;
  gboolean done;
} Result;

static int
current_nice (void)
{
#if defined(__linux__)
  return getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
#else
  return 0;
#endif
}

static void
answer_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Result *r = task_data;

  r->thread = g_thread_self ();
  r->nice = current_nice ();
  g_task_return_int (task, 42);
}

static void
on_answer (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Result *r = user_data;

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  r->answer = (int) g_task_propagate_int (G_TASK (result), NULL);
  r->done = TRUE;
}

static gboolean
is_done (gpointer data)
{
  return ((Result *) data)->done;
}

static void
test_run (void)
{
  Result r = { NULL, 0, 0, FALSE };
  int main_nice = current_nice ();

  for (int i = 0; i < 3; i++)
    {
      g_autoptr (GTask) task = g_task_new (NULL, NULL, on_answer, &r);

      r.done = FALSE;
      r.answer = 0;
      g_task_set_task_data (task, &r, NULL);
      etl_worker_run (task, answer_thread);
      g_clear_object (&task);
      etl_test_wait_for (is_done, &r, "the task's callback");
      g_assert_cmpint (r.answer, ==, 42);
      g_assert_true (r.thread != g_thread_self ());
#if defined(__linux__)
      /* Below the main thread: a higher nice value (unless the main
       * thread already runs at nice 10 or more). */
      g_assert_cmpint (r.nice, >=, MIN (main_nice + 1, 10));
      g_assert_cmpint (r.nice, >=, main_nice);
#endif
    }
  /* The main thread keeps its own priority. */
  g_assert_cmpint (current_nice (), ==, main_nice);
}

/* What mark_freed() saw: @freed_in is written first, then @freed is set
 * atomically, its last access to the struct; once the test sees @freed, the
 * worker no longer touches it (no lock to clear, no sleep before the end). */
typedef struct
{
  GThread *freed_in;
  gint freed;
} Freed;

static void
mark_freed (gpointer data)
{
  Freed *f = data;

  f->freed_in = g_thread_self ();
  g_atomic_int_set (&f->freed, TRUE);
}

static gboolean
is_freed (gpointer data)
{
  return g_atomic_int_get (&((Freed *) data)->freed);
}

static void
test_free (void)
{
  Freed f = { NULL, FALSE };

  etl_worker_free (NULL, mark_freed); /* nothing to free: nothing happens */
  etl_worker_free (&f, mark_freed);
  etl_test_wait_for (is_freed, &f, "etl_worker_free() to call the free function");
  g_assert_true (f.freed_in != NULL);
  g_assert_true (f.freed_in != g_thread_self ());
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/worker/run", test_run);
  g_test_add_func ("/etl/worker/free", test_free);
  return g_test_run ();
}
