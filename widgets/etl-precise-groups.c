/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The groups of the CPU Usage (Precise) table (WPA's default chain New
 * Process ▸ New Thread ▸ Readying Process ▸ Wait Reason), built from an
 * #EtlThreadStates' switch-ins in a worker.  Moved out of
 * etl-precise-view.c unchanged but for the names.
 */

#include "config.h"

#include "etl-precise-groups.h"

#include "etl-cswitch.h"
#include "etl-precise-details.h"
#include "etl-process-table.h"

/**
 * etl_precise_group_free:
 * @group: (transfer full): a group from etl_precise_groups_build()
 *
 * Frees @group and everything below it.
 */
void
etl_precise_group_free (EtlPreciseGroup *group)
{
  g_free (group->label);
  g_clear_pointer (&group->children, g_ptr_array_unref);
  g_clear_pointer (&group->leaves, g_array_unref);
  g_free (group);
}

static EtlPreciseGroup *
group_new (char *label, gboolean innermost)
{
  EtlPreciseGroup *group = g_new0 (EtlPreciseGroup, 1);

  group->label = label;
  if (innermost)
    group->leaves = g_array_new (FALSE, FALSE, sizeof (guint));
  else
    group->children = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_precise_group_free);
  return group;
}

/* The key of @row at @level of the chain; "unknown" ids sort last. */
static gint64
level_key (const EtlSwitchIn *row, guint level)
{
  switch (level)
    {
    case 0:
      return row->new_pid;
    case 1:
      return row->new_tid;
    case 2:
      return row->readying_pid;
    default:
      return row->new_prev_wait_reason < 0 ? G_MAXINT64 : row->new_prev_wait_reason;
    }
}

/* The chain's order, then the longest Waits first, then by time. */
static gint
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlSwitchIn *rows = user_data;
  const EtlSwitchIn *x = &rows[*(const guint *)a], *y = &rows[*(const guint *)b];

  for (guint level = 0; level < ETL_PRECISE_GROUPS_N_LEVELS; level++)
    {
      gint64 kx = level_key (x, level), ky = level_key (y, level);

      if (kx != ky)
        return kx < ky ? -1 : 1;
    }
  if (x->waits != y->waits)
    return x->waits > y->waits ? -1 : 1;
  return (x->switch_in > y->switch_in) - (x->switch_in < y->switch_in);
}

static char *
level_label (EtlProcessTable *table, const EtlSwitchIn *row, guint level)
{
  switch (level)
    {
    case 0:
      return etl_precise_format_process (table, row->new_pid, row->new_tid, row->switch_in);
    case 1:
      return g_strdup_printf ("Thread %u", row->new_tid);
    case 2:
      if (row->readying_tid == ETL_THREAD_STATES_NO_ID)
        return g_strdup ("Not readied");
      if (row->readying_tid == 0)
        /* The ReadyThread's header thread 0: a DPC or the idle thread. */
        return g_strdup ("DPC / Idle (0)");
      return etl_precise_format_process (table, row->readying_pid, row->readying_tid, row->ready_time);
    default:
      if (row->new_prev_wait_reason < 0)
        return g_strdup ("Wait Reason unknown");
      if (etl_cswitch_wait_reason_name (row->new_prev_wait_reason) != NULL)
        return g_strdup (etl_cswitch_wait_reason_name (row->new_prev_wait_reason));
      return g_strdup_printf ("Wait Reason %d", row->new_prev_wait_reason);
    }
}

static void
add_to (EtlPreciseGroup *node, const EtlSwitchIn *row)
{
  node->count++;
  node->ready += row->ready;
  node->waits += row->waits;
  node->cpu_usage += row->cpu_usage;
}

/**
 * etl_precise_groups_build:
 * @trace: the trace (its process table names the processes)
 * @states: its thread states (etl_thread_states_get_switch_ins())
 * @begin: FILETIME: only switch-ins at or after it count…
 * @end: …and before it (exclusive); @end ≤ @begin: all of them
 * @n_rows: (out): the switch-ins counted
 * @n_processes: (out): the New Processes among them (the top groups)
 * @cancellable: (nullable): checked every 65,536 rows
 *
 * Groups the switch-ins by WPA's default chain, sorted by the chain's keys
 * (pids, tids, wait reasons; unknown last), each innermost group keeping
 * its longest Waits.  Runs in a worker; a cancelled build returns what it
 * had.
 *
 * Returns: (transfer full): the root group (its @children are the New
 *   Processes); free with etl_precise_group_free()
 */
EtlPreciseGroup *
etl_precise_groups_build (EtlTrace *trace, EtlThreadStates *states, gint64 begin, gint64 end, guint64 *n_rows,
              guint *n_processes, GCancellable *cancellable)
{
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n = 0;
  const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (states, &n);
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  EtlPreciseGroup *root = group_new (NULL, FALSE), *cur[ETL_PRECISE_GROUPS_N_LEVELS] = { NULL };

  for (guint i = 0; i < n; i++)
    if (end <= begin || (rows[i].switch_in >= begin && rows[i].switch_in < end))
      g_array_append_val (order, i);
  if (g_cancellable_is_cancelled (cancellable))
    return root;
  g_qsort_with_data (order->data, (gint)order->len, sizeof (guint), compare_rows, (gpointer)rows);
  for (guint k = 0; k < order->len; k++)
    {
      guint i = g_array_index (order, guint, k);
      const EtlSwitchIn *row = &rows[i];
      const EtlSwitchIn *prev = k > 0 ? &rows[g_array_index (order, guint, k - 1)] : NULL;
      EtlPreciseGroup *parent = root;
      gboolean fresh = prev == NULL;

      if ((k & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      add_to (root, row);
      for (guint level = 0; level < ETL_PRECISE_GROUPS_N_LEVELS; level++)
        {
          fresh = fresh || level_key (row, level) != level_key (prev, level);
          if (fresh)
            {
              cur[level] = group_new (level_label (table, row, level), level == ETL_PRECISE_GROUPS_N_LEVELS - 1);
              cur[level]->parent = parent;
              cur[level]->index = parent->children->len;
              g_ptr_array_add (parent->children, cur[level]);
            }
          add_to (cur[level], row);
          parent = cur[level];
        }
      if (parent->leaves->len < ETL_PRECISE_VIEW_MAX_LEAVES)
        g_array_append_val (parent->leaves, i);
      else
        {
          parent->rest_count++;
          parent->rest_ready += row->ready;
          parent->rest_waits += row->waits;
          parent->rest_cpu_usage += row->cpu_usage;
        }
    }
  *n_rows = order->len;
  *n_processes = root->children->len;
  return root;
}

