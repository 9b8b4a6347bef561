/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-span-payloads
 * @title: GC, DiskIo, FileIo and Thread payloads
 * @short_description: the fields the built-in intervals need, read in place
 *
 * The built-in intervals (etl-builtin-spans.c) read every GC, DiskIo,
 * FileIo and Thread record of a trace, so they read the few fields they
 * need in place rather than through the generic decoder.  Every read is
 * bounds-checked against the payload's length; a longer payload (a later
 * version's appended fields) reads the same.
 *
 * .NET runtime (Microsoft-Windows-DotNETRuntime, task GarbageCollection;
 * the templates of ClrEtwAll.man, as TraceEvent's ClrTraceEventParser.cs
 * reads them):
 *
 *   GCStart v0:  Count u32, Reason u32
 *   GCStart v1:  Count u32, Depth u32, Reason u32, Type u32, ClrInstanceID u16
 *   GCStart v2:  v1, ClientSequenceNumber u64
 *   GCEnd v0:    Count u32, Depth u16
 *   GCEnd v1:    Count u32, Depth u32, ClrInstanceID u16
 *   GCSuspendEE v0: Reason u16
 *   GCSuspendEE v1: Reason u32, Count u32, ClrInstanceID u16
 *
 * Versions above the highest listed read as the highest (the runtime only
 * appends fields).  The key field is Count (Reason for GCSuspendEE).
 *
 * Kernel DiskIo (MOF classes DiskIo_TypeGroup1–3, versions 2 and 3; P is
 * the record's pointer size):
 *
 *   Read/Write (10, 11): DiskNumber u32, IrpFlags u32, TransferSize u32,
 *     Reserved u32, ByteOffset i64, FileObject P, Irp P,
 *     HighResResponseTime u64, [v3] IssuingThreadId u32
 *   ReadInit/WriteInit/FlushInit (12, 13, 15): Irp P, [v3] IssuingThreadId u32
 *   FlushBuffers (14): DiskNumber u32, IrpFlags u32, HighResResponseTime
 *     u64, Irp P, [v3] IssuingThreadId u32
 *
 * The key field is Irp (completions without it are MISSING).
 *
 * Kernel FileIo (MOF classes FileIo_Create, _SimpleOp, _ReadWrite, _Info,
 * _DirEnum, _OpEnd, version 2; version 3, Windows 8 and later, moves the
 * issuing thread TTID after the file fields as a u32, as TraceEvent reads
 * it; versions below 2 read as 2):
 *
 *   Create (64): IrpPtr P, [v2] TTID P, FileObject P, [v3] TTID u32,
 *     CreateOptions u32, FileAttributes u32, ShareAccess u32, OpenPath
 *     (NUL-terminated UTF-16)
 *   Cleanup/Close/Flush (65, 66, 73): IrpPtr P, [v2] TTID P, FileObject P,
 *     FileKey P, [v3] TTID u32
 *   Read/Write (67, 68): Offset u64, IrpPtr P, [v2] TTID P, FileObject P,
 *     FileKey P, [v3] TTID u32, IoSize u32, IoFlags u32
 *   SetInfo/Delete/Rename/QueryInfo/FSControl (69–71, 74, 75): IrpPtr P,
 *     [v2] TTID P, FileObject P, FileKey P, ExtraInfo P, [v3] TTID u32,
 *     InfoClass u32
 *   DirEnum/DirNotify (72, 77): IrpPtr P, [v2] TTID P, FileObject P,
 *     FileKey P, [v3] TTID u32, Length u32, InfoClass u32, FileIndex u32,
 *     FileName
 *   OpEnd (76): IrpPtr P, ExtraInfo P, NtStatus u32
 *
 * The key field is IrpPtr.  An OpenPath without its NUL ends with the
 * payload; it is cut at 32,767 characters.
 *
 * Kernel Thread (Thread_V1–V4_TypeGroup1, types 1–4): ProcessId u32,
 * TThreadId u32 first (version 0, which put them the other way round on
 * Windows 2000, is not read).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-span-payloads.h"

#include <string.h>

#define MAX_PATH_UNITS 32767

static inline guint32
rd_u16 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8;
}

static inline guint32
rd_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static inline guint64
rd_u64 (const guint8 *p)
{
  return (guint64) rd_u32 (p) | (guint64) rd_u32 (p + 4) << 32;
}

/* A cursor over a payload: every take checks the bytes left. */
typedef struct
{
  const guint8 *p;
  gsize len;
  gsize pos;
  gboolean short_read; /* a take ran out of bytes */
} Cursor;

static gboolean
take (Cursor *c, gsize n, const guint8 **at)
{
  if (c->p == NULL || n > c->len - c->pos)
    {
      c->short_read = TRUE;
      c->pos = c->len;
      return FALSE;
    }
  *at = c->p + c->pos;
  c->pos += n;
  return TRUE;
}

static guint32
take_u32 (Cursor *c)
{
  const guint8 *at;

  return take (c, 4, &at) ? rd_u32 (at) : 0;
}

static guint64
take_u64 (Cursor *c)
{
  const guint8 *at;

  return take (c, 8, &at) ? rd_u64 (at) : 0;
}

static guint64
take_ptr (Cursor *c, guint pointer_size)
{
  const guint8 *at;

  if (!take (c, pointer_size, &at))
    return 0;
  return pointer_size == 4 ? rd_u32 (at) : rd_u64 (at);
}

/* A NUL-terminated UTF-16LE string, to the payload's end when unterminated. */
static char *
take_utf16 (Cursor *c)
{
  gsize n = 0, avail;
  g_autofree gunichar2 *units = NULL;
  char *s;

  if (c->p == NULL || c->pos >= c->len)
    {
      c->short_read = TRUE;
      return NULL;
    }
  avail = (c->len - c->pos) / 2;
  while (n < avail && n < MAX_PATH_UNITS && rd_u16 (c->p + c->pos + 2 * n) != 0)
    n++;
  units = g_new (gunichar2, n + 1);
  for (gsize k = 0; k < n; k++)
    units[k] = (gunichar2) rd_u16 (c->p + c->pos + 2 * k);
  units[n] = 0;
  c->pos = MIN (c->len, c->pos + 2 * (n + 1));
  s = g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
  return s != NULL ? s : g_strdup ("");
}

static EtlSpanRead
result (const Cursor *c)
{
  return c->short_read ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK;
}

/**
 * etl_gc_start_read:
 * @payload: (array length=len) (nullable): a GCStart record's UserData
 * @len: bytes of @payload
 * @version: EVENT_DESCRIPTOR.Version
 * @out: (out caller-allocates): the fields
 *
 * Reads GCStart (layouts in the section overview).
 *
 * Returns: MISSING without the 4 bytes of Count, TRUNCATED when the
 *   version's Depth, Reason or Type are cut
 */
EtlSpanRead
etl_gc_start_read (const guint8 *payload, gsize len, guint8 version, EtlGcStart *out)
{
  Cursor c = { payload, len, 0, FALSE };

  g_return_val_if_fail (out != NULL, ETL_SPAN_READ_MISSING);
  memset (out, 0, sizeof *out);
  if (payload == NULL || len < 4)
    return ETL_SPAN_READ_MISSING;
  out->count = take_u32 (&c);
  if (version == 0)
    {
      out->depth = out->type = ETL_BUILTIN_UNKNOWN;
      out->reason = take_u32 (&c);
      return result (&c);
    }
  out->depth = take_u32 (&c);
  out->reason = take_u32 (&c);
  out->type = take_u32 (&c);
  if (c.short_read)
    out->depth = c.pos < 8 ? ETL_BUILTIN_UNKNOWN : out->depth;
  return result (&c);
}

/**
 * etl_gc_end_read:
 * @payload: (array length=len) (nullable): a GCEnd record's UserData
 * @len: bytes of @payload
 * @version: EVENT_DESCRIPTOR.Version
 * @out: (out caller-allocates): the fields
 *
 * Reads GCEnd (section overview).
 *
 * Returns: MISSING without Count, TRUNCATED without Depth (then
 *   %ETL_BUILTIN_UNKNOWN)
 */
EtlSpanRead
etl_gc_end_read (const guint8 *payload, gsize len, guint8 version, EtlGcEnd *out)
{
  Cursor c = { payload, len, 0, FALSE };
  const guint8 *at;

  g_return_val_if_fail (out != NULL, ETL_SPAN_READ_MISSING);
  memset (out, 0, sizeof *out);
  if (payload == NULL || len < 4)
    return ETL_SPAN_READ_MISSING;
  out->count = take_u32 (&c);
  if (version == 0)
    out->depth = take (&c, 2, &at) ? rd_u16 (at) : ETL_BUILTIN_UNKNOWN;
  else if (!take (&c, 4, &at))
    out->depth = ETL_BUILTIN_UNKNOWN;
  else
    out->depth = rd_u32 (at);
  return result (&c);
}

/**
 * etl_gc_suspend_read:
 * @payload: (array length=len) (nullable): a GCSuspendEEBegin record's UserData
 * @len: bytes of @payload
 * @version: EVENT_DESCRIPTOR.Version
 * @out: (out caller-allocates): the fields
 *
 * Reads GCSuspendEEBegin (section overview).
 *
 * Returns: MISSING without Reason, TRUNCATED without Count (then
 *   %ETL_BUILTIN_UNKNOWN)
 */
EtlSpanRead
etl_gc_suspend_read (const guint8 *payload, gsize len, guint8 version, EtlGcSuspend *out)
{
  Cursor c = { payload, len, 0, FALSE };
  const guint8 *at;

  g_return_val_if_fail (out != NULL, ETL_SPAN_READ_MISSING);
  memset (out, 0, sizeof *out);
  out->count = ETL_BUILTIN_UNKNOWN;
  if (version == 0)
    {
      if (payload == NULL || len < 2)
        return ETL_SPAN_READ_MISSING;
      out->reason = rd_u16 (payload);
      return ETL_SPAN_READ_OK;
    }
  if (payload == NULL || len < 4)
    return ETL_SPAN_READ_MISSING;
  out->reason = take_u32 (&c);
  if (take (&c, 4, &at))
    out->count = rd_u32 (at);
  return result (&c);
}

/**
 * etl_diskio_read:
 * @payload: (array length=len) (nullable): a DiskIo record's UserData
 * @len: bytes of @payload
 * @opcode: its event type (10–15)
 * @version: its version (3 and above carry IssuingThreadId)
 * @pointer_size: the record's pointer size, 4 or 8 (etl_record_get_pointer_size())
 * @out: (out caller-allocates): the fields
 *
 * Reads a DiskIo Read, Write, FlushBuffers or Init record (section overview).
 *
 * Returns: MISSING for another type or without Irp, TRUNCATED when a
 *   field after it is cut
 */
EtlSpanRead
etl_diskio_read (const guint8 *payload, gsize len, guint8 opcode, guint8 version, guint pointer_size,
                 EtlDiskIo *out)
{
  Cursor c = { payload, len, 0, FALSE };
  gboolean have_irp = FALSE;

  g_return_val_if_fail (out != NULL, ETL_SPAN_READ_MISSING);
  memset (out, 0, sizeof *out);
  out->issuing_thread = ETL_BUILTIN_UNKNOWN;
  if (payload == NULL || (pointer_size != 4 && pointer_size != 8))
    return ETL_SPAN_READ_MISSING;
  switch (opcode)
    {
    case ETL_DISKIO_READ:
    case ETL_DISKIO_WRITE:
      out->disk_number = take_u32 (&c);
      out->irp_flags = take_u32 (&c);
      out->transfer_size = take_u32 (&c);
      (void) take_u32 (&c);
      out->byte_offset = (gint64) take_u64 (&c);
      out->file_key = take_ptr (&c, pointer_size);
      out->irp = take_ptr (&c, pointer_size);
      have_irp = !c.short_read;
      out->response_time = take_u64 (&c);
      break;
    case ETL_DISKIO_FLUSH_BUFFERS:
      out->disk_number = take_u32 (&c);
      out->irp_flags = take_u32 (&c);
      out->response_time = take_u64 (&c);
      out->irp = take_ptr (&c, pointer_size);
      have_irp = !c.short_read;
      break;
    case ETL_DISKIO_READ_INIT:
    case ETL_DISKIO_WRITE_INIT:
    case ETL_DISKIO_FLUSH_INIT:
      out->irp = take_ptr (&c, pointer_size);
      have_irp = !c.short_read;
      break;
    default:
      return ETL_SPAN_READ_MISSING;
    }
  if (!have_irp)
    {
      memset (out, 0, sizeof *out);
      out->issuing_thread = ETL_BUILTIN_UNKNOWN;
      return ETL_SPAN_READ_MISSING;
    }
  if (version >= 3 && !c.short_read)
    {
      const guint8 *at;

      if (take (&c, 4, &at))
        out->issuing_thread = rd_u32 (at);
    }
  return result (&c);
}

/**
 * etl_fileio_read:
 * @payload: (array length=len) (nullable): a FileIo record's UserData
 * @len: bytes of @payload
 * @opcode: its event type (64–77)
 * @version: its version (3 and above: the Windows 8 layouts)
 * @pointer_size: the record's pointer size, 4 or 8
 * @out: (out caller-allocates): the fields; free @out->open_path
 *
 * Reads a FileIo operation or OpEnd record (section overview).
 *
 * Returns: MISSING for another type or without IrpPtr, TRUNCATED when a
 *   field after it is cut
 */
EtlSpanRead
etl_fileio_read (const guint8 *payload, gsize len, guint8 opcode, guint8 version, guint pointer_size,
                 EtlFileIo *out)
{
  Cursor c = { payload, len, 0, FALSE };
  gboolean v3 = version >= 3;

  g_return_val_if_fail (out != NULL, ETL_SPAN_READ_MISSING);
  memset (out, 0, sizeof *out);
  if (payload == NULL || (pointer_size != 4 && pointer_size != 8))
    return ETL_SPAN_READ_MISSING;
  switch (opcode)
    {
    case ETL_FILEIO_OP_END:
      out->irp = take_ptr (&c, pointer_size);
      if (c.short_read)
        return ETL_SPAN_READ_MISSING;
      out->extra_info = take_ptr (&c, pointer_size);
      out->nt_status = take_u32 (&c);
      return result (&c);
    case ETL_FILEIO_READ:
    case ETL_FILEIO_WRITE:
      out->offset = take_u64 (&c);
      out->irp = take_ptr (&c, pointer_size);
      break;
    case ETL_FILEIO_CREATE:
    case ETL_FILEIO_CLEANUP:
    case ETL_FILEIO_CLOSE:
    case ETL_FILEIO_FLUSH:
    case ETL_FILEIO_SET_INFO:
    case ETL_FILEIO_DELETE:
    case ETL_FILEIO_RENAME:
    case ETL_FILEIO_QUERY_INFO:
    case ETL_FILEIO_FS_CONTROL:
    case ETL_FILEIO_DIR_ENUM:
    case ETL_FILEIO_DIR_NOTIFY:
      out->irp = take_ptr (&c, pointer_size);
      break;
    default:
      return ETL_SPAN_READ_MISSING;
    }
  if (c.short_read)
    {
      memset (out, 0, sizeof *out);
      return ETL_SPAN_READ_MISSING;
    }
  if (!v3)
    (void) take_ptr (&c, pointer_size); /* TTID */
  out->file_object = take_ptr (&c, pointer_size);
  if (opcode == ETL_FILEIO_CREATE)
    {
      out->file_key = out->file_object;
      if (v3)
        (void) take_u32 (&c); /* TTID */
      (void) take_u32 (&c);   /* CreateOptions */
      (void) take_u32 (&c);   /* FileAttributes */
      (void) take_u32 (&c);   /* ShareAccess */
      if (!c.short_read)
        out->open_path = take_utf16 (&c);
      return result (&c);
    }
  out->file_key = take_ptr (&c, pointer_size);
  switch (opcode)
    {
    case ETL_FILEIO_READ:
    case ETL_FILEIO_WRITE:
      if (v3)
        (void) take_u32 (&c); /* TTID */
      out->io_size = take_u32 (&c);
      (void) take_u32 (&c); /* IoFlags */
      break;
    case ETL_FILEIO_SET_INFO:
    case ETL_FILEIO_DELETE:
    case ETL_FILEIO_RENAME:
    case ETL_FILEIO_QUERY_INFO:
    case ETL_FILEIO_FS_CONTROL:
      out->extra_info = take_ptr (&c, pointer_size);
      if (v3)
        (void) take_u32 (&c); /* TTID */
      (void) take_u32 (&c);   /* InfoClass */
      break;
    case ETL_FILEIO_DIR_ENUM:
    case ETL_FILEIO_DIR_NOTIFY:
      if (v3)
        (void) take_u32 (&c); /* TTID */
      (void) take_u32 (&c);   /* Length */
      (void) take_u32 (&c);   /* InfoClass */
      (void) take_u32 (&c);   /* FileIndex */
      break;
    default: /* Cleanup, Close, Flush */
      if (v3)
        (void) take_u32 (&c); /* TTID */
      break;
    }
  return result (&c);
}

/**
 * etl_thread_ids_read:
 * @payload: (array length=len) (nullable): a Thread Start, End, DCStart or
 *   DCEnd record's UserData
 * @len: bytes of @payload
 * @version: its version (1 and above)
 * @pid: (out): ProcessId
 * @tid: (out): TThreadId
 *
 * Reads the two ids that open every Thread_V1–V4_TypeGroup1 payload.
 *
 * Returns: OK, or MISSING (version 0 or fewer than 8 bytes; @pid and @tid 0)
 */
EtlSpanRead
etl_thread_ids_read (const guint8 *payload, gsize len, guint8 version, guint32 *pid, guint32 *tid)
{
  g_return_val_if_fail (pid != NULL && tid != NULL, ETL_SPAN_READ_MISSING);
  *pid = *tid = 0;
  if (payload == NULL || len < 8 || version == 0)
    return ETL_SPAN_READ_MISSING;
  *pid = rd_u32 (payload);
  *tid = rd_u32 (payload + 4);
  return ETL_SPAN_READ_OK;
}

/**
 * etl_gc_reason_name:
 * @reason: GCStart's Reason
 *
 * Returns: (transfer none) (nullable): its name in ClrEtwAll.man's
 *   GCReasonMap, %NULL for a value the map does not list
 */
const char *
etl_gc_reason_name (guint32 reason)
{
  static const char *const names[] = { "AllocSmall", "Induced", "LowMemory", "Empty", "AllocLarge",
                                       "OutOfSpaceSmallObjectHeap", "OutOfSpaceLargeObjectHeap",
                                       "InducedNoForce", "Stress", "InducedLowMemory" };

  return reason < G_N_ELEMENTS (names) ? names[reason] : NULL;
}

/**
 * etl_gc_type_name:
 * @type: GCStart's Type
 *
 * Returns: (transfer none) (nullable): its name in GCTypeMap, %NULL for a
 *   value the map does not list
 */
const char *
etl_gc_type_name (guint32 type)
{
  static const char *const names[] = { "NonConcurrentGC", "BackgroundGC", "ForegroundGC" };

  return type < G_N_ELEMENTS (names) ? names[type] : NULL;
}

/**
 * etl_gc_suspend_reason_name:
 * @reason: GCSuspendEEBegin's Reason
 *
 * Returns: (transfer none) (nullable): its name in GCSuspendEEReasonMap,
 *   %NULL for a value the map does not list
 */
const char *
etl_gc_suspend_reason_name (guint32 reason)
{
  static const char *const names[] = { "SuspendOther", "SuspendForGC", "SuspendForAppDomainShutdown",
                                       "SuspendForCodePitching", "SuspendForShutdown", "SuspendForDebugger",
                                       "SuspendForGCPrep", "SuspendForDebuggerSweep" };

  return reason < G_N_ELEMENTS (names) ? names[reason] : NULL;
}

/**
 * etl_fileio_op_name:
 * @opcode: a FileIo event type
 *
 * Returns: (transfer none) (nullable): the operation's name as the MOF
 *   pages and TraceEvent name it ("Create", "Read", …), %NULL for a type
 *   that is not an operation
 */
const char *
etl_fileio_op_name (guint8 opcode)
{
  static const char *const names[] = { "Create",  "Cleanup", "Close",     "Read",  "Write",     "SetInfo", "Delete",
                                       "Rename",  "DirEnum", "Flush",     "QueryInfo", "FSControl", NULL,
                                       "DirNotify" };

  if (opcode < ETL_FILEIO_CREATE || opcode > ETL_FILEIO_DIR_NOTIFY)
    return NULL;
  return names[opcode - ETL_FILEIO_CREATE];
}
