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
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-writer.h"

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

static inline void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

static inline void
put_u32 (guint8 *p, guint32 v)
{
  put_u16 (p, (guint16) v);
  put_u16 (p + 2, (guint16) (v >> 16));
}

static inline void
put_u64 (guint8 *p, guint64 v)
{
  put_u32 (p, (guint32) v);
  put_u32 (p + 4, (guint32) (v >> 32));
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

/**
 * etl_synth_params_init:
 * @params: (out caller-allocates): parameters to fill
 *
 * Defaults: 4 processors, 100,000 records, 64 KiB buffers, the QPC clock,
 * no losses, seed 1.
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
