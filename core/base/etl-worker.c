/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-worker
 * @title: Workers
 * @short_description: GTask workers that yield the processor to the main loop
 *
 * Loading, summaries, filters and sorts read every record of a trace in a
 * #GTask worker.  On a machine with few processors the workers alone keep
 * every processor busy, and the main thread — input, drawing, the Cancel
 * button — then waits for a processor like any other thread: issue 11
 * measured gaps of 100–300 ms in the main loop on 2 processors that were the
 * main thread waiting behind its own workers.  etl_worker_run() runs a task
 * function in GLib's worker pool (g_task_run_in_thread()) at a lower
 * scheduling priority, so the main thread, when it wakes, takes a processor
 * from a worker at once; a worker alone on an idle machine runs as fast as
 * before (a priority only orders threads that compete).
 *
 * GLib has no call to set a thread's priority (g_thread_set_priority() is
 * gone), hence this file: on Linux a thread's nice value is its own
 * (setpriority() with the thread id, sched(7)); on Windows
 * SetThreadPriority() with THREAD_PRIORITY_BELOW_NORMAL.  A pool thread keeps
 * the lower priority once set: it only ever runs workers.  Elsewhere nothing
 * changes.  (Windows needs none of it: it boosts the thread of the window
 * in front when input wakes it, and a below-normal worker could starve
 * behind other programs.)
 *
 * etl_worker_free() frees a large result (hundreds of thousands of blocks:
 * a CPU usage with one entry a process) in a worker, where the main loop
 * would pause for the time free() takes.
 *
 * etl_worker_release_memory() gives the pages of freed heap blocks back to
 * the system: glibc keeps what a worker thread's arena freed until told (on
 * the 16 M record trace the load leaves 313 MiB of free blocks; trimming
 * them lowered the resident memory after a load by about 2.4 bytes a
 * record, the rest of those blocks' pages were not resident).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-worker.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* nice(2) units above the main thread's: a weight of about a tenth. */
#define WORKER_NICE 10

static GQuark
worker_func_quark (void)
{
  return g_quark_from_static_string ("etl-worker-func");
}

/**
 * etl_worker_lower_priority:
 *
 * Lowers the calling thread's scheduling priority below the main thread's
 * (nice +10 on Linux; elsewhere nothing), once: later calls keep it.  Call
 * it only in worker threads; a priority lowered cannot be raised again
 * without privileges.
 */
void
etl_worker_lower_priority (void)
{
  static GPrivate lowered;

  if (g_private_get (&lowered) != NULL)
    return;
  g_private_set (&lowered, GINT_TO_POINTER (1));
#if defined(__linux__)
  {
    id_t tid = (id_t) syscall (SYS_gettid);
    int nice_now = getpriority (PRIO_PROCESS, tid);

    if (nice_now < WORKER_NICE)
      (void) setpriority (PRIO_PROCESS, tid, WORKER_NICE);
  }
#endif
}

static void
worker_trampoline (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  GTaskThreadFunc func = (GTaskThreadFunc) g_object_get_qdata (G_OBJECT (task), worker_func_quark ());

  etl_worker_lower_priority ();
  func (task, source_object, task_data, cancellable);
}

/**
 * etl_worker_run:
 * @task: a #GTask, not yet run
 * @task_func: (scope async): what the worker does, as for g_task_run_in_thread()
 *
 * g_task_run_in_thread() with the worker thread's priority lowered first
 * (etl_worker_lower_priority()), so the main loop stays responsive while
 * @task_func reads a whole trace.  The task keeps a reference as
 * g_task_run_in_thread() does; @task's callback runs in the main context it
 * was created in.
 */
void
etl_worker_run (GTask *task, GTaskThreadFunc task_func)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (task_func != NULL);

  g_object_set_qdata (G_OBJECT (task), worker_func_quark (), (gpointer) task_func);
  g_task_run_in_thread (task, worker_trampoline);
}

typedef struct
{
  gpointer data;
  GDestroyNotify free_func;
} FreeJob;

static void
free_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  FreeJob *job = task_data;

  job->free_func (g_steal_pointer (&job->data));
  g_task_return_boolean (task, TRUE);
}

/**
 * etl_worker_free:
 * @data: (transfer full) (nullable): what to free
 * @free_func: how to free it (an unref, a free function)
 *
 * Calls @free_func on @data in a worker thread at the workers' priority
 * (etl_worker_run()), for results whose freeing alone would pause the main
 * loop; @free_func must be safe to call from another thread (reference
 * counts are atomic throughout the core).  %NULL @data does nothing.
 */
void
etl_worker_free (gpointer data, GDestroyNotify free_func)
{
  g_autoptr (GTask) task = NULL;
  FreeJob *job;

  g_return_if_fail (free_func != NULL);
  if (data == NULL)
    return;
  job = g_new0 (FreeJob, 1);
  job->data = data;
  job->free_func = free_func;
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_source_tag (task, etl_worker_free);
  g_task_set_task_data (task, job, g_free);
  etl_worker_run (task, free_thread);
}

/**
 * etl_worker_release_memory:
 *
 * Returns the free pages of the C heap to the system (malloc_trim() with
 * glibc, which otherwise keeps what worker threads freed resident); call it
 * in a worker after a job that allocated and freed much, such as loading a
 * trace.  Elsewhere it does nothing.
 */
void
etl_worker_release_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}
