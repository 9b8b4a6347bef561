/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlCpuSegment:
 * @start: FILETIME the thread was switched in (its CSwitch record)
 * @end: FILETIME of the next CSwitch on that processor (or the trace's last
 *   record)
 * @tid: the thread that ran (CSwitch NewThreadId), never 0
 * @pid: its process (the trace's process table at @start), G_MAXUINT32
 *   when unknown
 * @row: the CSwitch record's index in the trace
 *
 * One stretch of time a thread ran on a processor.
 */
typedef struct
{
  gint64 start;
  gint64 end;
  guint32 tid;
  guint32 pid;
  guint64 row;
} EtlCpuSegment;

typedef struct _EtlCpuSegments EtlCpuSegments;

/**
 * ETL_CPU_SEGMENTS_NONE:
 *
 * An overview bucket that no segment reaches (etl_cpu_segments_get_overview()).
 */
#define ETL_CPU_SEGMENTS_NONE (G_MAXUINT32 - 1)

EtlCpuSegments *etl_cpu_segments_new (EtlTrace *trace, GCancellable *cancellable, GError **error);
EtlCpuSegments *etl_cpu_segments_ref (EtlCpuSegments *segments);
void etl_cpu_segments_unref (EtlCpuSegments *segments);
guint etl_cpu_segments_get_n_cpus (EtlCpuSegments *segments);
const EtlCpuSegment *etl_cpu_segments_get (EtlCpuSegments *segments, guint cpu, guint *n_segments);
const EtlCpuSegment *etl_cpu_segments_lookup (EtlCpuSegments *segments, guint cpu, gint64 filetime);
const guint32 *etl_cpu_segments_get_overview (EtlCpuSegments *segments, guint cpu, gint64 *start, gint64 *bucket_width,
                                              guint *n_buckets);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCpuSegments, etl_cpu_segments_unref)

G_END_DECLS
