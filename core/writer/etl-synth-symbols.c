/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The symbols trace (#EtlSynthParams.symbol_modules): images with and
 * without a PDB identity and sampled stacks into them, for the symbol
 * resolver (etl-symbol-resolver.c).  Times are ms after the trace's start.
 *
 * At 0 ms on processor 0: Process Start (v4) of app.exe (pid 1000), Thread
 * Start (v3) of thread 1004, then per image, in the given order, its
 * KernelTraceControl DbgID_RSDS record when it has one (classic
 * EVENT_TRACE_HEADER FULL_HEADER64, provider
 * b3e675d7-2554-4f18-830b-2762732560de, Class.Type 36, version 2:
 * ImageBase, ProcessId, GuidSig, Age, PdbFileName) and its Image Load (v3,
 * hook 0x030A) in process 1000: the order PerfView's merge writes (the
 * ImageID records right before the image's record, net.4.5.2.x64.etl).
 *
 * Then, from 1 ms, every 1 ms on processor 0, for stack k of
 * #EtlSynthParams.symbol_stacks: a PerfInfo SampledProfile (v2:
 * InstructionPointer = the stack's first frame, ThreadId 1004, Count 1) and
 * right after it, at the same time, its StackWalk record (PERFINFO header,
 * hook 0x1820, StackWalk_Event: EventTimeStamp, StackProcess 1000,
 * StackThread 1004, Stack[]).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-format-private.h"
#include "etl-synth-waits-private.h"
#include "etl-put-le.h"

#define HOOK_PROCESS_START 0x0301
#define HOOK_THREAD_START 0x0501
#define HOOK_IMAGE_LOAD 0x030A
#define HOOK_SAMPLED_PROFILE 0x0F2E
#define HOOK_STACK_WALK 0x1820
#define KTC_DBGID_RSDS 36
#define PID 1000
#define TID 1004
#define MAX_MODULES 64
#define MAX_FRAMES 192
#define MAX_NAME 512
#define MAX_RECORD 4096
#define TICKS_PER_MS 10000

static const EtlGuid ktc_imageid = { 0xb3e675d7, 0x2554, 0x4f18, { 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde } };

/* SYSTEM_TRACE_HEADER (SYSTEM64) with its Size. */
static gsize
system_record (guint8 *p, guint16 version, guint16 hook, guint32 tid, guint32 pid, gint64 ts, gsize payload)
{
  memset (p, 0, ETL_SYSTEM_HEADER_SIZE);
  put_u16 (p, version);
  p[2] = ETL_HEADER_TYPE_SYSTEM64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, (guint16)(ETL_SYSTEM_HEADER_SIZE + payload));
  put_u16 (p + 6, hook);
  put_u32 (p + 8, tid);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64)ts);
  return ETL_SYSTEM_HEADER_SIZE + payload;
}

/* Process Start v4 (Process_V4_TypeGroup1) of app.exe, as etl-synth-waits.c. */
static gsize
process_record (guint8 *p, gint64 ts)
{
  static const guint8 sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  gsize k;

  memset (d, 0, 52);
  put_u64 (d, G_GUINT64_CONSTANT (0xFFFFA50100000000) + PID * 0x80);
  put_u32 (d + 8, PID);
  put_u32 (d + 12, 4);
  put_u32 (d + 16, 1);
  put_u32 (d + 20, 259);
  put_u64 (d + 24, G_GUINT64_CONSTANT (0x00000001AD000000));
  put_u64 (d + 36, G_GUINT64_CONSTANT (0xFFFFC00000001000));
  k = 52;
  memcpy (d + k, sid, sizeof sid);
  k += sizeof sid;
  memcpy (d + k, "app.exe", 8);
  k += 8;
  k += put_utf16 (d + k, "app.exe");
  k += put_utf16 (d + k, "");
  k += put_utf16 (d + k, "");
  return system_record (p, 4, HOOK_PROCESS_START, 0, PID, ts, k);
}

/* Thread Start v3 (Thread_V3_TypeGroup1), 72 bytes. */
static gsize
thread_record (guint8 *p, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  guint64 stack = G_GUINT64_CONSTANT (0xFFFFA50000000000) + ((guint64)TID << 16);

  memset (d, 0, 72);
  put_u32 (d, PID);
  put_u32 (d + 4, TID);
  put_u64 (d + 8, stack);
  put_u64 (d + 16, stack - 0x6000);
  put_u64 (d + 40, 0xFF);
  d[68] = 8;
  d[69] = 5;
  d[70] = 2;
  return system_record (p, 3, HOOK_THREAD_START, TID, PID, ts, 72);
}

/* Image Load v3 (Image_Load), as etl-synth-waits.c. */
static gsize
image_record (guint8 *p, const EtlSynthModule *m, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  memset (d, 0, 56);
  put_u64 (d, m->base);
  put_u64 (d + 8, m->size);
  put_u32 (d + 16, PID);
  put_u64 (d + 32, m->base);
  return system_record (p, 3, HOOK_IMAGE_LOAD, 0, PID, ts, 56 + put_utf16 (d + 56, m->file_name));
}

/* KernelTraceControl DbgID_RSDS (v2) under a FULL_HEADER64
 * EVENT_TRACE_HEADER: Size, HeaderType, MarkerFlags, Class.Type,
 * Class.Level, Class.Version, ThreadId, ProcessId, TimeStamp, Guid,
 * KernelTime, UserTime; then ImageBase, ProcessId, GuidSig, Age,
 * PdbFileName. */
static gsize
dbgid_record (guint8 *p, const EtlSynthModule *m, gint64 ts)
{
  guint8 *d = p + ETL_FULL_HEADER_SIZE;
  gsize name = strlen (m->pdb_name) + 1;
  gsize n = ETL_FULL_HEADER_SIZE + 8 + 4 + 16 + 4 + name;

  memset (p, 0, ETL_FULL_HEADER_SIZE);
  put_u16 (p, (guint16)n);
  p[2] = ETL_HEADER_TYPE_FULL_HEADER64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  p[4] = KTC_DBGID_RSDS;
  p[5] = 4;
  put_u16 (p + 6, 2);
  put_u32 (p + 8, TID);
  put_u32 (p + 12, PID);
  put_u64 (p + 16, (guint64)ts);
  put_u32 (p + 24, ktc_imageid.data1);
  put_u16 (p + 28, ktc_imageid.data2);
  put_u16 (p + 30, ktc_imageid.data3);
  memcpy (p + 32, ktc_imageid.data4, 8);
  put_u64 (d, m->base);
  put_u32 (d + 8, PID);
  put_u32 (d + 12, m->guid.data1);
  put_u16 (d + 16, m->guid.data2);
  put_u16 (d + 18, m->guid.data3);
  memcpy (d + 20, m->guid.data4, 8);
  put_u32 (d + 28, m->age);
  memcpy (d + 32, m->pdb_name, name);
  return n;
}

/* PerfInfo SampledProfile v2: InstructionPointer, ThreadId, Count, Reserved. */
static gsize
sample_record (guint8 *p, guint64 ip, gint64 ts)
{
  gsize n = ETL_PERFINFO_HEADER_SIZE + 16;

  memset (p, 0, n);
  put_u16 (p, 2);
  p[2] = ETL_HEADER_TYPE_PERFINFO64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, (guint16)n);
  put_u16 (p + 6, HOOK_SAMPLED_PROFILE);
  put_u64 (p + 8, (guint64)ts);
  put_u64 (p + 16, ip);
  put_u32 (p + 24, TID);
  put_u16 (p + 28, 1);
  put_u16 (p + 30, 0x40);
  return n;
}

/* StackWalk_Event v2 under a PERFINFO header. */
static gsize
stack_record (guint8 *p, const guint64 *frames, guint n, gint64 ts)
{
  gsize size = ETL_PERFINFO_HEADER_SIZE + 16 + 8 * (gsize)n;

  memset (p, 0, ETL_PERFINFO_HEADER_SIZE);
  put_u16 (p, 2);
  p[2] = ETL_HEADER_TYPE_PERFINFO64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, (guint16)size);
  put_u16 (p + 6, HOOK_STACK_WALK);
  put_u64 (p + 8, (guint64)ts);
  put_u64 (p + 16, (guint64)ts);
  put_u32 (p + 24, PID);
  put_u32 (p + 28, TID);
  for (guint i = 0; i < n; i++)
    put_u64 (p + 32 + 8 * i, frames[i]);
  return size;
}

/* Writes the symbols trace (see the file comment). */
gboolean
etl_synth_symbols_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second,
                         GError **error)
{
  guint8 rec[MAX_RECORD];
  gsize size;
  guint k = 0, sample = 0;

  if (params->n_symbol_modules > MAX_MODULES || (params->n_symbol_stacks > 0 && params->symbol_stacks == NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "synthetic symbols trace: at most %d images, and the stacks' words", MAX_MODULES);
      return FALSE;
    }
  for (guint i = 0; i < params->n_symbol_modules; i++)
    {
      const EtlSynthModule *m = &params->symbol_modules[i];

      if (m->file_name == NULL || strlen (m->file_name) > MAX_NAME
          || (m->has_dbgid && (m->pdb_name == NULL || strlen (m->pdb_name) > MAX_NAME)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "synthetic symbols trace: image %u needs a file name (and a PDB name with its DbgID) "
                       "of at most %d bytes", i, MAX_NAME);
          return FALSE;
        }
    }

#define TS(t) (header_ts_raw + (gint64)((double)(t) * (double)ticks_per_second / 1e7 + 0.5))
  size = process_record (rec, TS (0));
  if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
    return FALSE;
  size = thread_record (rec, TS (0));
  if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
    return FALSE;
  for (guint i = 0; i < params->n_symbol_modules; i++)
    {
      const EtlSynthModule *m = &params->symbol_modules[i];

      if (m->has_dbgid)
        {
          size = dbgid_record (rec, m, TS (0));
          if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
            return FALSE;
        }
      size = image_record (rec, m, TS (0));
      if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
        return FALSE;
    }
  while (k < params->n_symbol_stacks)
    {
      guint n = 0;
      gint64 ts = TS (TICKS_PER_MS * (gint64)(1 + sample++));

      while (k + n < params->n_symbol_stacks && params->symbol_stacks[k + n] != 0)
        n++;
      if (n > 0)
        {
          guint kept = MIN (n, MAX_FRAMES);

          size = sample_record (rec, params->symbol_stacks[k], ts);
          if (!etl_writer_add_record (w, 0, rec, size, ts, error))
            return FALSE;
          size = stack_record (rec, params->symbol_stacks + k, kept, ts);
          if (!etl_writer_add_record (w, 0, rec, size, ts, error))
            return FALSE;
        }
      k += n + 1;
    }
#undef TS
  return TRUE;
}
