/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Results derived once per trace and shared: the thread states, for one,
 * cost ~1.4 s and ~166 bytes a CSwitch to build, and the timeline's thread
 * lanes, the CPU Usage (Precise) table and the stacks dialog's Thread time
 * each asked for them from a worker of their own — three builds and three
 * copies of the same thing.  etl_trace_get_derived() builds a result the
 * first time it is asked for, in the asking thread; a second request made
 * while the first builds waits for it (its own cancellable still cancels
 * the wait), and later ones share the result.  A build that fails or is
 * cancelled leaves nothing behind: the next request builds again.
 */
#include "config.h"

#include "etl-trace-private.h"

typedef struct
{
  gboolean building;
  gpointer value;            /* the result once built, else NULL */
  GDestroyNotify unref;
} EtlDerived;

static void
derived_free (gpointer data)
{
  EtlDerived *d = data;

  if (d->value != NULL && d->unref != NULL)
    d->unref (d->value);
  g_free (d);
}

/* Called by etl_trace_unref() with the last reference. */
void
etl_trace_derived_clear (EtlTrace *trace)
{
  g_clear_pointer (&trace->derived, g_hash_table_unref);
  g_cond_clear (&trace->derived_cond);
  g_mutex_clear (&trace->derived_lock);
}

/**
 * etl_trace_get_derived:
 * @trace: a trace
 * @key: (not nullable): a static string naming the result (compared by
 *   pointer, e.g. the builder's module's own constant)
 * @build: (scope call): builds the result from @trace when there is none
 * @ref: adds a reference to a result
 * @unref: drops one (the trace keeps one reference to the result until it
 *   is freed)
 * @cancellable: (nullable): cancels this request: the build if this
 *   request builds, else the wait for another request's build
 * @error: return location for a #GError
 *
 * The result @build derives from @trace, built once and shared by every
 * thread that asks: the first request builds it in its own thread; a
 * request made meanwhile waits for that build (checking @cancellable
 * every 20 ms) and takes its result, or builds itself when that build
 * failed or was cancelled.  The result lives as long as @trace.
 *
 * Returns: (transfer full) (nullable): a new reference to the result
 *   (@ref), or %NULL with @error set by @build or %G_IO_ERROR_CANCELLED
 */
gpointer
etl_trace_get_derived (EtlTrace *trace, const char *key, EtlTraceDeriveFunc build, GBoxedCopyFunc ref,
                       GDestroyNotify unref, GCancellable *cancellable, GError **error)
{
  EtlDerived *d;
  gpointer value;
  GError *local = NULL;

  g_return_val_if_fail (trace != NULL && key != NULL && build != NULL && ref != NULL, NULL);
  g_mutex_lock (&trace->derived_lock);
  if (trace->derived == NULL)
    trace->derived = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, derived_free);
  for (;;)
    {
      d = g_hash_table_lookup (trace->derived, key);
      if (d == NULL)
        {
          d = g_new0 (EtlDerived, 1);
          d->unref = unref;
          g_hash_table_insert (trace->derived, (gpointer) key, d);
        }
      if (d->value != NULL)
        {
          value = ref (d->value);
          g_mutex_unlock (&trace->derived_lock);
          return value;
        }
      if (!d->building)
        break;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_mutex_unlock (&trace->derived_lock);
          return NULL;
        }
      g_cond_wait_until (&trace->derived_cond, &trace->derived_lock, g_get_monotonic_time () + 20 * 1000);
    }
  d->building = TRUE;
  g_mutex_unlock (&trace->derived_lock);

  value = build (trace, cancellable, &local);

  g_mutex_lock (&trace->derived_lock);
  d = g_hash_table_lookup (trace->derived, key);
  d->building = FALSE;
  if (value != NULL)
    d->value = ref (value);
  g_cond_broadcast (&trace->derived_cond);
  g_mutex_unlock (&trace->derived_lock);
  if (local != NULL)
    g_propagate_error (error, local);
  return value;
}
