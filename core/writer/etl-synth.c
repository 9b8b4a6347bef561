/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-synth
 * @title: Synthetic traces
 * @short_description: realistic, deterministic .etl files of any size
 *
 * etl_synth_write() generates a trace with the mix of a busy kernel +
 * user-mode session: PERFINFO SampledProfile records (the bulk, 32 bytes),
 * NT Kernel Logger SYSTEM records for threads (Start/End, ThreadGuid v3
 * layout), processes (Start/End, v4 layout with SID, image name and command
 * line) and image loads (v3 layout with the file name), TraceLogging
 * EVENT_HEADER records carrying their PROV_TRAITS and EVENT_SCHEMA_TL
 * extended items, and classic FULL_HEADER (EVENT_TRACE_HEADER) records.
 * Each processor produces events at about 50,000 per second with random
 * gaps; the records of all processors go through an #EtlWriter in time
 * order, so each processor's buffers are flushed, and interleaved in the
 * file, as a real session flushes them.  Losses (a fraction of full buffers
 * thrown away) show as EVENTS_LOST flags, SequenceNumber gaps and the header
 * counters.  The generator is a SplitMix64 sequence from the seed: equal
 * parameters give byte-identical files on every platform.
 *
 * With #EtlSynthParams.schedule it writes instead a trace whose CPU usage has
 * an exact expected answer: Process/Thread Start and End records, the
 * CSwitch and ReadyThread records of a fixed round-robin schedule with idle
 * gaps, and SampledProfile records whose ThreadId is the thread that runs at
 * the sample's time, each followed by the StackWalk record of its call
 * stack, whose frames lie at fixed offsets in the images the trace loads
 * (see etl_synth_write()).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-synth-activities-private.h"
#include "etl-synth-spans-private.h"
#include "etl-synth-waits-private.h"
#include "etl-writer.h"
#include "etl-put-le.h"

#define EVENTS_PER_SECOND_PER_CPU 50000
#define N_PROCESSES               24
#define THREADS_PER_PROCESS       4
#define MAX_RECORD                1024

/* HookIds (group << 8 | type, ntwmi.h) */
#define HOOK_PROCESS_START  0x0301
#define HOOK_PROCESS_END    0x0302
#define HOOK_IMAGE_LOAD     0x030A
#define HOOK_THREAD_START   0x0501
#define HOOK_THREAD_END     0x0502
#define HOOK_SAMPLED_PROFILE 0x0F2E
#define HOOK_PROCESS_DC_START 0x0303
#define HOOK_THREAD_DC_START  0x0503
#define HOOK_CSWITCH          0x0524
#define HOOK_READY_THREAD     0x0532
#define HOOK_COLLECTION_START 0x0F49 /* PerfInfo SampledProfileInterval, type 73 */
#define HOOK_IMAGE_DC_START   0x1403 /* Image group 0x14, type 3 */
#define HOOK_STACK_WALK       0x1820 /* StackWalk group 0x18, type 32 */

/* TraceLogging: the channel its events use, and EVENT_HEADER_EXT_TYPE_* */
#define TL_CHANNEL 11

typedef struct
{
  guint64 state;
} Rng;

static inline guint64
rng_next (Rng *r)
{
  guint64 z = (r->state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline guint32
rng_below (Rng *r, guint32 n)
{
  return (guint32) (((rng_next (r) >> 32) * (guint64) n) >> 32);
}

static void
put_guid (guint8 *p, const EtlGuid *g)
{
  put_u32 (p, g->data1);
  put_u16 (p + 4, g->data2);
  put_u16 (p + 6, g->data3);
  memcpy (p + 8, g->data4, 8);
}

/* Appends a NUL-terminated UTF-16LE copy of an ASCII string; returns the bytes written. */
static gsize
put_utf16_ascii (guint8 *p, const char *s)
{
  gsize n = 0;

  for (; *s; s++, n += 2)
    put_u16 (p + n, (guint8) *s);
  put_u16 (p + n, 0);
  return n + 2;
}

static gsize
put_ascii (guint8 *p, const char *s)
{
  gsize n = strlen (s) + 1;

  memcpy (p, s, n);
  return n;
}

typedef struct
{
  guint32 pid;
  guint32 parent;
  const char *image;
  guint64 image_base;
} Process;

static const char *const images[] = {
  "System", "smss.exe", "csrss.exe", "wininit.exe", "services.exe", "lsass.exe", "svchost.exe",
  "explorer.exe", "dwm.exe", "MsMpEng.exe", "SearchIndexer.exe", "RuntimeBroker.exe",
  "msedge.exe", "Code.exe", "cl.exe", "link.exe", "git.exe", "conhost.exe", "WmiPrvSE.exe",
  "spoolsv.exe", "audiodg.exe", "taskhostw.exe", "ctfmon.exe", "sihost.exe",
};

static const char *const dlls[] = {
  "ntdll.dll", "kernel32.dll", "KernelBase.dll", "ucrtbase.dll", "user32.dll", "win32u.dll",
  "gdi32.dll", "advapi32.dll", "sechost.dll", "rpcrt4.dll", "combase.dll", "ole32.dll",
};

typedef struct
{
  Rng rng;
  Process procs[N_PROCESSES];
  guint8 traits[64];     /* PROV_TRAITS item (header + data), 8-aligned */
  gsize traits_len;
  guint8 schema[2][128]; /* EVENT_SCHEMA_TL items */
  gsize schema_len[2];
  EtlGuid tl_provider;
  EtlGuid classic_provider;
} Gen;

/* An extended data item as stored in a file: {u16 item size, u16 ExtType, u16 linkage, u16 data size}. */
static gsize
build_ext_item (guint8 *out, guint16 ext_type, gboolean more, const guint8 *data, gsize data_len)
{
  gsize item = etl_align8 (ETL_EXT_ITEM_HEADER_SIZE + data_len);

  memset (out, 0, item);
  put_u16 (out, (guint16) item);
  put_u16 (out + 2, ext_type);
  put_u16 (out + 4, more ? 1 : 0);
  put_u16 (out + 6, (guint16) data_len);
  memcpy (out + ETL_EXT_ITEM_HEADER_SIZE, data, data_len);
  return item;
}

static void
gen_init (Gen *g, guint64 seed)
{
  static const char provider_name[] = "Etlscope.Synthetic";
  guint8 blob[128];
  gsize n;

  memset (g, 0, sizeof *g);
  g->rng.state = seed;
  for (guint i = 0; i < N_PROCESSES; i++)
    {
      g->procs[i].pid = i == 0 ? 4 : 4 * (100 + i * 37 + rng_below (&g->rng, 30));
      g->procs[i].parent = i == 0 ? 0 : g->procs[i / 2].pid;
      g->procs[i].image = images[i % G_N_ELEMENTS (images)];
      g->procs[i].image_base = G_GUINT64_CONSTANT (0x00007FF600000000) + ((guint64) rng_below (&g->rng, 1 << 20) << 16);
    }

  /* Provider traits: u16 size, UTF-8 name, no traits. */
  n = 2 + sizeof provider_name;
  put_u16 (blob, (guint16) n);
  memcpy (blob + 2, provider_name, sizeof provider_name);
  g->traits_len = build_ext_item (g->traits, ETL_EXT_TYPE_PROV_TRAITS, TRUE, blob, n);

  /* Event metadata: u16 size, tag byte, name, then fields (name, InType). */
  {
    static const struct { const char *event; const char *f1; guint8 t1; const char *f2; guint8 t2; } ev[2] = {
      { "FrameRendered", "Frame", 8 /* UINT32 */, "DurationUs", 8 /* UINT32 */ },
      { "RequestCompleted", "Url", 2 /* ANSISTRING */, "Status", 8 /* UINT32 */ },
    };

    for (guint e = 0; e < 2; e++)
      {
        n = 2;
        blob[n++] = 0; /* no event tag */
        n += put_ascii (blob + n, ev[e].event);
        n += put_ascii (blob + n, ev[e].f1);
        blob[n++] = ev[e].t1;
        n += put_ascii (blob + n, ev[e].f2);
        blob[n++] = ev[e].t2;
        put_u16 (blob, (guint16) n);
        g->schema_len[e] = build_ext_item (g->schema[e], ETL_EXT_TYPE_EVENT_SCHEMA_TL, FALSE, blob, n);
      }
  }
  /* Fixed, made-up GUIDs (TraceLogging derives its GUID from the name; any value reads the same). */
  etl_guid_parse ("5b1a0c1e-3f4d-5e6a-9b7c-0d1e2f3a4b5c", &g->tl_provider);
  etl_guid_parse ("a7c3e2d1-0b9f-4e8d-8c7b-6a5f4e3d2c1b", &g->classic_provider);
}

static void
system_header (guint8 *p, guint16 version, guint16 hook, guint32 tid, guint32 pid, gint64 ts, Rng *rng)
{
  put_u16 (p, version);
  p[2] = ETL_HEADER_TYPE_SYSTEM64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 6, hook);
  put_u32 (p + 8, tid);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64) ts);
  put_u32 (p + 24, rng_below (rng, 5000)); /* KernelTime, ticks */
  put_u32 (p + 28, rng_below (rng, 5000)); /* UserTime, ticks */
}

/* Builds one record at time @ts into @p; returns its size. */
static gsize
gen_record (Gen *g, gint64 ts, guint8 *p)
{
  Rng *rng = &g->rng;
  guint32 roll = rng_below (rng, 1000);
  const Process *proc = &g->procs[rng_below (rng, N_PROCESSES)];
  guint32 tid = proc->pid + 4 + 4 * rng_below (rng, THREADS_PER_PROCESS);
  gsize n;

  if (roll < 700)
    {
      /* PERFINFO SampledProfile: InstructionPointer, ThreadId, Count, Reserved. */
      gboolean kernel = rng_below (rng, 4) == 0;
      guint64 ip = kernel ? G_GUINT64_CONSTANT (0xFFFFF80000000000) + rng_below (rng, 0x1000000)
                          : proc->image_base + rng_below (rng, 0x200000);

      n = ETL_PERFINFO_HEADER_SIZE + 16;
      put_u16 (p, 2);
      p[2] = ETL_HEADER_TYPE_PERFINFO64;
      p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
      put_u16 (p + 4, (guint16) n);
      put_u16 (p + 6, HOOK_SAMPLED_PROFILE);
      put_u64 (p + 8, (guint64) ts);
      put_u64 (p + 16, ip);
      put_u32 (p + 24, tid);
      put_u16 (p + 28, 1);
      put_u16 (p + 30, kernel ? 0 : 0x40);
      return n;
    }
  if (roll < 760)
    {
      /* Thread Start/End, v3: ProcessId, TThreadId, stack bounds, affinity, start address, TEB, tag, priorities. */
      guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
      guint64 stack = G_GUINT64_CONSTANT (0xFFFFA50000000000) + ((guint64) rng_below (rng, 1 << 16) << 12);

      n = ETL_SYSTEM_HEADER_SIZE + 72;
      system_header (p, 3, roll < 730 ? HOOK_THREAD_START : HOOK_THREAD_END, tid, proc->pid, ts, rng);
      put_u32 (d, proc->pid);
      put_u32 (d + 4, tid);
      put_u64 (d + 8, stack);
      put_u64 (d + 16, stack - 0x6000);
      put_u64 (d + 24, G_GUINT64_CONSTANT (0x000000C000000000) + ((guint64) rng_below (rng, 1 << 16) << 16));
      put_u64 (d + 32, G_GUINT64_CONSTANT (0x000000BFFFF00000));
      put_u64 (d + 40, G_GUINT64_CONSTANT (0xFF));
      put_u64 (d + 48, proc->image_base + 0x1A40);
      put_u64 (d + 56, G_GUINT64_CONSTANT (0x000000C000A00000) + ((guint64) rng_below (rng, 64) << 13));
      put_u32 (d + 64, 0);
      d[68] = 8;
      d[69] = 5;
      d[70] = 2;
      d[71] = 0;
      put_u16 (p + 4, (guint16) n);
      return n;
    }
  if (roll < 790)
    {
      /* Process Start/End, v4: key, pid, parent, session, exit status, DTB, flags, SID, names. */
      guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
      gsize k = 0;
      char cmd[96];

      system_header (p, 4, roll < 775 ? HOOK_PROCESS_START : HOOK_PROCESS_END, tid, proc->pid, ts, rng);
      put_u64 (d + k, G_GUINT64_CONSTANT (0xFFFFA50100000000) + proc->pid * 0x80);
      k += 8;
      put_u32 (d + k, proc->pid);
      put_u32 (d + k + 4, proc->parent);
      put_u32 (d + k + 8, proc->pid == 4 ? 0 : 1);
      put_u32 (d + k + 12, roll < 775 ? 259 /* STILL_ACTIVE */ : 0);
      k += 16;
      put_u64 (d + k, G_GUINT64_CONSTANT (0x00000001AD000000) + ((guint64) proc->pid << 12));
      k += 8;
      put_u32 (d + k, 0);
      k += 4;
      /* TOKEN_USER (pointer + attributes, 16 bytes) then S-1-5-18. */
      memset (d + k, 0, 16);
      put_u64 (d + k, G_GUINT64_CONSTANT (0xFFFFC00000001000));
      k += 16;
      {
        static const guint8 sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };

        memcpy (d + k, sid, sizeof sid);
        k += sizeof sid;
      }
      k += put_ascii (d + k, proc->image);
      g_snprintf (cmd, sizeof cmd, "C:\\Windows\\System32\\%s -k netsvcs -p", proc->image);
      k += put_utf16_ascii (d + k, cmd);
      k += put_utf16_ascii (d + k, "");
      k += put_utf16_ascii (d + k, "");
      n = ETL_SYSTEM_HEADER_SIZE + k;
      put_u16 (p + 4, (guint16) n);
      return n;
    }
  if (roll < 840)
    {
      /* Image Load, v3: base, size, pid, checksum, timestamp, reserved, default base, 4 reserved, file name. */
      guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
      const char *dll = dlls[rng_below (rng, G_N_ELEMENTS (dlls))];
      char file[128];
      gsize k;

      system_header (p, 3, HOOK_IMAGE_LOAD, tid, proc->pid, ts, rng);
      put_u64 (d, G_GUINT64_CONSTANT (0x00007FFA00000000) + ((guint64) rng_below (rng, 1 << 12) << 20));
      put_u64 (d + 8, 0x1F0000 + ((guint64) rng_below (rng, 256) << 12));
      put_u32 (d + 16, proc->pid);
      put_u32 (d + 20, rng_next (rng) & 0xFFFFFF);
      put_u32 (d + 24, 0x5E000000 + rng_below (rng, 0x1000000));
      put_u32 (d + 28, 0);
      put_u64 (d + 32, G_GUINT64_CONSTANT (0x0000000180000000));
      memset (d + 40, 0, 16);
      g_snprintf (file, sizeof file, "\\Device\\HarddiskVolume3\\Windows\\System32\\%s", dll);
      k = 56 + put_utf16_ascii (d + 56, file);
      n = ETL_SYSTEM_HEADER_SIZE + k;
      put_u16 (p + 4, (guint16) n);
      return n;
    }
  if (roll < 940)
    {
      /* TraceLogging EVENT_HEADER with PROV_TRAITS and EVENT_SCHEMA_TL items. */
      guint e = rng_below (rng, 2);
      gsize k = ETL_EVENT_HEADER_SIZE;

      memset (p, 0, ETL_EVENT_HEADER_SIZE);
      p[2] = ETL_HEADER_TYPE_EVENT_HEADER64;
      p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
      put_u16 (p + 4, ETL_EVENT_HEADER_FLAG_EXTENDED_INFO);
      put_u32 (p + 8, tid);
      put_u32 (p + 12, proc->pid);
      put_u64 (p + 16, (guint64) ts);
      put_guid (p + 24, &g->tl_provider);
      p[43] = TL_CHANNEL;
      p[44] = e == 0 ? 5 : 4;          /* Level: verbose / information */
      put_u64 (p + 48, G_GUINT64_CONSTANT (0x0000400000000000) | (e + 1));
      put_u32 (p + 56, rng_below (rng, 5000));
      put_u32 (p + 60, rng_below (rng, 5000));
      memcpy (p + k, g->traits, g->traits_len);
      k += g->traits_len;
      memcpy (p + k, g->schema[e], g->schema_len[e]);
      k += g->schema_len[e];
      if (e == 0)
        {
          put_u32 (p + k, (guint32) (ts / 16));
          put_u32 (p + k + 4, 1000 + rng_below (rng, 15000));
          k += 8;
        }
      else
        {
          char url[48];

          g_snprintf (url, sizeof url, "https://example.org/api/%u", rng_below (rng, 100000));
          k += put_ascii (p + k, url);
          put_u32 (p + k, rng_below (rng, 8) == 0 ? 404 : 200);
          k += 4;
        }
      put_u16 (p, (guint16) k);
      return k;
    }

  /* Classic EVENT_TRACE_HEADER (FULL_HEADER64): Class.Type/Level/Version, GUID, CPU times, 24-byte MOF payload. */
  n = ETL_FULL_HEADER_SIZE + 24;
  memset (p, 0, n);
  put_u16 (p, (guint16) n);
  p[2] = ETL_HEADER_TYPE_FULL_HEADER64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  p[4] = (guint8) (10 + rng_below (rng, 3)); /* provider's own types start at 10 */
  p[5] = 4;
  put_u16 (p + 6, 1);
  put_u32 (p + 8, tid);
  put_u32 (p + 12, proc->pid);
  put_u64 (p + 16, (guint64) ts);
  put_guid (p + 24, &g->classic_provider);
  put_u32 (p + 40, rng_below (rng, 5000));
  put_u32 (p + 44, rng_below (rng, 5000));
  put_u64 (p + 48, rng_next (rng));
  put_u32 (p + 56, rng_below (rng, 1 << 20));
  put_u32 (p + 60, proc->pid);
  put_u64 (p + 64, (guint64) ts);
  return n;
}

/* ------------------------------------------------------------------------ */
/* The CPU schedule (EtlSynthParams.schedule)                                */
/* ------------------------------------------------------------------------ */

#define SLOT_TICKS         10000 /* one slot: 1 ms in 100-ns units */
#define SAMPLE_PHASE       1500  /* first sample 0.15 ms into the schedule */
#define DEFAULT_INTERVAL   10000 /* SampledProfile every 1 ms */
#define SCHED_N_PATTERN    10

typedef struct
{
  guint32 pid;
  guint32 parent;
  const char *image;
} SchedProcess;

/* Idle (pid 0, rundown only), three processes that live through the whole
 * schedule and delta.exe, which starts at slot schedule_ms / 5 and ends at
 * slot schedule_ms * 7 / 10. */
static const SchedProcess sched_processes[] = {
  { 0, 0, "Idle" },
  { 1000, 4, "alpha.exe" },
  { 2000, 4, "beta.exe" },
  { 3000, 1000, "gamma.exe" },
  { 4000, 2000, "delta.exe" },
};
#define SCHED_DELTA 4

typedef struct
{
  guint32 tid;
  guint process;
} SchedThread;

static const SchedThread sched_threads[] = {
  { 1004, 1 }, { 1008, 1 }, { 2004, 2 }, { 3004, 3 }, { 3008, 3 }, { 4004, SCHED_DELTA },
};

/* The images of the schedule: each process loads its .exe and ntdll.dll
 * (Image/Load v3 right after its Process/Start); the kernel's images are
 * Image/DCStart records of process 0 at 0 ms. */
#define SCHED_EXE_BASE        G_GUINT64_CONSTANT (0x00007FF600000000)
#define SCHED_EXE_SIZE        0x20000
#define SCHED_NTDLL_BASE      G_GUINT64_CONSTANT (0x00007FFA3C8C0000)
#define SCHED_NTDLL_SIZE      0x1F5000
#define SCHED_NTOSKRNL_BASE   G_GUINT64_CONSTANT (0xFFFFF80000000000)
#define SCHED_NTOSKRNL_SIZE   0xC00000
#define SCHED_HAL_BASE        G_GUINT64_CONSTANT (0xFFFFF80000C00000)
#define SCHED_HAL_SIZE        0x80000
#define SCHED_KERNEL_THREAD   3008 /* its samples hit the kernel, inside a system call */

/* Frame offsets (see etl_synth_write()). */
#define SCHED_OFF_EXE_LEAF    0x1000 /* + tid × 0x10 */
#define SCHED_OFF_EXE_MAIN    0x1800
#define SCHED_OFF_NTDLL_START 0x5E3C0
#define SCHED_OFF_KRNL_LEAF   0x1A2B30
#define SCHED_OFF_KRNL_SYSCALL 0x40C8E0
#define SCHED_OFF_KRNL_IDLE   0x201000
#define SCHED_OFF_HAL_IDLE    0x2F10

typedef struct
{
  guint process;    /* index in sched_processes */
  const char *path; /* FileName, an NT path */
  guint64 base, size;
} SchedImage;

static const SchedImage sched_kernel_images[] = {
  { 0, "\\SystemRoot\\system32\\ntoskrnl.exe", SCHED_NTOSKRNL_BASE, SCHED_NTOSKRNL_SIZE },
  { 0, "\\SystemRoot\\system32\\hal.dll", SCHED_HAL_BASE, SCHED_HAL_SIZE },
};

/* Slot j of processor c runs entry (j + c) % 10: the thread (-1 = idle) from
 * the slot's start for @run ticks, then idle until the slot's end. */
static const struct
{
  gint thread;
  gint64 run;
} sched_pattern[SCHED_N_PATTERN] = {
  { 0, 10000 }, { 1, 7000 }, { 2, 10000 }, { 0, 4000 }, { 3, 8000 },
  { 4, 4000 }, { -1, 0 }, { 2, 6000 }, { 5, 9000 }, { 3, 10000 },
};

typedef enum
{
  SEV_PROCESS,
  SEV_THREAD,
  SEV_INTERVAL,
  SEV_READY,
  SEV_CSWITCH,
  SEV_SAMPLE,
  SEV_STACK,
  SEV_IMAGE,
} SchedEventKind;

typedef struct
{
  gint64 t;   /* 100-ns ticks from the schedule's start */
  guint seq;  /* insertion order: ties keep it */
  guint cpu;
  SchedEventKind kind;
  guint16 hook;
  guint32 a;  /* process/thread index, the new thread id, the sampled thread id */
  guint32 b;  /* the old thread id; for an image, 0 the .exe, 1 ntdll.dll, 2 + k kernel image k */
} SchedEvent;

typedef struct
{
  guint n_slots;
  guint64 delta_from, delta_to; /* delta.exe's slots, [from, to) */
  guint interval;               /* SampledProfile interval, 100-ns units */
} Sched;

static gint
sched_event_compare (gconstpointer pa, gconstpointer pb)
{
  const SchedEvent *a = pa, *b = pb;

  if (a->t != b->t)
    return a->t < b->t ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The thread id that runs on @cpu at @t (0 = idle). */
static guint32
sched_thread_at (const Sched *s, guint cpu, gint64 t)
{
  guint64 slot = (guint64) t / SLOT_TICKS;
  gint64 off = t % SLOT_TICKS;
  guint e = (guint) ((slot + cpu) % SCHED_N_PATTERN);
  gint th = sched_pattern[e].thread;

  if (th < 0 || off >= sched_pattern[e].run)
    return 0;
  if (sched_threads[th].process == SCHED_DELTA && (slot < s->delta_from || slot >= s->delta_to))
    return 0;
  return sched_threads[th].tid;
}

static guint32
sched_pid_of (guint32 tid)
{
  for (guint i = 0; i < G_N_ELEMENTS (sched_threads); i++)
    if (sched_threads[i].tid == tid)
      return sched_processes[sched_threads[i].process].pid;
  return 0;
}

static void
sched_add (GArray *events, gint64 t, guint cpu, SchedEventKind kind, guint16 hook, guint32 a, guint32 b)
{
  SchedEvent ev = { t, events->len, cpu, kind, hook, a, b };

  g_array_append_val (events, ev);
}

/* Process Start/End/DCStart, version 4 (Process_V4_TypeGroup1). */
static gsize
sched_process_record (guint8 *p, guint16 hook, const SchedProcess *proc, gint64 ts, Rng *rng)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  gsize k = 0;
  static const guint8 sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
  char cmd[96];

  system_header (p, 4, hook, 0, proc->pid, ts, rng);
  put_u64 (d + k, G_GUINT64_CONSTANT (0xFFFFA50100000000) + proc->pid * 0x80);
  k += 8;
  put_u32 (d + k, proc->pid);
  put_u32 (d + k + 4, proc->parent);
  put_u32 (d + k + 8, proc->pid == 0 ? 0 : 1);
  put_u32 (d + k + 12, hook == HOOK_PROCESS_END ? 0 : 259 /* STILL_ACTIVE */);
  k += 16;
  put_u64 (d + k, G_GUINT64_CONSTANT (0x00000001AD000000) + ((guint64) proc->pid << 12));
  k += 8;
  put_u32 (d + k, 0); /* Flags */
  k += 4;
  memset (d + k, 0, 16); /* TOKEN_USER, then S-1-5-18 */
  put_u64 (d + k, G_GUINT64_CONSTANT (0xFFFFC00000001000));
  k += 16;
  memcpy (d + k, sid, sizeof sid);
  k += sizeof sid;
  k += put_ascii (d + k, proc->image);
  g_snprintf (cmd, sizeof cmd, proc->pid == 0 ? "%s" : "C:\\Synth\\%s --run", proc->image);
  k += put_utf16_ascii (d + k, proc->pid == 0 ? "" : cmd);
  k += put_utf16_ascii (d + k, "");
  k += put_utf16_ascii (d + k, "");
  put_u16 (p + 4, (guint16) (ETL_SYSTEM_HEADER_SIZE + k));
  return ETL_SYSTEM_HEADER_SIZE + k;
}

/* Thread Start/End/DCStart, version 3 (Thread_V3_TypeGroup1). */
static gsize
sched_thread_record (guint8 *p, guint16 hook, guint32 pid, guint32 tid, gint64 ts, Rng *rng)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  guint64 stack = G_GUINT64_CONSTANT (0xFFFFA50000000000) + ((guint64) tid << 16);

  system_header (p, 3, hook, tid, pid, ts, rng);
  put_u32 (d, pid);
  put_u32 (d + 4, tid);
  put_u64 (d + 8, stack);
  put_u64 (d + 16, stack - 0x6000);
  put_u64 (d + 24, pid ? G_GUINT64_CONSTANT (0x000000C000000000) + ((guint64) tid << 16) : 0);
  put_u64 (d + 32, pid ? G_GUINT64_CONSTANT (0x000000BFFFF00000) : 0);
  put_u64 (d + 40, G_GUINT64_CONSTANT (0xFF));
  put_u64 (d + 48, pid ? G_GUINT64_CONSTANT (0x00007FF600001A40) : 0);
  put_u64 (d + 56, pid ? G_GUINT64_CONSTANT (0x000000C000A00000) + ((guint64) tid << 13) : 0);
  put_u32 (d + 64, 0);
  d[68] = pid ? 8 : 0;
  d[69] = 5;
  d[70] = 2;
  d[71] = 0;
  put_u16 (p + 4, (guint16) (ETL_SYSTEM_HEADER_SIZE + 72));
  return ETL_SYSTEM_HEADER_SIZE + 72;
}

/* The call stack of a sample of thread @tid (0 = idle), innermost first,
 * into @frames (5 entries); returns the count. */
static guint
sched_stack (guint32 tid, guint64 *frames)
{
  guint n = 0;

  if (tid == 0)
    {
      frames[n++] = SCHED_NTOSKRNL_BASE + SCHED_OFF_KRNL_IDLE;
      frames[n++] = SCHED_HAL_BASE + SCHED_OFF_HAL_IDLE;
      return n;
    }
  if (tid == SCHED_KERNEL_THREAD)
    {
      frames[n++] = SCHED_NTOSKRNL_BASE + SCHED_OFF_KRNL_LEAF;
      frames[n++] = SCHED_NTOSKRNL_BASE + SCHED_OFF_KRNL_SYSCALL;
    }
  frames[n++] = SCHED_EXE_BASE + SCHED_OFF_EXE_LEAF + (guint64) tid * 0x10;
  frames[n++] = SCHED_EXE_BASE + SCHED_OFF_EXE_MAIN;
  frames[n++] = SCHED_NTDLL_BASE + SCHED_OFF_NTDLL_START;
  return n;
}

/* Image Load/DCStart, version 3 (Image_Load): ImageBase, ImageSize,
 * ProcessId, ImageCheckSum, TimeDateStamp, Reserved0, DefaultBase,
 * Reserved1…4, FileName.  @which: 0 the process's .exe, 1 its ntdll.dll,
 * 2 + k sched_kernel_images[k]. */
static gsize
sched_image_record (guint8 *p, guint16 hook, guint process, guint which, gint64 ts, Rng *rng)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;
  const SchedProcess *proc = &sched_processes[process];
  char file[128];
  guint64 base, size;
  gsize n;

  if (which == 0)
    {
      g_snprintf (file, sizeof file, "\\Device\\HarddiskVolume3\\Synth\\%s", proc->image);
      base = SCHED_EXE_BASE;
      size = SCHED_EXE_SIZE;
    }
  else if (which == 1)
    {
      g_strlcpy (file, "\\Device\\HarddiskVolume3\\Windows\\System32\\ntdll.dll", sizeof file);
      base = SCHED_NTDLL_BASE;
      size = SCHED_NTDLL_SIZE;
    }
  else
    {
      const SchedImage *k = &sched_kernel_images[which - 2];

      g_strlcpy (file, k->path, sizeof file);
      base = k->base;
      size = k->size;
    }
  system_header (p, 3, hook, 0, proc->pid, ts, rng);
  put_u64 (d, base);
  put_u64 (d + 8, size);
  put_u32 (d + 16, proc->pid);
  put_u32 (d + 20, (guint32) (size >> 4) ^ 0x5A5A);  /* ImageCheckSum */
  put_u32 (d + 24, 0x5E000000 + proc->pid + which); /* TimeDateStamp */
  put_u32 (d + 28, 0);
  put_u64 (d + 32, base);
  memset (d + 40, 0, 16);
  n = ETL_SYSTEM_HEADER_SIZE + 56 + put_utf16_ascii (d + 56, file);
  put_u16 (p + 4, (guint16) n);
  return n;
}

/* Builds the record of @ev at raw time @ts into @p; returns its size. */
static gsize
sched_record (const Sched *s, const SchedEvent *ev, gint64 ts, guint8 *p, Rng *rng)
{
  guint8 *d = p + ETL_SYSTEM_HEADER_SIZE;

  switch (ev->kind)
    {
    case SEV_PROCESS:
      return sched_process_record (p, ev->hook, &sched_processes[ev->a], ts, rng);
    case SEV_THREAD:
      if (ev->a == G_MAXUINT32) /* the idle thread */
        return sched_thread_record (p, ev->hook, 0, 0, ts, rng);
      return sched_thread_record (p, ev->hook, sched_processes[sched_threads[ev->a].process].pid,
                                  sched_threads[ev->a].tid, ts, rng);
    case SEV_INTERVAL:
      /* PerfInfo_SampledProfileInterval_V3: SampleSource 0 (timer), NewInterval, OldInterval, SourceName. */
      system_header (p, 3, ev->hook, 0, 0, ts, rng);
      put_u32 (d, 0);
      put_u32 (d + 4, s->interval);
      put_u32 (d + 8, DEFAULT_INTERVAL);
      {
        gsize n = ETL_SYSTEM_HEADER_SIZE + 12 + put_utf16_ascii (d + 12, "Timer");

        put_u16 (p + 4, (guint16) n);
        return n;
      }
    case SEV_READY:
      /* ReadyThread v2: TThreadId, AdjustReason, AdjustIncrement, Flag, Reserved. */
      system_header (p, 2, ev->hook, ev->a, sched_pid_of (ev->a), ts, rng);
      put_u32 (d, ev->a);
      d[4] = 1;
      d[5] = 1;
      d[6] = 0;
      d[7] = 0;
      put_u16 (p + 4, ETL_SYSTEM_HEADER_SIZE + 8);
      return ETL_SYSTEM_HEADER_SIZE + 8;
    case SEV_CSWITCH:
      /* CSwitch v2: NewThreadId, OldThreadId, priorities, PreviousCState, SpareByte,
       * OldThreadWaitReason, OldThreadWaitMode, OldThreadState, OldThreadWaitIdealProcessor,
       * NewThreadWaitTime, Reserved. */
      system_header (p, 2, ev->hook, ev->a, sched_pid_of (ev->a), ts, rng);
      put_u32 (d, ev->a);
      put_u32 (d + 4, ev->b);
      d[8] = ev->a ? 8 : 0;
      d[9] = ev->b ? 8 : 0;
      d[10] = ev->a ? 0 : 1;
      d[11] = 0;
      d[12] = ev->b ? 6 : 0;   /* UserRequest */
      d[13] = ev->b ? 1 : 0;   /* UserMode */
      d[14] = ev->b ? 5 : 2;   /* Waiting / Running */
      d[15] = (guint8) ev->cpu;
      put_u32 (d + 16, 0);
      put_u32 (d + 20, 0);
      put_u16 (p + 4, ETL_SYSTEM_HEADER_SIZE + 24);
      return ETL_SYSTEM_HEADER_SIZE + 24;
    case SEV_IMAGE:
      return sched_image_record (p, ev->hook, ev->a, ev->b, ts, rng);
    case SEV_STACK:
      /* PERFINFO StackWalk_Event v2: EventTimeStamp (the sample's raw
       * timestamp), StackProcess, StackThread, Stack[0] (innermost) … */
      {
        guint64 frames[8];
        guint n = sched_stack (ev->a, frames);
        gsize size = ETL_PERFINFO_HEADER_SIZE + 16 + 8 * (gsize) n;

        put_u16 (p, 2);
        p[2] = ETL_HEADER_TYPE_PERFINFO64;
        p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
        put_u16 (p + 4, (guint16) size);
        put_u16 (p + 6, HOOK_STACK_WALK);
        put_u64 (p + 8, (guint64) ts);
        put_u64 (p + 16, (guint64) ts);
        put_u32 (p + 24, sched_pid_of (ev->a));
        put_u32 (p + 28, ev->a);
        for (guint i = 0; i < n; i++)
          put_u64 (p + 32 + 8 * i, frames[i]);
        return size;
      }
    case SEV_SAMPLE:
    default:
      /* PERFINFO SampledProfile: InstructionPointer, ThreadId, Count, Reserved. */
      put_u16 (p, 2);
      p[2] = ETL_HEADER_TYPE_PERFINFO64;
      p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
      put_u16 (p + 4, ETL_PERFINFO_HEADER_SIZE + 16);
      put_u16 (p + 6, HOOK_SAMPLED_PROFILE);
      put_u64 (p + 8, (guint64) ts);
      {
        guint64 frames[8];

        sched_stack (ev->a, frames);
        put_u64 (p + 16, frames[0]); /* InstructionPointer: the stack's leaf */
      }
      put_u32 (p + 24, ev->a);
      put_u16 (p + 28, 1);
      put_u16 (p + 30, ev->a ? 0x40 : 0);
      return ETL_PERFINFO_HEADER_SIZE + 16;
    }
}

/* Adds the events of slot @slot (all processors), and at @slot == n_slots the end. */
static void
sched_slot_events (const Sched *s, guint n_cpus, guint64 slot, guint32 *running, GArray *events)
{
  gint64 t0 = (gint64) slot * SLOT_TICKS;

  if (slot == 0)
    {
      sched_add (events, 0, 0, SEV_PROCESS, HOOK_PROCESS_DC_START, 0, 0);
      sched_add (events, 0, 0, SEV_THREAD, HOOK_THREAD_DC_START, G_MAXUINT32, 0);
      for (guint k = 0; k < G_N_ELEMENTS (sched_kernel_images); k++)
        sched_add (events, 0, 0, SEV_IMAGE, HOOK_IMAGE_DC_START, sched_kernel_images[k].process, 2 + k);
      for (guint i = 0; i < G_N_ELEMENTS (sched_threads); i++)
        {
          guint pi = sched_threads[i].process;

          if (pi == SCHED_DELTA)
            continue;
          if (i == 0 || sched_threads[i - 1].process != pi)
            {
              sched_add (events, 0, 0, SEV_PROCESS, HOOK_PROCESS_START, pi, 0);
              sched_add (events, 0, 0, SEV_IMAGE, HOOK_IMAGE_LOAD, pi, 0);
              sched_add (events, 0, 0, SEV_IMAGE, HOOK_IMAGE_LOAD, pi, 1);
            }
          sched_add (events, 0, 0, SEV_THREAD, HOOK_THREAD_START, i, 0);
        }
      if (s->interval != DEFAULT_INTERVAL)
        sched_add (events, 0, 0, SEV_INTERVAL, HOOK_COLLECTION_START, 0, 0);
    }
  if (slot == s->delta_from && s->delta_from < s->delta_to)
    {
      sched_add (events, t0, 0, SEV_PROCESS, HOOK_PROCESS_START, SCHED_DELTA, 0);
      sched_add (events, t0, 0, SEV_IMAGE, HOOK_IMAGE_LOAD, SCHED_DELTA, 0);
      sched_add (events, t0, 0, SEV_IMAGE, HOOK_IMAGE_LOAD, SCHED_DELTA, 1);
      sched_add (events, t0, 0, SEV_THREAD, HOOK_THREAD_START, G_N_ELEMENTS (sched_threads) - 1, 0);
    }

  for (guint c = 0; c < n_cpus; c++)
    {
      guint32 tid = slot < s->n_slots ? sched_thread_at (s, c, t0) : 0;

      if (running[c] != tid)
        {
          if (tid != 0)
            sched_add (events, t0, c, SEV_READY, HOOK_READY_THREAD, tid, 0);
          sched_add (events, t0, c, SEV_CSWITCH, HOOK_CSWITCH, tid, running[c] == G_MAXUINT32 ? 0 : running[c]);
          running[c] = tid;
        }
      if (slot >= s->n_slots)
        continue;
      if (tid != 0)
        {
          gint64 run = sched_pattern[(slot + c) % SCHED_N_PATTERN].run;

          if (run < SLOT_TICKS)
            {
              sched_add (events, t0 + run, c, SEV_CSWITCH, HOOK_CSWITCH, 0, tid);
              running[c] = 0;
            }
        }
      /* Samples of this slot: SAMPLE_PHASE + k × interval in [t0, t0 + 1 ms). */
      {
        gint64 first = t0 <= SAMPLE_PHASE ? SAMPLE_PHASE
                                          : SAMPLE_PHASE + (t0 - SAMPLE_PHASE + s->interval - 1) / s->interval * s->interval;

        for (gint64 t = first; t < t0 + SLOT_TICKS; t += s->interval)
          {
            guint32 sampled = sched_thread_at (s, c, t);

            sched_add (events, t, c, SEV_SAMPLE, HOOK_SAMPLED_PROFILE, sampled, 0);
            sched_add (events, t, c, SEV_STACK, HOOK_STACK_WALK, sampled, 0);
          }
      }
    }

  if (slot == s->delta_to && s->delta_from < s->delta_to)
    {
      sched_add (events, t0, 0, SEV_THREAD, HOOK_THREAD_END, G_N_ELEMENTS (sched_threads) - 1, 0);
      sched_add (events, t0, 0, SEV_PROCESS, HOOK_PROCESS_END, SCHED_DELTA, 0);
    }
  if (slot == s->n_slots)
    for (guint i = 0; i < G_N_ELEMENTS (sched_threads); i++)
      {
        guint pi = sched_threads[i].process;

        if (pi == SCHED_DELTA)
          continue;
        sched_add (events, t0, 0, SEV_THREAD, HOOK_THREAD_END, i, 0);
        if (i + 1 == G_N_ELEMENTS (sched_threads) || sched_threads[i + 1].process != pi)
          sched_add (events, t0, 0, SEV_PROCESS, HOOK_PROCESS_END, pi, 0);
      }
}

/* Writes the schedule: slot by slot, each slot's events sorted by time. */
static gboolean
sched_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second,
             GError **error)
{
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (SchedEvent));
  g_autofree guint32 *running = g_new (guint32, params->n_cpus);
  Rng rng = { params->seed };
  Sched s;
  guint8 rec[MAX_RECORD];

  s.n_slots = params->schedule_ms;
  s.delta_from = s.n_slots / 5;
  s.delta_to = (guint64) s.n_slots * 7 / 10;
  s.interval = params->sample_interval ? params->sample_interval : DEFAULT_INTERVAL;
  for (guint c = 0; c < params->n_cpus; c++)
    running[c] = G_MAXUINT32; /* unknown before the first CSwitch */

  for (guint64 slot = 0; slot <= s.n_slots; slot++)
    {
      g_array_set_size (events, 0);
      sched_slot_events (&s, params->n_cpus, slot, running, events);
      g_array_sort (events, sched_event_compare);
      for (guint i = 0; i < events->len; i++)
        {
          const SchedEvent *ev = &g_array_index (events, SchedEvent, i);
          gint64 ts = header_ts_raw + (gint64) ((double) ev->t * (double) ticks_per_second / 1e7 + 0.5);
          gsize size = sched_record (&s, ev, ts, rec, &rng);

          if (!etl_writer_add_record (w, ev->cpu, rec, size, ts, error))
            return FALSE;
        }
    }
  return TRUE;
}

/**
 * etl_synth_params_init:
 * @params: (out caller-allocates): parameters to fill
 *
 * Defaults: 4 processors, 100,000 records, 64 KiB buffers, the QPC clock,
 * no losses, seed 1; no schedule (100 slots when enabled, samples every
 * 1 ms without a SampledProfileInterval record).
 */
void
etl_synth_params_init (EtlSynthParams *params)
{
  g_return_if_fail (params != NULL);
  params->n_cpus = 4;
  params->n_records = 100000;
  params->buffer_kb = 64;
  params->clock = ETL_CLOCK_QPC;
  params->loss_rate = 0.0;
  params->seed = 1;
  params->schedule = FALSE;
  params->schedule_ms = 100;
  params->sample_interval = 0;
  params->waits = FALSE;
  params->no_ready_thread = FALSE;
  params->waits_stacks = FALSE;
  params->symbol_modules = NULL;
  params->n_symbol_modules = 0;
  params->symbol_stacks = NULL;
  params->n_symbol_stacks = 0;
  params->activities = FALSE;
  params->builtin_spans = FALSE;
  params->activity_pairs = 0;
}

typedef struct
{
  gint64 next_ts;
  guint64 target;
  guint64 kept;
} SynthCpu;

static inline gboolean
cpu_before (const SynthCpu *cpus, guint a, guint b)
{
  return cpus[a].next_ts < cpus[b].next_ts || (cpus[a].next_ts == cpus[b].next_ts && a < b);
}

static void
sift_down (const SynthCpu *cpus, guint *heap, guint len, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, s = i;

      if (l < len && cpu_before (cpus, heap[l], heap[s]))
        s = l;
      if (r < len && cpu_before (cpus, heap[r], heap[s]))
        s = r;
      if (s == i)
        return;
      {
        guint t = heap[i];

        heap[i] = heap[s];
        heap[s] = t;
      }
      i = s;
    }
}

/**
 * etl_synth_write:
 * @params: what to generate (see #EtlSynthParams)
 * @path: (type filename): the .etl file to write, atomically
 * @error: return location for a #GError
 *
 * Writes a synthetic trace (see the section overview): an EventTrace header
 * (session "Etlscope Synthetic", Windows 10 19041 values, the chosen clock:
 * QPC at 10 MHz, FILETIME, or cycles at 2995 MHz), then exactly
 * @params->n_records event records spread over @params->n_cpus processors,
 * and, with a loss rate, the loss evidence described at #EtlSynthParams.
 *
 * With @params->schedule, the records are instead a CPU schedule of
 * @params->schedule_ms slots of 1 ms that starts at the header's time (0 ms):
 * at 0 ms Process DCStart "Idle" (pid 0) and Thread DCStart tid 0, Process
 * Start (v4, with image name and command line) and Thread Start (v3) of
 * alpha.exe (pid 1000, tids 1004 and 1008), beta.exe (2000; 2004) and
 * gamma.exe (3000; 3004, 3008), and, unless
 * @params->sample_interval is 0, a PerfInfo SampledProfileInterval
 * CollectionStart record (v3, SampleSource 0, NewInterval = the interval);
 * delta.exe (4000; 4004) starts at slot schedule_ms / 5 and ends at slot
 * schedule_ms × 7 / 10; the others end (Thread End, Process End) at
 * schedule_ms, the last record.  Slot j of processor c runs entry
 * (j + c) mod 10 of the pattern (thread, run time in ms): 1004 1, 1008 0.7,
 * 2004 1, 1004 0.4, 3004 0.8, 3008 0.4, idle, 2004 0.6, 4004 0.9 (idle
 * while delta.exe is not running), 3004 1: the thread is switched in at
 * the slot's start (ReadyThread, then CSwitch v2 with NewThreadId and
 * OldThreadId; no record when the thread already runs) and out to the idle
 * thread (tid 0) after its run time.  SampledProfile records (PERFINFO
 * header, ThreadId of the running thread, 0 when idle) come on every
 * processor at 0.15 ms + k × interval (1 ms by default), each followed on
 * the same processor by a StackWalk record (PERFINFO, v2: EventTimeStamp =
 * the sample's raw timestamp, StackProcess, StackThread, then the frames).
 * The images: Image/DCStart (v3) of ntoskrnl.exe (0xFFFFF80000000000, size
 * 0xC00000) and hal.dll (0xFFFFF80000C00000, 0x80000) in process 0 at 0 ms,
 * and after each Process/Start an Image/Load (v3) of the process's .exe
 * (0x7FF600000000, 0x20000) and of ntdll.dll (0x7FFA3C8C0000, 0x1F5000).
 * Stacks, innermost first: a sample of thread T runs exe+0x1000+T×0x10,
 * called from exe+0x1800, called from ntdll.dll+0x5E3C0; thread 3008's
 * samples hit the kernel: ntoskrnl.exe+0x1A2B30, ntoskrnl.exe+0x40C8E0, then
 * the same three user frames; idle samples are ntoskrnl.exe+0x201000,
 * hal.dll+0x2F10.  The sample's InstructionPointer is its first frame.
 * With @params->waits, the records are the waits schedule of
 * etl-synth-waits.c instead; with @params->activities, the Start/Stop
 * activities of etl-synth-activities.c; with @params->builtin_spans, the
 * file and disk I/O of etl-synth-spans.c.  With 4
 * processors and 100 slots, for example, the precise CPU time is alpha.exe
 * 84 ms, beta.exe 64 ms, gamma.exe 88 ms, delta.exe 18 ms and idle 146 ms.
 *
 * Errors: %G_IO_ERROR_INVALID_ARGUMENT for parameters out of range; those of
 * etl_writer_new(), etl_writer_add_record() and etl_writer_close().
 *
 * Returns: %TRUE on success
 */
gboolean
etl_synth_write (const EtlSynthParams *params, const char *path, GError **error)
{
  g_autoptr (EtlWriter) w = NULL;
  g_autofree SynthCpu *cpus = NULL;
  g_autofree guint *heap = NULL;
  g_autofree Gen *g = NULL;
  EtlWriterHeader h;
  Rng loss_rng;
  guint heap_len = 0;
  gint64 ticks_per_us, mean_gap;
  guint8 rec[MAX_RECORD];
  guint32 loss_threshold;
  gboolean flushed = FALSE;

  g_return_val_if_fail (params != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (params->n_cpus < 1 || params->n_cpus > ETL_WRITER_MAX_CPUS || params->buffer_kb < 4
      || params->buffer_kb > 16384 || !(params->loss_rate >= 0.0 && params->loss_rate <= 0.9)
      || params->clock < ETL_CLOCK_QPC || params->clock > ETL_CLOCK_CPU_CYCLE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: synthetic trace parameters out of range (1–%u processors, 4–16384 KiB buffers, "
                   "loss rate 0–0.9, clock 1–3)", path, ETL_WRITER_MAX_CPUS);
      return FALSE;
    }
  if (params->schedule
      && (params->schedule_ms < 1 || params->schedule_ms > 3600000
          || (params->sample_interval != 0 && (params->sample_interval < 1000 || params->sample_interval > 1000000))))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: synthetic schedule out of range (1–3,600,000 slots of 1 ms, sample interval 0 or "
                   "1,000–1,000,000 × 100 ns)", path);
      return FALSE;
    }

  if (params->waits && params->n_cpus < 2)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: the synthetic waits schedule needs 2 processors or more", path);
      return FALSE;
    }

  g = g_new0 (Gen, 1);
  gen_init (g, params->seed);
  loss_rng.state = params->seed ^ G_GUINT64_CONSTANT (0x5DEECE66D);

  etl_writer_header_init (&h);
  h.buffer_size = params->buffer_kb * 1024u;
  h.number_of_processors = params->n_cpus;
  h.clock_type = params->clock;
  h.logger_name = "Etlscope Synthetic";
  h.log_file_name = path;
  h.log_file_mode = 0x00000001; /* EVENT_TRACE_FILE_MODE_SEQUENTIAL */
  h.header_pid = 1234;
  h.header_tid = 5678;
  switch (params->clock)
    {
    case ETL_CLOCK_SYSTEM_TIME:
      ticks_per_us = 10;
      h.header_ts_raw = h.start_time;
      break;
    case ETL_CLOCK_CPU_CYCLE:
      ticks_per_us = h.cpu_speed_mhz;
      h.header_ts_raw = (gint64) 3600 * 1000000 * h.cpu_speed_mhz; /* an hour of uptime */
      break;
    case ETL_CLOCK_QPC:
    default:
      ticks_per_us = h.perf_freq / 1000000;
      h.header_ts_raw = (gint64) 3600 * h.perf_freq;
      break;
    }
  mean_gap = ticks_per_us * (1000000 / EVENTS_PER_SECOND_PER_CPU);

  w = etl_writer_new (path, &h, error);
  if (w == NULL)
    return FALSE;
  if (params->schedule || params->waits || params->symbol_modules != NULL || params->activities
      || params->builtin_spans)
    {
      gint64 ticks_per_second = params->clock == ETL_CLOCK_SYSTEM_TIME  ? 10000000
                                : params->clock == ETL_CLOCK_CPU_CYCLE ? (gint64) h.cpu_speed_mhz * 1000000
                                                                       : h.perf_freq;

      if (params->builtin_spans ? !etl_synth_spans_write (params, w, h.header_ts_raw, ticks_per_second, error)
          : params->symbol_modules != NULL
              ? !etl_synth_symbols_write (params, w, h.header_ts_raw, ticks_per_second, error)
          : params->activities ? !etl_synth_activities_write (params, w, h.header_ts_raw, ticks_per_second, error)
          : params->waits      ? !etl_synth_waits_write (params, w, h.header_ts_raw, ticks_per_second, error)
                               : !sched_write (params, w, h.header_ts_raw, ticks_per_second, error))
        return FALSE;
      return etl_writer_close (w, NULL, error);
    }

  cpus = g_new0 (SynthCpu, params->n_cpus);
  heap = g_new (guint, params->n_cpus);
  for (guint c = 0; c < params->n_cpus; c++)
    {
      cpus[c].target = params->n_records / params->n_cpus + (c < params->n_records % params->n_cpus ? 1 : 0);
      cpus[c].next_ts = h.header_ts_raw + 1 + rng_below (&g->rng, (guint32) mean_gap);
      if (cpus[c].target > 0)
        heap[heap_len++] = c;
    }
  for (guint i = heap_len / 2; i-- > 0;)
    sift_down (cpus, heap, heap_len, i);

  loss_threshold = (guint32) (params->loss_rate * 4294967295.0);
  while (heap_len > 0)
    {
      guint c = heap[0];
      SynthCpu *cpu = &cpus[c];
      gsize size = gen_record (g, cpu->next_ts, rec);

      /* A lost buffer shows as a gap only after a buffer was written:
       * readers do not count the header buffer in the series. */
      if (loss_threshold != 0 && etl_writer_would_flush (w, c, size))
        {
          if (flushed && (guint32) (rng_next (&loss_rng) >> 32) < loss_threshold)
            cpu->kept -= etl_writer_lose_buffer (w, c);
          else
            flushed = TRUE;
        }
      if (!etl_writer_add_record (w, c, rec, size, cpu->next_ts, error))
        return FALSE;
      cpu->kept++;
      cpu->next_ts += 1 + rng_below (&g->rng, (guint32) (2 * mean_gap));
      if (cpu->kept >= cpu->target)
        heap[0] = heap[--heap_len];
      sift_down (cpus, heap, heap_len, 0);
    }

  return etl_writer_close (w, NULL, error);
}
