/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-builtin-spans: the built-in intervals of etl-builtin-spans.c and the
 * payload readers of etl-span-payloads.c.
 *
 * - gc-net452: net.4.5.2.x64.etl's GCs and pauses against the records read
 *   here through the generic decoder (GCStart/GCEnd Count and Depth,
 *   SuspendEE/RestartEE): one span per distinct (process, Count), its
 *   start the first GCStart of that Count, its stop the GCEnd, its
 *   generation the Depth; TraceEvent's baseline figures (264 GC/Stop, 528
 *   GC/Start, 265 SuspendEEStart and RestartEEStop).
 * - gc-gcevents: gcevents.etl likewise.
 * - disk-net452: the DiskIo spans against the records: Read 1208, Write
 *   21, Flush 2 (TraceEvent's baseline); an Init-paired span's two
 *   records share the Irp; an elapsed-time span lasts HighResResponseTime.
 * - process-net452: Test.x64.exe's Process Start → Stop (pid 3676) and its
 *   threads inside it.
 * - synth: etl-synth-spans.c's trace (its table restated here): every span
 *   to the 100-ns tick, names, files, status, nesting, the unmatched OpEnd.
 * - rules: the builder fed by hand: GC dedupe by Count, nesting of GC and
 *   pause, abandoned begins, unmatched ends, out-of-order ends, File I/O
 *   operations to OpEnd (v2 and v3, 4- and 8-byte pointers), process and
 *   thread lifetimes with rundowns, unknown versions and truncated payloads.
 * - many-unpaired: 3 M Inits and 3 M GCStarts that never end: bounded.
 * - payloads: each reader at every length from 0 to the full layout.
 * - cancel: a cancelled pass.
 */
#include "config.h"

#include <string.h>

#include "etl-builtin-spans-private.h"
#include "etl-put-le.h"
#include "etl-span-payloads.h"
#include "etl-synth.h"
#include "etl-test-trace.h"

static const EtlGuid clr = { 0xe13c0d23, 0xccbc, 0x4e12, { 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 } };

static guint64
field_u64 (const EtlDecoded *d, const char *name)
{
  const EtlField *f = etl_decoded_find (d, name);

  g_assert_nonnull (f);
  g_assert_true (f->has_number);
  return f->number;
}

static guint
count_kind (const EtlBuiltinSpan *s, guint n, EtlBuiltinKind kind)
{
  guint k = 0;

  for (guint i = 0; i < n; i++)
    k += s[i].kind == kind;
  return k;
}

/* ------------------------------------------------------------------------ */
/* GC against the records                                                   */

typedef struct
{
  guint32 pid, count, depth;
  gint64 start, stop;
  guint64 start_record, stop_record;
} RefGc;

/* @name opened with the runtime's manifest (gcevents.etl carries no
 * metadata of its own: the reference decoding needs it). */
static EtlTrace *
open_with_clr_manifest (const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);
  g_autofree char *man = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  if (path == NULL || man == NULL)
    return NULL;
  trace = etl_trace_open_full ((const char *const[]){ path, NULL }, (const char *const[]){ man, NULL }, NULL, NULL,
                               NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
check_gc (const char *name, guint expect_gcs, guint expect_pauses, guint expect_dups)
{
  g_autoptr (EtlTrace) trace = open_with_clr_manifest (name);
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint64 n_records;
  guint n, n_starts = 0, n_suspend = 0, n_restart = 0, found = 0;
  const EtlBuiltinSpan *s;
  const EtlBuiltinSpansCounts *c;

  if (trace == NULL)
    return;
  /* The reference, read here through the decoder. */
  n_records = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n_records; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      gint64 key;
      RefGc *g;

      if (!etl_trace_get_record (trace, i, &r, NULL) || !etl_guid_equal (&r.provider, &clr))
        continue;
      if (r.event_id == 9)
        n_suspend++;
      if (r.event_id == 3)
        n_restart++;
      if (r.event_id != 1 && r.event_id != 2)
        continue;
      d = etl_trace_decode_record (trace, &r);
      key = (gint64) r.pid << 32 | field_u64 (d, "Count");
      g = g_hash_table_lookup (ref, &key);
      if (r.event_id == 1)
        {
          n_starts++;
          if (g != NULL)
            continue; /* the second version of the same GCStart */
          g = g_new0 (RefGc, 1);
          g->pid = r.pid;
          g->count = (guint32) field_u64 (d, "Count");
          g->depth = (guint32) field_u64 (d, "Depth");
          g->start = r.filetime;
          g->start_record = i;
          g_hash_table_insert (ref, g_memdup2 (&key, sizeof key), g);
        }
      else
        {
          g_assert_nonnull (g);
          g->stop = r.filetime;
          g->stop_record = i;
        }
    }
  g_assert_cmpuint (g_hash_table_size (ref), ==, expect_gcs);
  g_assert_cmpuint (n_starts, ==, expect_gcs + expect_dups);
  g_assert_cmpuint (n_suspend, ==, expect_pauses);
  g_assert_cmpuint (n_restart, ==, expect_pauses);

  spans = etl_builtin_spans_new (trace, 1u << ETL_BUILTIN_GC | 1u << ETL_BUILTIN_GC_PAUSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (spans);
  s = etl_builtin_spans_get (spans, &n);
  c = etl_builtin_spans_get_counts (spans);
  g_assert_cmpuint (count_kind (s, n, ETL_BUILTIN_GC), ==, expect_gcs);
  g_assert_cmpuint (count_kind (s, n, ETL_BUILTIN_GC_PAUSE), ==, expect_pauses);
  g_assert_cmpuint (c->duplicate_gc_starts, ==, expect_dups);
  g_assert_cmpuint (c->paired[ETL_BUILTIN_GC], ==, expect_gcs);
  g_assert_cmpuint (c->paired[ETL_BUILTIN_GC_PAUSE], ==, expect_pauses);
  g_assert_cmpuint (c->unmatched_ends[ETL_BUILTIN_GC] + c->unmatched_ends[ETL_BUILTIN_GC_PAUSE], ==, 0);
  for (guint i = 0; i < n; i++)
    {
      gint64 key = (gint64) s[i].pid << 32 | s[i].detail.gc.count;
      const RefGc *g;
      char want[32];

      if (i > 0)
        g_assert_cmpint (s[i - 1].start, <=, s[i].start);
      if (s[i].parent != ETL_BUILTIN_NONE)
        {
          g_assert_cmpuint (s[i].parent, <, i);
          g_assert_cmpuint (s[i].depth, ==, s[s[i].parent].depth + 1);
          g_assert_cmpuint (s[s[i].parent].pid, ==, s[i].pid);
        }
      if (s[i].kind != ETL_BUILTIN_GC)
        {
          g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].name), ==, "GC pause");
          continue;
        }
      g = g_hash_table_lookup (ref, &key);
      g_assert_nonnull (g);
      found++;
      g_assert_cmpuint (s[i].detail.gc.generation, ==, g->depth);
      g_assert_cmpint (s[i].start, ==, g->start);
      g_assert_cmpint (s[i].stop, ==, g->stop);
      g_assert_cmpuint (s[i].start_record, ==, g->start_record);
      g_assert_cmpuint (s[i].stop_record, ==, g->stop_record);
      g_assert_cmpuint (s[i].flags, ==, 0);
      g_snprintf (want, sizeof want, "GC gen %u", g->depth);
      g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].name), ==, want);
      /* A blocking GC lies inside its pause. */
      if (s[i].detail.gc.type == 0)
        {
          g_assert_cmpuint (s[i].parent, !=, ETL_BUILTIN_NONE);
          g_assert_cmpuint (s[s[i].parent].kind, ==, ETL_BUILTIN_GC_PAUSE);
          g_assert_cmpint (s[s[i].parent].start, <=, s[i].start);
          g_assert_cmpint (s[s[i].parent].stop, >=, s[i].stop);
        }
    }
  g_assert_cmpuint (found, ==, expect_gcs);
}

static void
test_gc_net452 (void)
{
  /* TraceEvent's baseline: GC/Start 528, GC/Stop 264, SuspendEEStart 265,
   * RestartEEStop 265. */
  check_gc ("net.4.5.2.x64.etl", 264, 265, 264);
}

static void
test_gc_net452_figures (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  g_autoptr (GArray) stats = NULL;
  guint n, gen[3] = { 0 };
  const EtlBuiltinSpan *s;
  gint64 longest_pause = 0;

  if (trace == NULL)
    return;
  spans = etl_builtin_spans_new (trace, 1u << ETL_BUILTIN_GC | 1u << ETL_BUILTIN_GC_PAUSE, NULL, NULL);
  s = etl_builtin_spans_get (spans, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].kind == ETL_BUILTIN_GC && s[i].detail.gc.generation < 3)
      gen[s[i].detail.gc.generation]++;
    else if (s[i].kind == ETL_BUILTIN_GC_PAUSE)
      longest_pause = MAX (longest_pause, s[i].stop - s[i].start);
  g_assert_cmpuint (gen[0], ==, 263);
  g_assert_cmpuint (gen[1], ==, 1);
  g_assert_cmpuint (gen[2], ==, 0);
  /* The gen 1 GC's pause: SuspendEEBegin to RestartEEEnd, 10.877 ms. */
  g_assert_cmpint (longest_pause, ==, 108771);
  stats = etl_builtin_spans_compute_stats (spans);
  g_assert_cmpuint (stats->len, ==, 3); /* GC pause, GC gen 0, GC gen 1 */
  for (guint r = 0; r < stats->len; r++)
    {
      const EtlBuiltinSpanStats *st = &g_array_index (stats, EtlBuiltinSpanStats, r);

      if (st->kind == ETL_BUILTIN_GC_PAUSE)
        {
          g_assert_cmpuint (st->stats.count, ==, 265);
          g_assert_cmpint (st->stats.max, ==, 108771);
        }
    }
}

static void
test_gc_gcevents (void)
{
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  const EtlBuiltinSpan *s;
  guint n, k = 0;

  check_gc ("gcevents.etl", 2, 2, 0);
  /* Without the manifest the spans are the same (the payloads are read in
   * place): the baseline's GC 1 (gen 1, Induced) 11,607.432 → 11,608.135 ms
   * and GC 2 (gen 2) 11,608.181 → 11,608.693 ms. */
  trace = etl_test_open_corpus ("gcevents.etl");
  if (trace == NULL)
    return;
  spans = etl_builtin_spans_new (trace, 1u << ETL_BUILTIN_GC, NULL, NULL);
  s = etl_builtin_spans_get (spans, &n);
  g_assert_cmpuint (n, ==, 2);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (s[i].kind, ==, ETL_BUILTIN_GC);
      g_assert_cmpuint (s[i].detail.gc.count, ==, i + 1);
      g_assert_cmpuint (s[i].detail.gc.generation, ==, i + 1);
      g_assert_cmpstr (etl_gc_reason_name (s[i].detail.gc.reason), ==, "Induced");
      g_assert_cmpstr (etl_gc_type_name (s[i].detail.gc.type), ==, "NonConcurrentGC");
      k++;
    }
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[0].start), 11607.432, 0.001);
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[0].stop), 11608.135, 0.001);
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[1].start), 11608.181, 0.001);
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[1].stop), 11608.693, 0.001);
  g_assert_cmpuint (k, ==, 2);
}

/* ------------------------------------------------------------------------ */
/* Disk I/O                                                                 */

static void
test_disk_net452 (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  guint n, reads = 0, writes = 0, flushes = 0, elapsed = 0, named = 0;
  const EtlBuiltinSpan *s;
  const EtlFileInfo *info;

  if (trace == NULL)
    return;
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpint (info->clock_type, ==, ETL_CLOCK_QPC);
  spans = etl_builtin_spans_new (trace, 1u << ETL_BUILTIN_DISK_IO, NULL, NULL);
  s = etl_builtin_spans_get (spans, &n);
  for (guint i = 0; i < n; i++)
    {
      g_auto (EtlRecord) stop = { 0 };
      g_autoptr (EtlDecoded) ds = NULL;
      const char *name = etl_builtin_spans_get_string (spans, s[i].name);

      g_assert_cmpuint (s[i].kind, ==, ETL_BUILTIN_DISK_IO);
      reads += strcmp (name, "Disk Read") == 0;
      writes += strcmp (name, "Disk Write") == 0;
      flushes += strcmp (name, "Disk Flush") == 0;
      g_assert_cmpuint (s[i].stop_record, !=, ETL_BUILTIN_NO_RECORD);
      g_assert_true (etl_trace_get_record (trace, s[i].stop_record, &stop, NULL));
      g_assert_cmpint (stop.filetime, ==, s[i].stop);
      ds = etl_trace_decode_record (trace, &stop);
      if (s[i].flags & ETL_BUILTIN_FROM_ELAPSED)
        {
          guint64 t = field_u64 (ds, "HighResResponseTime");

          elapsed++;
          g_assert_cmpuint (s[i].start_record, ==, s[i].stop_record);
          g_assert_cmpint (s[i].stop - s[i].start, ==, (gint64) (t * 10000000 / (guint64) info->perf_freq));
        }
      else
        {
          g_auto (EtlRecord) init = { 0 };
          g_autoptr (EtlDecoded) di = NULL;

          g_assert_true (etl_trace_get_record (trace, s[i].start_record, &init, NULL));
          g_assert_cmpint (init.filetime, ==, s[i].start);
          g_assert_cmpuint (init.opcode, >=, 12);
          di = etl_trace_decode_record (trace, &init);
          g_assert_cmpuint (field_u64 (di, "Irp"), ==, field_u64 (ds, "Irp"));
          g_assert_cmpuint (s[i].pid, ==, init.pid);
          g_assert_cmpuint (s[i].tid, ==, init.tid);
        }
      if (s[i].op != 15 && s[i].op != 14)
        {
          g_assert_cmpuint (s[i].detail.disk.bytes, ==, field_u64 (ds, "TransferSize"));
          named += etl_builtin_spans_get_string (spans, s[i].detail.disk.file)[0] != '\0';
        }
    }
  /* TraceEvent's baseline: DiskIO/Read 1208, Write 21, FlushBuffers 2. */
  g_assert_cmpuint (reads, ==, 1208);
  g_assert_cmpuint (writes, ==, 21);
  g_assert_cmpuint (flushes, ==, 2);
  g_assert_cmpuint (n, ==, 1231);
  g_assert_cmpuint (elapsed, <, n);
  g_assert_cmpuint (named, >, 1000);
}

/* ------------------------------------------------------------------------ */
/* Processes and threads                                                    */

static void
test_process_net452 (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  guint n, test_proc = ETL_BUILTIN_NONE, threads = 0;
  const EtlBuiltinSpan *s;

  if (trace == NULL)
    return;
  spans = etl_builtin_spans_new (trace, 1u << ETL_BUILTIN_PROCESS | 1u << ETL_BUILTIN_THREAD, NULL, NULL);
  s = etl_builtin_spans_get (spans, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].kind == ETL_BUILTIN_PROCESS && s[i].pid == 3676)
      {
        g_auto (EtlRecord) a = { 0 };
        g_auto (EtlRecord) b = { 0 };

        g_assert_cmpuint (test_proc, ==, ETL_BUILTIN_NONE);
        test_proc = i;
        g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].name), ==, "Test.x64.exe");
        g_assert_cmpuint (s[i].flags, ==, 0);
        g_assert_cmpuint (s[i].detail.process.parent_pid, ==, 3508);
        g_assert_cmpuint (s[i].detail.process.exit_status, ==, 0);
        g_assert_true (etl_trace_get_record (trace, s[i].start_record, &a, NULL));
        g_assert_true (etl_trace_get_record (trace, s[i].stop_record, &b, NULL));
        g_assert_cmpuint (a.opcode, ==, 1);
        g_assert_cmpuint (b.opcode, ==, 2);
        /* The baseline: Process/Start at 2,733.176 ms, Stop at 8,202.285 ms. */
        g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[i].start), 2733.176, 0.001);
        g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, s[i].stop), 8202.285, 0.001);
      }
    else if (s[i].kind == ETL_BUILTIN_PROCESS)
      {
        /* The others ran from before the trace to after it. */
        g_assert_cmpuint (s[i].flags & ETL_BUILTIN_RUNDOWN_START, !=, 0);
        g_assert_cmpuint (s[i].flags & ETL_BUILTIN_OPEN, !=, 0);
      }
  g_assert_cmpuint (test_proc, !=, ETL_BUILTIN_NONE);
  g_assert_cmpuint (count_kind (s, n, ETL_BUILTIN_PROCESS), ==, 33);
  for (guint i = 0; i < n; i++)
    if (s[i].kind == ETL_BUILTIN_THREAD && s[i].pid == 3676)
      {
        threads++;
        g_assert_cmpuint (s[i].parent, ==, test_proc);
        g_assert_cmpuint (s[i].depth, ==, 1);
        g_assert_cmpint (s[i].start, >=, s[test_proc].start);
        g_assert_cmpint (s[i].stop, <=, s[test_proc].stop);
        g_assert_cmpuint (s[i].tid, !=, 0);
      }
  /* Its 4 threads: 3680 (started with the process), 3660, 3656 and one more. */
  g_assert_cmpuint (threads, ==, 4);
  /* No thread id 0 (the Idle threads are left out). */
  for (guint i = 0; i < n; i++)
    if (s[i].kind == ETL_BUILTIN_THREAD)
      g_assert_cmpuint (s[i].tid, !=, 0);
}

/* ------------------------------------------------------------------------ */
/* The synthetic trace                                                      */

typedef struct
{
  EtlBuiltinKind kind;
  const char *name;
  guint start_t, stop_t; /* 0.1 ms; stop 100 (the last record) when open */
  guint64 start_record, stop_record;
  guint32 tid, parent, flags;
  guint32 bytes;
  guint64 offset;
  const char *file;
  guint32 status;
} SynthSpan;

#define NO_REC ETL_BUILTIN_NO_RECORD
#define NO     ETL_BUILTIN_NONE
#define PATH   "\\Device\\HarddiskVolume2\\data.bin"

/* etl-synth-spans.c's table: record = row + 1 (the header is record 0). */
static const SynthSpan synth_spans[] = {
  { ETL_BUILTIN_PROCESS, "app.exe", 10, 90, 1, 16, 0, NO, 0, 0, 0, NULL, 0 },
  { ETL_BUILTIN_THREAD, "app.exe", 11, 80, 2, 15, 1004, 0, 0, 0, 0, NULL, 0 },
  { ETL_BUILTIN_FILE_IO, "File Create", 20, 25, 4, 5, 1004, NO, 0, 0, 0, PATH, 0 },
  { ETL_BUILTIN_FILE_IO, "File Read", 30, 34, 6, 9, 1004, NO, 0, 4096, 8192, PATH, 0 },
  { ETL_BUILTIN_DISK_IO, "Disk Read", 31, 33, 7, 8, 1004, NO, 0, 4096, 1048576, PATH, 0 },
  { ETL_BUILTIN_FILE_IO, "File Write", 40, 100, 10, NO_REC, 1004, NO, ETL_BUILTIN_OPEN, 512, 0, PATH, ETL_BUILTIN_UNKNOWN },
  { ETL_BUILTIN_DISK_IO, "Disk Write", 50, 60, 12, 12, 1004, NO, ETL_BUILTIN_FROM_ELAPSED, 512, 0, PATH, 0 },
  { ETL_BUILTIN_FILE_IO, "File Cleanup", 65, 66, 13, 14, 1004, NO, 0, 0, 0, PATH, 0xC0000022u },
  { ETL_BUILTIN_THREAD, "Process 1000", 100, 100, 17, NO_REC, 1008, NO, ETL_BUILTIN_OPEN, 0, 0, NULL, 0 },
};

static void
test_synth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-spans-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "spans.etl", NULL);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  const EtlBuiltinSpan *s;
  const EtlBuiltinStop *um;
  const EtlBuiltinSpansCounts *c;
  EtlSynthParams params;
  gint64 origin;
  guint n, n_um;

  g_assert_no_error (error);
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.builtin_spans = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  spans = etl_builtin_spans_new (trace, ETL_BUILTIN_KINDS_ALL, NULL, &error);
  g_assert_no_error (error);
  origin = etl_trace_get_file_info (trace, 0)->header_filetime;
  s = etl_builtin_spans_get (spans, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (synth_spans));
  for (guint i = 0; i < n; i++)
    {
      const SynthSpan *w = &synth_spans[i];

      g_test_message ("span %u: %s", i, w->name);
      g_assert_cmpuint (s[i].kind, ==, w->kind);
      g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].name), ==, w->name);
      g_assert_cmpint (s[i].start - origin, ==, (gint64) w->start_t * 1000);
      g_assert_cmpint (s[i].stop - origin, ==, (gint64) w->stop_t * 1000);
      g_assert_cmpuint (s[i].start_record, ==, w->start_record);
      g_assert_cmpuint (s[i].stop_record, ==, w->stop_record);
      g_assert_cmpuint (s[i].pid, ==, 1000);
      g_assert_cmpuint (s[i].tid, ==, w->tid);
      g_assert_cmpuint (s[i].parent, ==, w->parent);
      g_assert_cmpuint (s[i].depth, ==, w->parent == NO ? 0 : 1);
      g_assert_cmpuint (s[i].flags, ==, w->flags);
      if (w->kind == ETL_BUILTIN_FILE_IO)
        {
          g_assert_cmpuint (s[i].detail.file.bytes, ==, w->bytes);
          g_assert_cmpuint (s[i].detail.file.offset, ==, w->offset);
          g_assert_cmpuint (s[i].detail.file.status, ==, w->status);
          g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].detail.file.file), ==, w->file);
        }
      else if (w->kind == ETL_BUILTIN_DISK_IO)
        {
          g_assert_cmpuint (s[i].detail.disk.bytes, ==, w->bytes);
          g_assert_cmpuint (s[i].detail.disk.offset, ==, w->offset);
          g_assert_cmpuint (s[i].detail.disk.disk_number, ==, w->start_t == 50 ? 1 : 0);
          g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[i].detail.disk.file), ==, w->file);
        }
      else if (w->kind == ETL_BUILTIN_PROCESS)
        {
          g_assert_cmpuint (s[i].detail.process.exit_status, ==, 0);
          g_assert_cmpuint (s[i].detail.process.parent_pid, ==, 4);
        }
    }
  um = etl_builtin_spans_get_unmatched (spans, &n_um);
  g_assert_cmpuint (n_um, ==, 1);
  g_assert_cmpuint (um[0].record, ==, 11);
  g_assert_cmpuint (um[0].kind, ==, ETL_BUILTIN_FILE_IO);
  c = etl_builtin_spans_get_counts (spans);
  g_assert_cmpuint (c->records, ==, 16);
  g_assert_cmpuint (c->begins[ETL_BUILTIN_FILE_IO], ==, 4);
  g_assert_cmpuint (c->paired[ETL_BUILTIN_FILE_IO], ==, 3);
  g_assert_cmpuint (c->open[ETL_BUILTIN_FILE_IO], ==, 1);
  g_assert_cmpuint (c->unmatched_ends[ETL_BUILTIN_FILE_IO], ==, 1);
  g_assert_cmpuint (c->missing + c->truncated + c->dropped + c->out_of_order, ==, 0);

  g_clear_pointer (&spans, etl_builtin_spans_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  g_remove (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Rules, with the builder fed by hand                                      */

typedef struct
{
  EtlSpansBuilder *b;
  guint64 record;
  guint8 buf[256];
} Feed;

static void
feed (Feed *f, gint64 t, EtlSpanClass cls, guint8 opcode, guint16 event_id, guint8 version, guint32 pid, guint32 tid,
      const guint8 *payload, gsize len)
{
  EtlSpanRecord r = { 0 };

  r.record = f->record++;
  r.filetime = t;
  r.has_pid = TRUE;
  r.pid = pid;
  r.tid = tid;
  r.cls = (guint8) cls;
  r.opcode = opcode;
  r.event_id = event_id;
  r.version = version;
  r.pointer_size = 8;
  r.payload = payload;
  r.len = len;
  r.clock_freq = 3000000; /* not the 10 MHz of FILETIME: the conversion shows */
  r.issuing_pid = ETL_BUILTIN_UNKNOWN;
  etl_spans_builder_add (f->b, &r);
}

static void
gc_start (Feed *f, gint64 t, guint32 pid, guint32 count, guint32 depth, guint32 type, guint8 version)
{
  guint8 p[26] = { 0 };

  put_u32 (p, count);
  put_u32 (p + 4, depth);
  put_u32 (p + 8, 1); /* Induced */
  put_u32 (p + 12, type);
  feed (f, t, ETL_SPAN_CLASS_CLR, 1, 1, version, pid, pid + 1, p, version == 2 ? 26 : 18);
}

static void
gc_end (Feed *f, gint64 t, guint32 pid, guint32 count, guint32 depth)
{
  guint8 p[10] = { 0 };

  put_u32 (p, count);
  put_u32 (p + 4, depth);
  feed (f, t, ETL_SPAN_CLASS_CLR, 2, 2, 1, pid, pid + 1, p, sizeof p);
}

static void
suspend (Feed *f, gint64 t, guint32 pid)
{
  guint8 p[10] = { 0 };

  put_u32 (p, 1); /* SuspendForGC */
  put_u32 (p + 4, 7);
  feed (f, t, ETL_SPAN_CLASS_CLR, 10, 9, 1, pid, pid + 1, p, sizeof p);
}

static void
restart (Feed *f, gint64 t, guint32 pid)
{
  guint8 p[2] = { 0 };

  feed (f, t, ETL_SPAN_CLASS_CLR, 132, 3, 1, pid, pid + 1, p, sizeof p);
}

static void
test_rules_gc (void)
{
  Feed f = { etl_spans_builder_new (ETL_BUILTIN_KINDS_ALL), 0 };
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  const EtlBuiltinSpansCounts *c;
  const EtlBuiltinStop *um;
  const EtlBuiltinSpan *s;
  guint n, n_um;
  guint8 short_start[3] = { 1, 0, 0 };

  /* A blocking GC of process 100: pause, GCStart v1 and v2, GCEnd, restart. */
  suspend (&f, 100, 100);            /* r0 */
  gc_start (&f, 110, 100, 1, 0, 0, 1); /* r1 */
  gc_start (&f, 111, 100, 1, 0, 0, 2); /* r2: the same GC again */
  gc_end (&f, 150, 100, 1, 0);       /* r3 */
  restart (&f, 160, 100);            /* r4 */
  /* A background GC (gen 2) of process 200 with a foreground gen 0 inside a
   * pause inside it. */
  gc_start (&f, 200, 200, 5, 2, 1, 1); /* r5 */
  suspend (&f, 210, 200);            /* r6 */
  gc_start (&f, 220, 200, 6, 0, 2, 1); /* r7 */
  gc_end (&f, 230, 200, 6, 0);       /* r8 */
  restart (&f, 240, 200);            /* r9 */
  gc_end (&f, 300, 200, 5, 2);       /* r10 */
  /* Unmatched ends; a GCStart too short for Count; a GC never ended; an
   * end timed before its start. */
  gc_end (&f, 310, 300, 9, 0);       /* r11 */
  restart (&f, 320, 300);            /* r12 */
  feed (&f, 330, ETL_SPAN_CLASS_CLR, 1, 1, 1, 300, 301, short_start, sizeof short_start); /* r13 */
  gc_start (&f, 340, 300, 10, 1, 0, 1); /* r14: open */
  gc_start (&f, 350, 400, 1, 0, 0, 0);  /* r15: v0 (Count, Reason) */
  gc_end (&f, 345, 400, 1, 0);          /* r16: before its start */
  gc_start (&f, 360, 500, 1, 123456, 0, 1); /* r17: an absurd Depth: named "GC" */
  gc_end (&f, 370, 500, 1, 123456);     /* r18 */
  spans = etl_spans_builder_finish (f.b, 1000);

  s = etl_builtin_spans_get (spans, &n);
  c = etl_builtin_spans_get_counts (spans);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[7].name), ==, "GC");
  g_assert_cmpuint (s[7].detail.gc.generation, ==, 123456);
  /* In start order: pause(100) 100, GC 110, GC 200(bg), pause(200) 210,
   * GC 220, GC 340 (open), GC 350. */
  g_assert_cmpuint (s[0].kind, ==, ETL_BUILTIN_GC_PAUSE);
  g_assert_cmpint (s[0].start, ==, 100);
  g_assert_cmpint (s[0].stop, ==, 160);
  g_assert_cmpuint (s[0].stop_record, ==, 4);
  g_assert_cmpuint (s[1].kind, ==, ETL_BUILTIN_GC);
  g_assert_cmpint (s[1].start, ==, 110);
  g_assert_cmpuint (s[1].start_record, ==, 1); /* the first of the two GCStarts */
  g_assert_cmpint (s[1].stop, ==, 150);
  g_assert_cmpuint (s[1].parent, ==, 0);
  g_assert_cmpuint (s[1].depth, ==, 1);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[1].name), ==, "GC gen 0");
  g_assert_cmpuint (s[2].detail.gc.type, ==, 1);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[2].name), ==, "GC gen 2");
  g_assert_cmpuint (s[2].parent, ==, ETL_BUILTIN_NONE);
  g_assert_cmpint (s[2].stop, ==, 300);
  g_assert_cmpuint (s[3].kind, ==, ETL_BUILTIN_GC_PAUSE);
  g_assert_cmpuint (s[3].parent, ==, 2); /* the pause inside the background GC */
  g_assert_cmpuint (s[3].detail.gc.count, ==, 7);
  g_assert_cmpuint (s[4].parent, ==, 3); /* the foreground GC inside that pause */
  g_assert_cmpuint (s[4].depth, ==, 2);
  g_assert_cmpint (s[4].stop, ==, 230);
  g_assert_cmpint (s[5].start, ==, 340);
  g_assert_cmpuint (s[5].flags, ==, ETL_BUILTIN_OPEN);
  g_assert_cmpint (s[5].stop, ==, 1000);
  g_assert_cmpuint (s[5].stop_record, ==, ETL_BUILTIN_NO_RECORD);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[6].name), ==, "GC");
  g_assert_cmpuint (s[6].detail.gc.generation, ==, ETL_BUILTIN_UNKNOWN);
  g_assert_cmpint (s[6].stop, ==, s[6].start); /* clamped */
  g_assert_cmpuint (c->out_of_order, ==, 1);
  g_assert_cmpuint (c->duplicate_gc_starts, ==, 1);
  g_assert_cmpuint (c->missing, ==, 1);
  g_assert_cmpuint (c->unmatched_ends[ETL_BUILTIN_GC], ==, 1);
  g_assert_cmpuint (c->unmatched_ends[ETL_BUILTIN_GC_PAUSE], ==, 1);
  g_assert_cmpuint (c->open[ETL_BUILTIN_GC], ==, 1);
  um = etl_builtin_spans_get_unmatched (spans, &n_um);
  g_assert_cmpuint (n_um, ==, 2);
  g_assert_cmpuint (um[0].record, ==, 11);
  g_assert_cmpuint (um[1].kind, ==, ETL_BUILTIN_GC_PAUSE);
}

/* FileIo v3 ReadWrite (8-byte pointers): Offset, IrpPtr, FileObject, FileKey, TTID, IoSize, IoFlags. */
static gsize
fileio_rw_v3 (guint8 *p, guint64 irp, guint64 key, guint64 offset, guint32 size)
{
  memset (p, 0, 52);
  put_u64 (p, offset);
  put_u64 (p + 8, irp);
  put_u64 (p + 16, 0xAAAA);
  put_u64 (p + 24, key);
  put_u32 (p + 32, 77);
  put_u32 (p + 36, size);
  return 44;
}

static void
test_rules_io (void)
{
  Feed f = { etl_spans_builder_new (ETL_BUILTIN_KINDS_ALL), 0 };
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  const EtlBuiltinSpansCounts *c;
  const EtlBuiltinSpan *s;
  guint n;
  guint8 p[128];
  gsize len;

  /* File Create v2 with OpenPath, then its OpEnd. */
  memset (p, 0, sizeof p);
  put_u64 (p, 0x1000);  /* IrpPtr */
  put_u64 (p + 8, 55);  /* TTID */
  put_u64 (p + 16, 0xF0); /* FileObject */
  len = 36 + put_utf16 (p + 36, "C:\\a.txt");
  feed (&f, 10, ETL_SPAN_CLASS_FILEIO, 64, 0, 2, 1, 2, p, len);
  /* A v3 Read on another IRP, ended first. */
  len = fileio_rw_v3 (p, 0x2000, 0xF1, 4096, 512);
  feed (&f, 12, ETL_SPAN_CLASS_FILEIO, 67, 0, 3, 1, 2, p, len);
  memset (p, 0, 20);
  put_u64 (p, 0x2000);
  put_u32 (p + 16, 0xC0000011);
  feed (&f, 15, ETL_SPAN_CLASS_FILEIO, 76, 0, 2, 1, 2, p, 20);
  memset (p, 0, 20);
  put_u64 (p, 0x1000);
  feed (&f, 20, ETL_SPAN_CLASS_FILEIO, 76, 0, 2, 1, 2, p, 20);
  /* An OpEnd of no operation; a Write whose IRP is reused before its end. */
  put_u64 (p, 0x9999);
  feed (&f, 21, ETL_SPAN_CLASS_FILEIO, 76, 0, 2, 1, 2, p, 20);
  len = fileio_rw_v3 (p, 0x3000, 0xF1, 0, 1);
  feed (&f, 22, ETL_SPAN_CLASS_FILEIO, 68, 0, 3, 1, 2, p, len);
  feed (&f, 23, ETL_SPAN_CLASS_FILEIO, 68, 0, 3, 1, 2, p, len);
  /* DiskIo v2 completion without Init: 25 ms of a 3 MHz clock. */
  memset (p, 0, 48);
  put_u32 (p, 1);       /* DiskNumber */
  put_u32 (p + 8, 8192); /* TransferSize */
  put_u64 (p + 16, 123456); /* ByteOffset */
  put_u64 (p + 32, 0xD1);   /* Irp */
  put_u64 (p + 40, 75000); /* HighResResponseTime */
  feed (&f, 300000, ETL_SPAN_CLASS_DISKIO, 10, 0, 2, 4, 44, p, 48);
  /* A truncated completion (no HighResResponseTime): TRUNCATED, 0 elapsed. */
  feed (&f, 300001, ETL_SPAN_CLASS_DISKIO, 11, 0, 2, 4, 44, p, 44);
  /* Too short for the Irp: missing. */
  feed (&f, 300002, ETL_SPAN_CLASS_DISKIO, 11, 0, 2, 4, 44, p, 30);
  spans = etl_spans_builder_finish (f.b, 400000);

  s = etl_builtin_spans_get (spans, &n);
  c = etl_builtin_spans_get_counts (spans);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[0].name), ==, "File Create");
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[0].detail.file.file), ==, "C:\\a.txt");
  g_assert_cmpint (s[0].stop, ==, 20);
  g_assert_cmpuint (s[0].detail.file.status, ==, 0);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[1].name), ==, "File Read");
  g_assert_cmpint (s[1].stop, ==, 15);
  g_assert_cmpuint (s[1].detail.file.bytes, ==, 512);
  g_assert_cmpuint (s[1].detail.file.offset, ==, 4096);
  g_assert_cmpuint (s[1].detail.file.file_key, ==, 0xF1);
  g_assert_cmpuint (s[1].detail.file.status, ==, 0xC0000011);
  g_assert_cmpuint (s[2].flags, ==, ETL_BUILTIN_OPEN | ETL_BUILTIN_ABANDONED);
  g_assert_cmpuint (s[3].flags, ==, ETL_BUILTIN_OPEN);
  g_assert_cmpint (s[3].stop, ==, 400000);
  g_assert_cmpuint (c->unmatched_ends[ETL_BUILTIN_FILE_IO], ==, 1);
  g_assert_cmpuint (c->abandoned[ETL_BUILTIN_FILE_IO], ==, 1);
  /* The elapsed-time disk read: 75000 / 3 MHz = 25 ms = 250000 × 100 ns before its completion. */
  g_assert_cmpuint (s[4].kind, ==, ETL_BUILTIN_DISK_IO);
  g_assert_cmpint (s[4].start, ==, 50000);
  g_assert_cmpint (s[4].stop, ==, 300000);
  g_assert_cmpuint (s[4].flags, ==, ETL_BUILTIN_FROM_ELAPSED);
  g_assert_cmpuint (s[4].detail.disk.bytes, ==, 8192);
  g_assert_cmpuint (s[4].detail.disk.disk_number, ==, 1);
  g_assert_cmpuint (s[4].detail.disk.offset, ==, 123456);
  g_assert_cmpuint (s[5].flags, ==, ETL_BUILTIN_FROM_ELAPSED | ETL_BUILTIN_TRUNCATED);
  g_assert_cmpint (s[5].start, ==, s[5].stop);
  g_assert_cmpuint (c->missing, ==, 1);
  g_assert_cmpuint (c->truncated, ==, 1);
}

static gsize
thread_payload (guint8 *p, guint32 pid, guint32 tid)
{
  memset (p, 0, 72);
  put_u32 (p, pid);
  put_u32 (p + 4, tid);
  return 72;
}

static void
process_rec (Feed *f, gint64 t, guint8 opcode, guint32 pid, const char *image, guint32 exit_status)
{
  EtlSpanRecord r = { 0 };

  r.record = f->record++;
  r.filetime = t;
  r.cls = ETL_SPAN_CLASS_PROCESS;
  r.opcode = opcode;
  r.version = 4;
  r.pointer_size = 8;
  r.issuing_pid = ETL_BUILTIN_UNKNOWN;
  r.process_id = pid;
  r.parent_id = 4;
  r.exit_status = exit_status;
  r.image = image;
  etl_spans_builder_add (f->b, &r);
}

static void
test_rules_lifetimes (void)
{
  Feed f = { etl_spans_builder_new (1u << ETL_BUILTIN_THREAD), 0 };
  Feed g = { etl_spans_builder_new (1u << ETL_BUILTIN_PROCESS | 1u << ETL_BUILTIN_THREAD), 0 };
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  g_autoptr (EtlBuiltinSpans) both = NULL;
  const EtlBuiltinSpan *s;
  guint n;
  guint8 p[72];

  for (guint k = 0; k < 2; k++)
    {
      Feed *x = k == 0 ? &f : &g;

      process_rec (x, 10, 3, 500, "old.exe", 259);                                   /* DCStart */
      feed (x, 11, ETL_SPAN_CLASS_THREAD, 3, 0, 3, 500, 0, p, thread_payload (p, 500, 504)); /* DCStart */
      process_rec (x, 20, 1, 600, "new.exe", 259);
      feed (x, 21, ETL_SPAN_CLASS_THREAD, 1, 0, 3, 600, 0, p, thread_payload (p, 600, 604));
      feed (x, 22, ETL_SPAN_CLASS_THREAD, 1, 0, 0, 600, 0, p, thread_payload (p, 600, 608)); /* v0: not read */
      feed (x, 23, ETL_SPAN_CLASS_THREAD, 1, 0, 3, 0, 0, p, thread_payload (p, 0, 0));       /* Idle: left out */
      feed (x, 24, ETL_SPAN_CLASS_THREAD, 1, 0, 3, 600, 0, p, 6);                           /* truncated: missing */
      feed (x, 30, ETL_SPAN_CLASS_THREAD, 2, 0, 3, 600, 0, p, thread_payload (p, 600, 604));
      process_rec (x, 40, 2, 600, "new.exe", 3);
      process_rec (x, 50, 2, 700, "gone.exe", 0); /* no Start */
      feed (x, 60, ETL_SPAN_CLASS_THREAD, 4, 0, 3, 500, 0, p, thread_payload (p, 500, 504)); /* DCEnd */
      process_rec (x, 61, 4, 500, "old.exe", 259);
    }
  spans = etl_spans_builder_finish (f.b, 100);
  both = etl_spans_builder_finish (g.b, 100);

  /* Threads only: the processes were read for the names, not kept. */
  s = etl_builtin_spans_get (spans, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (s[0].kind, ==, ETL_BUILTIN_THREAD);
  g_assert_cmpstr (etl_builtin_spans_get_string (spans, s[0].name), ==, "old.exe");
  g_assert_cmpuint (s[0].parent, ==, ETL_BUILTIN_NONE);
  g_assert_cmpuint (s[0].flags, ==, ETL_BUILTIN_OPEN | ETL_BUILTIN_RUNDOWN_START | ETL_BUILTIN_RUNDOWN_END);
  g_assert_cmpint (s[0].stop, ==, 100);
  g_assert_cmpuint (s[1].tid, ==, 604);
  g_assert_cmpint (s[1].stop, ==, 30);
  g_assert_cmpuint (etl_builtin_spans_get_counts (spans)->missing, ==, 2);
  g_assert_cmpuint (etl_builtin_spans_get_counts (spans)->unmatched_ends[ETL_BUILTIN_PROCESS], ==, 0);

  s = etl_builtin_spans_get (both, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (s[0].kind, ==, ETL_BUILTIN_PROCESS);
  g_assert_cmpuint (s[1].parent, ==, 0);
  g_assert_cmpuint (s[2].kind, ==, ETL_BUILTIN_PROCESS);
  g_assert_cmpint (s[2].stop, ==, 40);
  g_assert_cmpuint (s[2].detail.process.exit_status, ==, 3);
  g_assert_cmpuint (s[3].parent, ==, 2);
  g_assert_cmpuint (s[3].depth, ==, 1);
  g_assert_cmpuint (etl_builtin_spans_get_counts (both)->unmatched_ends[ETL_BUILTIN_PROCESS], ==, 1);
}

/* 3 M Inits and 3 M GCStarts that never end: the open spans of a kind
 * stop at ETL_BUILTIN_SPANS_MAX_PENDING, the rest are counted dropped. */
static void
test_many_unpaired (void)
{
  Feed f = { etl_spans_builder_new (ETL_BUILTIN_KINDS_ALL), 0 };
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  const EtlBuiltinSpansCounts *c;
  guint n;
  guint8 p[12] = { 0 };
  gint64 t0 = g_get_monotonic_time ();
  const guint64 many = 3000000;

  for (guint64 i = 0; i < many; i++)
    {
      put_u64 (p, 0x10000 + i * 16);
      feed (&f, (gint64) i, ETL_SPAN_CLASS_DISKIO, 12, 0, 3, 4, 44, p, 12);
      gc_start (&f, (gint64) i, 100, (guint32) i, 0, 0, 1);
    }
  spans = etl_spans_builder_finish (f.b, (gint64) many);
  c = etl_builtin_spans_get_counts (spans);
  (void) etl_builtin_spans_get (spans, &n);
  g_assert_cmpuint (n, ==, 2 * ETL_BUILTIN_SPANS_MAX_PENDING);
  g_assert_cmpuint (c->dropped, ==, 2 * (many - ETL_BUILTIN_SPANS_MAX_PENDING));
  g_assert_cmpuint (c->open[ETL_BUILTIN_DISK_IO], ==, ETL_BUILTIN_SPANS_MAX_PENDING);
  g_assert_cmpuint (c->open[ETL_BUILTIN_GC], ==, ETL_BUILTIN_SPANS_MAX_PENDING);
  g_test_message ("6 M unpaired begins: %.0f ms", (double) (g_get_monotonic_time () - t0) / 1000.0);
}

/* ------------------------------------------------------------------------ */
/* Payload readers at every length                                          */

static void
test_payloads (void)
{
  guint8 full[96];
  EtlGcStart gs;
  EtlGcEnd ge;
  EtlGcSuspend su;
  EtlDiskIo d;
  EtlFileIo fi;
  guint32 pid, tid;

  for (guint k = 0; k < sizeof full; k++)
    full[k] = (guint8) (k + 1);
  for (gsize len = 0; len <= sizeof full; len++)
    {
      g_autofree guint8 *p = g_memdup2 (full, len); /* exactly sized: an overread is caught */
      EtlSpanRead want;

      want = len < 4 ? ETL_SPAN_READ_MISSING : len < 16 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK;
      g_assert_cmpint (etl_gc_start_read (p, len, 1, &gs), ==, want);
      if (len >= 16)
        g_assert_cmpuint (gs.type, ==, 0x100F0E0Du);
      g_assert_cmpint (etl_gc_start_read (p, len, 0, &gs), ==,
                       len < 4 ? ETL_SPAN_READ_MISSING : len < 8 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_gc_start_read (p, len, 200, &gs), ==, want); /* unknown version: read as the last */
      g_assert_cmpint (etl_gc_end_read (p, len, 1, &ge), ==,
                       len < 4 ? ETL_SPAN_READ_MISSING : len < 8 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_gc_end_read (p, len, 0, &ge), ==,
                       len < 4 ? ETL_SPAN_READ_MISSING : len < 6 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_gc_suspend_read (p, len, 1, &su), ==,
                       len < 4 ? ETL_SPAN_READ_MISSING : len < 8 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      /* DiskIo Read v3, 8-byte pointers: Irp ends at 40, the rest at 52. */
      g_assert_cmpint (etl_diskio_read (p, len, 10, 3, 8, &d), ==,
                       len < 40 ? ETL_SPAN_READ_MISSING : len < 52 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      /* 4-byte pointers: Irp ends at 32, the rest at 44. */
      g_assert_cmpint (etl_diskio_read (p, len, 10, 3, 4, &d), ==,
                       len < 32 ? ETL_SPAN_READ_MISSING : len < 44 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_diskio_read (p, len, 14, 2, 8, &d), ==,
                       len < 24 ? ETL_SPAN_READ_MISSING : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_diskio_read (p, len, 99, 2, 8, &d), ==, ETL_SPAN_READ_MISSING);
      g_assert_cmpint (etl_diskio_read (p, len, 10, 2, 3, &d), ==, ETL_SPAN_READ_MISSING);
      /* FileIo Read v2: Offset, IrpPtr (16), TTID, FileObject, FileKey, IoSize, IoFlags (48). */
      g_assert_cmpint (etl_fileio_read (p, len, 67, 2, 8, &fi), ==,
                       len < 16 ? ETL_SPAN_READ_MISSING : len < 48 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      g_assert_cmpint (etl_fileio_read (p, len, 76, 3, 4, &fi), ==,
                       len < 4 ? ETL_SPAN_READ_MISSING : len < 12 ? ETL_SPAN_READ_TRUNCATED : ETL_SPAN_READ_OK);
      /* Create: the OpenPath of non-zero units runs to the payload's end. */
      etl_fileio_read (p, len, 64, 3, 8, &fi);
      if (len > 32)
        g_assert_nonnull (fi.open_path);
      g_free (fi.open_path);
      g_assert_cmpint (etl_thread_ids_read (p, len, 3, &pid, &tid), ==,
                       len < 8 ? ETL_SPAN_READ_MISSING : ETL_SPAN_READ_OK);
    }
  g_assert_cmpint (etl_gc_start_read (NULL, 0, 1, &gs), ==, ETL_SPAN_READ_MISSING);
  g_assert_cmpint (etl_thread_ids_read (full, 8, 0, &pid, &tid), ==, ETL_SPAN_READ_MISSING);
  g_assert_cmpstr (etl_gc_reason_name (1), ==, "Induced");
  g_assert_null (etl_gc_reason_name (10));
  g_assert_cmpstr (etl_gc_type_name (1), ==, "BackgroundGC");
  g_assert_cmpstr (etl_gc_suspend_reason_name (6), ==, "SuspendForGCPrep");
  g_assert_cmpstr (etl_fileio_op_name (77), ==, "DirNotify");
  g_assert_null (etl_fileio_op_name (76));
}

static void
test_kinds_parse (void)
{
  guint kinds;

  g_assert_true (etl_builtin_kinds_parse ("gc,disk", &kinds));
  g_assert_cmpuint (kinds, ==, 1u << ETL_BUILTIN_GC | 1u << ETL_BUILTIN_GC_PAUSE | 1u << ETL_BUILTIN_DISK_IO);
  g_assert_true (etl_builtin_kinds_parse ("all", &kinds));
  g_assert_cmpuint (kinds, ==, ETL_BUILTIN_KINDS_ALL);
  g_assert_false (etl_builtin_kinds_parse ("gc,nope", &kinds));
  g_assert_cmpuint (kinds, ==, 0);
  g_assert_false (etl_builtin_kinds_parse ("", &kinds));
}

static void
test_cancel (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  EtlBuiltinSpans *spans;

  if (trace == NULL)
    return;
  g_cancellable_cancel (cancellable);
  spans = etl_builtin_spans_new (trace, ETL_BUILTIN_KINDS_ALL, cancellable, &error);
  g_assert_null (spans);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/builtin-spans/gc-net452", test_gc_net452);
  g_test_add_func ("/etl/builtin-spans/gc-net452-figures", test_gc_net452_figures);
  g_test_add_func ("/etl/builtin-spans/gc-gcevents", test_gc_gcevents);
  g_test_add_func ("/etl/builtin-spans/disk-net452", test_disk_net452);
  g_test_add_func ("/etl/builtin-spans/process-net452", test_process_net452);
  g_test_add_func ("/etl/builtin-spans/synth", test_synth);
  g_test_add_func ("/etl/builtin-spans/rules-gc", test_rules_gc);
  g_test_add_func ("/etl/builtin-spans/rules-io", test_rules_io);
  g_test_add_func ("/etl/builtin-spans/rules-lifetimes", test_rules_lifetimes);
  g_test_add_func ("/etl/builtin-spans/many-unpaired", test_many_unpaired);
  g_test_add_func ("/etl/builtin-spans/payloads", test_payloads);
  g_test_add_func ("/etl/builtin-spans/kinds-parse", test_kinds_parse);
  g_test_add_func ("/etl/builtin-spans/cancel", test_cancel);
  return g_test_run ();
}
