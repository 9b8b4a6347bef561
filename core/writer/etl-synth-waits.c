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
 * likewise (0 for idle).
 *
 * With #EtlSynthParams.waits_stacks (so that the records above keep their
 * indexes without it) the trace also has call stacks, as a session with
 * stack walking on CSwitch and ReadyThread logs them:
 *
 * - At 0 ms, after the Process Starts, Image Load (v3, hook 0x030A) of
 *   ntoskrnl.exe in process 0 (base 0xFFFFF80000000000, size 0xC00000),
 *   then per process its .exe (0x7FF600000000, 0x20000) and ntdll.dll
 *   (0x7FFA3C8C0000, 0x1F5000).
 * - After each CSwitch and each ReadyThread, at the same time on the same
 *   processor, a StackWalk record (PERFINFO header, hook 0x1820,
 *   StackWalk_Event: EventTimeStamp = the event's raw timestamp,
 *   StackProcess, StackThread, Stack[] innermost first).  A CSwitch's stack
 *   is the NEW thread's (StackThread = NewThreadId, the CSwitch header's
 *   thread: WPA's New Thread Stack, where the thread had blocked); a
 *   ReadyThread's is the READYING thread's (StackThread = the header's
 *   ThreadId: WPA's Ready Thread Stack).
 *
 * Frames, innermost first; "exe" is the thread's process's .exe, s the
 * OldThreadWaitReason of the new thread's last switch-out (63 for its first
 * switch-in, the thread's start), k the woken thread's place in A, D, B, C
 * (0–3):
 *
 *   CSwitch, new thread T:   ntoskrnl.exe+0x20000+s×0x100,
 *                            ntdll.dll+0xA0000+s×0x10, exe+0x1000+s×0x100,
 *                            exe+0x800, ntdll.dll+0x5E3C0
 *   CSwitch, new thread idle: ntoskrnl.exe+0x201000 (process 0)
 *   ReadyThread by R ≠ 0:     ntoskrnl.exe+0x40000, ntdll.dll+0xB0000,
 *                            exe(R)+0x8000+k×0x10, exe(R)+0x800,
 *                            ntdll.dll+0x5E3C0
 *   ReadyThread by 0 (DPC):   ntoskrnl.exe+0x30000+k×0x10,
 *                            ntoskrnl.exe+0x31000 (process 0)
 *
 * For example A's switch-in at 4.1 ms (it left at 1.0 ms in
 * WrAlertByThreadId, 37) has ntoskrnl.exe+0x22500, ntdll.dll+0xA0250,
 * alpha.exe+0x3500, alpha.exe+0x800, ntdll.dll+0x5E3C0, and the
 * ReadyThread of A by C at 4.0 ms gamma.exe+0x8000 as its third frame. */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth-waits-private.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-put-le.h"

#define HOOK_PROCESS_START 0x0301
#define HOOK_THREAD_START  0x0501
#define HOOK_THREAD_END    0x0502
#define HOOK_CSWITCH       0x0524
#define HOOK_READY_THREAD  0x0532
#define HOOK_IMAGE_LOAD    0x030A
#define HOOK_STACK_WALK    0x1820
#define EXE_BASE           G_GUINT64_CONSTANT (0x00007FF600000000)
#define EXE_SIZE           0x20000
#define NTDLL_BASE         G_GUINT64_CONSTANT (0x00007FFA3C8C0000)
#define NTDLL_SIZE         0x1F5000
#define NTOS_BASE          G_GUINT64_CONSTANT (0xFFFFF80000000000)
#define NTOS_SIZE          0xC00000
#define SITE_START         63 /* "wait reason" of a thread's first switch-in */
#define MAX_FRAMES         8
#define TICKS_PER_MS       10000
#define WAITS_START        (1 * TICKS_PER_MS)
#define MAX_RECORD         512

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

/* Image Load v3 (Image_Load: ImageBase, ImageSize, ProcessId,
 * ImageCheckSum, TimeDateStamp, Reserved0, DefaultBase, Reserved1–4,
 * FileName). */
static gsize
image_record (guint8 *p, guint32 pid, guint64 base, guint64 size, const char *file, gint64 ts)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  header (p, 3, HOOK_IMAGE_LOAD, 0, pid, ts);
  memset (d, 0, 56);
  put_u64 (d, base);
  put_u64 (d + 8, size);
  put_u32 (d + 16, pid);
  put_u32 (d + 20, (guint32) (size >> 4) ^ 0x5A5A);
  put_u32 (d + 24, 0x5E000000 + pid);
  put_u64 (d + 32, base);
  return finish (p, 56 + put_utf16 (d + 56, file));
}

/* StackWalk_Event v2 under a PERFINFO header: EventTimeStamp (@ts, the
 * event's raw timestamp), StackProcess, StackThread, Stack[] innermost
 * first. */
static gsize
stack_record (guint8 *p, guint32 pid, guint32 tid, const guint64 *frames, guint n, gint64 ts)
{
  gsize size = ETL_PERFINFO_HEADER_SIZE + 16 + 8 * (gsize) n;

  memset (p, 0, ETL_PERFINFO_HEADER_SIZE);
  put_u16 (p, 2);
  p[2] = ETL_HEADER_TYPE_PERFINFO64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, (guint16) size);
  put_u16 (p + 6, HOOK_STACK_WALK);
  put_u64 (p + 8, (guint64) ts);
  put_u64 (p + 16, (guint64) ts);
  put_u32 (p + 24, pid);
  put_u32 (p + 28, tid);
  for (guint i = 0; i < n; i++)
    put_u64 (p + 32 + 8 * i, frames[i]);
  return size;
}

/* The New Thread Stack of a switch-in of @tid after a wait of reason @site
 * (see the file comment). */
static guint
new_thread_stack (guint32 tid, guint site, guint64 *frames)
{
  if (tid == 0)
    {
      frames[0] = NTOS_BASE + 0x201000;
      return 1;
    }
  frames[0] = NTOS_BASE + 0x20000 + site * 0x100;
  frames[1] = NTDLL_BASE + 0xA0000 + site * 0x10;
  frames[2] = EXE_BASE + 0x1000 + site * 0x100;
  frames[3] = EXE_BASE + 0x800;
  frames[4] = NTDLL_BASE + 0x5E3C0;
  return 5;
}

/* The Ready Thread Stack of @by readying the thread at place @k. */
static guint
ready_thread_stack (guint32 by, guint k, guint64 *frames)
{
  if (by == 0)
    {
      frames[0] = NTOS_BASE + 0x30000 + k * 0x10;
      frames[1] = NTOS_BASE + 0x31000;
      return 2;
    }
  frames[0] = NTOS_BASE + 0x40000;
  frames[1] = NTDLL_BASE + 0xB0000;
  frames[2] = EXE_BASE + 0x8000 + k * 0x10;
  frames[3] = EXE_BASE + 0x800;
  frames[4] = NTDLL_BASE + 0x5E3C0;
  return 5;
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

/* The thread's place in waits_threads (A, D, B, C: 0–3). */
static guint
place_of (guint32 tid)
{
  for (guint k = 0; k < G_N_ELEMENTS (waits_threads); k++)
    if (waits_threads[k].tid == tid)
      return k;
  return 0;
}

/* The StackWalk record after event @ev (see the file comment); @sites holds
 * each thread's last OldThreadWaitReason, updated here. */
static gsize
event_stack (guint8 *p, const WaitsEvent *ev, guint *sites, gint64 ts)
{
  guint64 frames[MAX_FRAMES];
  guint n;
  guint32 tid;

  if (ev->ready)
    {
      tid = ev->old_tid;
      n = ready_thread_stack (tid, place_of (ev->new_tid), frames);
    }
  else
    {
      tid = ev->new_tid;
      n = new_thread_stack (tid, tid != 0 ? sites[place_of (tid)] : 0, frames);
      if (ev->old_tid != 0)
        sites[place_of (ev->old_tid)] = (guint) ev->reason;
    }
  return stack_record (p, tid / 1000 * 1000, tid, frames, n, ts);
}

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
  guint sites[G_N_ELEMENTS (waits_threads)];
  gsize size;

  for (guint k = 0; k < G_N_ELEMENTS (sites); k++)
    sites[k] = SITE_START;

#define TS(t) (header_ts_raw + (gint64) ((double) (t) * (double) ticks_per_second / 1e7 + 0.5))
  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      size = process_record (rec, procs[i].pid, procs[i].image, TS (0));
      if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
        return FALSE;
    }
  if (params->waits_stacks)
    {
      size = image_record (rec, 0, NTOS_BASE, NTOS_SIZE, "\\SystemRoot\\system32\\ntoskrnl.exe", TS (0));
      if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
        return FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
        {
          g_autofree char *exe = g_strconcat ("\\Device\\HarddiskVolume3\\Synth\\", procs[i].image, NULL);

          size = image_record (rec, procs[i].pid, EXE_BASE, EXE_SIZE, exe, TS (0));
          if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
            return FALSE;
          size = image_record (rec, procs[i].pid, NTDLL_BASE, NTDLL_SIZE,
                               "\\Device\\HarddiskVolume3\\Windows\\System32\\ntdll.dll", TS (0));
          if (!etl_writer_add_record (w, 0, rec, size, TS (0), error))
            return FALSE;
        }
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
      if (!params->waits_stacks)
        continue;
      size = event_stack (rec, ev, sites, ts);
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
