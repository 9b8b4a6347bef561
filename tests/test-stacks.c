/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stacks: StackWalk / StackKey records attached to their events, symbolized
 * from the trace's Image and CLR method records (core/model/etl-stacks.c). */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "etl-stack-tree.h"
#include "etl-stacks.h"
#include "etl-stacks-private.h"
#include "etl-synth.h"
#include "etl-test-raw.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-writer.h"

#define STACKWALK_GUID "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3"

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

static EtlStacks *
compute (EtlTrace *trace)
{
  g_autoptr (GError) error = NULL;
  EtlStacks *s = etl_stacks_compute (trace, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static guint64
field_u64 (const EtlDecoded *d, const char *name)
{
  const EtlField *f = etl_decoded_find (d, name);

  g_assert_nonnull (f);
  g_assert_true (f->has_number);
  return f->number;
}

/* Record 1637 of net.4.5.2.x64.etl is a SampledProfile of PerfView.exe
 * (3988) thread 3780 at ts_raw 1942908431; StackWalk record 1638 carries
 * EventTimeStamp 1942908431 with Stack[0] 0xffffffffffd03003 and Stack[1]
 * 0xfffff800215dae37; ntoskrnl.exe's Image DCStart (ProcessId 0) says
 * ImageBase 0xfffff80021489000, ImageSize 7634944, so Stack[1] is
 * ntoskrnl.exe+0x151e37.  The user part comes from a StackKeyUser key; its
 * frame 15 falls in the rundown's MethodDCEndVerbose of
 * ETWKernelControl.StartKernelSession (MethodStartAddress 0x0a58a3a0,
 * MethodSize 0xeb). */
static void
test_corpus_net (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) s = NULL;
  g_autoptr (GArray) frames = NULL;
  g_autoptr (GHashTable) pairs = NULL;
  g_autoptr (GHashTable) stamps = NULL;
  g_auto (GStrv) names = NULL;
  g_autoptr (EtlStackSummary) sum = NULL;
  g_autoptr (GError) error = NULL;
  guint64 n_with_stack = 0, n_kernel = 0, n_raw_stacks;
  EtlTestRawCounts raw;
  guint32 pid = 0;
  guint64 jit;
  const EtlStackFrameCount *top;

  if (path == NULL)
    return;
  trace = open_one (path);
  s = compute (trace);
  /* StackWalk/Stack (HookId 0x1820) + StackKeyKernel (0x1825) + StackKeyUser
   * (0x1826) + CLRStackWalk (DotNETRuntime event 82), counted from the raw
   * records (etl-test-raw.h): 252 + 2061 + 7046 + 14983. */
  etl_test_raw_count (trace, &raw);
  n_raw_stacks = etl_test_raw_count_of (raw.by_hook, GINT_TO_POINTER (0x1820))
                 + etl_test_raw_count_of (raw.by_hook, GINT_TO_POINTER (0x1825))
                 + etl_test_raw_count_of (raw.by_hook, GINT_TO_POINTER (0x1826))
                 + etl_test_raw_count_of (raw.by_event, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4/82");
  etl_test_raw_counts_clear (&raw);
  g_assert_cmpuint (n_raw_stacks, ==, 24342);
  g_assert_cmpuint (etl_stacks_get_n_stack_records (s), ==, n_raw_stacks);
  g_assert_cmpuint (etl_stacks_get_n_attached (s), ==, n_raw_stacks);
  g_assert_cmpuint (etl_stacks_get_n_modules (s), ==, 3564);
  g_assert_cmpuint (etl_stacks_get_n_methods (s), ==, 17280);

  /* Independently, through the decoder: the distinct (EventTimeStamp,
   * StackThread) pairs of the Stack / StackKeyKernel / StackKeyUser records
   * are the events that have a kernel stack (their raw timestamp is one of
   * them); every other event with a stack is followed on its thread by a
   * CLRStackWalk. */
  pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stamps = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord rec;
      char guid[ETL_GUID_STRING_LEN + 1];
      g_autoptr (EtlDecoded) d = NULL;
      guint64 ets;
      static gint64 keep[20000];
      static guint n_keep;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      etl_guid_to_string (&rec.provider, guid);
      if (strcmp (guid, STACKWALK_GUID) != 0 || (rec.opcode != 32 && rec.opcode != 37 && rec.opcode != 38))
        continue;
      d = etl_trace_decode_record (trace, &rec);
      ets = field_u64 (d, "EventTimeStamp");
      g_hash_table_add (pairs, g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, ets,
                                                field_u64 (d, "StackThread")));
      g_assert_cmpuint (n_keep, <, G_N_ELEMENTS (keep));
      keep[n_keep] = (gint64)ets;
      g_hash_table_add (stamps, &keep[n_keep++]);
    }
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    if (etl_stacks_has_stack (s, i))
      {
        EtlRecord rec;

        g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
        n_with_stack++;
        g_autofree char *pair = g_strdup_printf ("%" G_GINT64_FORMAT "/%u", rec.ts_raw, rec.tid);

        /* A record without a thread id (PerfInfo) by its timestamp alone. */
        if (rec.has_pid ? g_hash_table_contains (pairs, pair) : g_hash_table_contains (stamps, &rec.ts_raw))
          n_kernel++;
        else
          {
            gboolean followed = FALSE;

            for (guint64 j = i + 1; j < etl_trace_get_n_records (trace) && j < i + 64 && !followed; j++)
              {
                EtlRecord next;

                g_assert_true (etl_trace_get_record (trace, j, &next, NULL));
                if (next.has_pid && next.tid == rec.tid && next.event_id == 82 && next.kind == ETL_RECORD_KIND_MANIFEST)
                  followed = TRUE;
              }
            g_assert_true (followed);
          }
      }
  g_assert_cmpuint (n_kernel, ==, 7746);
  g_assert_cmpuint (n_with_stack, ==, 22727);
  g_assert_cmpuint (g_hash_table_size (pairs), ==, 7746);

  /* One sample's stack, by hand from the Image and CLR records. */
  g_assert_true (etl_stacks_has_stack (s, 1637));
  g_assert_false (etl_stacks_has_stack (s, 1638)); /* the StackWalk record itself */
  frames = etl_stacks_get_frames (s, 1637, &pid);
  g_assert_nonnull (frames);
  g_assert_cmpuint (pid, ==, 3988);
  g_assert_cmpuint (frames->len, >, 16);
  g_assert_cmphex (g_array_index (frames, guint64, 0), ==, G_GUINT64_CONSTANT (0xffffffffffd03003));
  g_assert_cmphex (g_array_index (frames, guint64, 1), ==, G_GUINT64_CONSTANT (0xfffff800215dae37));
  jit = g_array_index (frames, guint64, 15);
  g_assert_cmphex (jit, >=, 0x0a58a3a0);
  g_assert_cmphex (jit, <, 0x0a58a3a0 + 0xeb);
  names = etl_stacks_dup_symbolized (s, 1637);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, frames->len);
  g_assert_cmpstr (names[0], ==, "0xffffffffffd03003");
  g_assert_cmpstr (names[1], ==, "ntoskrnl.exe+0x151e37");
  g_assert_cmpstr (names[2], ==, "ntdll.dll+0x455b");
  g_assert_cmpstr (names[13], ==, "KernelTraceControl.dll+0x4a76");
  g_assert_cmpstr (names[14], ==, "dynamicClass.IL_STUB_PInvoke");
  g_assert_cmpstr (names[15], ==, "Microsoft.Diagnostics.Tracing.Extensions.ETWKernelControl.StartKernelSession");
  /* A kernel-only sample: winhv.sys DCStart ImageBase 0xfffff88000dcc000. */
  g_clear_pointer (&names, g_strfreev);
  names = etl_stacks_dup_symbolized (s, 1136);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[1], ==, "winhv.sys+0x2191");
  g_assert_null (etl_stacks_dup_symbolized (s, 0));

  /* A GCAllocationTick's CLRStackWalk (record 32843, FrameCount 69, 32-bit
   * pointers): Stack[0] 0x748b4d88 in clr.dll (DCStart ImageBase 0x745d0000
   * in process 3988), Stack[9] 0x08f8b204 in the JIT range of
   * MediaContext.BeginInvokeOnRender (0x08f8b1d8, size 0x64). */
  g_clear_pointer (&names, g_strfreev);
  names = etl_stacks_dup_symbolized (s, 32842);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 69);
  g_assert_cmpstr (names[0], ==, "clr.dll+0x2e4d88");
  g_assert_cmpstr (names[9], ==, "System.Windows.Media.MediaContext.BeginInvokeOnRender");
  g_assert_false (etl_stacks_has_stack (s, 32843));
  g_assert_null (etl_stacks_get_frames (s, 0, NULL));

  /* The samples' summary over the whole trace. */
  sum = etl_stacks_summarize (s, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sum->n_samples, ==, 79528);
  g_assert_cmpuint (sum->n_with_stack, ==, 6318);
  g_assert_cmpuint (sum->n_frames, ==, 126601);
  g_assert_cmpuint (sum->n_resolved, ==, 126275); /* 99.74% */
  g_assert_cmpfloat ((double)sum->n_resolved / (double)sum->n_frames, >=, 0.90);
  top = &g_array_index (sum->rows, EtlStackFrameCount, 0);
  g_assert_cmpstr (top->name, ==, "System.DateTime.GetDatePart");
  g_assert_cmpuint (top->exclusive, ==, 1856);
  g_assert_cmpuint (top->inclusive, ==, 1856);
  for (guint k = 0; k < sum->rows->len; k++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, k);

      g_assert_cmpuint (row->exclusive, <=, row->inclusive);
      g_assert_cmpuint (row->inclusive, <=, sum->n_with_stack);
      if (strcmp (row->name, "ntoskrnl.exe") == 0)
        {
          g_assert_cmpuint (row->exclusive, ==, 281);
          g_assert_cmpuint (row->inclusive, ==, 737);
        }
    }
  /* An empty range. */
  g_clear_pointer (&sum, etl_stack_summary_free);
  sum = etl_stacks_summarize (s, 0, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sum->n_samples, ==, 0);
  g_assert_cmpuint (sum->rows->len, ==, 0);
}

static void
on_progress (double fraction, gpointer user_data)
{
  double *last = user_data;

  g_assert_cmpfloat (fraction, >=, *last);
  *last = fraction;
}

static void
test_progress_cancel (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlStacks) s = NULL;
  double last = 0.0;

  if (path == NULL)
    return;
  trace = open_one (path);
  s = etl_stacks_compute (trace, on_progress, &last, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_assert_cmpfloat (last, ==, 1.0);
  g_cancellable_cancel (cancellable);
  g_assert_null (etl_stacks_compute (trace, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (etl_stacks_summarize (s, G_MININT64, G_MAXINT64, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A SYSTEM64 (or PERFINFO64) record with @payload_len bytes of @payload. */
static gsize
hostile_record (guint8 *p, gboolean perfinfo, guint16 hook, guint32 tid, gint64 ts,
                const guint8 *payload, gsize payload_len)
{
  gsize header = perfinfo ? 16 : 32;

  memset (p, 0, header);
  p[0] = 2;
  p[2] = perfinfo ? ETL_HEADER_TYPE_PERFINFO64 : ETL_HEADER_TYPE_SYSTEM64;
  p[3] = 0xC0; /* TRACE_HEADER_FLAG | EVENT_TRACE_FLAG */
  p[4] = (guint8)(header + payload_len);
  p[5] = (guint8)((header + payload_len) >> 8);
  p[6] = (guint8)hook;
  p[7] = (guint8)(hook >> 8);
  if (!perfinfo)
    {
      p[8] = (guint8)tid;
      p[9] = (guint8)(tid >> 8);
    }
  for (guint i = 0; i < 8; i++)
    p[(perfinfo ? 8 : 16) + i] = (guint8)(ts >> (8 * i)); /* TimeStamp */
  memcpy (p + header, payload, payload_len);
  return header + payload_len;
}

static void
put_u64 (guint8 *p, guint64 v)
{
  for (guint i = 0; i < 8; i++)
    p[i] = (guint8)(v >> (8 * i));
}

static void
put_u32 (guint8 *p, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (guint8)(v >> (8 * i));
}

/* StackWalk payload: EventTimeStamp, StackProcess, StackThread. */
static void
stack_head (guint8 *pl, guint64 ets, guint32 pid, guint32 tid)
{
  put_u64 (pl, ets);
  put_u32 (pl + 8, pid);
  put_u32 (pl + 12, tid);
}

/* Short, truncated, unmatched and undefined stack records: skipped or cut at
 * the payload's end, never a crash; the valid ones attached. */
static void
test_hostile (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-stacks-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "hostile.etl", NULL);
  g_autoptr (EtlWriter) w = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) s = NULL;
  g_autoptr (GArray) frames = NULL;
  g_auto (GStrv) names = NULL;
  EtlWriterHeader h;
  guint8 rec[512], pl[256];
  guint64 ev1 = G_MAXUINT64, ev2 = G_MAXUINT64;
  guint32 pid = 0;

  etl_writer_header_init (&h);
  h.number_of_processors = 1;
  h.log_file_name = path;
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
#define ADD(perfinfo, hook, tid, ts, len)                                                          \
  g_assert_true (etl_writer_add_record (w, 0, rec, hostile_record (rec, perfinfo, hook, tid, ts, pl, len), \
                                        ts, &error))
  memset (pl, 0, sizeof pl);
  /* Two events on thread 5: a CSwitch at 1000 and one at 2000. */
  ADD (FALSE, 0x0524, 5, 1000, 24);
  /* StackWalk of 10 bytes (no room for the header): skipped. */
  stack_head (pl, 1000, 7, 5);
  ADD (TRUE, 0x1820, 0, 1001, 10);
  /* StackWalk for 1000 on thread 5: two frames and 3 stray bytes (cut). */
  put_u64 (pl + 16, 0x1234);
  put_u64 (pl + 24, G_GUINT64_CONSTANT (0xfffff80000001000));
  ADD (TRUE, 0x1820, 0, 1002, 16 + 16 + 3);
  /* StackWalk for a timestamp no record has, and one beyond G_MAXINT64. */
  stack_head (pl, 999999, 7, 5);
  ADD (TRUE, 0x1820, 0, 1003, 24);
  stack_head (pl, G_MAXUINT64, 7, 5);
  ADD (TRUE, 0x1820, 0, 1004, 24);
  memset (pl, 0, sizeof pl);
  ADD (FALSE, 0x0524, 5, 2000, 24);
  /* StackKeyUser for 2000 with key 0x42 (defined below), StackKeyKernel with
   * key 0x43 (never defined), StackKeyUser of 20 bytes (no key). */
  stack_head (pl, 2000, 7, 5);
  put_u64 (pl + 16, 0x42);
  ADD (TRUE, 0x1826, 0, 2001, 24);
  put_u64 (pl + 16, 0x43);
  ADD (TRUE, 0x1825, 0, 2002, 24);
  ADD (TRUE, 0x1826, 0, 2003, 20);
  /* KeyDelete of 4 bytes (no key), KeyRundown of 0x42: one frame, 5 stray bytes. */
  memset (pl, 0, sizeof pl);
  ADD (TRUE, 0x1823, 0, 3000, 4);
  put_u64 (pl, 0x42);
  put_u64 (pl + 8, 0x7ff00000abcd);
  ADD (TRUE, 0x1824, 0, 3001, 8 + 8 + 5);
#undef ADD
  g_assert_true (etl_writer_close (w, NULL, &error));
  g_assert_no_error (error);

  trace = open_one (path);
  s = compute (trace);
  g_assert_cmpuint (etl_stacks_get_n_stack_records (s), ==, 7);
  g_assert_cmpuint (etl_stacks_get_n_attached (s), ==, 2);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (r.hook_id == 0x0524 && r.ts_raw == 1000)
        ev1 = i;
      else if (r.hook_id == 0x0524 && r.ts_raw == 2000)
        ev2 = i;
      else
        g_assert_false (etl_stacks_has_stack (s, i));
    }
  g_assert_cmpuint (ev1, !=, G_MAXUINT64);
  g_assert_cmpuint (ev2, !=, G_MAXUINT64);
  frames = etl_stacks_get_frames (s, ev1, &pid);
  g_assert_nonnull (frames);
  g_assert_cmpuint (pid, ==, 7);
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmphex (g_array_index (frames, guint64, 0), ==, 0x1234);
  names = etl_stacks_dup_symbolized (s, ev1);
  g_assert_cmpstr (names[0], ==, "0x1234");
  g_assert_cmpstr (names[1], ==, "0xfffff80000001000");
  g_assert_null (names[2]);
  g_clear_pointer (&names, g_strfreev);
  names = etl_stacks_dup_symbolized (s, ev2);
  g_assert_nonnull (names);
  g_assert_cmpstr (names[0], ==, "0x7ff00000abcd");
  g_assert_null (names[1]);
  g_unlink (path);
  g_rmdir (dir);
}

static char *
run_cli (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer)cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer)a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *)argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  return out;
}

static void
test_cli (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *out = NULL;
  g_autofree char *dump = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  JsonObject *o, *row;
  JsonArray *rows;
  guint n_stack_lines = 0;
  gboolean seen_1637 = FALSE;

  if (path == NULL)
    return;
  out = run_cli ("stacks", "--top", "5", path, NULL);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "stack_records"), ==, 24342);
  g_assert_cmpint (json_object_get_int_member (o, "attached"), ==, 24342);
  g_assert_cmpint (json_object_get_int_member (o, "samples"), ==, 79528);
  g_assert_cmpint (json_object_get_int_member (o, "samples_with_stack"), ==, 6318);
  g_assert_cmpint (json_object_get_int_member (o, "frames_resolved"), ==, 126275);
  rows = json_object_get_array_member (o, "frames");
  g_assert_cmpuint (json_array_get_length (rows), ==, 5);
  row = json_array_get_object_element (rows, 0);
  g_assert_cmpstr (json_object_get_string_member (row, "frame"), ==, "System.DateTime.GetDatePart");
  g_assert_cmpint (json_object_get_int_member (row, "exclusive"), ==, 1856);

  /* A range: the first 100 ms hold fewer samples than the whole. */
  g_free (out);
  out = run_cli ("stacks", "--from", "0", "--to", "100", path, NULL);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "samples"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "samples"), <, 79528);
  g_assert_cmpint (json_object_get_int_member (o, "samples_with_stack"), <=,
                   json_object_get_int_member (o, "samples"));

  dump = run_cli ("dump", "--stacks", "--no-fields", "--limit", "2000", path, NULL);
  lines = g_strsplit (dump, "\n", -1);
  for (guint k = 0; lines[k] != NULL && lines[k][0] != '\0'; k++)
    {
      JsonObject *r;
      JsonArray *stack;

      json_parser_load_from_data (parser, lines[k], -1, &error);
      g_assert_no_error (error);
      r = json_node_get_object (json_parser_get_root (parser));
      if (!json_object_has_member (r, "stack"))
        continue;
      n_stack_lines++;
      stack = json_object_get_array_member (r, "stack");
      g_assert_cmpuint (json_array_get_length (stack), >, 0);
      if (json_object_get_int_member (r, "index") == 1637)
        {
          seen_1637 = TRUE;
          g_assert_cmpstr (json_array_get_string_element (stack, 1), ==, "ntoskrnl.exe+0x151e37");
          g_assert_cmpstr (json_array_get_string_element (stack, 15), ==,
                           "Microsoft.Diagnostics.Tracing.Extensions.ETWKernelControl.StartKernelSession");
        }
    }
  g_assert_true (seen_1637);
  g_assert_cmpuint (n_stack_lines, >, 1);
}

/* ------------------------------------------------------------------------ */
/* The synthetic schedule: stacks resolve to exactly the images it loads     */
/* ------------------------------------------------------------------------ */

/* What etl_synth_write() documents for its schedule, written out again here:
 * a sample of thread T (process T / 1000 × 1000) runs exe+0x1000+T×0x10,
 * called from exe+0x1800, called from ntdll.dll+0x5E3C0; thread 3008 is in
 * a system call (ntoskrnl.exe+0x1A2B30, ntoskrnl.exe+0x40C8E0 on top);
 * idle samples are ntoskrnl.exe+0x201000, hal.dll+0x2F10. */
static GStrv
expected_stack (guint32 tid)
{
  static const char *const exe[] = { NULL, "alpha.exe", "beta.exe", "gamma.exe", "delta.exe" };
  GPtrArray *b = g_ptr_array_new ();

  if (tid == 0)
    {
      g_ptr_array_add (b, g_strdup ("ntoskrnl.exe+0x201000"));
      g_ptr_array_add (b, g_strdup ("hal.dll+0x2f10"));
      g_ptr_array_add (b, NULL);
      return (GStrv)g_ptr_array_free (b, FALSE);
    }
  g_assert_cmpuint (tid / 1000, >=, 1);
  g_assert_cmpuint (tid / 1000, <=, 4);
  if (tid == 3008)
    {
      g_ptr_array_add (b, g_strdup ("ntoskrnl.exe+0x1a2b30"));
      g_ptr_array_add (b, g_strdup ("ntoskrnl.exe+0x40c8e0"));
    }
  g_ptr_array_add (b, g_strdup_printf ("%s+0x%x", exe[tid / 1000], 0x1000 + tid * 0x10));
  g_ptr_array_add (b, g_strdup_printf ("%s+0x1800", exe[tid / 1000]));
  g_ptr_array_add (b, g_strdup ("ntdll.dll+0x5e3c0"));
  g_ptr_array_add (b, NULL);
  return (GStrv)g_ptr_array_free (b, FALSE);
}

static void
assert_strv_equal (const char *const *got, const char *const *want)
{
  g_assert_nonnull (got);
  g_assert_cmpuint (g_strv_length ((GStrv)got), ==, g_strv_length ((GStrv)want));
  for (guint i = 0; want[i] != NULL; i++)
    g_assert_cmpstr (got[i], ==, want[i]);
}

static char *
write_schedule (char **dir)
{
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;
  char *path;

  *dir = g_dir_make_tmp ("etlscope-stacks-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (*dir, "schedule.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.schedule = TRUE;
  params.schedule_ms = 100;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  return path;
}

/* The module map read in place equals the one the decoder gives, module
 * by module; at least @min_in_place of them take the in-place read's
 * names (plain ASCII). */
static void
check_modules_in_place (EtlTrace *trace, guint min_modules)
{
  g_autoptr (EtlStacks) fast = NULL;
  g_autoptr (EtlStacks) slow = NULL;

  etl_stacks_set_in_place_for_testing (FALSE);
  slow = compute (trace);
  etl_stacks_set_in_place_for_testing (TRUE);
  fast = compute (trace);
  g_assert_cmpuint (etl_stacks_get_n_modules (slow), >=, min_modules);
  g_assert_cmpuint (etl_stacks_get_n_modules (fast), ==, etl_stacks_get_n_modules (slow));
  for (guint i = 0; i < etl_stacks_get_n_modules (slow); i++)
    {
      guint32 pa, pb;
      guint64 ba, bb, sa, sb;
      gint64 fa, fb, ea, eb;
      const char *na = etl_stacks_get_module_for_testing (fast, i, &pa, &ba, &sa, &fa, &ea);
      const char *nb = etl_stacks_get_module_for_testing (slow, i, &pb, &bb, &sb, &fb, &eb);

      g_assert_cmpstr (na, ==, nb);
      g_assert_cmpuint (pa, ==, pb);
      g_assert_cmpuint (ba, ==, bb);
      g_assert_cmpuint (sa, ==, sb);
      g_assert_cmpint (fa, ==, fb);
      g_assert_cmpint (ea, ==, eb);
    }
}

static void
test_modules_in_place (void)
{
  g_autofree char *net = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *dir = NULL;
  g_autofree char *path = write_schedule (&dir);

  {
    g_autoptr (EtlTrace) trace = open_one (path);

    check_modules_in_place (trace, 10);
  }
  g_unlink (path);
  g_rmdir (dir);
  if (net != NULL)
    {
      g_autoptr (EtlTrace) trace = open_one (net);

      check_modules_in_place (trace, 3564);
    }
}

/* The leaf module of thread @tid's samples, and whether @module is in them. */
static const char *
leaf_module (guint32 tid)
{
  static const char *const exe[] = { NULL, "alpha.exe", "beta.exe", "gamma.exe", "delta.exe" };

  return tid == 0 || tid == 3008 ? "ntoskrnl.exe" : exe[tid / 1000];
}

static void
test_synth_schedule (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = write_schedule (&dir);
  g_autoptr (EtlTrace) trace = open_one (path);
  g_autoptr (EtlStacks) stacks = compute (trace);
  g_autoptr (EtlStackSummary) sum = NULL;
  g_autoptr (GHashTable) want_exclusive = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) error = NULL;
  guint64 n_samples = 0, n_stack_records = 0, n_images = 0;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) rec = { 0 };
      g_auto (GStrv) got = NULL;
      g_auto (GStrv) want = NULL;
      guint32 tid, pid = G_MAXUINT32;
      g_autoptr (GArray) frames = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      if (rec.header_type == ETL_HEADER_TYPE_PERFINFO64 && rec.hook_id == 0x1820)
        n_stack_records++;
      if (rec.header_type == ETL_HEADER_TYPE_SYSTEM64 && (rec.hook_id == 0x030A || rec.hook_id == 0x1403))
        n_images++;
      if (rec.header_type != ETL_HEADER_TYPE_PERFINFO64 || rec.hook_id != 0x0F2E)
        {
          g_assert_false (etl_stacks_has_stack (stacks, i));
          continue;
        }
      /* SampledProfile: InstructionPointer, then ThreadId. */
      g_assert_cmpuint (rec.user_data_len, >=, 12);
      tid = (guint32)rec.user_data[8] | (guint32)rec.user_data[9] << 8 | (guint32)rec.user_data[10] << 16
            | (guint32)rec.user_data[11] << 24;
      n_samples++;
      g_assert_true (etl_stacks_has_stack (stacks, i));
      want = expected_stack (tid);
      got = etl_stacks_dup_symbolized (stacks, i);
      assert_strv_equal ((const char *const *)got, (const char *const *)want);

      frames = etl_stacks_get_frames (stacks, i, &pid);
      g_assert_nonnull (frames);
      g_assert_cmpuint (frames->len, ==, g_strv_length (want));
      g_assert_cmpuint (pid, ==, tid / 1000 * 1000);
      for (guint f = 0; f < frames->len; f++)
        {
          gboolean resolved = FALSE;
          g_autofree char *name
              = etl_stacks_symbolize (stacks, pid, rec.filetime, g_array_index (frames, guint64, f), &resolved);

          g_assert_true (resolved);
          g_assert_cmpstr (name, ==, want[f]);
        }
      g_hash_table_insert (want_exclusive, (gpointer)leaf_module (tid),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (want_exclusive,
                                                                                    leaf_module (tid)))
                                             + 1));
    }
  /* 4 processors × 100 samples (0.15 ms + k × 1 ms), one StackWalk each;
   * ntoskrnl.exe and hal.dll, and an .exe and ntdll.dll in each of the 4
   * processes. */
  g_assert_cmpuint (n_samples, ==, 400);
  g_assert_cmpuint (n_stack_records, ==, 400);
  g_assert_cmpuint (n_images, ==, 10);
  g_assert_cmpuint (etl_stacks_get_n_stack_records (stacks), ==, 400);
  g_assert_cmpuint (etl_stacks_get_n_attached (stacks), ==, 400);
  g_assert_cmpuint (etl_stacks_get_n_modules (stacks), ==, 10);
  g_assert_cmpuint (etl_stacks_get_n_methods (stacks), ==, 0);

  /* An address in no image of the process stays a bare address. */
  {
    gboolean resolved = TRUE;
    g_autofree char *name = etl_stacks_symbolize (stacks, 1000, etl_trace_get_origin (trace) + 10000,
                                                  G_GUINT64_CONSTANT (0x00007FF600020000), &resolved);

    g_assert_false (resolved);
    g_assert_cmpstr (name, ==, "0x7ff600020000");
  }

  sum = etl_stacks_summarize (stacks, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sum->n_samples, ==, 400);
  g_assert_cmpuint (sum->n_with_stack, ==, 400);
  g_assert_cmpuint (sum->n_resolved, ==, sum->n_frames);
  for (guint r = 0; r < sum->rows->len; r++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, r);

      g_assert_cmpuint (row->exclusive, ==, GPOINTER_TO_UINT (g_hash_table_lookup (want_exclusive, row->name)));
    }
  /* alpha, beta, gamma, delta, ntoskrnl, ntdll, hal */
  g_assert_cmpuint (sum->rows->len, ==, 7);

  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_synth_cli (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = write_schedule (&dir);
  g_autofree char *out = run_cli ("stacks", path, NULL);
  g_autofree char *dump = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  JsonObject *o;
  guint n_samples = 0;

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "stack_records"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (o, "attached"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (o, "images"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (o, "samples"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (o, "samples_with_stack"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (o, "frames_resolved"), ==,
                   json_object_get_int_member (o, "frames_total"));

  dump = run_cli ("dump", "--stacks", path, NULL);
  lines = g_strsplit (dump, "\n", -1);
  for (guint k = 0; lines[k] != NULL && lines[k][0] != '\0'; k++)
    {
      JsonObject *r, *fields;
      JsonArray *stack;
      g_auto (GStrv) want = NULL;
      g_autoptr (GPtrArray) got = g_ptr_array_new ();

      json_parser_load_from_data (parser, lines[k], -1, &error);
      g_assert_no_error (error);
      r = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (r, "name", ""), "PerfInfo/Sample") != 0)
        {
          g_assert_false (json_object_has_member (r, "stack"));
          continue;
        }
      n_samples++;
      fields = json_object_get_object_member (r, "fields");
      want = expected_stack ((guint32)g_ascii_strtoull (json_object_get_string_member (fields, "ThreadId"), NULL, 10));
      g_assert_true (json_object_has_member (r, "stack"));
      stack = json_object_get_array_member (r, "stack");
      for (guint f = 0; f < json_array_get_length (stack); f++)
        g_ptr_array_add (got, (gpointer)json_array_get_string_element (stack, f));
      g_ptr_array_add (got, NULL);
      assert_strv_equal ((const char *const *)got->pdata, (const char *const *)want);
    }
  g_assert_cmpuint (n_samples, ==, 400);
  g_unlink (path);
  g_rmdir (dir);
}

/* The call tree of the schedule's samples, outermost first: user threads
 * ntdll.dll → their .exe (two frames, one node), thread 3008 then
 * ntoskrnl.exe (two frames, one node); idle samples hal.dll → ntoskrnl.exe.
 * Counts from the samples' ThreadIds, read here from the records. */
static void
test_synth_tree (void)
{
  static const char *const exe[] = { NULL, "alpha.exe", "beta.exe", "gamma.exe", "delta.exe" };
  g_autofree char *dir = NULL;
  g_autofree char *path = write_schedule (&dir);
  g_autoptr (EtlTrace) trace = open_one (path);
  g_autoptr (EtlStacks) stacks = compute (trace);
  g_autoptr (EtlStackTree) tree = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  guint64 per_process[5] = { 0 }, n_idle = 0, n_3008 = 0, n_user = 0;
  const EtlStackTreeNode *nodes;
  guint n, ntdll, hal, k;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) rec = { 0 };
      guint32 tid;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      if (rec.header_type != ETL_HEADER_TYPE_PERFINFO64 || rec.hook_id != 0x0F2E)
        continue;
      tid = (guint32)rec.user_data[8] | (guint32)rec.user_data[9] << 8 | (guint32)rec.user_data[10] << 16
            | (guint32)rec.user_data[11] << 24;
      if (tid == 0)
        n_idle++;
      else
        {
          per_process[tid / 1000]++;
          n_user++;
          n_3008 += tid == 3008;
        }
    }
  g_assert_cmpuint (n_idle + n_user, ==, 400);
  g_assert_cmpuint (n_3008, >, 0);

  tree = etl_stack_tree_new (stacks, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  /* root; ntdll.dll, 4 .exe, ntoskrnl.exe under gamma.exe; hal.dll, ntoskrnl.exe */
  g_assert_cmpuint (n, ==, 1 + 6 + 2);
  g_assert_cmpuint (etl_stack_tree_get_max_depth (tree), ==, 3);
  g_assert_cmpuint (nodes[0].total, ==, 400);
  g_assert_cmpuint (nodes[0].self, ==, 0);
  g_assert_cmpstr (nodes[nodes[0].first_child].name, ==, "hal.dll"); /* by name */

  ntdll = etl_stack_tree_find_child (tree, 0, "ntdll.dll");
  hal = etl_stack_tree_find_child (tree, 0, "hal.dll");
  g_assert_cmpuint (ntdll, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (hal, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (nodes[ntdll].total, ==, n_user);
  g_assert_cmpuint (nodes[ntdll].self, ==, 0);
  g_assert_cmpuint (nodes[ntdll].depth, ==, 1);
  g_assert_cmpuint (nodes[hal].total, ==, n_idle);
  k = etl_stack_tree_find_child (tree, hal, "ntoskrnl.exe");
  g_assert_cmpuint (k, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (nodes[k].total, ==, n_idle);
  g_assert_cmpuint (nodes[k].self, ==, n_idle);
  g_assert_cmpuint (nodes[k].first_child, ==, ETL_STACK_TREE_NONE);
  for (guint p = 1; p <= 4; p++)
    {
      guint e = etl_stack_tree_find_child (tree, ntdll, exe[p]);

      g_assert_cmpuint (e, !=, ETL_STACK_TREE_NONE);
      g_assert_cmpuint (nodes[e].total, ==, per_process[p]);
      g_assert_cmpuint (nodes[e].self, ==, per_process[p] - (p == 3 ? n_3008 : 0));
      g_assert_cmpuint (nodes[e].parent, ==, ntdll);
      g_assert_cmpuint (nodes[e].depth, ==, 2);
    }
  k = etl_stack_tree_find_child (tree, etl_stack_tree_find_child (tree, ntdll, "gamma.exe"), "ntoskrnl.exe");
  g_assert_cmpuint (k, !=, ETL_STACK_TREE_NONE);
  g_assert_cmpuint (nodes[k].total, ==, n_3008);
  g_assert_cmpuint (nodes[k].self, ==, n_3008);
  g_assert_cmpuint (nodes[k].depth, ==, 3);
  /* Siblings by name: alpha, beta, delta, gamma. */
  k = nodes[ntdll].first_child;
  g_assert_cmpstr (nodes[k].name, ==, "alpha.exe");
  k = nodes[k].next_sibling;
  g_assert_cmpstr (nodes[k].name, ==, "beta.exe");
  k = nodes[k].next_sibling;
  g_assert_cmpstr (nodes[k].name, ==, "delta.exe");
  k = nodes[k].next_sibling;
  g_assert_cmpstr (nodes[k].name, ==, "gamma.exe");
  g_assert_cmpuint (nodes[k].next_sibling, ==, ETL_STACK_TREE_NONE);
  g_clear_pointer (&tree, etl_stack_tree_free);

  /* A range without samples: the root alone; cancelled: NULL. */
  tree = etl_stack_tree_new (stacks, etl_trace_get_origin (trace) + 100 * 10000, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (nodes[0].total, ==, 0);
  g_clear_pointer (&tree, etl_stack_tree_free);
  g_cancellable_cancel (cancelled);
  tree = etl_stack_tree_new (stacks, G_MININT64, G_MAXINT64, cancelled, &error);
  g_assert_null (tree);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_clear_pointer (&stacks, etl_stacks_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/stacks/corpus/net", test_corpus_net);
  g_test_add_func ("/etl/stacks/progress-cancel", test_progress_cancel);
  g_test_add_func ("/etl/stacks/hostile", test_hostile);
  g_test_add_func ("/etl/stacks/cli", test_cli);
  g_test_add_func ("/etl/stacks/synth/schedule", test_synth_schedule);
  g_test_add_func ("/etl/stacks/synth/cli", test_synth_cli);
  g_test_add_func ("/etl/stacks/synth/tree", test_synth_tree);
  g_test_add_func ("/etl/stacks/modules-in-place", test_modules_in_place);

  return g_test_run ();
}
