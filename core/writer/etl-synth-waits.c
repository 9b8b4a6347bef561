/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The waits schedule (#EtlSynthParams.waits): a short trace whose thread
 * states have an exact expected answer, for the wait analysis
 * (etl-thread-states.c).  Times below are ms after the trace's start (the
 * header's time); the schedule itself starts at 1 ms.
 *
 * At 0 ms on processor 0: Process Start (v4) of alpha.exe (pid 1000),
 * beta.exe (2000) and gamma.exe (3000), Thread Start (v3) of A = 1004 and
 * D = 1008 (alpha), B = 2004 (beta), C = 3004 (gamma).  At 7 ms Thread End
 * of the four: the trace's last records.
 *
 * Then, at 1 ms + t (c = processor; CSwitch v2 "new ← old", the old
 * thread's OldThreadWaitReason / OldThreadWaitMode / OldThreadState;
 * ReadyThread v2 "T by R", the header's ThreadId R being the readying
 * thread):
 *
 *   t    c  record
 *   0.0  0  CSwitch A ← idle
 *   0.0  1  CSwitch B ← idle
 *   0.5  1  CSwitch idle ← B   UserRequest (6), UserMode, Waiting (5)
 *   0.6  1  CSwitch C ← idle
 *   1.0  0  CSwitch D ← A      WrAlertByThreadId (37), UserMode, Waiting
 *   1.0  1  CSwitch idle ← C   WrQueue (15), KernelMode, Waiting
 *   1.5  0  CSwitch idle ← D   DelayExecution (4), UserMode, Waiting
 *   2.0  0  ReadyThread D by 0 (a DPC: Flag 0x1, header pid 0)
 *   2.2  0  CSwitch D ← idle
 *   2.5  0  ReadyThread B by D (alpha readies beta)
 *   2.8  1  CSwitch B ← idle
 *   3.0  0  CSwitch idle ← D   Executive (0), KernelMode, Waiting
 *   3.2  1  ReadyThread C by B (beta readies gamma)
 *   3.4  1  CSwitch idle ← B   WrPushLock (28), KernelMode, Waiting
 *   3.5  0  CSwitch C ← idle
 *   4.0  0  ReadyThread A by C (gamma readies alpha: D→B→C→A is the chain)
 *   4.1  1  CSwitch A ← idle
 *   4.5  0  CSwitch idle ← C   WrPreempted (32), KernelMode, Ready (1)
 *   4.8  0  CSwitch C ← idle   (no ReadyThread: it was preempted)
 *   5.0  1  ReadyThread B by A (never switched in afterwards)
 *   5.2  1  CSwitch idle ← A   WrLpcReceive (16), UserMode, Waiting
 *   5.5  0  CSwitch idle ← C   Suspended (5), KernelMode, Waiting
 *
 * With #EtlSynthParams.no_ready_thread the ReadyThread records are left
 * out.  Priorities: NewThreadPriority 10 + (tid mod 7), OldThreadPriority
 * likewise (0 for idle). */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth-waits-private.h"

#include <string.h>

#include "etl-format-private.h"

#define HOOK_PROCESS_START 0x0301
#define HOOK_THREAD_START  0x0501
#define HOOK_THREAD_END    0x0502
#define HOOK_CSWITCH       0x0524
#define HOOK_READY_THREAD  0x0532
#define TICKS_PER_MS       10000
#define WAITS_START        (1 * TICKS_PER_MS)
#define MAX_RECORD         512

static void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

static void
put_u32 (guint8 *p, guint32 v)
{
  put_u16 (p, (guint16) v);
  put_u16 (p + 2, (guint16) (v >> 16));
}

static void
put_u64 (guint8 *p, guint64 v)
{
  put_u32 (p, (guint32) v);
  put_u32 (p + 4, (guint32) (v >> 32));
}

static gsize
put_utf16 (guint8 *p, const char *s)
{
  gsize n = 0;

  for (; *s; s++, n += 2)
    put_u16 (p + n, (guint8) *s);
  put_u16 (p + n, 0);
  return n + 2;
}

/* SYSTEM_TRACE_HEADER (SYSTEM64); Size is set by the caller. */
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

/* Process Start v4 (Process_V4_TypeGroup1): UniqueProcessKey, ProcessId,
 * ParentId, SessionId, ExitStatus, DirectoryTableBase, Flags, UserSID
 * (TOKEN_USER + S-1-5-18), ImageFileName, CommandLine, PackageFullName,
 * ApplicationId. */
static gsize
process_record (guint8 *p, guint32 pid, const char *image, gint64 ts)
{
  static const guint8 sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  gsize k = 0, n = strlen (image) + 1;

  header (p, 4, HOOK_PROCESS_START, 0, pid, ts);
  put_u64 (d, G_GUINT64_CONSTANT (0xFFFFA50100000000) + pid * 0x80);
  put_u32 (d + 8, pid);
  put_u32 (d + 12, 4);
  put_u32 (d + 16, 1);
  put_u32 (d + 20, 259);
  put_u64 (d + 24, G_GUINT64_CONSTANT (0x00000001AD000000) + ((guint64) pid << 12));
  put_u32 (d + 32, 0);
  k = 36;
  memset (d + k, 0, 16);
  put_u64 (d + k, G_GUINT64_CONSTANT (0xFFFFC00000001000));
  k += 16;
  memcpy (d + k, sid, sizeof sid);
  k += sizeof sid;
  memcpy (d + k, image, n);
  k += n;
  k += put_utf16 (d + k, image);
  k += put_utf16 (d + k, "");
  k += put_utf16 (d + k, "");
  return finish (p, k);
}

/* Thread Start/End v3 (Thread_V3_TypeGroup1), 72 bytes. */
static gsize
thread_record (guint8 *p, guint16 hook, guint32 pid, guint32 tid, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  guint64 stack = G_GUINT64_CONSTANT (0xFFFFA50000000000) + ((guint64) tid << 16);

  header (p, 3, hook, tid, pid, ts);
  memset (d, 0, 72);
  put_u32 (d, pid);
  put_u32 (d + 4, tid);
  put_u64 (d + 8, stack);
  put_u64 (d + 16, stack - 0x6000);
  put_u64 (d + 40, 0xFF);
  d[68] = 8;
  d[69] = 5;
  d[70] = 2;
  return finish (p, 72);
}

static gint8
priority_of (guint32 tid)
{
  return tid ? (gint8) (10 + tid % 7) : 0;
}

/* CSwitch v2, 24 bytes (CSwitch MOF page). */
static gsize
cswitch_record (guint8 *p, guint cpu, guint32 new_tid, guint32 old_tid, gint8 reason, gint8 mode, gint8 state,
                gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  header (p, 2, HOOK_CSWITCH, new_tid, new_tid / 1000 * 1000, ts);
  memset (d, 0, 24);
  put_u32 (d, new_tid);
  put_u32 (d + 4, old_tid);
  d[8] = (guint8) priority_of (new_tid);
  d[9] = (guint8) priority_of (old_tid);
  d[10] = new_tid ? 0 : 1;
  d[12] = (guint8) reason;
  d[13] = (guint8) mode;
  d[14] = (guint8) state;
  d[15] = (guint8) cpu;
  put_u32 (d + 16, 0x40);
  return finish (p, 24);
}

/* ReadyThread v2, 8 bytes (ReadyThread MOF page); the header names the readying thread. */
static gsize
ready_record (guint8 *p, guint32 tid, guint32 by, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  header (p, 2, HOOK_READY_THREAD, by, by / 1000 * 1000, ts);
  put_u32 (d, tid);
  d[4] = 1;
  d[5] = 1;
  d[6] = by == 0 ? 0x1 : 0;
  d[7] = 0;
  return finish (p, 8);
}

enum
{
  A = 1004,
  D = 1008,
  B = 2004,
  C = 3004,
};

typedef struct
{
  gint64 t;       /* 100-ns after the schedule's start */
  guint cpu;
  gboolean ready; /* ReadyThread (new = T, old = readying thread) */
  guint32 new_tid, old_tid;
  gint8 reason, mode, state;
} WaitsEvent;

/* The table of the file comment. */
static const WaitsEvent waits_events[] = {
  { 0, 0, FALSE, A, 0, 0, 0, 0 },
  { 0, 1, FALSE, B, 0, 0, 0, 0 },
  { 5000, 1, FALSE, 0, B, 6, 1, 5 },
  { 6000, 1, FALSE, C, 0, 0, 0, 0 },
  { 10000, 0, FALSE, D, A, 37, 1, 5 },
  { 10000, 1, FALSE, 0, C, 15, 0, 5 },
  { 15000, 0, FALSE, 0, D, 4, 1, 5 },
  { 20000, 0, TRUE, D, 0, 0, 0, 0 },
  { 22000, 0, FALSE, D, 0, 0, 0, 0 },
  { 25000, 0, TRUE, B, D, 0, 0, 0 },
  { 28000, 1, FALSE, B, 0, 0, 0, 0 },
  { 30000, 0, FALSE, 0, D, 0, 0, 5 },
  { 32000, 1, TRUE, C, B, 0, 0, 0 },
  { 34000, 1, FALSE, 0, B, 28, 0, 5 },
  { 35000, 0, FALSE, C, 0, 0, 0, 0 },
  { 40000, 0, TRUE, A, C, 0, 0, 0 },
  { 41000, 1, FALSE, A, 0, 0, 0, 0 },
  { 45000, 0, FALSE, 0, C, 32, 0, 1 },
  { 48000, 0, FALSE, C, 0, 0, 0, 0 },
  { 50000, 1, TRUE, B, A, 0, 0, 0 },
  { 52000, 1, FALSE, 0, A, 16, 1, 5 },
  { 55000, 0, FALSE, 0, C, 5, 0, 5 },
};

static const struct
{
  guint32 pid, tid;
} waits_threads[] = { { 1000, A }, { 1000, D }, { 2000, B }, { 3000, C } };

/* Writes the waits schedule (see the file comment). */
gboolean
etl_synth_waits_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second,
                       GError **error)
{
  static const struct
  {
    guint32 pid;
    const char *image;
  } procs[] = { { 1000, "alpha.exe" }, { 2000, "beta.exe" }, { 3000, "gamma.exe" } };
  guint8 rec[MAX_RECORD];
  gsize size;

#define TS(t) (header_ts_raw + (gint64) ((double) (t) * (double) ticks_per_second / 1e7 + 0.5))
  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      size = process_record (rec, procs[i].pid, procs[i].image, TS (0));
      if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
        return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (waits_threads); i++)
    {
      size = thread_record (rec, HOOK_THREAD_START, waits_threads[i].pid, waits_threads[i].tid, TS (0));
      if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
        return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (waits_events); i++)
    {
      const WaitsEvent *ev = &waits_events[i];
      gint64 ts = TS (WAITS_START + ev->t);

      if (ev->ready && params->no_ready_thread)
        continue;
      size = ev->ready ? ready_record (rec, ev->new_tid, ev->old_tid, ts)
                       : cswitch_record (rec, ev->cpu, ev->new_tid, ev->old_tid, ev->reason, ev->mode, ev->state, ts);
      if (!etl_writer_add_record (w, ev->cpu, rec, size, ts, error))
        return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (waits_threads); i++)
    {
      gint64 ts = TS (7 * TICKS_PER_MS);

      size = thread_record (rec, HOOK_THREAD_END, waits_threads[i].pid, waits_threads[i].tid, ts);
      if (!etl_writer_add_record (w, 0, rec, size, ts, error))
        return FALSE;
    }
#undef TS
  return TRUE;
}
