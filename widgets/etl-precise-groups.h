/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-thread-states.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * ETL_PRECISE_GROUPS_N_LEVELS:
 *
 * The levels of WPA's default chain: New Process ▸ New Thread ▸ Readying
 * Process ▸ Wait Reason.
 */
#define ETL_PRECISE_GROUPS_N_LEVELS 4

/**
 * ETL_PRECISE_VIEW_MAX_LEAVES:
 *
 * The switch-ins an innermost group lists, the longest Waits first; the
 * others are summed in one "… N more" row.
 */
#define ETL_PRECISE_VIEW_MAX_LEAVES 100

typedef struct _EtlPreciseGroup EtlPreciseGroup;

/**
 * EtlPreciseGroup:
 * @label: (not nullable): what the table shows, "Thread 1004", "WrQueue"…
 *   (NULL on the root only)
 * @count: its switch-ins
 * @ready: their Ready, summed, 100-ns ticks
 * @waits: their Waits, summed, 100-ns ticks
 * @cpu_usage: their CPU Usage, summed, 100-ns ticks
 * @parent: the group above, NULL for the root
 * @index: its position among @parent's @children
 * @children: (element-type EtlPreciseGroup): the groups of the next level;
 *   NULL on the innermost level
 * @leaves: (element-type guint): on the innermost level, the indexes into
 *   etl_thread_states_get_switch_ins() of its #ETL_PRECISE_VIEW_MAX_LEAVES
 *   longest Waits (ties by time); NULL above
 * @rest_count: the innermost group's switch-ins not in @leaves
 * @rest_ready: their Ready, summed
 * @rest_waits: their Waits, summed
 * @rest_cpu_usage: their CPU Usage, summed
 *
 * One group of the CPU Usage (Precise) table.  A tree of them is built in a
 * worker and is read-only afterwards.
 */
struct _EtlPreciseGroup
{
  char *label;
  guint64 count;
  gint64 ready;
  gint64 waits;
  gint64 cpu_usage;
  EtlPreciseGroup *parent;
  guint index;
  GPtrArray *children;
  GArray *leaves;
  guint64 rest_count;
  gint64 rest_ready, rest_waits, rest_cpu_usage;
};

EtlPreciseGroup *etl_precise_groups_build (EtlTrace *trace, EtlThreadStates *states, gint64 begin, gint64 end,
                                           guint64 *n_rows, guint *n_processes, GCancellable *cancellable);
void etl_precise_group_free (EtlPreciseGroup *group);

G_END_DECLS
