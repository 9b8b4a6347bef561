/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EtlGuid:
 * @data1: first 32 bits, as in a Windows GUID
 * @data2: next 16 bits
 * @data3: next 16 bits
 * @data4: last 8 bytes
 *
 * A GUID in host order, as Windows' GUID structure.  In a file it is stored
 * little-endian for the first three fields and byte-by-byte for @data4.
 */
typedef struct
{
  guint32 data1;
  guint16 data2;
  guint16 data3;
  guint8 data4[8];
} EtlGuid;

#define ETL_GUID_STRING_LEN 36

/**
 * EtlHeaderType:
 *
 * The trace header type: byte 2 of a record's marker (TRACE_HEADER_TYPE in
 * ntwmi.h).  The 32/64 suffix is the pointer size of the logging process.
 */
typedef enum
{
  ETL_HEADER_TYPE_SYSTEM32 = 1,
  ETL_HEADER_TYPE_SYSTEM64 = 2,
  ETL_HEADER_TYPE_COMPACT32 = 3,
  ETL_HEADER_TYPE_COMPACT64 = 4,
  ETL_HEADER_TYPE_FULL_HEADER32 = 10,
  ETL_HEADER_TYPE_INSTANCE32 = 11,
  ETL_HEADER_TYPE_TIMED = 12,
  ETL_HEADER_TYPE_ERROR = 13,
  ETL_HEADER_TYPE_WNODE_HEADER = 14,
  ETL_HEADER_TYPE_MESSAGE = 15,
  ETL_HEADER_TYPE_PERFINFO32 = 16,
  ETL_HEADER_TYPE_PERFINFO64 = 17,
  ETL_HEADER_TYPE_EVENT_HEADER32 = 18,
  ETL_HEADER_TYPE_EVENT_HEADER64 = 19,
  ETL_HEADER_TYPE_FULL_HEADER64 = 20,
  ETL_HEADER_TYPE_INSTANCE64 = 21,
} EtlHeaderType;

#define ETL_N_HEADER_TYPES 32

/**
 * EtlRecordKind:
 * @ETL_RECORD_KIND_KERNEL: SYSTEM or COMPACT header (NT Kernel Logger, HookId)
 * @ETL_RECORD_KIND_PERFINFO: PERFINFO header (HookId, no pid/tid)
 * @ETL_RECORD_KIND_CLASSIC: FULL_HEADER or INSTANCE header (EVENT_TRACE_HEADER, MOF)
 * @ETL_RECORD_KIND_MANIFEST: EVENT_HEADER of a manifest-based provider
 * @ETL_RECORD_KIND_TRACELOGGING: EVENT_HEADER with EVENT_SCHEMA_TL metadata
 * @ETL_RECORD_KIND_WPP: MESSAGE header (WPP software tracing)
 * @ETL_RECORD_KIND_OTHER: ERROR, WNODE or an unknown header type (skipped)
 *
 * What sort of event a record is, derived from its header type.
 */
typedef enum
{
  ETL_RECORD_KIND_KERNEL,
  ETL_RECORD_KIND_PERFINFO,
  ETL_RECORD_KIND_CLASSIC,
  ETL_RECORD_KIND_MANIFEST,
  ETL_RECORD_KIND_TRACELOGGING,
  ETL_RECORD_KIND_WPP,
  ETL_RECORD_KIND_OTHER,
  ETL_N_RECORD_KINDS
} EtlRecordKind;

/* EVENT_HEADER.Flags (evntcons.h) */
#define ETL_EVENT_HEADER_FLAG_EXTENDED_INFO   0x0001
#define ETL_EVENT_HEADER_FLAG_PRIVATE_SESSION 0x0002
#define ETL_EVENT_HEADER_FLAG_STRING_ONLY     0x0004
#define ETL_EVENT_HEADER_FLAG_TRACE_MESSAGE   0x0008
#define ETL_EVENT_HEADER_FLAG_NO_CPUTIME      0x0010
#define ETL_EVENT_HEADER_FLAG_32_BIT_HEADER   0x0020
#define ETL_EVENT_HEADER_FLAG_64_BIT_HEADER   0x0040
#define ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER  0x0100

/* EVENT_HEADER_EXTENDED_DATA_ITEM.ExtType (evntcons.h) */
#define ETL_EXT_TYPE_RELATED_ACTIVITYID  0x0001
#define ETL_EXT_TYPE_SID                 0x0002
#define ETL_EXT_TYPE_TS_ID               0x0003
#define ETL_EXT_TYPE_INSTANCE_INFO       0x0004
#define ETL_EXT_TYPE_STACK_TRACE32       0x0005
#define ETL_EXT_TYPE_STACK_TRACE64       0x0006
#define ETL_EXT_TYPE_PEBS_INDEX          0x0007
#define ETL_EXT_TYPE_PMC_COUNTERS        0x0008
#define ETL_EXT_TYPE_PSM_KEY             0x0009
#define ETL_EXT_TYPE_EVENT_KEY           0x000A
#define ETL_EXT_TYPE_EVENT_SCHEMA_TL     0x000B
#define ETL_EXT_TYPE_PROV_TRAITS         0x000C
#define ETL_EXT_TYPE_PROCESS_START_KEY   0x000D

/**
 * EtlRecord:
 * @file: index of the file among those opened together
 * @cpu: processor index (from the buffer's ETW_BUFFER_CONTEXT; PROC_INDEX rules applied)
 * @header_type: trace header type (#EtlHeaderType, raw numeric value)
 * @marker_flags: byte 3 of the marker
 * @kind: #EtlRecordKind
 * @size: record size in bytes (header + extended items + user data), unaligned
 * @ts_raw: raw timestamp in the file's clock (QPC, FILETIME or CPU cycles)
 * @filetime: @ts_raw converted to FILETIME (100-ns ticks since 1601-01-01 UTC)
 * @has_pid: %FALSE for PERFINFO and MESSAGE records without SYSTEMINFO
 * @pid: process id (valid when @has_pid)
 * @tid: thread id (valid when @has_pid)
 * @provider: provider GUID; for kernel records the kernel group's GUID from the HookId group
 * @hook_id: HookId (group << 8 | type) for SYSTEM, COMPACT and PERFINFO records, else 0
 * @event_id: EVENT_DESCRIPTOR.Id (EVENT_HEADER), WPP message number, else 0
 * @version: event version (EVENT_DESCRIPTOR.Version or Class.Version)
 * @channel: EVENT_DESCRIPTOR.Channel
 * @level: EVENT_DESCRIPTOR.Level or Class.Level
 * @opcode: EVENT_DESCRIPTOR.Opcode, Class.Type, or the HookId's type byte
 * @task: EVENT_DESCRIPTOR.Task
 * @keyword: EVENT_DESCRIPTOR.Keyword
 * @flags: EVENT_HEADER.Flags (ETL_EVENT_HEADER_FLAG_*), 0 for other headers
 * @event_property: EVENT_HEADER.EventProperty
 * @has_cpu_time: whether @kernel_time/@user_time are present
 * @kernel_time: kernel CPU time in ticks (× TimerResolution = 100-ns units)
 * @user_time: user CPU time in ticks
 * @activity_id: EVENT_HEADER.ActivityId (zero when absent)
 * @ext: extended data items (raw, as in the file), or %NULL
 * @ext_len: length of @ext in bytes
 * @user_data: the event payload, or %NULL when empty
 * @user_data_len: length of @user_data in bytes (extended items excluded)
 * @raw: the whole record
 * @raw_len: bytes available at @raw (≥ @size)
 * @file_offset: byte offset of the record in its file (for a compressed buffer:
 *   the buffer's offset plus the record's offset in the decompressed buffer)
 *
 * A normalised view of one trace record.  Pointers point into the trace's
 * mapping or a decompressed buffer held by the record; release them with
 * etl_record_clear().
 */
typedef struct
{
  guint file;
  guint cpu;
  guint8 header_type;
  guint8 marker_flags;
  guint8 kind;
  guint8 has_pid : 1;
  guint8 has_cpu_time : 1;
  guint8 has_activity_id : 1;
  guint32 size;
  gint64 ts_raw;
  gint64 filetime;
  guint32 pid;
  guint32 tid;
  EtlGuid provider;
  guint16 hook_id;
  guint16 event_id;
  guint8 version;
  guint8 channel;
  guint8 level;
  guint8 opcode;
  guint16 task;
  guint16 flags;
  guint16 event_property;
  guint64 keyword;
  guint32 kernel_time;
  guint32 user_time;
  EtlGuid activity_id;
  const guint8 *ext;
  gsize ext_len;
  const guint8 *user_data;
  gsize user_data_len;
  const guint8 *raw;
  gsize raw_len;
  guint64 file_offset;

  /*< private >*/
  GBytes *hold;
} EtlRecord;

void etl_record_clear (EtlRecord *record);
guint etl_record_get_pointer_size (const EtlRecord *record);

/* g_auto (EtlRecord) r = { 0 }: released (etl_record_clear()) when it goes
 * out of scope, continue and early returns included. */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EtlRecord, etl_record_clear)

void etl_guid_read (EtlGuid *guid, const guint8 *bytes);
void etl_guid_to_string (const EtlGuid *guid, char out[ETL_GUID_STRING_LEN + 1]);
gboolean etl_guid_parse (const char *str, EtlGuid *guid);
gboolean etl_guid_equal (const EtlGuid *a, const EtlGuid *b);
gboolean etl_guid_is_zero (const EtlGuid *guid);
guint etl_guid_hash (gconstpointer guid);
gboolean etl_guid_equal_func (gconstpointer a, gconstpointer b);

const char *etl_header_type_name (guint header_type);
const char *etl_record_kind_name (EtlRecordKind kind);

G_END_DECLS
