/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-baseline: every EVENT line of Microsoft TraceEvent's baseline output
 * (../shared/etl-corpus/ *.baseline.txt) has a record with the same CPU
 * (ProceNum) and DataLen, a relative time within 0.0015 ms, and — for
 * non-kernel events — the same PID and TID.  TraceEvent prints times to
 * 0.001 ms, so the window covers its rounding.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "etl-test-util.h"
#include "etl-trace.h"

#define TOLERANCE_MS 0.0015

typedef struct
{
  double ms;
  char *name;
  gint64 pid;
  gint64 tid;
  guint cpu;
  guint64 data_len;
  gboolean kernel;
} BaselineEvent;

static gint64
field_int (const char *line, const char *key)
{
  g_autofree char *pattern = g_strconcat (" ", key, "=", NULL);
  const char *p = strstr (line, pattern);
  GString *digits;
  gint64 v;

  g_assert_nonnull (p);
  p += strlen (pattern);
  digits = g_string_new (NULL);
  for (; *p && *p != ';'; p++)
    if (g_ascii_isdigit (*p) || *p == '-')
      g_string_append_c (digits, *p);
  v = g_ascii_strtoll (digits->str, NULL, 10);
  g_string_free (digits, TRUE);
  return v;
}

static GArray *
parse_baseline (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GArray *events = g_array_new (FALSE, TRUE, sizeof (BaselineEvent));

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      BaselineEvent e = { 0 };
      const char *colon;
      GString *num;

      if (!g_str_has_prefix (lines[i], "EVENT "))
        continue;
      colon = strstr (lines[i], ": ");
      g_assert_nonnull (colon);
      num = g_string_new (NULL);
      for (const char *p = lines[i] + 6; p < colon; p++)
        if (*p != ',')
          g_string_append_c (num, *p);
      e.ms = g_ascii_strtod (num->str, NULL);
      g_string_free (num, TRUE);
      {
        const char *end = strstr (colon + 2, " PID=");

        g_assert_nonnull (end);
        e.name = g_strndup (colon + 2, end - (colon + 2));
      }
      e.kernel = g_str_has_prefix (e.name, "Windows Kernel/") || g_str_has_prefix (e.name, "MSNT_SystemTrace/");
      e.pid = field_int (lines[i], "PID");
      e.tid = field_int (lines[i], "TID");
      e.cpu = (guint) field_int (lines[i], "ProceNum");
      e.data_len = (guint64) field_int (lines[i], "DataLen");
      g_array_append_val (events, e);
    }
  return events;
}

static void
test_baseline (gconstpointer data)
{
  const char *name = data;
  g_autofree char *etl_name = g_strconcat (name, ".etl", NULL);
  g_autofree char *base_name = g_strconcat (name, ".baseline.txt", NULL);
  g_autofree char *path = etl_test_corpus_path (etl_name);
  g_autofree char *base = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *used = NULL;
  const char *paths[2] = { NULL, NULL };
  guint matched = 0;

  if (path == NULL)
    return;
  base = etl_test_corpus_path (base_name);
  if (base == NULL)
    return;
  events = parse_baseline (base);
  g_assert_cmpuint (events->len, >, 1);

  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  used = g_malloc0 (etl_trace_get_n_records (trace));

  for (guint i = 0; i < events->len; i++)
    {
      BaselineEvent *e = &g_array_index (events, BaselineEvent, i);
      gint64 from = etl_trace_get_origin (trace) + (gint64) floor ((e->ms - TOLERANCE_MS) * 10000.0);
      guint64 k = etl_trace_lower_bound (trace, from);
      gboolean found = FALSE;

      for (; k < etl_trace_get_n_records (trace); k++)
        {
          EtlRecord r;
          double ms = etl_trace_filetime_to_ms (trace, etl_trace_get_filetime (trace, k));
          gboolean ok;

          if (ms > e->ms + TOLERANCE_MS)
            break;
          if (used[k] || fabs (ms - e->ms) > TOLERANCE_MS)
            continue;
          g_assert_true (etl_trace_get_record (trace, k, &r, NULL));
          ok = r.cpu == e->cpu && r.user_data_len == e->data_len;
          if (ok && !e->kernel)
            ok = r.has_pid && r.pid == (guint32) e->pid && r.tid == (guint32) e->tid;
          etl_record_clear (&r);
          if (ok)
            {
              used[k] = 1;
              found = TRUE;
              break;
            }
        }
      if (!found)
        g_error ("%s: no record for baseline event %u: %.3f ms %s PID=%" G_GINT64_FORMAT " TID=%" G_GINT64_FORMAT
                 " CPU=%u DataLen=%" G_GUINT64_FORMAT,
                 name, i, e->ms, e->name, e->pid, e->tid, e->cpu, e->data_len);
      matched++;
    }
  g_assert_cmpuint (matched, ==, events->len);
  g_test_message ("%s: %u baseline events matched", name, matched);

  for (guint i = 0; i < events->len; i++)
    g_free (g_array_index (events, BaselineEvent, i).name);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/etl/baseline/net.4.5.2.x64", "net.4.5.2.x64", test_baseline);
  g_test_add_data_func ("/etl/baseline/gcevents", "gcevents", test_baseline);
  g_test_add_data_func ("/etl/baseline/gcrundownevents", "gcrundownevents", test_baseline);
  g_test_add_data_func ("/etl/baseline/primitive-types", "primitive-types", test_baseline);

  return g_test_run ();
}
