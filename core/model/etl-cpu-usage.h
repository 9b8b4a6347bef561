/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-process-table.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlCpuUsageMode:
 * @ETL_CPU_USAGE_SAMPLED: from PerfInfo SampledProfile records, each worth
 *   the sampling interval (WPA's "CPU Usage (Sampled)")
 * @ETL_CPU_USAGE_PRECISE: from Thread CSwitch records: a thread runs from
 *   its switch-in to the next CSwitch on that processor (WPA's "CPU Usage
 *   (Precise)")
 *
 * Where the CPU time comes from.
 */
typedef enum
{
  ETL_CPU_USAGE_SAMPLED,
  ETL_CPU_USAGE_PRECISE,
} EtlCpuUsageMode;

/**
 * EtlCpuUsageGrouping:
 * @ETL_CPU_USAGE_BY_PROCESS: one entry per process lifetime
 * @ETL_CPU_USAGE_BY_THREAD: one entry per thread lifetime
 *
 * What an entry of an #EtlCpuUsage is.
 */
typedef enum
{
  ETL_CPU_USAGE_BY_PROCESS,
  ETL_CPU_USAGE_BY_THREAD,
} EtlCpuUsageGrouping;

/**
 * EtlCpuUsageEntry:
 * @pid: process id; G_MAXUINT32 when the thread's process is unknown
 * @tid: thread id (by thread), else G_MAXUINT32
 * @process: (nullable): the process lifetime, when the process table has it
 * @thread: (nullable): the thread lifetime (by thread), when known
 * @name: the display name, "image (PID)" as etl_process_format_name(); by
 *   thread the same, the thread's id and name appended
 * @samples: SampledProfile records attributed to it (sampled mode), else 0
 * @cpu_time: CPU time in 100-ns units: samples × interval (sampled), or the
 *   sum of its running intervals (precise)
 * @percent: @cpu_time as a percentage of all processors over the trace's
 *   span (etl_cpu_usage_get_capacity())
 * @index: its row in the bucket series (etl_cpu_usage_get_bucket_time())
 *
 * One process's (or thread's) CPU use.  Read-only.
 */
typedef struct
{
  guint32 pid;
  guint32 tid;
  const EtlProcess *process;
  const EtlThread *thread;
  char *name;
  guint64 samples;
  gint64 cpu_time;
  double percent;
  guint index;
} EtlCpuUsageEntry;

/**
 * EtlCpuUsage:
 *
 * The CPU use of a trace's processes (or threads), in total and per time
 * bucket; see etl_cpu_usage_compute().  Opaque, reference-counted,
 * read-only once computed and safe to share between threads.
 */
typedef struct _EtlCpuUsage EtlCpuUsage;

/**
 * EtlCpuUsageSeries:
 * @n_rows: rows: the top processes (or threads), then "Other" when any
 *   entry was left out
 * @n_buckets: time buckets
 * @names: (array length=n_rows): each row's name ("Other" last)
 * @entries: (array length=n_rows): each row's entry, %NULL for "Other"
 * @percent: @n_rows × @n_buckets values, row-major: the percentage of all
 *   processors the row used in the bucket
 *
 * A stacked-area series.  Free with etl_cpu_usage_series_free().
 */
typedef struct
{
  guint n_rows;
  guint n_buckets;
  char **names;
  const EtlCpuUsageEntry **entries;
  double *percent;
} EtlCpuUsageSeries;

#define ETL_CPU_USAGE_DEFAULT_INTERVAL 10000 /* 1 ms, in 100-ns units */
#define ETL_CPU_USAGE_MAX_BUCKETS 1000000

EtlCpuUsage *etl_cpu_usage_compute (EtlTrace *trace, EtlCpuUsageMode mode,
                                    EtlCpuUsageGrouping grouping, gint64 bucket_width,
                                    EtlProgressFunc progress, gpointer progress_data,
                                    GCancellable *cancellable, GError **error);
EtlCpuUsage *etl_cpu_usage_compute_range (EtlTrace *trace, EtlCpuUsageMode mode,
                                          EtlCpuUsageGrouping grouping, gint64 begin, gint64 end,
                                          gint64 bucket_width, EtlProgressFunc progress,
                                          gpointer progress_data, GCancellable *cancellable,
                                          GError **error);
EtlCpuUsage *etl_cpu_usage_ref (EtlCpuUsage *usage);
void etl_cpu_usage_unref (EtlCpuUsage *usage);

EtlCpuUsageMode etl_cpu_usage_get_mode (EtlCpuUsage *usage);
EtlCpuUsageGrouping etl_cpu_usage_get_grouping (EtlCpuUsage *usage);
const EtlCpuUsageEntry *etl_cpu_usage_get_entries (EtlCpuUsage *usage, guint *n_entries);
const EtlCpuUsageEntry *etl_cpu_usage_get_idle (EtlCpuUsage *usage);
guint etl_cpu_usage_get_n_cpus (EtlCpuUsage *usage);
gint64 etl_cpu_usage_get_start (EtlCpuUsage *usage);
gint64 etl_cpu_usage_get_end (EtlCpuUsage *usage);
gint64 etl_cpu_usage_get_capacity (EtlCpuUsage *usage);
gint64 etl_cpu_usage_get_bucket_width (EtlCpuUsage *usage);
guint etl_cpu_usage_get_n_buckets (EtlCpuUsage *usage);
gint64 etl_cpu_usage_get_bucket_capacity (EtlCpuUsage *usage, guint bucket);
gint64 etl_cpu_usage_get_bucket_time (EtlCpuUsage *usage, const EtlCpuUsageEntry *entry,
                                      guint bucket);
guint64 etl_cpu_usage_get_bucket_samples (EtlCpuUsage *usage, const EtlCpuUsageEntry *entry,
                                          guint bucket);
guint64 etl_cpu_usage_get_n_records (EtlCpuUsage *usage);
guint64 etl_cpu_usage_get_n_unattributed (EtlCpuUsage *usage);

EtlCpuUsageSeries *etl_cpu_usage_dup_series (EtlCpuUsage *usage, guint top_n);
void etl_cpu_usage_series_free (EtlCpuUsageSeries *series);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCpuUsage, etl_cpu_usage_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCpuUsageSeries, etl_cpu_usage_series_free)

G_END_DECLS
