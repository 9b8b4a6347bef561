/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * EtlGroupSummary: counts per provider, event and process on a real trace,
 * each checked against a count made here record by record without the
 * summary's caches; range and row-set restriction; the matcher; and
 * `etlscope-cli groups`' JSON.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-group-summary.h"
#include "etl-group-summary-private.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-synth.h"
#include "etl-test-raw.h"
#include "etl-test-util.h"
#include "etl-trace.h"

static EtlTrace *
open_corpus (const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);
  const char *paths[] = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  if (path == NULL)
    return NULL;
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static const EtlGroup *
find_child (const EtlGroup *g, const char *label);

/* The child group @label of @g, which must exist. */
static const EtlGroup *
child (const EtlGroup *g, const char *label)
{
  const EtlGroup *c = find_child (g, label);

  if (c == NULL)
    g_test_message ("no group %s", label);
  g_assert_nonnull (c);
  return c;
}

static const EtlGroup *
find_child (const EtlGroup *g, const char *label)
{
  for (guint i = 0; g->children != NULL && i < g->children->len; i++)
    {
      const EtlGroup *c = g_ptr_array_index (g->children, i);

      if (g_strcmp0 (c->label, label) == 0)
        return c;
    }
  return NULL;
}

/* Every group's count is the sum of its children's; children are sorted. */
static void
check_consistent (const EtlGroup *g, guint64 total)
{
  guint64 sum = 0;

  g_assert_cmpfloat_with_epsilon (g->share, 100.0 * (double)g->count / (double)total, 1e-9);
  g_assert_cmpint (g->first, <=, g->last);
  if (g->children == NULL)
    return;
  for (guint i = 0; i < g->children->len; i++)
    {
      const EtlGroup *c = g_ptr_array_index (g->children, i);

      sum += c->count;
      g_assert_true (c->parent == g);
      g_assert_cmpint (c->first, >=, g->first);
      g_assert_cmpint (c->last, <=, g->last);
      if (i > 0)
        g_assert_cmpuint (((const EtlGroup *)g_ptr_array_index (g->children, i - 1))->count, >=, c->count);
      check_consistent (c, total);
    }
  g_assert_cmpuint (sum, ==, g->count);
}

static void
test_provider_event (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlGroupSummary) summary = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  EtlGroupKey keys[] = { ETL_GROUP_BY_PROVIDER, ETL_GROUP_BY_EVENT };
  const EtlGroup *root;
  guint n_leaves = 0;
  guint64 n;
  EtlTestRawCounts raw;

  if (trace == NULL)
    return;
  n = etl_trace_get_n_records (trace);
  summary = etl_group_summary_compute (trace, NULL, 0, 0, keys, 2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  root = etl_group_summary_get_root (summary);
  g_assert_cmpuint (root->count, ==, n);
  /* 179,474: the corpus README's independent record count. */
  g_assert_cmpuint (n, ==, 179474);
  check_consistent (root, n);

  /* Each provider's count equals the raw walk's (etl-test-raw.h): kernel
   * groups by HookId, the others by the GUID in the record header (GUIDs
   * from ClrEtwAll.man and the Kernel-Process manifest). */
  etl_test_raw_count (trace, &raw);
  g_assert_cmpuint (child (root, "PerfInfo")->count, ==, raw.n_perfinfo);
  g_assert_cmpuint (child (child (root, "PerfInfo"), "PerfInfo/Sample")->count, ==, raw.n_sampled_profile);
  g_assert_cmpuint (child (root, "StackWalk")->count, ==, raw.n_stackwalk);
  g_assert_cmpuint (child (root, "Microsoft-Windows-DotNETRuntimeRundown")->count, ==,
                    etl_test_raw_count_of (raw.by_guid, "a669021c-c450-4609-a035-5af59af4df18"));
  g_assert_cmpuint (child (root, "Microsoft-Windows-DotNETRuntime")->count, ==,
                    etl_test_raw_count_of (raw.by_guid, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
  g_assert_cmpuint (child (root, "Microsoft-Windows-Kernel-Process")->count, ==,
                    etl_test_raw_count_of (raw.by_guid, "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716"));
  /* None of them is empty: the rule found what it looks for. */
  g_assert_cmpuint (raw.n_sampled_profile, >, 0);
  g_assert_cmpuint (raw.n_stackwalk, >, 0);
  g_assert_cmpuint (etl_test_raw_count_of (raw.by_guid, "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716"), >, 0);
  etl_test_raw_counts_clear (&raw);

  /* Every (provider, event) pair counted here, record by record. */
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;
      g_autofree char *provider = NULL;
      g_autofree char *event = NULL;
      char *key;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      provider = etl_record_dup_provider_name (&r);
      event = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &r);
      etl_record_clear (&r);
      key = g_strdup_printf ("%s\n%s", provider, event);
      g_hash_table_insert (expected, key,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (expected, key)) + 1));
    }
  for (guint p = 0; p < root->children->len; p++)
    {
      const EtlGroup *pg = g_ptr_array_index (root->children, p);

      g_assert_cmpint (pg->key, ==, ETL_GROUP_BY_PROVIDER);
      for (guint e = 0; e < pg->children->len; e++)
        {
          const EtlGroup *eg = g_ptr_array_index (pg->children, e);
          g_autofree char *key = g_strdup_printf ("%s\n%s", pg->label, eg->label);

          g_assert_cmpint (eg->key, ==, ETL_GROUP_BY_EVENT);
          g_assert_null (eg->children);
          g_assert_cmpuint (eg->count, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (expected, key)));
          n_leaves++;
        }
    }
  g_assert_cmpuint (n_leaves, ==, g_hash_table_size (expected));
}

static void
test_process (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlGroupSummary) summary = NULL;
  g_autoptr (EtlGroupSummary) by_thread = NULL;
  g_autoptr (GError) error = NULL;
  EtlGroupKey keys[] = { ETL_GROUP_BY_PROCESS, ETL_GROUP_BY_THREAD };
  const EtlGroup *test_exe;
  guint64 n, expected = 0, expected_first = 0, expected_idle = 0, expected_none = 0;
  guint64 thread_sum = 0;

  if (trace == NULL)
    return;
  n = etl_trace_get_n_records (trace);
  summary = etl_group_summary_compute (trace, NULL, 0, 0, keys, 2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_consistent (etl_group_summary_get_root (summary), n);
  test_exe = find_child (etl_group_summary_get_root (summary), "Test.x64.exe (3676)");
  g_assert_nonnull (test_exe);
  g_assert_cmpuint (test_exe->id, ==, 3676);
  g_assert_cmpint (test_exe->lifetime, >=, 0);
  /* Counted again here record by record through the record's process (the
   * per-process sample counts, checked against a raw rule, are in
   * test-cpu-usage's /etl/cpu-usage/corpus/net). */
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;
      const EtlProcess *p;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      p = etl_trace_get_record_process (trace, &r, NULL);
      if (p != NULL && p->pid == 3676 && g_strcmp0 (p->image_name, "Test.x64.exe") == 0)
        {
          if (expected++ == 0)
            expected_first = (guint64)r.filetime;
        }
      /* "(no process)": no PID at all; a PID without a known lifetime
       * is a group of its own. */
      {
        guint32 pid;

        if (!etl_process_table_resolve_record (etl_trace_get_process_table (trace), &r, NULL, &pid, NULL))
          expected_none++;
        else if (p != NULL && p->pid == 0)
          expected_idle++;
      }
      etl_record_clear (&r);
    }
  /* Its process's records: more than its 5,129 CPU samples (the raw rule's
   * count in test-cpu-usage), fewer than all. */
  g_assert_cmpuint (expected, >, 5129);
  g_assert_cmpuint (expected, <, n);
  g_assert_cmpuint (test_exe->count, ==, expected);
  /* One group per "image (PID)", as stats counts: labels are distinct. */
  {
    const EtlGroup *root = etl_group_summary_get_root (summary);
    g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < root->children->len; i++)
      g_assert_true (g_hash_table_add (seen, ((const EtlGroup *)g_ptr_array_index (root->children, i))->label));
    g_assert_cmpuint (find_child (root, "Idle (0)")->count, ==, expected_idle);
    g_assert_cmpuint (find_child (root, "(no process)")->count, ==, expected_none);
  }
  g_assert_cmpuint ((guint64)test_exe->first, ==, expected_first);
  for (guint i = 0; i < test_exe->children->len; i++)
    thread_sum += ((const EtlGroup *)g_ptr_array_index (test_exe->children, i))->count;
  g_assert_cmpuint (thread_sum, ==, expected);
  g_assert_cmpuint (test_exe->children->len, >, 1);

  /* The matcher keeps exactly the group's rows. */
  {
    const EtlGroup *thread = g_ptr_array_index (test_exe->children, 0);
    g_autoptr (EtlGroupMatcher) m = etl_group_matcher_new (trace, thread);
    g_autoptr (EtlGroupMatcher) mp = etl_group_matcher_new (trace, test_exe);
    guint64 matched = 0, matched_p = 0;

    for (guint64 i = 0; i < n; i++)
      {
        matched += etl_group_matcher_matches (m, i);
        matched_p += etl_group_matcher_matches (mp, i);
      }
    g_assert_cmpuint (matched, ==, thread->count);
    g_assert_cmpuint (matched_p, ==, expected);
    g_assert_true (g_str_has_prefix (etl_group_matcher_get_description (m), "Test.x64.exe (3676) ▸ Thread "));
  }

  /* Thread alone, then CPU: totals hold. */
  {
    EtlGroupKey k2[] = { ETL_GROUP_BY_CPU, ETL_GROUP_BY_PROVIDER, ETL_GROUP_BY_EVENT, ETL_GROUP_BY_THREAD,
                         ETL_GROUP_BY_PROCESS };

    by_thread = etl_group_summary_compute (trace, NULL, 0, 0, k2, 5, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    check_consistent (etl_group_summary_get_root (by_thread), n);
    g_assert_cmpuint (etl_group_summary_get_root (by_thread)->children->len, ==, etl_trace_get_n_cpus (trace));
  }
}

static void
test_range_and_rows (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlGroupSummary) ranged = NULL;
  g_autoptr (EtlGroupSummary) odd = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  g_autoptr (GError) error = NULL;
  EtlGroupKey keys[] = { ETL_GROUP_BY_PROVIDER };
  gint64 first, last, begin, end;
  guint64 n, in_range = 0, in_range_odd = 0, perfinfo_in_range = 0;
  guint64 *odd_rows;
  guint64 n_odd = 0;
  guint perfinfo = G_MAXUINT;

  if (trace == NULL)
    return;
  n = etl_trace_get_n_records (trace);
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace);
  begin = first + (last - first) / 4;
  end = first + (last - first) / 2;
  odd_rows = g_new (guint64, n / 2 + 1);
  for (guint64 i = 0; i < n; i++)
    {
      gint64 t = etl_trace_get_filetime (trace, i);
      gboolean inside = t >= begin && t < end;

      in_range += inside;
      if (i % 2 == 1)
        {
          odd_rows[n_odd++] = i;
          in_range_odd += inside;
        }
    }
  rows = etl_row_set_new_take (odd_rows, n_odd);

  ranged = etl_group_summary_compute (trace, NULL, begin, end, keys, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_group_summary_get_total (ranged), ==, in_range);
  g_assert_cmpuint (in_range, >, 0);
  g_assert_cmpuint (in_range, <, n);
  g_assert_cmpint (etl_group_summary_get_begin (ranged), ==, begin);
  g_assert_cmpint (etl_group_summary_get_end (ranged), ==, end);
  check_consistent (etl_group_summary_get_root (ranged), in_range);
  g_assert_cmpint (etl_group_summary_get_root (ranged)->first, >=, begin);
  g_assert_cmpint (etl_group_summary_get_root (ranged)->last, <, end);

  for (guint i = 0; i < etl_trace_get_n_providers (trace); i++)
    if (g_strcmp0 (etl_names_provider (etl_trace_get_provider (trace, i)), "PerfInfo") == 0)
      perfinfo = i;
  for (guint64 i = 0; i < n; i++)
    {
      gint64 t = etl_trace_get_filetime (trace, i);

      perfinfo_in_range += t >= begin && t < end && etl_trace_get_provider_index (trace, i) == perfinfo;
    }
  if (perfinfo != G_MAXUINT)
    g_assert_cmpuint (find_child (etl_group_summary_get_root (ranged), "PerfInfo")->count, ==, perfinfo_in_range);

  odd = etl_group_summary_compute (trace, rows, begin, end, keys, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_group_summary_get_total (odd), ==, in_range_odd);
  check_consistent (etl_group_summary_get_root (odd), in_range_odd);
}

/* Cancels once some rows were counted: the half-built tree is freed. */
static void
cancel_on_progress (double fraction, gpointer user_data)
{
  if (fraction > 0.0)
    g_cancellable_cancel (user_data);
}

static void
test_cancel_and_parse (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  guint n_keys = 0;

  g_assert_true (etl_group_key_parse_chain (" Process, thread ,CPU", keys, &n_keys, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_keys, ==, 3);
  g_assert_cmpint (keys[0], ==, ETL_GROUP_BY_PROCESS);
  g_assert_cmpint (keys[2], ==, ETL_GROUP_BY_CPU);
  g_assert_false (etl_group_key_parse_chain ("provider,provider", keys, &n_keys, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
  g_assert_false (etl_group_key_parse_chain ("pid", keys, &n_keys, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
  if (trace == NULL)
    return;
  g_cancellable_cancel (cancellable);
  keys[0] = ETL_GROUP_BY_EVENT;
  g_assert_null (etl_group_summary_compute (trace, NULL, 0, 0, keys, 1, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  {
    g_autoptr (GCancellable) later = g_cancellable_new ();
    EtlGroupKey two[] = { ETL_GROUP_BY_PROVIDER, ETL_GROUP_BY_EVENT };

    g_assert_null (etl_group_summary_compute (trace, NULL, 0, 0, two, 2, cancel_on_progress, later, later, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_true (g_cancellable_is_cancelled (later));
  }
}

static JsonNode *
run_cli_json (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_nonnull (g_getenv ("ETLSCOPE_CLI"));
  g_ptr_array_add (argv, (gpointer)g_getenv ("ETLSCOPE_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *)argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* The records of process @pid (@image) in the file at @path, counted one by
 * one through the record's process (the count test_process checks). */
static gint64
count_process (const char *path, guint32 pid, const char *image)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  gint64 n = 0;

  g_assert_no_error (error);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;
      const EtlProcess *p;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      p = etl_trace_get_record_process (trace, &r, NULL);
      n += p != NULL && p->pid == pid && g_strcmp0 (p->image_name, image) == 0;
      etl_record_clear (&r);
    }
  g_assert_cmpint (n, >, 0);
  return n;
}

static void
test_cli (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (JsonNode) whole = NULL;
  g_autoptr (JsonNode) ranged = NULL;
  JsonObject *o, *root;
  JsonArray *children;
  guint64 sum = 0;
  gboolean found = FALSE;

  if (path == NULL)
    return;
  {
    const char *args[] = { "groups", "--by", "process,thread", path, NULL };

    whole = run_cli_json (args);
  }
  o = json_node_get_object (whole);
  /* 179,474: the corpus README's independent record count. */
  g_assert_cmpint (json_object_get_int_member (o, "records"), ==, 179474);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (o, "by"), 1), ==, "thread");
  root = json_object_get_object_member (o, "root");
  children = json_object_get_array_member (root, "children");
  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonObject *c = json_array_get_object_element (children, i);

      sum += (guint64)json_object_get_int_member (c, "count");
      if (g_strcmp0 (json_object_get_string_member (c, "label"), "Test.x64.exe (3676)") == 0)
        {
          found = TRUE;
          g_assert_cmpint (json_object_get_int_member (c, "count"), ==, count_process (path, 3676, "Test.x64.exe"));
          g_assert_cmpint (json_object_get_int_member (c, "pid"), ==, 3676);
          g_assert_cmpstr (json_object_get_string_member (c, "key"), ==, "process");
          g_assert_true (json_object_has_member (c, "children"));
        }
    }
  g_assert_true (found);
  g_assert_cmpuint (sum, ==, 179474);

  {
    const char *args[] = { "groups", "--from", "1000", "--to", "2000", "--by", "cpu", path, NULL };

    ranged = run_cli_json (args);
  }
  o = json_node_get_object (ranged);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "from_ms"), 1000.0, 1e-6);
  root = json_object_get_object_member (o, "root");
  g_assert_cmpint (json_object_get_int_member (o, "records"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "records"), <, 179474);
  g_assert_cmpfloat (json_object_get_double_member (root, "first_ms"), >=, 1000.0);
  g_assert_cmpfloat (json_object_get_double_member (root, "last_ms"), <, 2000.0);
}

/* Two summaries' trees are the same, group by group, in the same order. */
static void
assert_groups_equal (const EtlGroup *a, const EtlGroup *b)
{
  g_assert_cmpint (a->key, ==, b->key);
  g_assert_cmpuint (a->provider, ==, b->provider);
  g_assert_cmpuint (a->id, ==, b->id);
  g_assert_cmpint (a->lifetime, ==, b->lifetime);
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->label, ==, b->label);
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpint (a->first, ==, b->first);
  g_assert_cmpint (a->last, ==, b->last);
  g_assert_cmpfloat (a->share, ==, b->share);
  g_assert_cmpint (a->children == NULL, ==, b->children == NULL);
  if (a->children == NULL)
    return;
  g_assert_cmpuint (a->children->len, ==, b->children->len);
  for (guint i = 0; i < a->children->len; i++)
    assert_groups_equal (g_ptr_array_index (a->children, i), g_ptr_array_index (b->children, i));
}

/* Counting in 2, 3 and 7 parallel ranges gives what one pass in row order
 * gives, for every chain the views and the CLI use, over all rows, a time
 * range and a row set. */
static void
check_parallel_equals_serial (EtlTrace *trace)
{
  static const char *const chains[] = { "provider,event", "process,thread", "cpu,provider",
                                        "event,process,thread,cpu,provider", "thread", "process" };
  static const guint workers[] = { 2, 3, 7 };
  guint64 n = etl_trace_get_n_records (trace);
  gint64 first = etl_trace_get_first_filetime (trace), last = etl_trace_get_last_filetime (trace);
  guint64 *some = g_new (guint64, n / 3 + 1);
  guint64 n_some = 0;
  g_autoptr (EtlRowSet) rows = NULL;

  for (guint64 i = 0; i < n; i += 3)
    some[n_some++] = i;
  rows = etl_row_set_new_take (some, n_some);
  etl_trace_get_process_table (trace);
  for (guint c = 0; c < G_N_ELEMENTS (chains); c++)
    for (guint v = 0; v < 3; v++)
      {
        EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
        guint n_keys = 0;
        g_autoptr (GError) error = NULL;
        g_autoptr (EtlGroupSummary) serial = NULL;
        EtlRowSet *set = v == 2 ? rows : NULL;
        gint64 begin = v == 1 ? first + (last - first) / 5 : 0;
        gint64 end = v == 1 ? last - (last - first) / 7 : 0;

        g_assert_true (etl_group_key_parse_chain (chains[c], keys, &n_keys, &error));
        serial = etl_group_summary_compute_with_workers (trace, set, begin, end, keys, n_keys, 1, NULL, NULL, NULL,
                                                         &error);
        g_assert_no_error (error);
        g_assert_cmpuint (etl_group_summary_get_total (serial), >, 0);
        for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
          {
            g_autoptr (EtlGroupSummary) parallel
                = etl_group_summary_compute_with_workers (trace, set, begin, end, keys, n_keys, workers[w], NULL,
                                                          NULL, NULL, &error);

            g_assert_no_error (error);
            assert_groups_equal (etl_group_summary_get_root (serial), etl_group_summary_get_root (parallel));
          }
      }
}

static void
test_parallel_corpus (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");

  if (trace == NULL)
    return;
  check_parallel_equals_serial (trace);
}

static void
test_parallel_synth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-groups-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  EtlSynthParams params;

  g_assert_no_error (error);
  path = g_build_filename (dir, "synth.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = 50000;
  params.seed = 11;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_parallel_equals_serial (trace);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/group-summary/provider-event", test_provider_event);
  g_test_add_func ("/etl/group-summary/process", test_process);
  g_test_add_func ("/etl/group-summary/range-and-rows", test_range_and_rows);
  g_test_add_func ("/etl/group-summary/cancel-and-parse", test_cancel_and_parse);
  g_test_add_func ("/etl/group-summary/cli", test_cli);
  g_test_add_func ("/etl/group-summary/parallel/corpus", test_parallel_corpus);
  g_test_add_func ("/etl/group-summary/parallel/synth", test_parallel_synth);
  return g_test_run ();
}
