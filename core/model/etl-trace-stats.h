/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlTraceStats:
 * @by_provider: (element-type utf8 gsize): records per provider name
 *   (etl_record_dup_provider_name() of the provider's first readable
 *   record; "(other)" past 65535 providers or before that record)
 * @by_kind: (element-type utf8 gsize): readable records per
 *   etl_record_kind_name()
 * @by_header_type: (element-type utf8 gsize): records per
 *   etl_header_type_name()
 * @by_cpu: (element-type utf8 gsize): records per processor index ("0", "1"…)
 * @by_process: (element-type utf8 gsize): records per process as
 *   etl_process_format_name() names it, "none" without one
 * @n_records: records counted
 * @n_unreadable: records etl_trace_get_record() could not read
 *
 * What `etlscope-cli stats` counts.  The values are counts stored with
 * GSIZE_TO_POINTER().
 */
typedef struct
{
  GHashTable *by_provider;
  GHashTable *by_kind;
  GHashTable *by_header_type;
  GHashTable *by_cpu;
  GHashTable *by_process;
  guint64 n_records;
  guint64 n_unreadable;
} EtlTraceStats;

EtlTraceStats *etl_trace_stats_compute (EtlTrace *trace, guint n_workers);
void etl_trace_stats_free (EtlTraceStats *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlTraceStats, etl_trace_stats_free)

G_END_DECLS
