/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-writer: .etl files written by EtlWriter read back exactly.
 *
 * - synth: the reader finds exactly the requested records, spread over the
 *   processors as documented, with the header values, the buffer layout
 *   Windows uses (0xFF tails, PROC_INDEX, SequenceNumbers interleaved in file
 *   order) and the loss evidence and counters.
 * - slice: the records of a slice of each corpus file (compressed ones too)
 *   are the selected records of the original, same bytes, same FILETIMEs, same
 *   processors; the inputs are never modified; the output is atomic.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "etl-format-private.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-writer.h"

static char *
make_tmp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("etlscope-writer-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      g_unlink (p);
    }
  g_rmdir (dir);
}

static guint
count_dir_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static EtlTrace *
open_one (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* ------------------------------------------------------------------------ */
/* synth                                                                    */

/* Walks the raw buffers: checks the layout and returns flag/sequence facts. */
typedef struct
{
  guint n_buffers;
  guint n_events_lost_flags;
  guint n_cpu_switches;     /* consecutive data buffers of different processors */
} BufferWalk;

static void
check_buffers (const char *path, guint32 buffer_size, BufferWalk *walk)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  gint64 last_seq = -1;
  gint last_cpu = -1;

  memset (walk, 0, sizeof *walk);
  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len % buffer_size, ==, 0);

  for (gsize off = 0; off < len; off += buffer_size)
    {
      const guint8 *b = (const guint8 *) data + off;
      guint32 saved = etl_read_u32 (b + ETL_WBH_SAVED_OFFSET);
      guint16 flags = etl_read_u16 (b + ETL_WBH_BUFFER_FLAG);
      gint64 seq = etl_read_i64 (b + ETL_WBH_SEQUENCE_NUMBER);
      gint cpu = etl_read_u16 (b + ETL_WBH_CLIENT_CONTEXT) & ETL_PROCESSOR_INDEX_MASK;

      g_assert_cmpuint (etl_read_u32 (b + ETL_WBH_BUFFER_SIZE), ==, buffer_size);
      g_assert_cmpuint (saved % 8, ==, 0);
      g_assert_cmpuint (saved, >=, ETL_WMI_BUFFER_HEADER_SIZE);
      g_assert_cmpuint (saved, <=, buffer_size);
      g_assert_cmphex (flags & ETL_BUFFER_FLAG_PROC_INDEX, ==, ETL_BUFFER_FLAG_PROC_INDEX);
      g_assert_cmphex (flags & ETL_BUFFER_FLAG_COMPRESSED, ==, 0);
      /* The unused tail is 0xFF, as Windows leaves it. */
      for (guint32 i = saved; i < buffer_size; i++)
        g_assert_cmphex (b[i], ==, 0xFF);
      if (off == 0)
        {
          g_assert_cmpuint (etl_read_u16 (b + ETL_WBH_BUFFER_TYPE), ==, ETL_BUFFER_TYPE_HEADER);
          g_assert_cmpint (seq, ==, 0);
        }
      else
        {
          /* Flush order: SequenceNumbers increase in file order. */
          g_assert_cmpint (seq, >, last_seq);
          if (last_cpu >= 0 && cpu != last_cpu)
            walk->n_cpu_switches++;
          last_cpu = cpu;
        }
      last_seq = seq;
      if (flags & ETL_BUFFER_FLAG_EVENTS_LOST)
        walk->n_events_lost_flags++;
      walk->n_buffers++;
    }
}

static void
check_synth (guint n_cpus, guint64 n_records, guint buffer_kb, EtlClockType clock, double loss_rate)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "synth.etl", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autofree guint64 *per_cpu = g_new0 (guint64, n_cpus);
  const EtlFileInfo *info;
  EtlSynthParams params;
  EtlRecord r;
  BufferWalk walk;
  guint n_losses;
  const EtlLoss *losses;
  guint64 gap_buffers = 0, flagged = 0;
  double expected_ms, duration_ms;

  etl_synth_params_init (&params);
  params.n_cpus = n_cpus;
  params.n_records = n_records;
  params.buffer_kb = buffer_kb;
  params.clock = clock;
  params.loss_rate = loss_rate;
  params.seed = 42;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  /* Only the result is left in the folder: no temporary file. */
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);

  trace = open_one (path);
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (info->problems->len, ==, 0);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, n_records + 1);
  g_assert_cmpuint (info->n_records, ==, n_records + 1);
  g_assert_cmpuint (info->n_skipped, ==, 0);
  g_assert_cmpuint (info->number_of_processors, ==, n_cpus);
  if (n_records >= n_cpus)
    g_assert_cmpuint (etl_trace_get_n_cpus (trace), ==, n_cpus);
  g_assert_cmpuint (info->buffer_size, ==, buffer_kb * 1024);
  g_assert_cmpuint (info->clock_type, ==, clock);
  g_assert_cmpuint (info->pointer_size, ==, 8);
  g_assert_cmpuint (info->buffers_written, ==, info->n_buffers);
  g_assert_cmpstr (info->logger_name, ==, "Etlscope Synthetic");
  g_assert_cmpint (info->end_time, ==, etl_trace_get_last_filetime (trace));
  g_assert_cmpint (info->header_filetime, ==, info->start_time);
  g_assert_cmpuint (info->records_by_header_type[ETL_HEADER_TYPE_SYSTEM64]
                    + info->records_by_header_type[ETL_HEADER_TYPE_PERFINFO64]
                    + info->records_by_header_type[ETL_HEADER_TYPE_EVENT_HEADER64]
                    + info->records_by_header_type[ETL_HEADER_TYPE_FULL_HEADER64], ==, n_records + 1);
  if (n_records >= 10000)
    {
      /* The documented mix: samples are the bulk, every kind present. */
      g_assert_cmpuint (info->records_by_header_type[ETL_HEADER_TYPE_PERFINFO64], >, n_records / 2);
      g_assert_cmpuint (info->records_by_header_type[ETL_HEADER_TYPE_EVENT_HEADER64], >, n_records / 20);
      g_assert_cmpuint (info->records_by_header_type[ETL_HEADER_TYPE_FULL_HEADER64], >, n_records / 50);
      g_assert_cmpuint (info->records_by_header_type[ETL_HEADER_TYPE_SYSTEM64], >, n_records / 20);
    }

  /* Record 0 is the EventTrace header on processor 0; processor c holds
   * n / cpus records, one more when c < n % cpus. */
  g_assert_true (etl_trace_get_record (trace, 0, &r, &error));
  g_assert_cmpuint (r.hook_id, ==, 0);
  g_assert_cmpuint (r.header_type, ==, ETL_HEADER_TYPE_SYSTEM64);
  g_assert_cmpuint (r.file_offset, ==, ETL_WMI_BUFFER_HEADER_SIZE);
  etl_record_clear (&r);
  for (guint64 i = 1; i < etl_trace_get_n_records (trace); i++)
    {
      per_cpu[etl_trace_get_cpu (trace, i)]++;
      g_assert_cmpint (etl_trace_get_filetime (trace, i), >=, etl_trace_get_filetime (trace, i - 1));
    }
  for (guint c = 0; c < n_cpus; c++)
    g_assert_cmpuint (per_cpu[c], ==, n_records / n_cpus + (c < n_records % n_cpus ? 1 : 0));

  /* Every record decodes; TraceLogging ones carry their items. */
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i += 1 + i % 7)
    {
      g_assert_true (etl_trace_get_record (trace, i, &r, &error));
      g_assert_no_error (error);
      if (r.header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
        {
          g_assert_cmpuint (r.kind, ==, ETL_RECORD_KIND_TRACELOGGING);
          g_assert_nonnull (r.ext);
        }
      etl_record_clear (&r);
    }

  /* About 50,000 events per second per processor. */
  expected_ms = (double) (n_records / n_cpus) / 50.0;
  duration_ms = etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace));
  if (loss_rate == 0.0 && n_records / n_cpus >= 1000)
    {
      g_assert_cmpfloat (duration_ms, >, expected_ms * 0.9);
      g_assert_cmpfloat (duration_ms, <, expected_ms * 1.1);
    }

  check_buffers (path, buffer_kb * 1024, &walk);
  g_assert_cmpuint (walk.n_buffers, ==, info->n_buffers);
  if (n_cpus > 1 && walk.n_buffers > 2 * n_cpus)
    g_assert_cmpuint (walk.n_cpu_switches, >, 0);

  losses = etl_trace_get_losses (trace, &n_losses);
  for (guint l = 0; l < n_losses; l++)
    {
      if (losses[l].kind == ETL_LOSS_SEQUENCE_GAP)
        gap_buffers += losses[l].count;
      else if (losses[l].kind == ETL_LOSS_EVENTS_LOST_BUFFER)
        flagged++;
    }
  g_assert_cmpuint (flagged, ==, walk.n_events_lost_flags);
  if (loss_rate == 0.0)
    {
      g_assert_cmpuint (info->events_lost, ==, 0);
      g_assert_cmpuint (info->buffers_lost, ==, 0);
      g_assert_cmpuint (n_losses, ==, 0);
    }
  else
    {
      /* Each lost buffer is one SequenceNumber missing, and flags its
       * processor's next buffer; EventsLost counts its records. */
      g_assert_cmpuint (info->buffers_lost, >, 0);
      g_assert_cmpuint (gap_buffers, ==, info->buffers_lost);
      g_assert_cmpuint (flagged, >, 0);
      g_assert_cmpuint (flagged, <=, info->buffers_lost);
      g_assert_cmpuint (info->events_lost, >=, info->buffers_lost);
      g_assert_cmpuint (info->buffers_written + info->buffers_lost, ==,
                        /* header buffer + every SequenceNumber used */
                        1 + (guint64) (info->n_buffers - 1) + gap_buffers);
    }

  remove_dir (dir);
}

static void
test_synth_counts (void)
{
  check_synth (4, 100003, 64, ETL_CLOCK_QPC, 0.0);
}

static void
test_synth_small (void)
{
  check_synth (1, 1, 4, ETL_CLOCK_QPC, 0.0);
  check_synth (3, 0, 4, ETL_CLOCK_QPC, 0.0);
  check_synth (16, 1000, 4, ETL_CLOCK_QPC, 0.0);
}

static void
test_synth_clocks (void)
{
  check_synth (2, 20000, 16, ETL_CLOCK_SYSTEM_TIME, 0.0);
  check_synth (2, 20000, 16, ETL_CLOCK_CPU_CYCLE, 0.0);
}

static void
test_synth_losses (void)
{
  check_synth (8, 200000, 16, ETL_CLOCK_QPC, 0.1);
  check_synth (2, 50000, 4, ETL_CLOCK_CPU_CYCLE, 0.5);
}

static void
test_synth_deterministic (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *a = g_build_filename (dir, "a.etl", NULL);
  g_autofree char *da = NULL, *db = NULL, *dc = NULL;
  gsize la, lb, lc;
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_records = 30000;
  params.loss_rate = 0.05;
  /* The path is in the header (LogFileName): write the same one each time. */
  g_assert_true (etl_synth_write (&params, a, NULL));
  g_assert_true (g_file_get_contents (a, &da, &la, NULL));
  g_assert_true (etl_synth_write (&params, a, NULL));
  g_assert_true (g_file_get_contents (a, &db, &lb, NULL));
  params.seed = 2;
  g_assert_true (etl_synth_write (&params, a, NULL));
  g_assert_true (g_file_get_contents (a, &dc, &lc, NULL));
  g_assert_cmpmem (da, la, db, lb);
  g_assert_true (la != lc || memcmp (da, dc, la) != 0);
  remove_dir (dir);
}

static void
test_synth_bad_params (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "x.etl", NULL);
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = 0;
  g_assert_false (etl_synth_write (&params, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  etl_synth_params_init (&params);
  params.loss_rate = 1.0;
  g_assert_false (etl_synth_write (&params, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (count_dir_entries (dir), ==, 0);
  remove_dir (dir);
}

/* ------------------------------------------------------------------------ */
/* writer                                                                   */

static void
test_writer_abandoned (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "out.etl", NULL);
  g_autoptr (GError) error = NULL;
  EtlWriterHeader h;
  EtlWriter *w;
  guint8 rec[32] = { 0 };

  /* An existing file stays as it was until close succeeds. */
  g_assert_true (g_file_set_contents (path, "old", 3, NULL));
  etl_writer_header_init (&h);
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
  rec[2] = ETL_HEADER_TYPE_PERFINFO64;
  rec[3] = 0xC0;
  rec[4] = 32;
  g_assert_true (etl_writer_add_record (w, 0, rec, sizeof rec, 1, &error));
  g_assert_cmpuint (count_dir_entries (dir), ==, 2);
  etl_writer_free (w);
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "old");
  }

  /* A record larger than a buffer is refused. */
  h.buffer_size = 4096;
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
  {
    g_autofree guint8 *big = g_malloc0 (8192);

    g_assert_false (etl_writer_add_record (w, 0, big, 8192, 1, &error));
    g_assert_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED);
  }
  etl_writer_free (w);
  remove_dir (dir);
}

/* ------------------------------------------------------------------------ */
/* slice                                                                    */

typedef struct
{
  gint64 from, to;
  gboolean has_pid;
  guint32 pid;
  gboolean has_provider;
  EtlGuid provider;
} Selection;

static gboolean
selected (const Selection *sel, const EtlRecord *r)
{
  if (r->filetime < sel->from || r->filetime >= sel->to)
    return FALSE;
  if (sel->has_pid && (!r->has_pid || r->pid != sel->pid))
    return FALSE;
  if (sel->has_provider && !etl_guid_equal (&r->provider, &sel->provider))
    return FALSE;
  /* The input's EventTrace header record is replaced by the new file's. */
  if (r->file_offset == ETL_WMI_BUFFER_HEADER_SIZE && r->hook_id == 0
      && (r->header_type == ETL_HEADER_TYPE_SYSTEM32 || r->header_type == ETL_HEADER_TYPE_SYSTEM64))
    return FALSE;
  return TRUE;
}

/* The slice's records (after its own header) are the original's selected ones. */
static guint64
compare_slice (EtlTrace *orig, const Selection *sel, const char *sliced)
{
  g_autoptr (EtlTrace) out = open_one (sliced);
  const EtlFileInfo *oi = etl_trace_get_file_info (orig, 0);
  const EtlFileInfo *si = etl_trace_get_file_info (out, 0);
  guint64 j = 1;
  EtlRecord a, b;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (si->problems->len, ==, 0);
  g_assert_false (si->compressed);
  g_assert_cmpuint (si->clock_type, ==, oi->clock_type);
  g_assert_cmpint (si->perf_freq, ==, oi->perf_freq);
  g_assert_cmpstr (si->logger_name, ==, oi->logger_name);
  g_assert_cmpint (si->tz_bias_minutes, ==, oi->tz_bias_minutes);
  g_assert_cmpuint (si->buffers_written, ==, si->n_buffers);
  g_assert_cmphex (si->log_file_mode, ==, oi->log_file_mode & ~0x04000000u);
  g_assert_true (etl_trace_get_record (out, 0, &b, &error));
  g_assert_cmpuint (b.hook_id, ==, 0);
  g_assert_cmpuint (b.file_offset, ==, ETL_WMI_BUFFER_HEADER_SIZE);
  etl_record_clear (&b);

  for (guint64 i = 0; i < etl_trace_get_n_records (orig); i++)
    {
      g_assert_true (etl_trace_get_record (orig, i, &a, &error));
      if (!selected (sel, &a))
        {
          etl_record_clear (&a);
          continue;
        }
      g_assert_cmpuint (j, <, etl_trace_get_n_records (out));
      g_assert_true (etl_trace_get_record (out, j, &b, &error));
      g_assert_cmpuint (a.size, ==, b.size);
      g_assert_cmpmem (a.raw, a.size, b.raw, b.size);
      g_assert_cmpint (a.filetime, ==, b.filetime);
      g_assert_cmpuint (a.cpu, ==, b.cpu);
      etl_record_clear (&a);
      etl_record_clear (&b);
      j++;
    }
  g_assert_cmpuint (j, ==, etl_trace_get_n_records (out));
  if (j > 1)
    {
      g_assert_cmpint (si->end_time, ==, etl_trace_get_last_filetime (out));
      g_assert_cmpint (si->start_time, <=, etl_trace_get_filetime (out, 1));
    }
  return j - 1;
}

static void
test_slice_all (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = etl_test_corpus_path (name);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlTrace) sliced = NULL;
  g_autoptr (GError) error = NULL;
  Selection sel = { G_MININT64, G_MAXINT64 };
  EtlWriterStats stats;
  const EtlFileInfo *oi, *si;
  guint64 n;

  if (path == NULL)
    return;
  dir = make_tmp_dir ();
  out = g_build_filename (dir, "all.etl", NULL);
  trace = open_one (path);
  g_assert_true (etl_writer_write_slice (trace, NULL, out, NULL, NULL, NULL, &stats, &error));
  g_assert_no_error (error);
  n = compare_slice (trace, &sel, out);
  g_assert_cmpuint (stats.n_records, ==, n);

  /* The whole trace: every record but the header, the header's loss counters. */
  oi = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (n, ==, etl_trace_get_n_records (trace) - 1);
  sliced = open_one (out);
  si = etl_trace_get_file_info (sliced, 0);
  g_assert_cmpuint (si->events_lost, ==, oi->events_lost);
  g_assert_cmpuint (si->buffers_lost, ==, oi->buffers_lost);
  g_assert_cmpuint (si->number_of_processors, >=, oi->number_of_processors);
  g_assert_cmpuint (si->version, ==, oi->version);
  g_assert_cmpuint (si->provider_version, ==, oi->provider_version);
  g_assert_cmpint (si->boot_time, ==, oi->boot_time);
  for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
    if (t != ETL_HEADER_TYPE_SYSTEM32 && t != ETL_HEADER_TYPE_SYSTEM64)
      g_assert_cmpuint (si->records_by_header_type[t], ==, oi->records_by_header_type[t]);
  remove_dir (dir);
}

/* A window of the compressed trace, one process, one provider. */
static void
test_slice_compressed_window (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  EtlSliceOptions options;
  Selection sel = { 0 };
  EtlRecord r;
  gint64 first, last;
  guint64 mid;

  if (path == NULL)
    return;
  dir = make_tmp_dir ();
  out = g_build_filename (dir, "window.etl", NULL);
  trace = open_one (path);
  g_assert_true (etl_trace_get_file_info (trace, 0)->compressed);
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace);

  /* The middle third. */
  etl_slice_options_init (&options);
  options.from = sel.from = first + (last - first) / 3;
  options.to = sel.to = first + 2 * (last - first) / 3;
  g_assert_true (etl_writer_write_slice (trace, &options, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (compare_slice (trace, &sel, out), >, 1000);

  /* One process (that of a record in the middle) in that window. */
  mid = etl_trace_lower_bound (trace, options.from + (options.to - options.from) / 2);
  while (!etl_trace_get_pid (trace, mid, &sel.pid))
    mid++;
  options.has_pid = sel.has_pid = TRUE;
  options.pid = sel.pid;
  g_assert_true (etl_writer_write_slice (trace, &options, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (compare_slice (trace, &sel, out), >, 0);

  /* One provider, whole trace. */
  g_assert_true (etl_trace_get_record (trace, mid, &r, &error));
  sel.provider = r.provider;
  etl_record_clear (&r);
  etl_slice_options_init (&options);
  options.n_providers = 1;
  options.providers = &sel.provider;
  sel.from = G_MININT64;
  sel.to = G_MAXINT64;
  sel.has_pid = FALSE;
  sel.has_provider = TRUE;
  g_assert_true (etl_writer_write_slice (trace, &options, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (compare_slice (trace, &sel, out), >, 0);

  /* Nothing selected: a valid file with only its header. */
  etl_slice_options_init (&options);
  options.from = options.to = first;
  g_assert_true (etl_writer_write_slice (trace, &options, out, NULL, NULL, NULL, NULL, &error));
  {
    g_autoptr (EtlTrace) empty = open_one (out);

    g_assert_cmpuint (etl_trace_get_n_records (empty), ==, 1);
  }
  remove_dir (dir);
}

typedef struct
{
  goffset size;
  guint64 mtime;
  char *sha256;
} FileStamp;

static void
stamp_file (const char *path, FileStamp *s)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                                  G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_nonnull (info);
  s->size = g_file_info_get_size (info);
  s->mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * 1000000
             + g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  s->sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, len);
}

static void
assert_same_stamp (const FileStamp *a, const FileStamp *b)
{
  g_assert_cmpint (a->size, ==, b->size);
  g_assert_cmpuint (a->mtime, ==, b->mtime);
  g_assert_cmpstr (a->sha256, ==, b->sha256);
}

static int
run_cli (const char *const *args, char **out)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  return g_subprocess_get_exit_status (proc);
}

/* etlscope-cli slice on a copy of a corpus file: same records, input untouched. */
static void
test_slice_cli (void)
{
  g_autofree char *corpus = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *dir = NULL;
  g_autofree char *in = NULL;
  g_autofree char *out = NULL;
  g_autofree char *data = NULL;
  g_autofree char *stdout_text = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  FileStamp before, after;
  Selection sel = { 0 };
  gsize len;

  if (corpus == NULL)
    return;
  dir = make_tmp_dir ();
  in = g_build_filename (dir, "in.etl", NULL);
  out = g_build_filename (dir, "out.etl", NULL);
  g_assert_true (g_file_get_contents (corpus, &data, &len, NULL));
  g_assert_true (g_file_set_contents (in, data, (gssize) len, NULL));
  stamp_file (in, &before);

  {
    const char *args[] = { "slice", "--from", "500", "--to", "1500.5", in, "-o", out, NULL };

    g_assert_cmpint (run_cli (args, &stdout_text), ==, 0);
    g_assert_nonnull (strstr (stdout_text, "\"records\""));
  }
  trace = open_one (in);
  sel.from = etl_trace_get_origin (trace) + 500 * 10000;
  sel.to = etl_trace_get_origin (trace) + 15005000;
  g_assert_cmpuint (compare_slice (trace, &sel, out), >, 0);

  /* Refused: the output is the input. */
  {
    const char *args[] = { "slice", in, "-o", in, NULL };
    g_autofree char *ignored = NULL;

    g_assert_cmpint (run_cli (args, &ignored), ==, 1);
  }
  /* Usage errors. */
  {
    const char *args[] = { "slice", "--from", "-3", in, "-o", out, NULL };
    g_autofree char *ignored = NULL;

    g_assert_cmpint (run_cli (args, &ignored), ==, 2);
  }
  g_clear_pointer (&trace, etl_trace_unref);

  stamp_file (in, &after);
  assert_same_stamp (&before, &after);
  g_free (before.sha256);
  g_free (after.sha256);
  remove_dir (dir);
}

/* Slicing every corpus file never modifies it. */
static void
test_slice_inputs_untouched (void)
{
  static const char *const names[] = {
    "AMSITrace.etl", "gcevents.etl", "net.4.5.2.x64.etl", "SelfDescribingSingleEvent.etl",
  };
  g_autofree char *dir = make_tmp_dir ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = etl_test_corpus_path (names[i]);
      g_autofree char *out = g_build_filename (dir, names[i], NULL);
      FileStamp before, after;

      if (path == NULL)
        break;
      stamp_file (path, &before);
      {
        const char *args[] = { "slice", "--pid", "0", path, "-o", out, NULL };
        g_autofree char *ignored = NULL;

        g_assert_cmpint (run_cli (args, &ignored), ==, 0);
      }
      {
        const char *args[] = { "slice", path, "-o", out, NULL };
        g_autofree char *ignored = NULL;

        g_assert_cmpint (run_cli (args, &ignored), ==, 0);
      }
      stamp_file (path, &after);
      assert_same_stamp (&before, &after);
      g_free (before.sha256);
      g_free (after.sha256);
    }
  remove_dir (dir);
}

/* A slice of a synthetic trace with losses keeps their evidence. */
static void
test_slice_losses (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *in = g_build_filename (dir, "in.etl", NULL);
  g_autofree char *out = g_build_filename (dir, "out.etl", NULL);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlTrace) sliced = NULL;
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;
  EtlSliceOptions options;
  Selection sel;
  guint n_a, n_b;
  guint64 gaps_a = 0, gaps_b = 0;
  const EtlLoss *la, *lb;

  etl_synth_params_init (&params);
  params.n_records = 100000;
  params.buffer_kb = 8;
  params.loss_rate = 0.1;
  g_assert_true (etl_synth_write (&params, in, &error));
  trace = open_one (in);

  /* Whole trace: the header counters pass on. */
  g_assert_true (etl_writer_write_slice (trace, NULL, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  sliced = open_one (out);
  g_assert_cmpuint (etl_trace_get_file_info (sliced, 0)->events_lost, ==,
                    etl_trace_get_file_info (trace, 0)->events_lost);
  g_assert_cmpuint (etl_trace_get_file_info (sliced, 0)->buffers_lost, ==,
                    etl_trace_get_file_info (trace, 0)->buffers_lost);
  g_clear_pointer (&sliced, etl_trace_unref);

  /* A window: the gaps inside it, and the counters from them. */
  etl_slice_options_init (&options);
  options.from = etl_trace_get_origin (trace) + 500 * 10000;  /* 50..150 ms */
  options.to = etl_trace_get_origin (trace) + 1500 * 10000;
  g_assert_true (etl_writer_write_slice (trace, &options, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  sel = (Selection) { options.from, options.to };
  compare_slice (trace, &sel, out);
  sliced = open_one (out);
  la = etl_trace_get_losses (trace, &n_a);
  lb = etl_trace_get_losses (sliced, &n_b);
  for (guint i = 0; i < n_a; i++)
    if (la[i].kind == ETL_LOSS_SEQUENCE_GAP && la[i].filetime >= options.from && la[i].filetime < options.to)
      gaps_a += la[i].count;
  for (guint i = 0; i < n_b; i++)
    if (lb[i].kind == ETL_LOSS_SEQUENCE_GAP)
      gaps_b += lb[i].count;
  g_assert_cmpuint (gaps_a, >, 0);
  g_assert_cmpuint (gaps_b, ==, gaps_a);
  g_assert_cmpuint (etl_trace_get_file_info (sliced, 0)->buffers_lost, ==, gaps_a);
  g_assert_cmpuint (etl_trace_get_file_info (sliced, 0)->events_lost, >, 0);
  g_clear_pointer (&sliced, etl_trace_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  static const char *const corpus[] = {
    "AMSITrace.etl", "SelfDescribingSingleEvent.etl", "gcevents.etl", "gcrundownevents.etl",
    "lxcore_kernel.etl", "net.4.5.2.x64.etl", "primitive-types.etl",
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/writer/synth/counts", test_synth_counts);
  g_test_add_func ("/etl/writer/synth/small", test_synth_small);
  g_test_add_func ("/etl/writer/synth/clocks", test_synth_clocks);
  g_test_add_func ("/etl/writer/synth/losses", test_synth_losses);
  g_test_add_func ("/etl/writer/synth/deterministic", test_synth_deterministic);
  g_test_add_func ("/etl/writer/synth/bad-params", test_synth_bad_params);
  g_test_add_func ("/etl/writer/abandoned", test_writer_abandoned);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *name = g_strdup_printf ("/etl/writer/slice/all/%s", corpus[i]);

      g_test_add_data_func (name, corpus[i], test_slice_all);
    }
  g_test_add_func ("/etl/writer/slice/compressed-window", test_slice_compressed_window);
  g_test_add_func ("/etl/writer/slice/cli", test_slice_cli);
  g_test_add_func ("/etl/writer/slice/inputs-untouched", test_slice_inputs_untouched);
  g_test_add_func ("/etl/writer/slice/losses", test_slice_losses);
  return g_test_run ();
}
