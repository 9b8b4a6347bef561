/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlFilter against net.4.5.2.x64.etl: each condition equals a direct count
 * over every record, and the provider figure equals a count from the raw
 * records (etl-test-raw.h). */

#include "config.h"

#include <string.h>

#include "etl-filter.h"
#include "etl-filter-private.h"
#include "etl-names.h"
#include "etl-test-raw.h"
#include "etl-test-util.h"

typedef struct
{
  EtlTrace *trace;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path (data);
  g_autoptr (GError) error = NULL;

  if (path == NULL)
    return;
  fixture->trace = etl_trace_open ((const char *const[]) { path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->trace);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  g_clear_pointer (&fixture->trace, etl_trace_unref);
}

/* Rows kept must be ascending and each pass @check. */
typedef gboolean (*CheckFunc) (EtlTrace *trace, guint64 row, gconstpointer data);

static guint64
direct_count (EtlTrace *trace, CheckFunc check, gconstpointer data)
{
  guint64 count = 0;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    if (check (trace, i, data))
      count++;
  return count;
}

static void
assert_rows (EtlTrace *trace, EtlRowSet *set, CheckFunc check, gconstpointer data)
{
  guint64 n = etl_row_set_get_n (set);

  g_assert_false (etl_row_set_is_all (set));
  g_assert_cmpuint (n, ==, direct_count (trace, check, data));
  for (guint64 k = 0; k < n; k++)
    {
      g_assert_true (check (trace, etl_row_set_get (set, k), data));
      if (k > 0)
        g_assert_cmpuint (etl_row_set_get (set, k - 1), <, etl_row_set_get (set, k));
    }
}

static gboolean
check_pid (EtlTrace *trace, guint64 row, gconstpointer data)
{
  guint32 pid;

  return etl_trace_get_pid (trace, row, &pid) && pid == GPOINTER_TO_UINT (data);
}

static gboolean
check_tid (EtlTrace *trace, guint64 row, gconstpointer data)
{
  EtlRecord r;
  gboolean match;

  g_assert_true (etl_trace_get_record (trace, row, &r, NULL));
  match = r.has_pid && r.tid == GPOINTER_TO_UINT (data);
  etl_record_clear (&r);
  return match;
}

/* The text filter's rule, written out the slow way: provider name, decoded
 * event name, the process as the list shows it, or the whole payload. */
static gboolean
folded_contains (const char *text, const char *needle)
{
  g_autofree char *folded = text != NULL ? g_utf8_casefold (text, -1) : NULL;

  return folded != NULL && strstr (folded, needle) != NULL;
}

/* The text filter's rule, written out the slow way: provider name, decoded
 * event name, the process as the list shows it, or the whole payload. */
static gboolean
check_text (EtlTrace *trace, guint64 row, gconstpointer data)
{
  g_autofree char *needle = g_utf8_casefold (data, -1);
  g_autofree char *provider = NULL;
  g_autofree char *event = NULL;
  g_autofree char *process_name = NULL;
  g_autofree char *payload = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  gboolean match;
  guint32 pid = 0;
  EtlRecord r;

  g_assert_true (etl_trace_get_record (trace, row, &r, NULL));
  provider = etl_record_dup_provider_name (&r);
  event = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &r);
  match = folded_contains (provider, needle) || folded_contains (event, needle);
  if (!match)
    {
      decoded = etl_trace_decode_record (trace, &r);
      if (etl_process_table_resolve_record (etl_trace_get_process_table (trace), &r, decoded, &pid, NULL)
          || (r.has_pid && (pid = r.pid) != G_MAXUINT32))
        process_name = etl_process_format_name (
            etl_process_table_lookup (etl_trace_get_process_table (trace), pid, r.filetime), pid);
      payload = etl_decoded_format_payload (decoded, 0);
      match = folded_contains (process_name, needle) || folded_contains (payload, needle);
    }
  etl_record_clear (&r);
  return match;
}

static void
test_empty (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (EtlRowSet) set_null = NULL;
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  g_assert_true (etl_filter_is_empty (filter));
  filter->text = g_strdup ("");
  g_assert_true (etl_filter_is_empty (filter));
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (etl_row_set_is_all (set));
  /* 179,474: the corpus README's independent record count. */
  g_assert_cmpuint (etl_row_set_get_n (set), ==, 179474);
  set_null = etl_filter_apply (fixture->trace, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set_null), ==, 179474);
}

static void
test_pid (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  filter->has_pid = TRUE;
  filter->pid = 3988;
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set), >, 0);
  g_assert_cmpuint (etl_row_set_get_n (set), <, 179474);
  assert_rows (fixture->trace, set, check_pid, GUINT_TO_POINTER (3988));
}

/* The PerfInfo provider's records: as many as the raw walk counts with
 * its hand-written rule (HookId group 0x0F, etl-test-raw.h). */
static void
test_provider_name (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (EtlRowSet) lower = NULL;
  g_autoptr (GError) error = NULL;

  EtlTestRawCounts raw;

  if (fixture->trace == NULL)
    return;
  etl_test_raw_count (fixture->trace, &raw);
  filter->provider = g_strdup ("PerfInfo");
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (raw.n_perfinfo, ==, 79530);
  g_assert_cmpuint (etl_row_set_get_n (set), ==, raw.n_perfinfo);

  /* Case-insensitive. */
  g_free (filter->provider);
  filter->provider = g_strdup ("perfinfo");
  lower = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (lower), ==, raw.n_perfinfo);
  etl_test_raw_counts_clear (&raw);
}

static gboolean
check_provider_guid (EtlTrace *trace, guint64 row, gconstpointer data)
{
  const EtlGuid *guid = etl_trace_get_provider (trace, etl_trace_get_provider_index (trace, row));
  char buf[ETL_GUID_STRING_LEN + 1];

  if (guid == NULL)
    return FALSE;
  etl_guid_to_string (guid, buf);
  return g_ascii_strcasecmp (buf, data) == 0;
}

static void
test_provider_guid (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (GError) error = NULL;
  char guid[ETL_GUID_STRING_LEN + 1];

  if (fixture->trace == NULL)
    return;
  /* The provider of the last record, by its full GUID in upper case. */
  etl_guid_to_string (etl_trace_get_provider (fixture->trace,
                                              etl_trace_get_provider_index (fixture->trace, 179473)), guid);
  filter->provider = g_ascii_strup (guid, -1);
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set), >, 0);
  assert_rows (fixture->trace, set, check_provider_guid, guid);
}

static void
test_tid (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (GError) error = NULL;
  EtlRecord r;
  guint32 tid = 0;

  if (fixture->trace == NULL)
    return;
  /* The thread of the first record of process 3988. */
  for (guint64 i = 0; i < etl_trace_get_n_records (fixture->trace) && tid == 0; i++)
    if (check_pid (fixture->trace, i, GUINT_TO_POINTER (3988)))
      {
        g_assert_true (etl_trace_get_record (fixture->trace, i, &r, NULL));
        tid = r.tid;
        etl_record_clear (&r);
      }
  g_assert_cmpuint (tid, !=, 0);

  filter->has_tid = TRUE;
  filter->tid = tid;
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set), >, 0);
  assert_rows (fixture->trace, set, check_tid, GUINT_TO_POINTER (tid));
}

static void
test_text (Fixture *fixture, gconstpointer data)
{
  static const char *const needles[] = { "DCStart", "dotnetruntime", "reason=allocsmall", "Test.x64.exe (3676)" };
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    {
      g_autoptr (EtlFilter) filter = etl_filter_new ();
      g_autoptr (EtlRowSet) set = NULL;

      filter->text = g_strdup (needles[k]);
      set = etl_filter_apply (fixture->trace, filter, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("text %s: %" G_GUINT64_FORMAT " rows", needles[k], etl_row_set_get_n (set));
      assert_rows (fixture->trace, set, check_text, needles[k]);
    }
}

/* The in-place search for ASCII text gives what casefolding both and
 * strstr() give, non-ASCII text included. */
static void
test_contains_folded (void)
{
  static const char *const haystacks[] = {
    "", "Thread/CSwitch", "NewThreadId=1234 OldThreadId=0", "THREADID", "C:\\Windows\\System32\\ntdll.dll",
    "Straße", "STRASSE", "Kelvin \xe2\x84\xaa", "İstanbul", "naïve Thread", "ﬁle", "tail-threa",
  };
  static const char *const needles[] = { "thread", "Thread", "THREADID=", "ss", "strasse", "k", "ntdll.DLL", "ï", "fi",
                                         "threa", "", "x" };

  for (guint h = 0; h < G_N_ELEMENTS (haystacks); h++)
    for (guint n = 0; n < G_N_ELEMENTS (needles); n++)
      {
        g_autofree char *folded_needle = g_utf8_casefold (needles[n], -1);
        g_autofree char *folded_hay = g_utf8_casefold (haystacks[h], -1);
        gboolean want = strstr (folded_hay, folded_needle) != NULL;

        if (etl_filter_contains_folded (haystacks[h], folded_needle) != want)
          g_error ("\"%s\" in \"%s\": expected %d", needles[n], haystacks[h], want);
      }
  g_assert_true (etl_filter_contains_folded ("Straße", "strasse"));
  g_assert_true (etl_filter_contains_folded ("NewThreadId=1", "threadid"));
  g_assert_false (etl_filter_contains_folded ("NewThreadId=1", "threadx"));
  g_assert_false (etl_filter_contains_folded (NULL, "x"));
}

/* The ranges walked on 1, 2 and 5 threads give the same rows, for each kind
 * of condition; a cancelled walk gives none. */
static void
test_workers (Fixture *fixture, gconstpointer data)
{
  static const struct
  {
    const char *provider;
    const char *text;
    guint32 pid;
  } cases[] = {
    { NULL, "DCStart", 0 },
    { NULL, "reason=allocsmall", 0 },
    { NULL, "Test.x64.exe (3676)", 0 },
    { "DotNETRuntime", NULL, 0 },
    { "Kernel", "Thread", 3988 },
  };
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (EtlFilter) filter = etl_filter_new ();
      g_autoptr (EtlRowSet) one = NULL;

      filter->provider = g_strdup (cases[c].provider);
      filter->text = g_strdup (cases[c].text);
      filter->has_pid = cases[c].pid != 0;
      filter->pid = cases[c].pid;
      one = etl_filter_apply_with_workers (fixture->trace, filter, 1, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (etl_row_set_get_n (one), >, 0);
      for (guint n_workers = 2; n_workers <= 5; n_workers += 3)
        {
          g_autoptr (EtlRowSet) many = etl_filter_apply_with_workers (fixture->trace, filter, n_workers, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (etl_row_set_get_n (many), ==, etl_row_set_get_n (one));
          for (guint64 k = 0; k < etl_row_set_get_n (one); k++)
            g_assert_cmpuint (etl_row_set_get (many, k), ==, etl_row_set_get (one, k));
        }
    }

  {
    g_autoptr (EtlFilter) filter = etl_filter_new ();
    g_autoptr (GCancellable) cancellable = g_cancellable_new ();
    g_autoptr (EtlRowSet) none = NULL;

    filter->text = g_strdup ("DCStart");
    g_cancellable_cancel (cancellable);
    none = etl_filter_apply_with_workers (fixture->trace, filter, 3, cancellable, &error);
    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
}

/* All conditions must hold: pid and provider together. */
static void
test_combined (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlFilter) pid_only = etl_filter_new ();
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (EtlRowSet) pid_set = NULL;
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  filter->has_pid = pid_only->has_pid = TRUE;
  filter->pid = pid_only->pid = 3988;
  filter->provider = g_strdup ("DotNETRuntime");
  g_assert_false (etl_filter_equal (filter, pid_only));
  set = etl_filter_apply (fixture->trace, filter, NULL, &error);
  g_assert_no_error (error);
  pid_set = etl_filter_apply (fixture->trace, pid_only, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set), >, 0);
  g_assert_cmpuint (etl_row_set_get_n (set), <, etl_row_set_get_n (pid_set));
  for (guint64 k = 0; k < etl_row_set_get_n (set); k++)
    g_assert_cmpuint (etl_row_set_find (pid_set, etl_row_set_get (set, k)), <, etl_row_set_get_n (pid_set));
}

static void
test_copy_equal (void)
{
  g_autoptr (EtlFilter) a = etl_filter_new ();
  g_autoptr (EtlFilter) b = NULL;

  g_assert_true (etl_filter_equal (a, NULL));
  a->provider = g_strdup ("Kernel");
  a->has_tid = TRUE;
  a->tid = 12;
  b = etl_filter_copy (a);
  g_assert_true (etl_filter_equal (a, b));
  g_assert_true (a->provider != b->provider);
  b->tid = 13;
  g_assert_false (etl_filter_equal (a, b));
  g_assert_false (etl_filter_equal (a, NULL));
}

static void
on_applied (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_async (Fixture *fixture, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GAsyncResult) cancelled = NULL;
  g_autoptr (EtlRowSet) set = NULL;
  g_autoptr (EtlRowSet) none = NULL;
  g_autoptr (GError) error = NULL;

  if (fixture->trace == NULL)
    return;
  filter->has_pid = TRUE;
  filter->pid = 3988;
  etl_filter_apply_async (fixture->trace, filter, NULL, on_applied, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  set = etl_filter_apply_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_row_set_get_n (set), ==, direct_count (fixture->trace, check_pid, GUINT_TO_POINTER (3988)));

  g_cancellable_cancel (cancellable);
  etl_filter_apply_async (fixture->trace, filter, cancellable, on_applied, &cancelled);
  while (cancelled == NULL)
    g_main_context_iteration (NULL, TRUE);
  none = etl_filter_apply_finish (cancelled, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (none);
}

int
main (int argc, char **argv)
{
  const char *net = "net.4.5.2.x64.etl";

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/filter/copy-equal", test_copy_equal);
  g_test_add_func ("/etl/filter/contains-folded", test_contains_folded);
  g_test_add ("/etl/filter/net/empty", Fixture, net, fixture_setup, test_empty, fixture_teardown);
  g_test_add ("/etl/filter/net/pid", Fixture, net, fixture_setup, test_pid, fixture_teardown);
  g_test_add ("/etl/filter/net/provider-name", Fixture, net, fixture_setup, test_provider_name, fixture_teardown);
  g_test_add ("/etl/filter/net/provider-guid", Fixture, net, fixture_setup, test_provider_guid, fixture_teardown);
  g_test_add ("/etl/filter/net/tid", Fixture, net, fixture_setup, test_tid, fixture_teardown);
  g_test_add ("/etl/filter/net/text", Fixture, net, fixture_setup, test_text, fixture_teardown);
  g_test_add ("/etl/filter/net/combined", Fixture, net, fixture_setup, test_combined, fixture_teardown);
  g_test_add ("/etl/filter/net/workers", Fixture, net, fixture_setup, test_workers, fixture_teardown);
  g_test_add ("/etl/filter/net/async", Fixture, net, fixture_setup, test_async, fixture_teardown);
  return g_test_run ();
}
