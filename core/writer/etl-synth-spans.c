/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The built-in spans trace (#EtlSynthParams.builtin_spans): kernel records
 * (SYSTEM64 headers) of one process's file and disk I/O, for
 * etl-builtin-spans.c, where the corpus has no FileIo records.  Times in ms
 * after the header's time; process 1000 "app.exe", thread 1004; FileObject
 * 0xF1 named "\Device\HarddiskVolume2\data.bin" by a FileIo Name record
 * (version 2); the FileIo records are version 3, the DiskIo ones version 3
 * (IssuingThreadId 1004):
 *
 *   #   t     record
 *   0   1.0   Process Start (v4) pid 1000 app.exe
 *   1   1.1   Thread Start (v3) 1000/1004
 *   2   1.5   FileIo Name 0xF1
 *   3   2.0   FileIo Create Irp 0x100, FileObject 0xF1, OpenPath
 *             "\Device\HarddiskVolume2\data.bin"
 *   4   2.5   FileIo OpEnd 0x100, NtStatus 0
 *   5   3.0   FileIo Read Irp 0x101, FileKey 0xF1, Offset 8192, IoSize 4096
 *   6   3.1   DiskIo ReadInit Irp 0xD1
 *   7   3.3   DiskIo Read Irp 0xD1, FileObject 0xF1, 4096 bytes at 1048576,
 *             HighResResponseTime 0.2 ms
 *   8   3.4   FileIo OpEnd 0x101, NtStatus 0
 *   9   4.0   FileIo Write Irp 0x102, FileKey 0xF1, Offset 0, IoSize 512
 *             (no OpEnd: open)
 *   10  5.0   FileIo OpEnd 0x999 (no operation: unmatched)
 *   11  6.0   DiskIo Write Irp 0xD2 (no Init), 512 bytes at 0, disk 1,
 *             HighResResponseTime 1.0 ms: from 5.0 ms
 *   12  6.5   FileIo Cleanup Irp 0x103
 *   13  6.6   FileIo OpEnd 0x103, NtStatus 0xC0000022
 *   14  8.0   Thread End 1000/1004
 *   15  9.0   Process End pid 1000, ExitStatus 0
 *   16  10.0  Thread Start 1000/1008 (the last record: open, no process) */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth-spans-private.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-put-le.h"

#define TICKS_PER_MS 10000
#define MAX_RECORD   512
#define PATH         "\\Device\\HarddiskVolume2\\data.bin"

/* SYSTEM_TRACE_HEADER (SYSTEM64); Size is set by finish(). */
static void
header (guint8 *p, guint16 version, guint16 hook, guint32 tid, guint32 pid, gint64 ts)
{
  memset (p, 0, ETL_SYSTEM_HEADER_SIZE);
  put_u16 (p, version);
  p[2] = ETL_HEADER_TYPE_SYSTEM64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 6, hook);
  put_u32 (p + 8, tid);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64) ts);
}

static gsize
finish (guint8 *p, gsize payload)
{
  put_u16 (p + 4, (guint16) (ETL_SYSTEM_HEADER_SIZE + payload));
  return ETL_SYSTEM_HEADER_SIZE + payload;
}

/* Process_V4_TypeGroup1: UniqueProcessKey, ProcessId, ParentId, SessionId,
 * ExitStatus, DirectoryTableBase, Flags, UserSID (a NULL TOKEN_USER: 4
 * bytes of zero, as TraceEvent and the decoder read it), ImageFileName, CommandLine,
 * PackageFullName, ApplicationId. */
static gsize
process_record (guint8 *p, guint16 type, guint32 pid, guint32 exit_status, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  gsize k;

  header (p, 4, (guint16) (0x0300 | type), 1004, pid, ts);
  memset (d, 0, 64);
  put_u64 (d, G_GUINT64_CONSTANT (0xFFFFA50100000000) + pid * 0x80);
  put_u32 (d + 8, pid);
  put_u32 (d + 12, 4);
  put_u32 (d + 16, 1);
  put_u32 (d + 20, exit_status);
  put_u64 (d + 24, G_GUINT64_CONSTANT (0x00000001AD000000));
  k = 36;
  put_u32 (d + k, 0); /* UserSID: no SID */
  k += 4;
  memcpy (d + k, "app.exe", 8);
  k += 8;
  k += put_utf16 (d + k, "app.exe");
  k += put_utf16 (d + k, "");
  k += put_utf16 (d + k, "");
  return finish (p, k);
}

/* Thread_V3_TypeGroup1, 72 bytes: ProcessId, TThreadId, then zeros. */
static gsize
thread_record (guint8 *p, guint16 type, guint32 tid, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  header (p, 3, (guint16) (0x0500 | type), tid, 1000, ts);
  memset (d, 0, 72);
  put_u32 (d, 1000);
  put_u32 (d + 4, tid);
  return finish (p, 72);
}

/* FileIo v3 records (etl-span-payloads.c's layouts, 8-byte pointers). */
static gsize
fileio_record (guint8 *p, guint8 type, guint64 irp, guint64 offset, guint32 size, guint32 status, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  gsize k = 0;

  header (p, 3, (guint16) (0x0400 | type), 1004, 1000, ts);
  memset (d, 0, 160);
  switch (type)
    {
    case 0: /* Name (version 2): FileObject, FileName */
      put_u16 (p, 2);
      put_u64 (d, 0xF1);
      k = 8 + put_utf16 (d + 8, PATH);
      break;
    case 64: /* Create: IrpPtr, FileObject, TTID, CreateOptions, FileAttributes, ShareAccess, OpenPath */
      put_u64 (d, irp);
      put_u64 (d + 8, 0xF1);
      put_u32 (d + 16, 1004);
      k = 32 + put_utf16 (d + 32, PATH);
      break;
    case 65: /* Cleanup: IrpPtr, FileObject, FileKey, TTID */
      put_u64 (d, irp);
      put_u64 (d + 8, 0xF1);
      put_u64 (d + 16, 0xF1);
      put_u32 (d + 24, 1004);
      k = 28;
      break;
    case 67:
    case 68: /* Read, Write: Offset, IrpPtr, FileObject, FileKey, TTID, IoSize, IoFlags */
      put_u64 (d, offset);
      put_u64 (d + 8, irp);
      put_u64 (d + 16, 0xF1);
      put_u64 (d + 24, 0xF1);
      put_u32 (d + 32, 1004);
      put_u32 (d + 36, size);
      k = 44;
      break;
    case 76: /* OpEnd: IrpPtr, ExtraInfo, NtStatus */
      put_u64 (d, irp);
      put_u32 (d + 16, status);
      k = 20;
      break;
    default:
      g_assert_not_reached ();
    }
  return finish (p, k);
}

/* DiskIo v3: Init (Irp, IssuingThreadId) or Read/Write (DiskNumber,
 * IrpFlags, TransferSize, Reserved, ByteOffset, FileObject, Irp,
 * HighResResponseTime, IssuingThreadId). */
static gsize
diskio_record (guint8 *p, guint8 type, guint64 irp, guint32 disk, guint32 size, guint64 offset, guint64 response,
               gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  header (p, 3, (guint16) (0x0100 | type), 1004, 1000, ts);
  memset (d, 0, 56);
  if (type == 12)
    {
      put_u64 (d, irp);
      put_u32 (d + 8, 1004);
      return finish (p, 12);
    }
  put_u32 (d, disk);
  put_u32 (d + 8, size);
  put_u64 (d + 16, offset);
  put_u64 (d + 24, 0xF1);
  put_u64 (d + 32, irp);
  put_u64 (d + 40, response);
  put_u32 (d + 48, 1004);
  return finish (p, 52);
}

/*
 * etl_synth_spans_write: (private, etl-synth-spans-private.h)
 * @params: the parameters (unused but for the clock)
 * @w: the writer, after its header
 * @header_ts_raw: the header record's raw timestamp
 * @ticks_per_second: the clock's rate
 * @error: return location for the writer's errors
 *
 * Writes the built-in spans trace described at the top of this file.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_synth_spans_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second,
                       GError **error)
{
  guint8 rec[MAX_RECORD];
  gint64 ms = ticks_per_second / 1000;

  (void) params;
  /* t in 0.1 ms. */
#define TS(t) (header_ts_raw + (gint64) (t) * ms / 10)
#define ADD(t, size)                                                                                                   \
  if (!etl_writer_add_record (w, 0, rec, (size), TS (t), error))                                                      \
    return FALSE;
  ADD (10, process_record (rec, 1, 1000, 259, TS (10)));
  ADD (11, thread_record (rec, 1, 1004, TS (11)));
  ADD (15, fileio_record (rec, 0, 0, 0, 0, 0, TS (15)));
  ADD (20, fileio_record (rec, 64, 0x100, 0, 0, 0, TS (20)));
  ADD (25, fileio_record (rec, 76, 0x100, 0, 0, 0, TS (25)));
  ADD (30, fileio_record (rec, 67, 0x101, 8192, 4096, 0, TS (30)));
  ADD (31, diskio_record (rec, 12, 0xD1, 0, 0, 0, 0, TS (31)));
  ADD (33, diskio_record (rec, 10, 0xD1, 0, 4096, 1048576, (guint64) (2 * ms / 10), TS (33)));
  ADD (34, fileio_record (rec, 76, 0x101, 0, 0, 0, TS (34)));
  ADD (40, fileio_record (rec, 68, 0x102, 0, 512, 0, TS (40)));
  ADD (50, fileio_record (rec, 76, 0x999, 0, 0, 0, TS (50)));
  ADD (60, diskio_record (rec, 11, 0xD2, 1, 512, 0, (guint64) ms, TS (60)));
  ADD (65, fileio_record (rec, 65, 0x103, 0, 0, 0, TS (65)));
  ADD (66, fileio_record (rec, 76, 0x103, 0, 0, 0xC0000022u, TS (66)));
  ADD (80, thread_record (rec, 2, 1004, TS (80)));
  ADD (90, process_record (rec, 2, 1000, 0, TS (90)));
  ADD (100, thread_record (rec, 1, 1008, TS (100)));
#undef ADD
#undef TS
  return TRUE;
}
