/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EtlSpanRead:
 * @ETL_SPAN_READ_OK: every field the layout of that version has was read
 * @ETL_SPAN_READ_TRUNCATED: the payload holds the key fields (see each
 *   reader) but ends before the others; those read as 0 (or as "unknown"
 *   where the structure says so)
 * @ETL_SPAN_READ_MISSING: the payload is too short for the key fields;
 *   nothing was read and every field is 0
 *
 * What the payload readers of etl-span-payloads.c found.
 */
typedef enum
{
  ETL_SPAN_READ_OK,
  ETL_SPAN_READ_TRUNCATED,
  ETL_SPAN_READ_MISSING,
} EtlSpanRead;

/* "Unknown" value of the 32-bit fields below. */
#define ETL_BUILTIN_UNKNOWN G_MAXUINT32

/**
 * EtlGcStart:
 * @count: Count, the GC's number in its process
 * @depth: Depth, the generation collected (%ETL_BUILTIN_UNKNOWN in version 0)
 * @reason: Reason (GCReasonMap)
 * @type: Type (GCTypeMap; %ETL_BUILTIN_UNKNOWN in version 0)
 *
 * GCStart (Microsoft-Windows-DotNETRuntime event 1, versions 0–2).
 */
typedef struct
{
  guint32 count;
  guint32 depth;
  guint32 reason;
  guint32 type;
} EtlGcStart;

/**
 * EtlGcEnd:
 * @count: Count
 * @depth: Depth
 *
 * GCEnd (event 2, versions 0 and 1).
 */
typedef struct
{
  guint32 count;
  guint32 depth;
} EtlGcEnd;

/**
 * EtlGcSuspend:
 * @reason: Reason (GCSuspendEEReasonMap)
 * @count: Count (%ETL_BUILTIN_UNKNOWN in version 0)
 *
 * GCSuspendEEBegin (event 9, versions 0 and 1).
 */
typedef struct
{
  guint32 reason;
  guint32 count;
} EtlGcSuspend;

/**
 * EtlDiskIo:
 * @disk_number: DiskNumber (completions)
 * @irp_flags: IrpFlags (completions)
 * @transfer_size: TransferSize, bytes (Read and Write)
 * @byte_offset: ByteOffset (Read and Write)
 * @file_key: FileObject, the key of FileIo's name records (Read and Write)
 * @irp: Irp
 * @response_time: HighResResponseTime, ticks of the trace's clock
 *   (completions)
 * @issuing_thread: IssuingThreadId (version 3), else %ETL_BUILTIN_UNKNOWN
 *
 * A DiskIo record: a completion (types 10 Read, 11 Write, 14 FlushBuffers)
 * or an Init (12, 13, 15).
 */
typedef struct
{
  guint32 disk_number;
  guint32 irp_flags;
  guint32 transfer_size;
  gint64 byte_offset;
  guint64 file_key;
  guint64 irp;
  guint64 response_time;
  guint32 issuing_thread;
} EtlDiskIo;

/**
 * EtlFileIo:
 * @irp: IrpPtr
 * @file_object: FileObject (0 for OpEnd)
 * @file_key: FileKey (FileObject for Create, which has none)
 * @offset: Offset (Read and Write)
 * @io_size: IoSize, bytes (Read and Write)
 * @extra_info: ExtraInfo (OpEnd and the Info operations)
 * @nt_status: NtStatus (OpEnd)
 * @open_path: (nullable): OpenPath of a Create, UTF-8, owned by the caller
 *   (g_free()); %NULL for the other types
 *
 * A FileIo operation (types 64–75, 77) or OpEnd (76).
 */
typedef struct
{
  guint64 irp;
  guint64 file_object;
  guint64 file_key;
  guint64 offset;
  guint32 io_size;
  guint64 extra_info;
  guint32 nt_status;
  char *open_path;
} EtlFileIo;

/* Event types of the classes read here (the MOF pages, evntrace.h). */
enum
{
  ETL_DISKIO_READ = 10,
  ETL_DISKIO_WRITE = 11,
  ETL_DISKIO_READ_INIT = 12,
  ETL_DISKIO_WRITE_INIT = 13,
  ETL_DISKIO_FLUSH_BUFFERS = 14,
  ETL_DISKIO_FLUSH_INIT = 15,
  ETL_FILEIO_CREATE = 64,
  ETL_FILEIO_CLEANUP = 65,
  ETL_FILEIO_CLOSE = 66,
  ETL_FILEIO_READ = 67,
  ETL_FILEIO_WRITE = 68,
  ETL_FILEIO_SET_INFO = 69,
  ETL_FILEIO_DELETE = 70,
  ETL_FILEIO_RENAME = 71,
  ETL_FILEIO_DIR_ENUM = 72,
  ETL_FILEIO_FLUSH = 73,
  ETL_FILEIO_QUERY_INFO = 74,
  ETL_FILEIO_FS_CONTROL = 75,
  ETL_FILEIO_OP_END = 76,
  ETL_FILEIO_DIR_NOTIFY = 77,
};

EtlSpanRead etl_gc_start_read (const guint8 *payload, gsize len, guint8 version, EtlGcStart *out);
EtlSpanRead etl_gc_end_read (const guint8 *payload, gsize len, guint8 version, EtlGcEnd *out);
EtlSpanRead etl_gc_suspend_read (const guint8 *payload, gsize len, guint8 version, EtlGcSuspend *out);
EtlSpanRead etl_diskio_read (const guint8 *payload, gsize len, guint8 opcode, guint8 version, guint pointer_size,
                             EtlDiskIo *out);
EtlSpanRead etl_fileio_read (const guint8 *payload, gsize len, guint8 opcode, guint8 version, guint pointer_size,
                             EtlFileIo *out);
EtlSpanRead etl_thread_ids_read (const guint8 *payload, gsize len, guint8 version, guint32 *pid, guint32 *tid);

const char *etl_gc_reason_name (guint32 reason);
const char *etl_gc_type_name (guint32 type);
const char *etl_gc_suspend_reason_name (guint32 reason);
const char *etl_fileio_op_name (guint8 opcode);

G_END_DECLS
