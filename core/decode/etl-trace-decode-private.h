/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-decode.h"
#include "etl-manifest.h"
#include "etl-mof-derived.h"
#include "etl-process-table.h"
#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

/* What a record hands over to decoding while the trace is indexed. */
typedef enum
{
  ETL_FEED_NONE,
  ETL_FEED_TDH,         /* KernelTraceControl MetaData EventInfo / EventMapInfo */
  ETL_FEED_VOLUME,      /* SysConfig VolumeMapping */
  ETL_FEED_LIFETIME,    /* Process / Thread / Microsoft-Windows-Kernel-Process */
  ETL_FEED_EVENTSOURCE, /* an EventSource manifest chunk (event 0xFFFE) */
  ETL_FEED_FILE_NAME,   /* FileIo Name / FileCreate / FileDelete / FileRundown */
} EtlFeedKind;

/* Providers (event classes) whose records may feed; kept per provider id. */
typedef enum
{
  ETL_FEED_CLASS_NONE,
  ETL_FEED_CLASS_METADATA,
  ETL_FEED_CLASS_SYSCONFIG,
  ETL_FEED_CLASS_PROCESS,
  ETL_FEED_CLASS_THREAD,
  ETL_FEED_CLASS_KERNEL_PROCESS,
} EtlFeedClass;

typedef struct _EtlTraceFeed EtlTraceFeed;

/* Reads the record at @index of the trace's merged index (etl_trace_get_record()). */
typedef gboolean (*EtlTraceFeedReader) (gpointer data, guint64 index, EtlRecord *record);

EtlFeedClass etl_trace_feed_classify_provider (const EtlGuid *provider);
EtlFeedKind etl_trace_feed_classify_hook (guint16 hook_id);
EtlFeedKind etl_trace_feed_classify (guint cls, guint8 header_type, guint8 opcode,
                                     const guint8 *record, gsize size);

EtlTraceFeed *etl_trace_feed_new (EtlSchemaRegistry *registry, EtlVolumeMap *volumes,
                                  EtlProcessTable *processes);
void etl_trace_feed_add (EtlTraceFeed *feed, EtlFeedKind kind, const EtlRecord *record);
void etl_trace_feed_keep_by_index (EtlTraceFeed *feed);
gboolean etl_trace_feed_keep_indexes (EtlTraceFeed *feed, EtlFeedKind kind, GArray *indexes, guint64 bytes);
void etl_trace_feed_add_at (EtlTraceFeed *feed, EtlFeedKind kind, const EtlRecord *record, guint64 index);
void etl_trace_feed_finish (EtlTraceFeed *feed);
void etl_trace_feed_free (EtlTraceFeed *feed);
GArray *etl_trace_feed_steal_lifetimes (EtlTraceFeed *feed);
void etl_trace_feed_build_process_table (GArray *kept, EtlProcessTable *table, EtlTraceFeedReader read,
                                         gpointer read_data);
GArray *etl_trace_feed_steal_file_names (EtlTraceFeed *feed);
EtlMofFileNames *etl_trace_feed_build_file_names (GArray *kept, EtlSchemaRegistry *registry,
                                                  const EtlVolumeMap *volumes, EtlTraceFeedReader read,
                                                  gpointer read_data);

G_END_DECLS
