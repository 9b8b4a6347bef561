/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli: the etlscope core, headless, for scripts and tests.
 *
 *   etlscope-cli info [--manifest FILE.man]... FILE...
 *   etlscope-cli dump [--format=jsonl|csv] [--limit N] [--no-fields] [--stacks] [--manifest FILE.man]... FILE...
 *   etlscope-cli stats [--manifest FILE.man]... FILE...
 *   etlscope-cli losses [--manifest FILE.man]... FILE...
 *   etlscope-cli processes [--manifest FILE.man]... FILE...
 *   etlscope-cli session ...
 *   etlscope-cli slice [--from MS] [--to MS] [--pid N] [--provider GUID] IN... -o OUT.etl
 *   etlscope-cli synth --cpus N --records N [...] -o OUT.etl
 *
 * Exit status 0 on success; 1 with one line per problem on stderr (file,
 * byte offset, reason) when input could not be read completely; 2 on a usage
 * error.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#ifdef G_OS_WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "etl-cli-cpu.h"
#include "etl-cli-stacks.h"
#include "etl-stacks.h"
#include "etl-cli-groups.h"
#include "etl-cli-session.h"
#include "etl-cli-write.h"
#include "etl-decode.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-session.h"
#include "etl-trace.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static const char *
clock_type_name (guint32 clock_type)
{
  switch (clock_type)
    {
    case ETL_CLOCK_QPC: return "QPC";
    case ETL_CLOCK_SYSTEM_TIME: return "SystemTime";
    case ETL_CLOCK_CPU_CYCLE: return "CpuCycle";
    default: return "Unknown";
    }
}

static void
print_json (JsonNode *root, gboolean pretty)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, pretty);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

/* Prints every file's problems, one line each; returns the exit status. */
static int
report_problems (EtlTrace *trace)
{
  int status = 0;

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      for (guint p = 0; p < info->problems->len; p++)
        {
          const GError *e = g_ptr_array_index (info->problems, p);

          g_printerr ("etlscope-cli: %s\n", e->message);
          status = EXIT_INPUT;
        }
      if (info->n_problems_dropped)
        g_printerr ("etlscope-cli: %s: %" G_GUINT64_FORMAT " more problems not shown\n", info->path,
                    info->n_problems_dropped);
    }
  return status;
}

static EtlTrace *
open_or_report (char **files, char **manifests, int *status)
{
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  trace = etl_trace_open_full ((const char *const *) files, (const char *const *) manifests, NULL, NULL, NULL,
                               &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      *status = EXIT_INPUT;
    }
  return trace;
}

static void
add_time (JsonBuilder *b, const char *name, gint64 filetime)
{
  g_autofree char *iso = etl_filetime_to_iso8601 (filetime);
  g_autofree char *iso_name = g_strconcat (name, "_iso", NULL);

  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, filetime);
  json_builder_set_member_name (b, iso_name);
  if (iso)
    json_builder_add_string_value (b, iso);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_problems (JsonBuilder *b, const EtlFileInfo *info)
{
  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint p = 0; p < info->problems->len; p++)
    json_builder_add_string_value (b, ((const GError *) g_ptr_array_index (info->problems, p))->message);
  json_builder_end_array (b);
}

/* ------------------------------------------------------------------------ */

static int
cmd_info (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_array (b);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);
      g_autofree char *mode_names = etl_session_format_flags (info->log_file_mode, FALSE);
      g_auto (GStrv) modes = NULL;

      json_builder_begin_object (b);
      add_string (b, "path", info->path);
      add_string (b, "logger_name", info->logger_name);
      add_string (b, "log_file_name", info->log_file_name);
      add_int (b, "file_size", (gint64) info->file_size);
      add_int (b, "buffer_size", info->buffer_size);
      add_int (b, "version", info->version);
      add_int (b, "provider_version", info->provider_version);
      add_int (b, "pointer_size", info->pointer_size);
      add_int (b, "number_of_processors", info->number_of_processors);
      add_int (b, "perf_freq", info->perf_freq);
      add_int (b, "clock_type", info->clock_type);
      add_string (b, "clock_type_name", clock_type_name (info->clock_type));
      add_int (b, "cpu_speed_mhz", info->cpu_speed_mhz);
      add_int (b, "timer_resolution", info->timer_resolution);
      add_int (b, "maximum_file_size", info->maximum_file_size);
      add_int (b, "utc_offset_minutes", -info->tz_bias_minutes);
      add_time (b, "start_time", info->start_time);
      add_time (b, "end_time", info->end_time);
      add_time (b, "boot_time", info->boot_time);
      json_builder_set_member_name (b, "log_file_mode");
      json_builder_begin_object (b);
      add_int (b, "value", info->log_file_mode);
      json_builder_set_member_name (b, "flags");
      json_builder_begin_array (b);
      modes = g_strsplit (mode_names, "|", -1);
      for (guint m = 0; modes[m]; m++)
        if (modes[m][0] && strcmp (modes[m], "0") != 0)
          json_builder_add_string_value (b, modes[m]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      add_int (b, "buffers_written", info->buffers_written);
      add_int (b, "events_lost", info->events_lost);
      add_int (b, "buffers_lost", info->buffers_lost);
      json_builder_set_member_name (b, "compressed");
      json_builder_add_boolean_value (b, info->compressed);
      add_int (b, "records", (gint64) info->n_records);
      add_int (b, "skipped_records", (gint64) info->n_skipped);
      add_int (b, "buffers", (gint64) info->n_buffers);
      add_int (b, "cpus_seen", info->n_cpus);
      json_builder_set_member_name (b, "records_by_header_type");
      json_builder_begin_object (b);
      for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
        if (info->records_by_header_type[t])
          {
            char key[8];

            g_snprintf (key, sizeof key, "%u", t);
            add_int (b, key, (gint64) info->records_by_header_type[t]);
          }
      json_builder_end_object (b);
      add_problems (b, info);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

typedef enum
{
  FORMAT_JSONL,
  FORMAT_CSV,
} DumpFormat;

static const char *const dump_columns[] = {
  "index", "file", "cpu", "ts_raw", "filetime", "rel_ms", "header_type", "kind", "pid", "tid",
  "provider", "provider_name", "name", "event_id", "opcode", "version", "level", "task",
  "keyword", "channel", "flags", "data_len", "offset", "process_id", "process_name", "task_name",
  "opcode_name", "level_name", "keyword_names", "fields", NULL
};

/* What a record means: its schema's names, its fields and its process. */
typedef struct
{
  EtlDecoded *decoded;
  GArray *derived; /* EtlField: what TraceEvent computes for kernel events, or NULL */
  char *name;
  const EtlProcess *process;
  guint32 process_id;
  gboolean has_process_id;
} Meaning;

static void
meaning_init (Meaning *m, EtlTrace *trace, const EtlRecord *r)
{
  EtlSchema *schema;

  m->decoded = etl_trace_decode_record (trace, r);
  m->derived = etl_trace_get_derived_fields (trace, r, m->decoded);
  schema = m->decoded != NULL ? m->decoded->schema : NULL;
  m->name = schema != NULL ? etl_schema_dup_display_name (schema) : etl_record_dup_event_name (r);
  m->has_process_id = etl_process_table_resolve_record (etl_trace_get_process_table (trace), r, m->decoded,
                                                        &m->process_id, NULL);
  m->process = m->has_process_id ? etl_process_table_lookup (etl_trace_get_process_table (trace), m->process_id,
                                                             r->filetime)
                                 : NULL;
}

static void
meaning_clear (Meaning *m)
{
  g_clear_pointer (&m->decoded, etl_decoded_free);
  g_clear_pointer (&m->derived, g_array_unref);
  g_clear_pointer (&m->name, g_free);
}

static EtlSchema *
meaning_schema (const Meaning *m)
{
  return m->decoded != NULL ? m->decoded->schema : NULL;
}

static void
csv_field (GString *line, const char *value, gboolean first)
{
  if (!first)
    g_string_append_c (line, ',');
  if (value == NULL)
    return;
  if (strpbrk (value, ",\"\r\n") != NULL)
    {
      g_string_append_c (line, '"');
      for (const char *p = value; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (line, '"');
          g_string_append_c (line, *p);
        }
      g_string_append_c (line, '"');
    }
  else
    g_string_append (line, value);
}

static void
add_meaning (JsonBuilder *b, const Meaning *m, gboolean with_fields)
{
  EtlSchema *schema = meaning_schema (m);

  json_builder_set_member_name (b, "process_id");
  if (m->has_process_id)
    json_builder_add_int_value (b, m->process_id);
  else
    json_builder_add_null_value (b);
  add_string (b, "process_name", m->process != NULL ? m->process->image_name : NULL);
  add_string (b, "task_name", schema != NULL ? schema->task_name : NULL);
  add_string (b, "opcode_name", schema != NULL ? schema->opcode_name : NULL);
  add_string (b, "level_name", schema != NULL ? schema->level_name : NULL);
  json_builder_set_member_name (b, "keyword_names");
  json_builder_begin_array (b);
  for (guint k = 0; schema != NULL && schema->keyword_names != NULL && schema->keyword_names[k] != NULL; k++)
    json_builder_add_string_value (b, schema->keyword_names[k]);
  json_builder_end_array (b);
  if (with_fields)
    {
      json_builder_set_member_name (b, "fields");
      json_builder_begin_object (b);
      for (guint f = 0; m->decoded != NULL && m->decoded->fields != NULL && f < m->decoded->fields->len; f++)
        {
          const EtlField *field = &g_array_index (m->decoded->fields, EtlField, f);

          add_string (b, field->name, field->value);
        }
      /* Then what TraceEvent derives (BuildTime, ElapsedTimeMSec, …), unless the payload has it. */
      for (guint f = 0; m->derived != NULL && f < m->derived->len; f++)
        {
          const EtlField *field = &g_array_index (m->derived, EtlField, f);

          if (etl_decoded_find (m->decoded, field->name) == NULL)
            add_string (b, field->name, field->value);
        }
      json_builder_end_object (b);
    }
}

/* "stack": record @i's stack, innermost frame first (etl-stacks.h), when it has one. */
static void
add_stack (JsonBuilder *b, EtlStacks *stacks, guint64 i)
{
  g_auto (GStrv) frames = stacks != NULL ? etl_stacks_dup_symbolized (stacks, i) : NULL;

  if (frames == NULL)
    return;
  json_builder_set_member_name (b, "stack");
  json_builder_begin_array (b);
  for (guint k = 0; frames[k] != NULL; k++)
    json_builder_add_string_value (b, frames[k]);
  json_builder_end_array (b);
}

static int
cmd_dump (EtlTrace *trace, DumpFormat format, gint64 limit, gboolean with_fields, EtlStacks *stacks)
{
  guint64 n = etl_trace_get_n_records (trace);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GString) line = g_string_new (NULL);
  int status = 0;

  if (limit >= 0 && (guint64) limit < n)
    n = (guint64) limit;

  if (format == FORMAT_CSV)
    {
      for (guint c = 0; dump_columns[c]; c++)
        csv_field (line, dump_columns[c], c == 0);
      puts (line->str);
    }

  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;
      g_autoptr (GError) error = NULL;
      char guid[ETL_GUID_STRING_LEN + 1];
      char keyword[24];
      g_autofree char *provider_name = NULL;
      const char *name;
      Meaning meaning = { 0 };
      double rel_ms;

      if (!etl_trace_get_record (trace, i, &r, &error))
        {
          g_printerr ("etlscope-cli: %s\n", error->message);
          status = EXIT_INPUT;
          continue;
        }
      etl_guid_to_string (&r.provider, guid);
      g_snprintf (keyword, sizeof keyword, "0x%" G_GINT64_MODIFIER "x", r.keyword);
      meaning_init (&meaning, trace, &r);
      provider_name = etl_record_dup_provider_name (&r);
      /* A provider only its metadata names (the table knows it by GUID). */
      if (strcmp (provider_name, guid) == 0 && meaning_schema (&meaning) != NULL
          && meaning_schema (&meaning)->provider_name != NULL)
        {
          g_free (provider_name);
          provider_name = g_strdup (meaning_schema (&meaning)->provider_name);
        }
      name = meaning.name;
      rel_ms = etl_trace_filetime_to_ms (trace, r.filetime);

      if (format == FORMAT_JSONL)
        {
          g_autoptr (JsonBuilder) b = json_builder_new ();
          g_autoptr (JsonNode) root = NULL;
          g_autofree char *text = NULL;

          json_builder_begin_object (b);
          add_int (b, "index", (gint64) i);
          add_int (b, "file", r.file);
          add_int (b, "cpu", r.cpu);
          add_int (b, "ts_raw", r.ts_raw);
          add_int (b, "filetime", r.filetime);
          json_builder_set_member_name (b, "rel_ms");
          json_builder_add_double_value (b, rel_ms);
          add_int (b, "header_type", r.header_type);
          add_string (b, "kind", etl_record_kind_name (r.kind));
          json_builder_set_member_name (b, "pid");
          if (r.has_pid)
            json_builder_add_int_value (b, r.pid);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "tid");
          if (r.has_pid)
            json_builder_add_int_value (b, r.tid);
          else
            json_builder_add_null_value (b);
          add_string (b, "provider", guid);
          add_string (b, "provider_name", provider_name);
          add_string (b, "name", name);
          add_int (b, "event_id", r.event_id);
          add_int (b, "opcode", r.opcode);
          add_int (b, "version", r.version);
          add_int (b, "level", r.level);
          add_int (b, "task", r.task);
          add_string (b, "keyword", keyword);
          add_int (b, "channel", r.channel);
          add_int (b, "flags", r.flags);
          add_int (b, "data_len", (gint64) r.user_data_len);
          add_int (b, "offset", (gint64) r.file_offset);
          add_meaning (b, &meaning, with_fields);
          add_stack (b, stacks, i);
          json_builder_end_object (b);
          root = json_builder_get_root (b);
          json_generator_set_root (gen, root);
          text = json_generator_to_data (gen, NULL);
          puts (text);
        }
      else
        {
          char num[32];

          g_string_truncate (line, 0);
#define CSV_INT(v, first) \
  do { g_snprintf (num, sizeof num, "%" G_GINT64_FORMAT, (gint64) (v)); csv_field (line, num, first); } while (0)
          CSV_INT (i, TRUE);
          CSV_INT (r.file, FALSE);
          CSV_INT (r.cpu, FALSE);
          CSV_INT (r.ts_raw, FALSE);
          CSV_INT (r.filetime, FALSE);
          g_ascii_formatd (num, sizeof num, "%.4f", rel_ms);
          csv_field (line, num, FALSE);
          CSV_INT (r.header_type, FALSE);
          csv_field (line, etl_record_kind_name (r.kind), FALSE);
          if (r.has_pid)
            {
              CSV_INT (r.pid, FALSE);
              CSV_INT (r.tid, FALSE);
            }
          else
            {
              csv_field (line, NULL, FALSE);
              csv_field (line, NULL, FALSE);
            }
          csv_field (line, guid, FALSE);
          csv_field (line, provider_name, FALSE);
          csv_field (line, name, FALSE);
          CSV_INT (r.event_id, FALSE);
          CSV_INT (r.opcode, FALSE);
          CSV_INT (r.version, FALSE);
          CSV_INT (r.level, FALSE);
          CSV_INT (r.task, FALSE);
          csv_field (line, keyword, FALSE);
          CSV_INT (r.channel, FALSE);
          CSV_INT (r.flags, FALSE);
          CSV_INT (r.user_data_len, FALSE);
          CSV_INT (r.file_offset, FALSE);
          {
            EtlSchema *schema = meaning_schema (&meaning);
            g_autofree char *keywords = NULL;
            g_autofree char *payload = NULL;

            if (meaning.has_process_id)
              CSV_INT (meaning.process_id, FALSE);
            else
              csv_field (line, NULL, FALSE);
            csv_field (line, meaning.process != NULL ? meaning.process->image_name : NULL, FALSE);
            csv_field (line, schema != NULL ? schema->task_name : NULL, FALSE);
            csv_field (line, schema != NULL ? schema->opcode_name : NULL, FALSE);
            csv_field (line, schema != NULL ? schema->level_name : NULL, FALSE);
            if (schema != NULL && schema->keyword_names != NULL)
              keywords = g_strjoinv ("|", schema->keyword_names);
            csv_field (line, keywords, FALSE);
            if (with_fields && meaning.decoded != NULL)
              payload = etl_decoded_format_payload (meaning.decoded, G_MAXSIZE);
            csv_field (line, payload, FALSE);
          }
#undef CSV_INT
          puts (line->str);
        }
      meaning_clear (&meaning);
      etl_record_clear (&r);
    }
  return status;
}

/* ------------------------------------------------------------------------ */

static gint
compare_counts (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GHashTable *counts = user_data;
  gsize x = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, *(const char *const *) a));
  gsize y = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, *(const char *const *) b));

  if (x != y)
    return x > y ? -1 : 1;
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* Adds @counts as an object, largest first. */
static void
add_counts (JsonBuilder *b, const char *member, GHashTable *counts)
{
  guint n;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (counts, &n);

  g_qsort_with_data (keys, (gint) n, sizeof (gpointer), compare_counts, counts);
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  for (guint i = 0; i < n; i++)
    add_int (b, keys[i], (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (counts, keys[i])));
  json_builder_end_object (b);
}

static void
count (GHashTable *counts, const char *key)
{
  gpointer value = g_hash_table_lookup (counts, key);

  if (value == NULL)
    g_hash_table_insert (counts, g_strdup (key), GSIZE_TO_POINTER (1));
  else
    g_hash_table_replace (counts, g_strdup (key), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (value) + 1));
}

static int
cmd_stats (EtlTrace *trace, double open_ms)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GHashTable) by_provider = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_kind = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_header_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_cpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_process = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char **provider_names = NULL;
  EtlProcessTable *processes = etl_trace_get_process_table (trace);
  guint64 n = etl_trace_get_n_records (trace);
  guint64 bytes = 0, events_lost = 0, buffers_lost = 0;
  guint n_losses;
  double duration_ms;
  int status = 0;

  /* Every record is re-read once: its kind (manifest or TraceLogging) and,
   * once per provider, the provider's name (TraceLogging traits). */
  provider_names = g_new0 (char *, etl_trace_get_n_providers (trace) + 1);
  for (guint64 i = 0; i < n; i++)
    {
      guint p = etl_trace_get_provider_index (trace, i);
      gboolean known = p < etl_trace_get_n_providers (trace);
      char key[16];
      guint32 pid;
      EtlRecord r;

      if (etl_trace_get_record (trace, i, &r, NULL))
        {
          if (known && provider_names[p] == NULL)
            provider_names[p] = etl_record_dup_provider_name (&r);
          count (by_kind, etl_record_kind_name (r.kind));
          /* The process a record belongs to: kernel records name it in their payload. */
          if (etl_process_table_resolve_record (processes, &r, NULL, &pid, NULL))
            {
              g_autofree char *name = etl_process_format_name (etl_process_table_lookup (processes, pid, r.filetime),
                                                               pid);

              count (by_process, name);
            }
          else
            count (by_process, "none");
          etl_record_clear (&r);
        }
      else
        {
          status = EXIT_INPUT;
          if (etl_trace_get_pid (trace, i, &pid))
            {
              g_autofree char *name = etl_process_format_name (etl_process_table_lookup (processes, pid,
                                                                                         etl_trace_get_filetime (trace, i)),
                                                               pid);

              count (by_process, name);
            }
          else
            count (by_process, "none");
        }
      count (by_provider, known && provider_names[p] ? provider_names[p] : "(other)");
      count (by_header_type, etl_header_type_name (etl_trace_get_header_type (trace, i)));
      g_snprintf (key, sizeof key, "%u", etl_trace_get_cpu (trace, i));
      count (by_cpu, key);
    }
  for (guint i = 0; i < etl_trace_get_n_providers (trace); i++)
    g_free (provider_names[i]);

  etl_trace_get_losses (trace, &n_losses);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      bytes += info->file_size;
      events_lost += info->events_lost;
      buffers_lost += info->buffers_lost;
    }
  duration_ms = n ? etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace))
                      - etl_trace_filetime_to_ms (trace, etl_trace_get_first_filetime (trace))
                  : 0.0;

  json_builder_begin_object (b);
  add_int (b, "files", etl_trace_get_n_files (trace));
  add_int (b, "bytes", (gint64) bytes);
  add_int (b, "records", (gint64) n);
  add_int (b, "cpus", etl_trace_get_n_cpus (trace));
  add_time (b, "first_filetime", etl_trace_get_first_filetime (trace));
  add_time (b, "last_filetime", etl_trace_get_last_filetime (trace));
  json_builder_set_member_name (b, "duration_ms");
  json_builder_add_double_value (b, duration_ms);
  json_builder_set_member_name (b, "records_per_second");
  json_builder_add_double_value (b, duration_ms > 0 ? (double) n / (duration_ms / 1000.0) : 0.0);
  json_builder_set_member_name (b, "open_ms");
  json_builder_add_double_value (b, open_ms);
  json_builder_set_member_name (b, "open_records_per_second");
  json_builder_add_double_value (b, open_ms > 0 ? (double) n / (open_ms / 1000.0) : 0.0);
  json_builder_set_member_name (b, "open_mb_per_second");
  json_builder_add_double_value (b, open_ms > 0 ? (double) bytes / 1e6 / (open_ms / 1000.0) : 0.0);
  add_counts (b, "records_by_provider", by_provider);
  add_counts (b, "records_by_kind", by_kind);
  add_counts (b, "records_by_header_type", by_header_type);
  add_counts (b, "records_by_cpu", by_cpu);
  add_counts (b, "records_by_process", by_process);
  json_builder_set_member_name (b, "losses");
  json_builder_begin_object (b);
  add_int (b, "events_lost", (gint64) events_lost);
  add_int (b, "buffers_lost", (gint64) buffers_lost);
  add_int (b, "loss_points", n_losses);
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return status;
}

/* ------------------------------------------------------------------------ */

static const char *
loss_kind_name (EtlLossKind kind)
{
  switch (kind)
    {
    case ETL_LOSS_EVENTS_LOST_BUFFER: return "events_lost_buffer";
    case ETL_LOSS_BUFFER_LOST_FLAG: return "buffer_lost_flag";
    case ETL_LOSS_SEQUENCE_GAP: return "sequence_gap";
    case ETL_LOSS_RT_LOST_EVENT: return "rt_lost_event";
    case ETL_LOSS_RT_LOST_BUFFER: return "rt_lost_buffer";
    case ETL_LOSS_RT_LOST_FILE: return "rt_lost_file";
    default: return "unknown";
    }
}

static int
cmd_losses (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  guint n_losses;
  const EtlLoss *losses = etl_trace_get_losses (trace, &n_losses);

  json_builder_begin_array (b);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      json_builder_begin_object (b);
      add_string (b, "path", info->path);
      add_int (b, "events_lost", info->events_lost);
      add_int (b, "buffers_lost", info->buffers_lost);
      json_builder_set_member_name (b, "series");
      json_builder_begin_array (b);
      for (guint l = 0; l < n_losses; l++)
        {
          if (losses[l].file != i)
            continue;
          json_builder_begin_object (b);
          add_int (b, "filetime", losses[l].filetime);
          json_builder_set_member_name (b, "rel_ms");
          json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, losses[l].filetime));
          json_builder_set_member_name (b, "cpu");
          if (losses[l].cpu >= 0)
            json_builder_add_int_value (b, losses[l].cpu);
          else
            json_builder_add_null_value (b);
          add_string (b, "kind", loss_kind_name (losses[l].kind));
          add_int (b, "count", (gint64) losses[l].count);
          add_int (b, "sequence", losses[l].sequence);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      add_problems (b, info);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

/* A FILETIME that may be unknown (0): the number and its ISO 8601 form, or nulls. */
static void
add_time_or_null (JsonBuilder *b, const char *name, gint64 filetime)
{
  g_autofree char *iso_name = g_strconcat (name, "_iso", NULL);

  if (filetime != 0)
    {
      add_time (b, name, filetime);
      return;
    }
  json_builder_set_member_name (b, name);
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, iso_name);
  json_builder_add_null_value (b);
}

static int
cmd_processes (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n_processes, n_threads;
  const EtlProcess *processes = etl_process_table_get_processes (table, &n_processes);
  const EtlThread *threads = etl_process_table_get_threads (table, &n_threads);
  g_autofree GPtrArray **threads_of = g_new0 (GPtrArray *, MAX (n_processes, 1));

  for (guint t = 0; t < n_threads; t++)
    if (threads[t].process != NULL)
      {
        guint p = threads[t].process->index;

        if (threads_of[p] == NULL)
          threads_of[p] = g_ptr_array_new ();
        g_ptr_array_add (threads_of[p], (gpointer) &threads[t]);
      }

  json_builder_begin_array (b);
  for (guint i = 0; i < n_processes; i++)
    {
      const EtlProcess *p = &processes[i];
      g_autofree char *display = etl_process_format_name (p, p->pid);

      json_builder_begin_object (b);
      add_int (b, "pid", p->pid);
      add_string (b, "name", display);
      add_string (b, "image_name", p->image_name);
      add_string (b, "command_line", p->command_line);
      add_int (b, "parent_pid", p->parent_pid);
      json_builder_set_member_name (b, "session_id");
      if (p->session_id != G_MAXUINT32)
        json_builder_add_int_value (b, p->session_id);
      else
        json_builder_add_null_value (b);
      add_time_or_null (b, "start_time", p->start_time);
      add_time_or_null (b, "end_time", p->end_time);
      json_builder_set_member_name (b, "start_rel_ms");
      if (p->start_time != 0)
        json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, p->start_time));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "end_rel_ms");
      if (p->end_time != 0)
        json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, p->end_time));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "exit_status");
      if (p->end_time != 0)
        json_builder_add_int_value (b, p->exit_status);
      else
        json_builder_add_null_value (b);
      {
        char key[24];

        g_snprintf (key, sizeof key, "0x%" G_GINT64_MODIFIER "x", p->unique_process_key);
        add_string (b, "unique_process_key", key);
      }
      json_builder_set_member_name (b, "threads");
      json_builder_begin_array (b);
      for (guint t = 0; threads_of[i] != NULL && t < threads_of[i]->len; t++)
        {
          const EtlThread *th = g_ptr_array_index (threads_of[i], t);

          json_builder_begin_object (b);
          add_int (b, "tid", th->tid);
          add_time_or_null (b, "start_time", th->start_time);
          add_time_or_null (b, "end_time", th->end_time);
          add_string (b, "name", th->name);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_clear_pointer (&threads_of[i], g_ptr_array_unref);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

static const char *usage_summary =
  "Commands:\n"
  "  info FILE...        header fields and counts of each file, as JSON\n"
  "  dump FILE...        every record in merged time order (JSON lines or CSV)\n"
  "  stats FILE...       open, merge and summarise: records per provider, kind, CPU, process\n"
  "  losses FILE...      lost events and buffers over time, as JSON\n"
  "  processes FILE...   the processes and threads of the trace, with lifetimes, as JSON\n"
  "  cpu FILE...         CPU usage per process or thread (sampled or --precise), totals and series, JSON\n"
  "  stacks FILE...      top frames of the sample stacks in a time range (--from/--to MS), JSON\n"
  "  groups FILE...      records grouped by --by provider,event|process|thread|cpu: counts, times, JSON\n"
  "  session ...         build and check EVENT_TRACE_PROPERTIES (see session --help)\n"
  "  slice IN... -o OUT  write the records in a time range / of a process / provider to a new .etl\n"
  "  synth -o OUT        write a realistic synthetic .etl (--cpus N --records N ...)\n"
  "\n"
  "\n"
  "info, dump, stats, losses and processes take --manifest FILE.man (repeatable) to\n"
  "describe events with an instrumentation manifest, and --threads N: how many\n"
  "threads read and merge the files (default: $ETLSCOPE_THREADS, else all processors).\n"
  "Run 'etlscope-cli COMMAND --help' for a command's options.";

static int
run_trace_command (const char *command, int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  gboolean no_fields = FALSE;
  gboolean with_stacks = FALSE;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autofree char *format = NULL;
  g_autofree char *param = NULL;
  gint64 limit = -1;
  gint threads = -1;
  g_autoptr (EtlTrace) trace = NULL;
  int status = 0, command_status;
  gint64 t0;
  double open_ms;
  DumpFormat dump_format = FORMAT_JSONL;
  GOptionEntry dump_entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: jsonl (default) or csv", "FORMAT" },
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Print at most N records", "N" },
    { "no-fields", 0, 0, G_OPTION_ARG_NONE, &no_fields, "Leave out each record's decoded fields", NULL },
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &with_stacks,
      "Add \"stack\" (module+0xOFFSET frames, innermost first) to records that have one (JSON lines)", NULL },
    { NULL }
  };
  GOptionEntry file_entries[] = {
    { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
      "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads,
      "Threads that read and merge the files (1-64; 0 or unset: $ETLSCOPE_THREADS, else all processors)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
    { NULL }
  };

  param = g_strdup_printf ("%s FILE...", command);
  context = g_option_context_new (param);
  if (strcmp (command, "dump") == 0)
    {
      g_option_context_set_summary (context, "Print every record of the files in merged time order, one per line,\n"
                                             "with its decoded name, process and fields.");
      g_option_context_add_main_entries (context, dump_entries, NULL);
      g_option_context_add_main_entries (context, file_entries, NULL);
    }
  else
    {
      g_option_context_add_main_entries (context, file_entries, NULL);
      if (strcmp (command, "processes") == 0)
        g_option_context_set_summary (context, "Print the process table (processes with lifetimes, command lines and\n"
                                               "threads, from the trace's Process and Thread records) as JSON.");
      else if (strcmp (command, "info") == 0)
        g_option_context_set_summary (context, "Print each file's TRACE_LOGFILE_HEADER and record counts as a JSON array.");
      else if (strcmp (command, "stats") == 0)
        g_option_context_set_summary (context, "Read, decompress, index and merge the files and summarise them as JSON.");
      else
        g_option_context_set_summary (context, "Print the loss accounting (header totals and the time series) as JSON.");
    }
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli %s: %s\n", command, error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli %s: no FILE given (see --help)\n", command);
      return EXIT_USAGE;
    }
  if (threads != -1)
    {
      if (threads < 0 || threads > 64)
        {
          g_printerr ("etlscope-cli %s: --threads %d is outside 0..64\n", command, threads);
          return EXIT_USAGE;
        }
      etl_trace_set_open_threads ((guint) threads);
    }
  if (format != NULL)
    {
      if (strcmp (format, "jsonl") == 0)
        dump_format = FORMAT_JSONL;
      else if (strcmp (format, "csv") == 0)
        dump_format = FORMAT_CSV;
      else
        {
          g_printerr ("etlscope-cli dump: unknown --format '%s' (jsonl or csv)\n", format);
          return EXIT_USAGE;
        }
    }

  t0 = g_get_monotonic_time ();
  trace = open_or_report (files, manifests, &status);
  if (trace == NULL)
    return status;
  open_ms = (double) (g_get_monotonic_time () - t0) / 1000.0;

  if (strcmp (command, "info") == 0)
    command_status = cmd_info (trace);
  else if (strcmp (command, "dump") == 0)
    {
      if (with_stacks)
        stacks = etl_stacks_compute (trace, NULL, NULL, NULL, NULL);
      command_status = cmd_dump (trace, dump_format, limit, !no_fields, stacks);
    }
  else if (strcmp (command, "stats") == 0)
    command_status = cmd_stats (trace, open_ms);
  else if (strcmp (command, "processes") == 0)
    command_status = cmd_processes (trace);
  else
    command_status = cmd_losses (trace);
  fflush (stdout);

  status = report_problems (trace);
  return status ? status : command_status;
}

/* The same bytes on every platform.  Windows: stdout and stderr in binary
 * mode (the C runtime's text mode writes CR LF for each LF, which corrupts
 * `session --emit binary` and makes every text output differ), and the
 * arguments as UTF-8 from the UTF-16 command line (main()'s argv is in the
 * ANSI code page, which cannot hold every file name).  Returns the
 * arguments as a GStrv, which the commands parse with
 * g_option_context_parse_strv() (UTF-8 on Windows, bytes elsewhere). */
static char **
cli_init_platform (char **argv)
{
#ifdef G_OS_WIN32
  _setmode (_fileno (stdout), _O_BINARY);
  _setmode (_fileno (stderr), _O_BINARY);
  (void) argv;
  return g_win32_get_command_line ();
#else
  return g_strdupv (argv);
#endif
}

int
main (int argc, char **argv)
{
  const char *command;
  g_auto (GStrv) args = cli_init_platform (argv);

  argv = args;
  argc = (int) g_strv_length (args);
  setlocale (LC_ALL, "");

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      g_print ("Usage:\n  etlscope-cli COMMAND [OPTION…] [FILE…]\n\n%s\n", usage_summary);
      return argc < 2 ? EXIT_USAGE : 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("etlscope-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  command = argv[1];
  if (strcmp (command, "session") == 0)
    return etl_cli_session_main (argc - 1, argv + 1);
  if (strcmp (command, "slice") == 0)
    return etl_cli_slice_main (argc - 1, argv + 1);
  if (strcmp (command, "synth") == 0)
    return etl_cli_synth_main (argc - 1, argv + 1);
  if (strcmp (command, "cpu") == 0)
    return etl_cli_cpu_main (argc - 1, argv + 1);
  if (strcmp (command, "stacks") == 0)
    return etl_cli_stacks_main (argc - 1, argv + 1);
  if (strcmp (command, "groups") == 0)
    return etl_cli_groups_main (argc - 1, argv + 1);
  if (strcmp (command, "info") == 0 || strcmp (command, "dump") == 0 || strcmp (command, "stats") == 0
      || strcmp (command, "losses") == 0 || strcmp (command, "processes") == 0)
    return run_trace_command (command, argc - 1, argv + 1);

  g_printerr ("etlscope-cli: unknown command '%s'\n\n%s\n", command, usage_summary);
  return EXIT_USAGE;
}
