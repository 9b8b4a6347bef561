/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-reader: every corpus file's counts equal the table in
 * ../shared/etl-corpus/README.md (an independent reader's figures), its
 * header fields equal the EventTrace line of Microsoft TraceEvent's baseline,
 * and the reader keeps to its contracts (sorted merge, index re-reads, bad
 * input errors naming file and offset).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "etl-format-private.h"
#include "etl-test-util.h"
#include "etl-record-private.h"
#include "etl-names.h"
#include "etl-trace.h"

typedef struct
{
  const char *file;
  guint64 records;
  guint64 buffers;
  const char *by_type;  /* "type:count ..." as in the README table */
  guint32 cpus;         /* NumberOfProcessors */
  guint32 events_lost;
  guint32 buffers_lost;
  guint32 log_file_mode;
  const char *session;
} CorpusFacts;

static const CorpusFacts corpus[] = {
  { "AMSITrace.etl", 21, 6, "2:2 19:19", 8, 3, 0, 0x8000001, "AMSITraceSession" },
  { "SelfDescribingSingleEvent.etl", 22, 3, "2:3 19:1 20:18", 12, 0, 0, 0x4010001, "Relogger" },
  { "gcevents.etl", 71, 5, "2:2 19:69", 8, 0, 0, 0x8000002, "PerfViewSession" },
  { "gcrundownevents.etl", 112, 2, "2:2 19:110", 8, 0, 0, 0x8000001, "PerfViewSessionRundown" },
  { "lxcore_kernel.etl", 4, 3, "2:2 19:2", 6, 0, 0, 0x0, "lxcore_kernel" },
  { "net.4.5.2.x64.etl", 179474, 360, "1:2 2:3189 10:27 17:100157 18:33378 19:34765 20:7956", 8, 0, 0, 0x4010001, "Relogger" },
  { "primitive-types.etl", 7, 2, "2:2 19:5", 8, 0, 0, 0x0, "solar_system" },
  /* real/: records and buffers from the corpus README's independent reader;
   * Tx_Process.etl (Windows 7), which that reader cannot open, from fox-it
   * dissect.etl's count (header types included). */
  { "real/Tx_Process.etl", 10344, 182, "2:1 19:10343", 2, 0, 0, 0x0, "DataCollector02" },
  { "real/sonde_test.etl", 110, 9, NULL, 16, 0, 0, 0x10001, "Relogger" },
  { "real/MonoGameTerrain2D_PerfViewData.etl", 103, 13, NULL, 20, 0, 0, 0x4010001, "Relogger" },
  { "real/msbuild_PerfViewData.etl", 5870, 30, NULL, 8, 0, 0, 0x4010001, "Relogger" },
  { "real/hw3d_trace.etl", 3, 2, NULL, 8, 0, 0, 0x0, "trace" },
};

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

static void
test_corpus_table (gconstpointer data)
{
  const CorpusFacts *facts = data;
  g_autofree char *path = etl_test_corpus_path (facts->file);
  g_autoptr (EtlTrace) trace = NULL;
  g_auto (GStrv) pairs = NULL;
  const EtlFileInfo *info;
  guint64 sum = 0;

  if (path == NULL)
    return;
  trace = open_one (path);
  info = etl_trace_get_file_info (trace, 0);

  g_assert_cmpuint (info->n_records, ==, facts->records);
  g_assert_cmpuint (info->n_buffers, ==, facts->buffers);
  g_assert_cmpuint (info->number_of_processors, ==, facts->cpus);
  g_assert_cmpuint (info->events_lost, ==, facts->events_lost);
  g_assert_cmpuint (info->buffers_lost, ==, facts->buffers_lost);
  g_assert_cmphex (info->log_file_mode, ==, facts->log_file_mode);
  g_assert_cmpstr (info->logger_name, ==, facts->session);
  g_assert_cmpuint (info->problems->len, ==, 0);
  g_assert_cmpuint (info->n_skipped, ==, 0);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, facts->records);

  if (facts->by_type == NULL)
    return;
  pairs = g_strsplit (facts->by_type, " ", -1);
  for (guint i = 0; pairs[i]; i++)
    {
      guint type, n;

      g_assert_cmpint (sscanf (pairs[i], "%u:%u", &type, &n), ==, 2);
      g_assert_cmpuint (info->records_by_header_type[type], ==, n);
      sum += n;
    }
  /* No header type beyond those the table lists. */
  g_assert_cmpuint (sum, ==, facts->records);
}

/* Parses "Key=1,234; Key2=text; " from a baseline EventTrace line. */
static GHashTable *
parse_baseline_header (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) parts = NULL;
      const char *rest;

      if (!g_str_has_prefix (lines[i], "EVENT 0.000: Windows Kernel/EventTrace PID"))
        continue;
      rest = strstr (lines[i], "PID=");
      parts = g_strsplit (rest, "; ", -1);
      for (guint p = 0; parts[p]; p++)
        {
          char *eq = strchr (parts[p], '=');

          if (eq)
            g_hash_table_insert (fields, g_strndup (parts[p], eq - parts[p]), g_strdup (g_strstrip (eq + 1)));
        }
      break;
    }
  return fields;
}

static guint64
baseline_number (GHashTable *fields, const char *key)
{
  const char *v = g_hash_table_lookup (fields, key);
  GString *digits = g_string_new (NULL);
  guint64 n;

  g_assert_nonnull (v);
  for (const char *p = v; *p; p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (digits, *p);
  n = g_ascii_strtoull (digits->str, NULL, 10);
  g_string_free (digits, TRUE);
  return n;
}

static void
test_baseline_header (gconstpointer data)
{
  const char *name = data;
  g_autofree char *etl_name = g_strconcat (name, ".etl", NULL);
  g_autofree char *base_name = g_strconcat (name, ".baseline.txt", NULL);
  g_autofree char *path = etl_test_corpus_path (etl_name);
  g_autofree char *base = NULL;
  g_autoptr (GHashTable) fields = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  const EtlFileInfo *info;
  EtlRecord r;

  if (path == NULL)
    return;
  base = etl_test_corpus_path (base_name);
  if (base == NULL)
    return;
  fields = parse_baseline_header (base);
  g_assert_cmpuint (g_hash_table_size (fields), >, 10);
  trace = open_one (path);
  info = etl_trace_get_file_info (trace, 0);

  g_assert_cmpuint (info->buffer_size, ==, baseline_number (fields, "BufferSize"));
  g_assert_cmpuint (info->version, ==, baseline_number (fields, "Version"));
  g_assert_cmpuint (info->provider_version, ==, baseline_number (fields, "ProviderVersion"));
  g_assert_cmpuint (info->number_of_processors, ==, baseline_number (fields, "NumberOfProcessors"));
  g_assert_cmpuint (info->timer_resolution, ==, baseline_number (fields, "TimerResolution"));
  g_assert_cmpuint (info->maximum_file_size, ==, baseline_number (fields, "MaxFileSize"));
  g_assert_cmpuint (info->log_file_mode, ==, baseline_number (fields, "LogFileMode"));
  g_assert_cmpuint (info->buffers_written, ==, baseline_number (fields, "BuffersWritten"));
  g_assert_cmpuint (info->start_buffers, ==, baseline_number (fields, "StartBuffers"));
  g_assert_cmpuint (info->pointer_size, ==, baseline_number (fields, "PointerSize"));
  g_assert_cmpuint (info->events_lost, ==, baseline_number (fields, "EventsLost"));
  g_assert_cmpuint (info->cpu_speed_mhz, ==, baseline_number (fields, "CPUSpeed"));
  g_assert_cmpuint (info->perf_freq, ==, baseline_number (fields, "PerfFreq"));
  g_assert_cmpuint (info->clock_type, ==, baseline_number (fields, "ReservedFlags"));
  g_assert_cmpuint (info->buffers_lost, ==, baseline_number (fields, "BuffersLost"));
  {
    /* TraceEvent cuts long strings to 20 characters and "...". */
    const char *session = g_hash_table_lookup (fields, "SessionName");

    g_autofree char *prefix = g_strndup (session, strlen (session) - 3);

    if (g_str_has_suffix (session, "..."))
      g_assert_true (g_str_has_prefix (info->logger_name, prefix));
    else
      g_assert_cmpstr (info->logger_name, ==, session);
  }

  /* The header record itself: PID, TID and DataLen as TraceEvent shows them. */
  g_assert_true (etl_trace_get_record (trace, 0, &r, NULL));
  g_assert_cmpuint (r.hook_id, ==, 0);
  g_assert_cmpuint (r.pid, ==, baseline_number (fields, "PID"));
  g_assert_cmpuint (r.tid, ==, baseline_number (fields, "TID"));
  g_assert_cmpuint (r.user_data_len, ==, baseline_number (fields, "DataLen"));
  g_assert_cmpint (r.filetime, ==, info->start_time);
  etl_record_clear (&r);
}

/* The worked example of the corpus README: QPC → FILETIME with 10^7. */
static void
test_clock_conversion (void)
{
  const gint64 start = G_GINT64_CONSTANT (132757775728500000);
  gint64 ft;

  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, 10000000, 2304, start, G_GINT64_CONSTANT (2603587641205),
                              G_GINT64_CONSTANT (2603617064262));
  g_assert_cmpint (ft - start, ==, G_GINT64_CONSTANT (29423057));

  /* QPC at 3,579,545 Hz: one second of ticks is 10^7 FILETIME units, not 10^8. */
  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, 3579545, 0, start, 1000, 1000 + 3579545);
  g_assert_cmpint (ft - start, ==, 10000000);
  /* System time: raw values are FILETIME already. */
  ft = etl_filetime_from_raw (ETL_CLOCK_SYSTEM_TIME, 0, 0, start, start, start + 12345);
  g_assert_cmpint (ft, ==, start + 12345);
  /* CPU cycles at 2,000 MHz: 2,000 cycles are 1 µs = 10 units. */
  ft = etl_filetime_from_raw (ETL_CLOCK_CPU_CYCLE, 0, 2000, start, 0, 2000);
  g_assert_cmpint (ft - start, ==, 10);
  /* Before the header record. */
  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, 10000000, 0, start, 500, 400);
  g_assert_cmpint (ft - start, ==, -100);
  /* Hostile values saturate instead of overflowing (UBSan checks this). */
  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, 1, 0, start, G_MININT64, G_MAXINT64);
  g_assert_cmpint (ft, >, start);
  /* A huge PerfFreq (found by fuzz-open): the remainder times 10^7 would overflow. */
  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, G_GINT64_CONSTANT (0x7000000000000000), 0, start, 0,
                              G_GINT64_CONSTANT (-14786778468821));
  g_assert_cmpint (ft, ==, start - 18); /* −14786778468821 × 10^7 / 0x7000000000000000 = −18.3 */
  ft = etl_filetime_from_raw (ETL_CLOCK_QPC, G_GINT64_CONSTANT (0x7000000000000000), 0, start, 0,
                              G_GINT64_CONSTANT (0x6000000000000000));
  g_assert_cmpint (ft, ==, start + 8571428);
}

static void
test_primitive_types_record (void)
{
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_autoptr (EtlTrace) trace = NULL;
  EtlRecord r;
  char guid[ETL_GUID_STRING_LEN + 1];

  if (path == NULL)
    return;
  trace = open_one (path);
  g_assert_true (etl_trace_get_record (trace, 2, &r, NULL));
  g_assert_cmpuint (r.header_type, ==, ETL_HEADER_TYPE_EVENT_HEADER64);
  g_assert_cmpuint (r.kind, ==, ETL_RECORD_KIND_TRACELOGGING);
  g_assert_cmpuint (r.cpu, ==, 2);
  g_assert_cmpuint (r.pid, ==, 33984);
  g_assert_cmpuint (r.tid, ==, 21768);
  g_assert_cmpuint (r.user_data_len, ==, 78);
  g_assert_cmpint (r.ts_raw, ==, G_GINT64_CONSTANT (2603617064262));
  g_assert_true (r.flags & ETL_EVENT_HEADER_FLAG_EXTENDED_INFO);
  g_assert_true (etl_record_find_ext_item (&r, ETL_EXT_TYPE_PROV_TRAITS, NULL, NULL));
  g_assert_true (etl_record_find_ext_item (&r, ETL_EXT_TYPE_EVENT_SCHEMA_TL, NULL, NULL));
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, r.filetime), 2942.3057, 0.00011);
  etl_guid_to_string (&r.provider, guid);
  g_assert_cmpuint (strlen (guid), ==, ETL_GUID_STRING_LEN);
  /* The user data is the first field, a NUL-terminated UTF-8 "Mercury". */
  g_assert_cmpmem (r.user_data, 8, "Mercury", 8);
  etl_record_clear (&r);
}

static void
test_merge_sorted_multi (void)
{
  g_autofree char *a = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *b = etl_test_corpus_path ("gcevents.etl");
  g_autofree char *c = etl_test_corpus_path ("primitive-types.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  guint64 per_file[3] = { 0 };
  guint64 n;

  if (!a || !b || !c)
    return;
  {
    const char *paths[] = { a, b, c, NULL };

    trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpuint (etl_trace_get_n_files (trace), ==, 3);
  n = etl_trace_get_n_records (trace);
  g_assert_cmpuint (n, ==, 179474 + 71 + 7);
  for (guint64 i = 0; i < n; i++)
    {
      per_file[etl_trace_get_file (trace, i)]++;
      if (i > 0)
        g_assert_cmpint (etl_trace_get_filetime (trace, i - 1), <=, etl_trace_get_filetime (trace, i));
    }
  g_assert_cmpuint (per_file[0], ==, 179474);
  g_assert_cmpuint (per_file[1], ==, 71);
  g_assert_cmpuint (per_file[2], ==, 7);
  /* The origin is the earliest of the three header records. */
  g_assert_cmpint (etl_trace_get_origin (trace), ==,
                   MIN (MIN (etl_trace_get_file_info (trace, 0)->start_time,
                             etl_trace_get_file_info (trace, 1)->start_time),
                        etl_trace_get_file_info (trace, 2)->start_time));
}

static void
test_lower_bound (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;
  guint64 n, mid;
  gint64 t;

  if (path == NULL)
    return;
  trace = open_one (path);
  n = etl_trace_get_n_records (trace);
  g_assert_cmpuint (n, ==, 179474);
  mid = n / 2;
  t = etl_trace_get_filetime (trace, mid);
  mid = etl_trace_lower_bound (trace, t);
  g_assert_cmpint (etl_trace_get_filetime (trace, mid), ==, t);
  g_assert_true (mid == 0 || etl_trace_get_filetime (trace, mid - 1) < t);
  g_assert_cmpuint (etl_trace_lower_bound (trace, G_MAXINT64), ==, n);
  g_assert_cmpuint (etl_trace_lower_bound (trace, G_MININT64), ==, 0);
}

static void
test_amsi_losses (void)
{
  g_autofree char *path = etl_test_corpus_path ("AMSITrace.etl");
  g_autoptr (EtlTrace) trace = NULL;
  guint n_losses;

  if (path == NULL)
    return;
  trace = open_one (path);
  g_assert_cmpuint (etl_trace_get_file_info (trace, 0)->events_lost, ==, 3);
  /* Its buffers carry no loss flags and its SequenceNumbers have no gap:
   * the only evidence is the header total. */
  etl_trace_get_losses (trace, &n_losses);
  g_assert_cmpuint (n_losses, ==, 0);
}

/* A real-time lost-event record (RTLostEvent class, type 32/33) lands in
 * the loss series with its time and CPU.  Made from primitive-types.etl by
 * giving two of its EVENT_HEADER records that class's GUID and opcodes. */
static void
test_rt_lost_records (void)
{
  static const guint8 rt_lost_guid[16] = { 0xe0, 0x9a, 0x39, 0x6a, 0xc6, 0x4b, 0xe9, 0x4d,
                                           0x87, 0x0b, 0x36, 0x57, 0xf8, 0x94, 0x7e, 0x7e };
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[2] = { NULL, NULL };
  const EtlLoss *losses;
  guint n_losses;
  gsize len, second;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* Records of the second buffer: 0x2048, then the next one 8-aligned. */
  second = 0x2048 + ((etl_read_u16 ((const guint8 *) contents + 0x2048) + 7) & ~7u);
  g_assert_cmpuint ((guint8) contents[second + 2], ==, ETL_HEADER_TYPE_EVENT_HEADER64);
  memcpy (contents + 0x2048 + 24, rt_lost_guid, 16);
  contents[0x2048 + 45] = 32; /* RTLostEvent */
  memcpy (contents + second + 24, rt_lost_guid, 16);
  contents[second + 45] = 33; /* RTLostBuffer */
  dir = g_dir_make_tmp ("etlscope-rtlost-XXXXXX", NULL);
  tmp = g_build_filename (dir, "rt-lost.etl", NULL);
  g_assert_true (g_file_set_contents (tmp, contents, (gssize) len, NULL));
  paths[0] = tmp;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  losses = etl_trace_get_losses (trace, &n_losses);
  g_assert_cmpuint (n_losses, ==, 2);
  g_assert_cmpint (losses[0].kind, ==, ETL_LOSS_RT_LOST_EVENT);
  g_assert_cmpint (losses[1].kind, ==, ETL_LOSS_RT_LOST_BUFFER);
  g_assert_cmpint (losses[0].cpu, ==, 2);
  g_assert_cmpfloat_with_epsilon (etl_trace_filetime_to_ms (trace, losses[0].filetime), 2942.3057, 0.00011);
  g_unlink (tmp);
  g_rmdir (dir);
}

typedef struct
{
  guint calls;
  double last;
  guint merge_calls; /* fractions past the scan's half, before the end */
  double before_end; /* the largest fraction below 1 */
} Progress;

static void
on_progress (double fraction, gpointer user_data)
{
  Progress *p = user_data;

  g_assert_cmpfloat (fraction, >=, p->last);
  p->last = fraction;
  p->calls++;
  if (fraction > 0.5 && fraction < 1.0)
    p->merge_calls++;
  if (fraction < 1.0)
    p->before_end = MAX (p->before_end, fraction);
}

static void
test_progress_and_cancel (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  const char *paths[] = { path, NULL };
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  Progress p = { 0, 0.0 };
  EtlTrace *trace;

  if (path == NULL)
    return;
  /* One thread: every work item is the caller's, so the count of reports
   * does not depend on how the items fell between threads. */
  etl_trace_set_open_threads (1);
  trace = etl_trace_open (paths, on_progress, &p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p.calls, >, 10);
  g_assert_cmpuint (p.calls, <=, 250);
  g_assert_cmpfloat (p.last, ==, 1.0);
  etl_trace_unref (trace);

  /* The merge reports too (one range of 179,474 records on one thread: a
   * report every 65,536), so the bar does not stand at the scan's end
   * meanwhile. */
  memset (&p, 0, sizeof p);
  trace = etl_trace_open (paths, on_progress, &p, NULL, &error);
  etl_trace_set_open_threads (0);
  g_assert_no_error (error);
  g_assert_cmpuint (p.merge_calls, >=, 1);
  /* The scan fills the first half, the merge the next 45 %. */
  g_assert_cmpfloat (p.before_end, <=, 0.95);
  g_assert_cmpfloat (p.last, ==, 1.0);
  etl_trace_unref (trace);

  g_cancellable_cancel (cancellable);
  trace = etl_trace_open (paths, NULL, NULL, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- bad input -------------------------------------------------------- */

static char *
write_temp (const char *name, const guint8 *data, gsize len)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-test-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
  return path;
}

static void
assert_open_fails (const char *path, gint code)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, ETL_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "offset"));
}

static void
test_bad_empty_random_dir (void)
{
  g_autofree char *empty = write_temp ("empty.etl", (const guint8 *) "", 0);
  g_autofree guint8 *noise = g_malloc (65536);
  g_autofree char *random_path = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-dir-XXXXXX", NULL);
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < 65536; i++)
    noise[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  random_path = write_temp ("random.etl", noise, 65536);

  assert_open_fails (empty, ETL_ERROR_EMPTY);
  assert_open_fails (random_path, ETL_ERROR_NOT_ETL);
  assert_open_fails (dir, ETL_ERROR_OPEN);
  assert_open_fails ("/nonexistent/file.etl", ETL_ERROR_OPEN);
}

/* Truncating a real file at every buffer boundary and in the middle of
 * buffers keeps the records before the cut and reports the cut. */
static void
test_truncated (void)
{
  g_autofree char *path = etl_test_corpus_path ("gcevents.etl");
  g_autofree char *contents = NULL;
  gsize len;
  guint64 previous = 0;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, ==, 327680);

  for (gsize cut = 65536 + 8; cut < len; cut += 65536 / 2)
    {
      g_autofree char *tmp = write_temp ("cut.etl", (const guint8 *) contents, cut);
      const char *paths[] = { tmp, NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
      const EtlFileInfo *info;

      g_assert_no_error (error);
      info = etl_trace_get_file_info (trace, 0);
      g_assert_cmpuint (info->n_records, <=, 71);
      g_assert_cmpuint (info->n_records, >=, previous);
      previous = info->n_records;
      if (cut % 65536 != 0)
        {
          const GError *p;

          g_assert_cmpuint (info->problems->len, >=, 1);
          p = g_ptr_array_index (info->problems, info->problems->len - 1);
          g_assert_error (p, ETL_ERROR, ETL_ERROR_TRUNCATED);
          g_assert_nonnull (strstr (p->message, tmp));
        }
      for (guint64 i = 1; i < etl_trace_get_n_records (trace); i++)
        g_assert_cmpint (etl_trace_get_filetime (trace, i - 1), <=, etl_trace_get_filetime (trace, i));
    }
}

/* A record whose Size runs past its buffer: the records before it stay. */
static void
test_corrupt_record_size (void)
{
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_autofree char *contents = NULL;
  g_autofree char *tmp = NULL;
  gsize len;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  const EtlFileInfo *info;
  const GError *p;
  const char *paths[2] = { NULL, NULL };

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* The second buffer starts at 0x2000; its first record at 0x2048 is an
   * EVENT_HEADER whose u16 Size is at offset 0. */
  g_assert_cmpuint ((guint8) contents[0x2048 + 2], ==, ETL_HEADER_TYPE_EVENT_HEADER64);
  contents[0x2048] = (char) 0xF0;
  contents[0x2049] = (char) 0xFF;
  tmp = write_temp ("bad-size.etl", (const guint8 *) contents, len);
  paths[0] = tmp;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (info->n_records, ==, 2);
  g_assert_cmpuint (info->problems->len, ==, 1);
  p = g_ptr_array_index (info->problems, 0);
  g_assert_error (p, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (p->message, "offset 8264 (0x2048)"));
}

static void
put_u32 (char *p, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (char) ((v >> (8 * i)) & 0xFF);
}

/*
 * The bytes of a buffer that hold records (etl-trace.c buffer_filled_bytes()):
 * SavedOffset (0x04), else Offset (0x30), else up to the end marker.  The
 * variants are made by rewriting the two fields in primitive-types.etl's
 * first buffer (where they are equal, as ETW wrote them); the Windows 7 file
 * is the real case of a first buffer with SavedOffset 0.
 */
static void
test_buffer_fill (void)
{
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_autofree char *win7 = etl_test_corpus_path ("real/Tx_Process.etl");
  g_autofree char *contents = NULL;
  gsize len;
  guint32 saved;
  struct
  {
    const char *what;
    gint64 saved, fill; /* -1: keep */
    guint problems;
    const char *reason;
  } cases[] = {
    { "SavedOffset 0 (Windows 7 header buffer)", 0, -1, 0, NULL },
    { "SavedOffset beyond BufferSize", 0x10000, -1, 1, "records read up to Offset" },
    { "both out of range", 0x10, 0x7FFFFFFF, 1, "read up to the end marker" },
    { "both 0 (neither set: read to the end marker)", 0, 0, 0, NULL },
    { "SavedOffset 0, Offset beyond BufferSize", 0, 0x10000, 1, "read up to the end marker" },
  };

  if (path == NULL || win7 == NULL)
    return;
  /* The Windows 7 file: SavedOffset 0 and Offset 0x238 in its first buffer. */
  {
    g_autoptr (EtlTrace) trace = open_one (win7);
    const EtlFileInfo *info = etl_trace_get_file_info (trace, 0);

    g_assert_cmpuint (info->n_records, ==, 10344);
    g_assert_cmpuint (info->problems->len, ==, 0);
    g_assert_cmpuint (info->provider_version, ==, 7600);
  }

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  saved = etl_read_u32 ((const guint8 *) contents + 4);
  g_assert_cmpuint (saved, ==, etl_read_u32 ((const guint8 *) contents + 0x30));
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *copy = g_memdup2 (contents, len);
      g_autofree char *tmp = NULL;
      g_autoptr (EtlTrace) trace = NULL;
      const EtlFileInfo *info;

      g_test_message ("%s", cases[c].what);
      if (cases[c].saved >= 0)
        put_u32 (copy + 4, (guint32) cases[c].saved);
      if (cases[c].fill >= 0)
        put_u32 (copy + 0x30, (guint32) cases[c].fill);
      tmp = write_temp ("fill.etl", (const guint8 *) copy, len);
      trace = open_one (tmp);
      info = etl_trace_get_file_info (trace, 0);
      /* Every case keeps all 7 records: the end marker ends the walk. */
      g_assert_cmpuint (info->n_records, ==, 7);
      g_assert_cmpuint (info->problems->len, ==, cases[c].problems);
      if (cases[c].reason != NULL)
        {
          const GError *p = g_ptr_array_index (info->problems, 0);

          g_assert_error (p, ETL_ERROR, ETL_ERROR_CORRUPT);
          g_assert_nonnull (strstr (p->message, cases[c].reason));
          g_assert_nonnull (strstr (p->message, "offset 0 (0x0)"));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *name = g_strdup_printf ("/etl/reader/corpus/%s", corpus[i].file);

      g_test_add_data_func (name, &corpus[i], test_corpus_table);
    }
  g_test_add_data_func ("/etl/reader/baseline-header/net.4.5.2.x64", "net.4.5.2.x64", test_baseline_header);
  g_test_add_data_func ("/etl/reader/baseline-header/gcevents", "gcevents", test_baseline_header);
  g_test_add_data_func ("/etl/reader/baseline-header/gcrundownevents", "gcrundownevents", test_baseline_header);
  g_test_add_data_func ("/etl/reader/baseline-header/primitive-types", "primitive-types", test_baseline_header);
  g_test_add_func ("/etl/reader/clock-conversion", test_clock_conversion);
  g_test_add_func ("/etl/reader/primitive-types-record", test_primitive_types_record);
  g_test_add_func ("/etl/reader/merge-sorted-multi", test_merge_sorted_multi);
  g_test_add_func ("/etl/reader/lower-bound", test_lower_bound);
  g_test_add_func ("/etl/reader/amsi-losses", test_amsi_losses);
  g_test_add_func ("/etl/reader/rt-lost-records", test_rt_lost_records);
  g_test_add_func ("/etl/reader/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/etl/reader/bad/empty-random-dir", test_bad_empty_random_dir);
  g_test_add_func ("/etl/reader/bad/truncated", test_truncated);
  g_test_add_func ("/etl/reader/bad/record-size", test_corrupt_record_size);
  g_test_add_func ("/etl/reader/buffer-fill", test_buffer_fill);

  return g_test_run ();
}
