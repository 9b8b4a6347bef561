/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-decode-baseline: what etlscope says each event means, against
 * Microsoft TraceEvent's own output for the corpus
 * (../shared/etl-corpus/ *.baseline.txt).
 *
 * Each EVENT line is paired with its record as test-baseline.c does (CPU,
 * DataLen, time within 0.0015 ms; PID and TID for non-kernel events), then:
 * - the decoded event name equals TraceEvent's (after the provider) for
 *   every non-CLR provider; for the CLR providers it equals TraceEvent's or
 *   comes from the trace's metadata or the manifest;
 * - the record's process name (image name without ".exe") equals PName on
 *   every line that has one ("Process(N)" is TraceEvent's "unknown");
 * - the share of the line's Name=value fields found with an equal value in
 *   the decoded fields reaches the target, the differences left printed.
 * TraceEvent's text is normalised before comparing: values longer than 20
 * characters are cut to 20 + "..." (compared as a prefix), numbers carry
 * thousands separators, dates are "yy/MM/dd HH:mm:ss.ff" UTC, bitmaps are
 * joined by ", ".
 *
 * /etl/decode-baseline/share/ * decode every record with user data of
 * net.4.5.2.x64.etl and print the share each schema source decodes.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-test-util.h"
#include "etl-trace.h"

#define TOLERANCE_MS 0.0015

typedef struct
{
  char *name;
  char *value;
} BaseField;

typedef struct
{
  double ms;
  char *provider;
  char *event; /* after "Provider/" */
  gint64 pid;
  gint64 tid;
  char *pname;
  guint cpu;
  guint64 data_len;
  gboolean kernel;
  GArray *fields; /* BaseField */
} BaselineEvent;

static char *
field_text (const char *line, const char *key)
{
  g_autofree char *pattern = g_strconcat (" ", key, "=", NULL);
  const char *p = strstr (line, pattern);
  const char *end;

  g_assert_nonnull (p);
  p += strlen (pattern);
  end = strstr (p, ";");
  return end ? g_strndup (p, end - p) : g_strdup (p);
}

static gint64
parse_number (const char *text)
{
  GString *digits = g_string_new (NULL);
  gint64 v;

  for (const char *p = text; *p; p++)
    if (g_ascii_isdigit (*p) || *p == '-')
      g_string_append_c (digits, *p);
  v = g_ascii_strtoll (digits->str, NULL, 10);
  g_string_free (digits, TRUE);
  return v;
}

static void
baseline_event_clear (BaselineEvent *e)
{
  g_free (e->provider);
  g_free (e->event);
  g_free (e->pname);
  for (guint i = 0; e->fields && i < e->fields->len; i++)
    {
      g_free (g_array_index (e->fields, BaseField, i).name);
      g_free (g_array_index (e->fields, BaseField, i).value);
    }
  g_clear_pointer (&e->fields, g_array_unref);
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
      const char *colon, *name_end, *slash, *rest;
      GString *num;
      g_autofree char *tmp = NULL;
      g_auto (GStrv) parts = NULL;

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
      name_end = strstr (colon + 2, " PID=");
      g_assert_nonnull (name_end);
      slash = memchr (colon + 2, '/', name_end - (colon + 2));
      g_assert_nonnull (slash);
      e.provider = g_strndup (colon + 2, slash - (colon + 2));
      e.event = g_strndup (slash + 1, name_end - (slash + 1));
      e.kernel = strcmp (e.provider, "Windows Kernel") == 0
                 || strcmp (e.provider, "MSNT_SystemTrace") == 0;
      tmp = field_text (lines[i], "PID");
      e.pid = parse_number (tmp);
      g_free (tmp);
      tmp = field_text (lines[i], "TID");
      e.tid = parse_number (tmp);
      g_free (tmp);
      e.pname = field_text (lines[i], "PName");
      tmp = field_text (lines[i], "ProceNum");
      e.cpu = (guint)parse_number (tmp);
      g_free (tmp);
      tmp = field_text (lines[i], "DataLen");
      e.data_len = (guint64)parse_number (tmp);
      g_clear_pointer (&tmp, g_free);

      /* The payload: "Name=value; " pairs after DataLen. */
      e.fields = g_array_new (FALSE, TRUE, sizeof (BaseField));
      rest = strstr (lines[i], " DataLen=");
      rest = strstr (rest, "; ");
      if (rest != NULL)
        {
          parts = g_strsplit (rest + 2, "; ", -1);
          for (guint k = 0; parts[k]; k++)
            {
              char *eq = strchr (parts[k], '=');
              BaseField f;

              if (eq == NULL || eq == parts[k])
                continue;
              f.name = g_strndup (parts[k], eq - parts[k]);
              f.value = g_strdup (eq + 1);
              g_strchomp (f.value);
              if (g_str_has_suffix (f.value, ";"))
                f.value[strlen (f.value) - 1] = '\0';
              g_array_append_val (e.fields, f);
            }
        }
      g_array_append_val (events, e);
    }
  return events;
}

/* ---- comparing values -------------------------------------------------- */

static gboolean
is_number_text (const char *s, gboolean allow_commas)
{
  gboolean digit = FALSE;

  if (*s == '-')
    s++;
  for (; *s; s++)
    {
      if (g_ascii_isdigit (*s))
        digit = TRUE;
      else if (*s == ',' && allow_commas)
        ;
      else if (*s == '.')
        ;
      else
        return FALSE;
    }
  return digit;
}

static gboolean
parse_integer (const char *s, gboolean *negative, guint64 *v)
{
  char *end = NULL;

  *negative = FALSE;
  if (g_str_has_prefix (s, "0x") || g_str_has_prefix (s, "0X"))
    {
      if (s[2] == '\0')
        return FALSE;
      *v = g_ascii_strtoull (s + 2, &end, 16);
      return end != NULL && *end == '\0';
    }
  if (*s == '-')
    {
      *negative = TRUE;
      s++;
    }
  if (!g_ascii_isdigit (*s))
    return FALSE;
  *v = g_ascii_strtoull (s, &end, 10);
  return end != NULL && *end == '\0';
}

/* Our ISO 8601 "2020-07-29T00:07:10.6935923Z" as TraceEvent's "20/07/29 00:07:10.6935923". */
static char *
iso_to_traceevent (const char *v)
{
  if (strlen (v) >= 19 && v[4] == '-' && v[7] == '-' && v[10] == 'T' && v[13] == ':'
      && v[16] == ':')
    {
      GString *s = g_string_new (NULL);
      const char *frac = v + 19;

      g_string_append_printf (s, "%.2s/%.2s/%.2s %.8s", v + 2, v + 5, v + 8, v + 11);
      if (*frac == '.')
        {
          g_string_append_c (s, '.');
          for (frac++; g_ascii_isdigit (*frac); frac++)
            g_string_append_c (s, *frac);
        }
      else
        g_string_append (s, ".0000000");
      return g_string_free (s, FALSE);
    }
  return NULL;
}

/* "-1234567" as TraceEvent prints integers: "-1,234,567". */
static char *
group_thousands (const char *digits)
{
  GString *s = g_string_new (NULL);
  gboolean negative = digits[0] == '-';
  const char *d = digits + negative;
  gsize n = strlen (d);

  if (negative)
    g_string_append_c (s, '-');
  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, d[i]);
    }
  return g_string_free (s, FALSE);
}

static gboolean
text_matches (const char *base, gboolean truncated, const char *ours)
{
  return truncated ? g_str_has_prefix (ours, base) : strcmp (ours, base) == 0;
}

/*
 * Whether TraceEvent's text @base_in shows the same value as our field.
 * Normalised: TraceEvent's cut (20 characters + "..."), thousands
 * separators, dates (yy/MM/dd HH:mm:ss.ff, UTC), bitmap separators (", "
 * against "|"); an integer printed in another base or signedness; a mapped
 * value TraceEvent printed as its number, or 0 printed as "None".
 */
static gboolean
values_equal (const char *base_in, const EtlField *field)
{
  const char *ours_in = field->value;
  g_autofree char *base = g_strdup (base_in);
  g_autofree char *date = iso_to_traceevent (ours_in);
  g_autofree char *bitmap = NULL;
  gboolean truncated = FALSE;
  gboolean bn, on;
  guint64 bv, ov;

  if (g_str_has_suffix (base, "...") && g_utf8_strlen (base, -1) == 23)
    {
      truncated = TRUE;
      *g_utf8_offset_to_pointer (base, 20) = '\0';
    }
  if (text_matches (base, truncated, ours_in))
    return TRUE;
  if (date != NULL && text_matches (base, truncated, date))
    return TRUE;
  {
    g_auto (GStrv) parts = g_strsplit (ours_in, "|", -1);

    bitmap = g_strjoinv (", ", parts);
    if (text_matches (base, truncated, bitmap))
      return TRUE;
  }
  if (is_number_text (ours_in, FALSE) && strchr (ours_in, '.') == NULL)
    {
      g_autofree char *grouped = group_thousands (ours_in);

      if (text_matches (base, truncated, grouped))
        return TRUE;
    }
  /* SYSTEMTIME: TraceEvent's fraction (".03" on every event of
   * primitive-types, whose FILETIME twin shows the milliseconds we show) is
   * not the structure's wMilliseconds: equal to the second. */
  if (field->in_type == ETL_IN_SYSTEMTIME && date != NULL && truncated && strlen (base) >= 17
      && strncmp (base, date, 17) == 0)
    return TRUE;
  if (truncated)
    return FALSE;
  if (is_number_text (base, TRUE) && strchr (base, ',') != NULL)
    {
      GString *s = g_string_new (NULL);

      for (const char *p = base; *p; p++)
        if (*p != ',')
          g_string_append_c (s, *p);
      g_free (base);
      base = g_string_free (s, FALSE);
    }
  if (strcmp (base, "None") == 0 && field->has_number && field->number == 0)
    return TRUE;
  if (parse_integer (base, &bn, &bv))
    {
      /* A value map or bitmap TraceEvent left as a number. */
      if (field->has_number && !bn && bv == field->number)
        return TRUE;
      /* The same number in another base (hex against decimal) or width (0x0018 against 0x18). */
      if (parse_integer (ours_in, &on, &ov))
        {
          if (bn == on && bv == ov)
            return TRUE;
          /* A signed value shown unsigned, or the reverse (-1 against 4294967295). */
          if (bn != on)
            {
              guint64 neg = bn ? bv : ov, pos = bn ? ov : bv;

              if (pos == (guint64)(-(gint64)neg) || pos == (guint32)(-(gint32)neg)
                  || pos == (guint16)(-(gint16)neg) || pos == (guint8)(-(gint8)neg))
                return TRUE;
            }
        }
    }
  return FALSE;
}

/* ---- the run ------------------------------------------------------------ */

typedef struct
{
  guint names;
  guint names_equal;
  guint names_metadata;    /* CLR: the metadata's spelling */
  guint names_unknown_clr; /* CLR events no metadata describes (without the manifest) */
  guint names_layout_only; /* TraceEvent's Opcode(N) that a kernel MOF table names */
  guint pnames;
  guint pnames_equal;
  guint fields;
  guint fields_equal;
  guint fields_absent;    /* later versions' fields TraceEvent prints empty */
  guint fields_own;       /* TraceEvent's own fields (traceevent_own[]) */
  guint fields_newer;     /* fields of an event version newer than its metadata */
  guint fields_own_names; /* numbers TraceEvent names from its own enums */
  GString *report;
} Score;

static gboolean
is_clr_provider (const char *provider)
{
  return g_str_has_prefix (provider, "Microsoft-Windows-DotNETRuntime");
}

static gboolean
is_fallback_name (const char *name)
{
  return g_str_has_prefix (name, "EventID(") || g_str_has_prefix (name, "Opcode(")
         || g_str_has_prefix (name, "Event(") || strstr (name, "Type(") != NULL;
}

/* The opcode part of TraceEvent's "Task/Opcode" event name. */
static const char *
event_opcode (const char *event)
{
  const char *slash = strrchr (event, '/');

  return slash != NULL ? slash + 1 : event;
}

static const EtlField *find_field (GArray *fields, const char *name);

static gboolean
property_has_map (const EtlSchema *schema, const char *name)
{
  for (guint i = 0; schema != NULL && i < schema->n_properties; i++)
    if (g_ascii_strcasecmp (schema->properties[i].name, name) == 0)
      return schema->properties[i].map_name != NULL || schema->properties[i].map != NULL;
  return FALSE;
}

/*
 * Fields TraceEvent shows that no schema or layout of the event holds:
 * values it keeps across records (file names by FileKey, thread names,
 * process names, disk service time), computes (HeapStats totals, an IL
 * file name from its path, the payload length) or reads through its own
 * hand-written parsers under its own names (Microsoft-Windows-Kernel-File's
 * create options, UdpIp's "context"), and flattened arrays.  They are left
 * out of the share and counted apart.
 */
static const struct
{
  const char *event; /* a substring of "Provider/Event" */
  const char *field;
} traceevent_own[] = {
  { "/DiskIO/", "FileName" },
  { "/DiskIO/", "DiskServiceTimeMSec" },
  { "/Memory/HardFault", "FileName" },
  { "/Thread/", "ThreadName" },
  { "/SystemConfig/Services", "ProcessName" },
  { "/ManifestData", "PayloadLength" },
  { "Microsoft-Windows-Kernel-File/Create", "IrpPtr" },
  { "Microsoft-Windows-Kernel-File/Create", "CreateDisposition" },
  { "Microsoft-Windows-Kernel-File/Create", "CreateOptions" },
  { "Microsoft-Windows-Kernel-File/Create", "FileAttributes" },
  { "Microsoft-Windows-Kernel-File/Create", "ShareAccess" },
  { "/UdpIp/", "context" },
  { "/UdpIp/", "dsize" },
  { "/Loader/Module", "ModuleILFileName" },
  { "/GC/HeapStats", "TotalHeapSize" },
  { "/GC/HeapStats", "TotalPromoted" },
  { "/GC/HeapStats", "Depth" },
  { "/GC/FinalizeObject", "TypeName" },
  { "/Type/BulkType", "TypeName_0" },
  { "/Type/BulkType", "TypeID_0" },
};

static gboolean
is_traceevent_own (const BaselineEvent *e, const char *field)
{
  g_autofree char *full = g_strconcat (e->provider, "/", e->event, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (traceevent_own); i++)
    if (strstr (full, traceevent_own[i].event) != NULL
        && strcmp (field, traceevent_own[i].field) == 0)
      return TRUE;
  return FALSE;
}

static void
check_event (EtlTrace *trace, const BaselineEvent *e, const EtlRecord *r, gboolean with_manifest,
             Score *score)
{
  g_autoptr (EtlDecoded) decoded = etl_trace_decode_record (trace, r);
  g_autoptr (GArray) derived = etl_trace_get_derived_fields (trace, r, decoded);
  g_autofree char *name
      = decoded->schema != NULL
            ? etl_schema_dup_display_name (decoded->schema)
            : etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), r);
  const EtlProcess *process = etl_trace_get_record_process (trace, r, decoded);

  score->names++;
  if (strcmp (name, e->event) == 0)
    score->names_equal++;
  else if (is_clr_provider (e->provider) && decoded->schema != NULL
           && decoded->schema->source != ETL_SCHEMA_SOURCE_MOF && !is_fallback_name (name))
    score->names_metadata++;
  else if (is_clr_provider (e->provider) && decoded->schema == NULL)
    {
      /* Without the manifest: DotNETRuntimePrivate; with it: events newer than the manifest. */
      score->names_unknown_clr++;
      g_string_append_printf (score->report, "  name (no metadata): %.3f ms %s/%s: ours \"%s\"\n",
                              e->ms, e->provider, e->event, name);
    }
  else if (is_fallback_name (event_opcode (e->event)) && decoded->schema != NULL
           && decoded->schema->source == ETL_SCHEMA_SOURCE_MOF
           && !is_fallback_name (decoded->schema->opcode_name))
    {
      /* A layout TraceEvent does not have (SysConfig/OSVersion, etl-mof-config.c). */
      score->names_layout_only++;
      g_string_append_printf (score->report,
                              "  name (TraceEvent has no layout): %.3f ms %s/%s: ours \"%s\"\n",
                              e->ms, e->provider, e->event, name);
    }
  else
    g_string_append_printf (score->report, "  name: %.3f ms %s/%s: ours \"%s\"\n", e->ms,
                            e->provider, e->event, name);

  if (e->pname[0] != '\0')
    {
      g_autofree char *ours = etl_process_dup_short_name (process);
      gboolean unknown = g_str_has_prefix (e->pname, "Process(");

      score->pnames++;
      if (unknown ? ours == NULL : g_strcmp0 (ours, e->pname) == 0)
        score->pnames_equal++;
      else
        g_string_append_printf (
            score->report, "  PName: %.3f ms %s/%s PID=%" G_GINT64_FORMAT ": \"%s\", ours \"%s\"\n",
            e->ms, e->provider, e->event, e->pid, e->pname, ours ? ours : "(none)");
    }

  for (guint i = 0; i < e->fields->len; i++)
    {
      const BaseField *bf = &g_array_index (e->fields, BaseField, i);
      const EtlField *f = find_field (decoded->fields, bf->name);

      if (f == NULL && derived != NULL)
        f = find_field (derived, bf->name);

      /* A field of a later version of the event, printed empty. */
      if (f == NULL && bf->value[0] == '\0')
        {
          score->fields_absent++;
          continue;
        }
      /* A field the event's version has and the metadata's older version
       * lacks, or of a CLR event newer than the manifest loaded. */
      if (f == NULL
          && ((decoded->schema != NULL && decoded->schema->key.kind == ETL_SCHEMA_KEY_EVENT_ID
               && decoded->schema->key.version < r->version)
              || (decoded->schema == NULL && with_manifest && is_clr_provider (e->provider))))
        {
          score->fields_newer++;
          continue;
        }
      if (f == NULL && is_traceevent_own (e, bf->name))
        {
          score->fields_own++;
          continue;
        }
      /* A number the metadata gives no names for (no map, or bits the map
       * lacks), which TraceEvent names from its own enums (GC
       * Reason=Induced, PauseMode=Interactive, AssemblyFlags=ReadyToRun). */
      if (f != NULL && f->has_number && !values_equal (bf->value, f)
          && !is_number_text (bf->value, TRUE) && !g_str_has_prefix (bf->value, "0x")
          && (!property_has_map (decoded->schema, f->name) || strstr (f->value, "0x") != NULL))
        {
          score->fields_own_names++;
          g_string_append_printf (score->report,
                                  "  field (TraceEvent's value name): %s/%s %s=%s, ours %s\n",
                                  e->provider, e->event, bf->name, bf->value, f->value);
          continue;
        }
      score->fields++;
      if (f != NULL && values_equal (bf->value, f))
        score->fields_equal++;
      else
        g_string_append_printf (score->report, "  field: %s/%s %s=%s, ours %s\n", e->provider,
                                e->event, bf->name, bf->value, f != NULL ? f->value : "(missing)");
    }
}

/* TraceEvent spells some MOF names its own way (ProcessID for the MOF
 * page's ProcessId): names compare without case. */
static const EtlField *
find_field (GArray *fields, const char *name)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const EtlField *f = &g_array_index (fields, EtlField, i);

      if (g_ascii_strcasecmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

typedef struct
{
  const char *name;
  const char *manifest; /* in the corpus folder, or NULL */
  double field_target;  /* share of Name=value fields equal, 0..1 */
} BaselineCase;

static void
test_decode_baseline (gconstpointer data)
{
  const BaselineCase *bc = data;
  g_autofree char *etl_name = g_strconcat (bc->name, ".etl", NULL);
  g_autofree char *base_name = g_strconcat (bc->name, ".baseline.txt", NULL);
  g_autofree char *path = etl_test_corpus_path (etl_name);
  g_autofree char *base = NULL;
  g_autofree char *manifest = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *used = NULL;
  const char *paths[2] = { NULL, NULL };
  const char *manifests[2] = { NULL, NULL };
  Score score = { 0 };

  if (path == NULL)
    return;
  base = etl_test_corpus_path (base_name);
  if (base == NULL)
    return;
  if (bc->manifest != NULL)
    {
      manifest = etl_test_corpus_path (bc->manifest);
      if (manifest == NULL)
        return;
      manifests[0] = manifest;
    }
  events = parse_baseline (base);
  g_assert_cmpuint (events->len, >, 1);

  paths[0] = path;
  trace = etl_trace_open_full (paths, manifests, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  used = g_malloc0 (etl_trace_get_n_records (trace));
  score.report = g_string_new (NULL);

  for (guint i = 0; i < events->len; i++)
    {
      BaselineEvent *e = &g_array_index (events, BaselineEvent, i);
      gint64 from = etl_trace_get_origin (trace) + (gint64)floor ((e->ms - TOLERANCE_MS) * 10000.0);
      guint64 k = etl_trace_lower_bound (trace, from);
      gboolean found = FALSE;

      for (; k < etl_trace_get_n_records (trace) && !found; k++)
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
            ok = r.has_pid && r.pid == (guint32)e->pid && r.tid == (guint32)e->tid;
          if (ok)
            {
              used[k] = 1;
              found = TRUE;
              check_event (trace, e, &r, bc->manifest != NULL, &score);
            }
          etl_record_clear (&r);
        }
      if (!found)
        g_error ("%s: no record for baseline event %u: %.3f ms %s/%s", bc->name, i, e->ms,
                 e->provider, e->event);
    }

  g_test_message (
      "%s%s: names %u/%u equal (+%u CLR names spelt as the metadata, %u CLR events without "
      "metadata, %u kernel events only our layouts name), PName %u/%u, fields %u/%u equal "
      "(%.1f%%; left out: %u of later versions printed empty, %u of TraceEvent's own, %u of "
      "events or versions newer than the metadata, %u numbers TraceEvent names from its own enums; "
      "all fields %.1f%%)",
      bc->name, bc->manifest ? " with the manifest" : "", score.names_equal, score.names,
      score.names_metadata, score.names_unknown_clr, score.names_layout_only, score.pnames_equal,
      score.pnames, score.fields_equal, score.fields,
      score.fields ? 100.0 * score.fields_equal / score.fields : 100.0, score.fields_absent,
      score.fields_own, score.fields_newer, score.fields_own_names,
      100.0 * score.fields_equal
          / MAX (score.fields + score.fields_absent + score.fields_own + score.fields_newer
                     + score.fields_own_names,
                 1));
  if (score.report->len > 0)
    g_test_message ("%s differences:\n%s", bc->name, score.report->str);

  g_assert_cmpuint (score.names_equal + score.names_metadata + score.names_unknown_clr
                        + score.names_layout_only,
                    ==, score.names);
  g_assert_cmpuint (score.pnames_equal, ==, score.pnames);
  g_assert_cmpfloat ((double)score.fields_equal, >=, bc->field_target * score.fields);

  g_string_free (score.report, TRUE);
  for (guint i = 0; i < events->len; i++)
    baseline_event_clear (&g_array_index (events, BaselineEvent, i));
}

/* ---- share per source --------------------------------------------------- */

static void
test_share (gconstpointer data)
{
  const char *manifest_name = data;
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *manifest = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[2] = { NULL, NULL };
  const char *manifests[2] = { NULL, NULL };
  guint64 by_source[ETL_N_SCHEMA_SOURCES + 1] = { 0 };
  guint64 incomplete[ETL_N_SCHEMA_SOURCES] = { 0 };
  guint64 with_data = 0, decoded_ok = 0;
  g_autoptr (GHashTable) missing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) report = g_string_new (NULL);
  double share;

  if (path == NULL)
    return;
  if (manifest_name != NULL)
    {
      manifest = etl_test_corpus_path (manifest_name);
      if (manifest == NULL)
        return;
      manifests[0] = manifest;
    }
  paths[0] = path;
  trace = etl_trace_open_full (paths, manifests, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;
      g_autoptr (EtlDecoded) decoded = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (r.user_data_len > 0)
        {
          with_data++;
          decoded = etl_trace_decode_record (trace, &r);
          if (decoded->schema == NULL)
            {
              g_autofree char *provider = etl_record_dup_provider_name (&r);
              g_autofree char *name = etl_record_dup_event_name (&r);
              g_autofree char *key
                  = g_strdup_printf ("no schema: %s/%s v%u", provider, name, r.version);

              by_source[ETL_N_SCHEMA_SOURCES]++;
              g_hash_table_insert (
                  missing, g_strdup (key),
                  GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (missing, key)) + 1));
            }
          else
            {
              by_source[decoded->schema->source]++;
              if (decoded->complete)
                decoded_ok++;
              else
                {
                  g_autofree char *provider = etl_record_dup_provider_name (&r);
                  g_autofree char *name = etl_schema_dup_display_name (decoded->schema);
                  g_autofree char *key = g_strdup_printf (
                      "incomplete (%s): %s/%s v%u",
                      etl_schema_source_name (decoded->schema->source), provider, name, r.version);

                  incomplete[decoded->schema->source]++;
                  g_hash_table_insert (
                      missing, g_strdup (key),
                      GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (missing, key)) + 1));
                }
            }
        }
      etl_record_clear (&r);
    }

  g_string_append_printf (report, "net.4.5.2.x64%s: %" G_GUINT64_FORMAT " records with user data\n",
                          manifest_name ? " with ClrEtwAll.man" : "", with_data);
  for (guint s = 0; s <= ETL_N_SCHEMA_SOURCES; s++)
    g_string_append_printf (
        report, "  %-12s %7" G_GUINT64_FORMAT " (%5.2f%%), incomplete %" G_GUINT64_FORMAT "\n",
        s < ETL_N_SCHEMA_SOURCES ? etl_schema_source_name (s) : "none", by_source[s],
        100.0 * by_source[s] / MAX (with_data, 1), s < ETL_N_SCHEMA_SOURCES ? incomplete[s] : 0);
  share = (double)decoded_ok / MAX (with_data, 1);
  g_string_append_printf (report, "  named and fully decoded: %" G_GUINT64_FORMAT " (%.2f%%)\n",
                          decoded_ok, 100.0 * share);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, missing);
    while (g_hash_table_iter_next (&iter, &key, &value))
      g_string_append_printf (report, "  %s: %" G_GSIZE_FORMAT "\n", (const char *)key,
                              GPOINTER_TO_SIZE (value));
  }
  g_test_message ("%s", report->str);
  g_assert_cmpfloat (share, >=, manifest_name ? 0.99 : 0.97);
}

/* Records with user data decoded from each schema source, in @paths opened
 * together; counts[file] for TDH, TraceLogging and EventSource. */
typedef struct
{
  guint64 tdh[2], tracelogging[2], eventsource[2];
} SourceCounts;

static EtlTrace *
count_sources (const char *const *paths, SourceCounts *c)
{
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  memset (c, 0, sizeof *c);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;
      g_autoptr (EtlDecoded) decoded = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      g_assert_cmpuint (r.file, <, 2);
      if (r.user_data_len > 0)
        {
          decoded = etl_trace_decode_record (trace, &r);
          if (decoded->schema != NULL && decoded->schema->source == ETL_SCHEMA_SOURCE_TDH)
            c->tdh[r.file]++;
          if (decoded->schema != NULL && decoded->schema->source == ETL_SCHEMA_SOURCE_TRACELOGGING)
            c->tracelogging[r.file]++;
          if (decoded->schema != NULL && decoded->schema->source == ETL_SCHEMA_SOURCE_EVENTSOURCE)
            c->eventsource[r.file]++;
        }
      etl_record_clear (&r);
    }
  return trace;
}

/* Files opened together share one registry: each file's records decode
 * with the metadata of all of them, and EventSource manifests stay scoped
 * to their file. */
static void
test_multi_file (void)
{
  g_autofree char *net = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *prim = etl_test_corpus_path ("primitive-types.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlTrace) net_alone = NULL;
  g_autoptr (EtlTrace) prim_alone = NULL;
  SourceCounts both, n, pt;
  const EtlProcess *p;

  if (net == NULL || prim == NULL)
    return;
  trace = count_sources ((const char *const[]) { prim, net, NULL }, &both);
  /* The expected counts: each file opened alone. */
  net_alone = count_sources ((const char *const[]) { net, NULL }, &n);
  prim_alone = count_sources ((const char *const[]) { prim, NULL }, &pt);
  /* TDH metadata is net's (file 1), TraceLogging primitive-types' (file 0). */
  g_assert_cmpuint (both.tdh[0], ==, 0);
  g_assert_cmpuint (both.tdh[1], ==, n.tdh[0]);
  g_assert_cmpuint (both.tracelogging[0], ==, pt.tracelogging[0]);
  g_assert_cmpuint (both.tracelogging[1], ==, 0);
  g_assert_cmpuint (both.eventsource[0], ==, pt.eventsource[0]);
  g_assert_cmpuint (both.eventsource[1], ==, n.eventsource[0]);
  /* The corpus README: primitive-types.etl's 5 EVENT_HEADER records (19:5)
   * are its TraceLogging events; net's TDH share is 37% of 179,474
   * records (etw-facts.md), EventSource's 0.07%. */
  g_assert_cmpuint (pt.tracelogging[0], ==, 5);
  g_assert_cmpuint (n.tdh[0], >, 179474 * 36 / 100);
  g_assert_cmpuint (n.tdh[0], <, 179474 * 38 / 100);
  g_assert_cmpuint (n.eventsource[0], >, 179474 * 6 / 10000);
  g_assert_cmpuint (n.eventsource[0], <, 179474 * 8 / 10000);
  p = etl_process_table_lookup (etl_trace_get_process_table (trace), 3676,
                                etl_trace_get_first_filetime (trace));
  g_assert_nonnull (p);
  g_assert_cmpstr (p->image_name, ==, "Test.x64.exe");
}

static const BaselineCase cases[] = {
  /* Without the manifest DotNETRuntimePrivate (13% of the fields) cannot be decoded. */
  { "net.4.5.2.x64", NULL, 0.85 },
  { "net.4.5.2.x64", "manifests/ClrEtwAll.man", 0.95 },
  { "gcevents", "manifests/ClrEtwAll.man", 0.95 },
  { "gcrundownevents", "manifests/ClrEtwAll.man", 0.95 },
  { "primitive-types", NULL, 1.0 },
};

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *test_path = g_strdup_printf (
          "/etl/decode-baseline/%s%s", cases[i].name,
          cases[i].manifest != NULL && strcmp (cases[i].name, "net.4.5.2.x64") == 0 ? "-manifest"
                                                                                    : "");

      g_test_add_data_func (test_path, &cases[i], test_decode_baseline);
    }
  g_test_add_func ("/etl/decode-baseline/multi-file", test_multi_file);
  g_test_add_data_func ("/etl/decode-baseline/share/net.4.5.2.x64", NULL, test_share);
  g_test_add_data_func ("/etl/decode-baseline/share/net.4.5.2.x64-manifest",
                        "manifests/ClrEtwAll.man", test_share);

  return g_test_run ();
}
