/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-process-table.h"
#include "etl-thread-states.h"

G_BEGIN_DECLS

/* Segment kind beyond #EtlThreadStateKind: no known state of the thread
 * (before its first state, after its last, or in a gap). */
#define ETL_CRITICAL_PATH_UNKNOWN (ETL_THREAD_STATE_NOT_RUNNING + 1)

/* Hops followed at most (a wait deeper than this stays a wait). */
#define ETL_CRITICAL_PATH_MAX_DEPTH 64

/**
 * EtlCriticalPathSegment:
 * @start: FILETIME the segment begins (100-ns ticks)
 * @end: FILETIME it ends; @end > @start, and the next segment begins here
 * @tid: the thread the time is charged to
 * @pid: its process at @start (%ETL_THREAD_STATES_NO_ID when unknown)
 * @woke_tid: for @hop > 0, the thread this one readied: the thread one hop
 *   nearer the start whose wait this segment stands in for;
 *   %ETL_THREAD_STATES_NO_ID for @hop 0
 * @kind: an #EtlThreadStateKind, or %ETL_CRITICAL_PATH_UNKNOWN
 * @wait_reason: the state's OldThreadWaitReason (KWAIT_REASON), -1 when
 *   unknown or Running
 * @hop: 0 for the thread asked about, n for the thread n "readied by" links
 *   away from it
 *
 * One interval of a critical path.
 */
typedef struct
{
  gint64 start;
  gint64 end;
  guint32 tid;
  guint32 pid;
  guint32 woke_tid;
  guint8 kind;
  gint8 wait_reason;
  guint16 hop;
} EtlCriticalPathSegment;

/**
 * EtlCriticalPathCounts:
 * @cycles: waits not followed because the readying thread was already on
 *   the chain of hops (a cycle, possible only on inconsistent input)
 * @depth_limited: waits not followed because the hop would exceed
 *   %ETL_CRITICAL_PATH_MAX_DEPTH
 * @max_hop: the deepest hop on the path
 *
 * What the computation met.
 */
typedef struct
{
  guint cycles;
  guint depth_limited;
  guint max_hop;
} EtlCriticalPathCounts;

GArray *etl_critical_path_compute (EtlThreadStates *states, EtlProcessTable *table, guint32 tid,
                                   gint64 from, gint64 to, EtlCriticalPathCounts *counts);
const char *etl_critical_path_kind_name (guint kind);

G_END_DECLS
