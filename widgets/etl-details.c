/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-details
 * @title: EtlDetails
 * @short_description: every field of the selected event
 *
 * The details pane beside the event list, like Wireshark's packet details
 * and bytes panes in one: the record's header fields by name (file and
 * offset, CPU, header type, the FILETIME in ISO 8601 UTC and in local time,
 * the time relative to the trace's origin, process and thread, provider GUID
 * and name, the EVENT_DESCRIPTOR fields, EVENT_HEADER.Flags and
 * EventProperty decoded bit by bit, kernel and user CPU time, the activity
 * id), the extended data items by type, the decoded payload and a hex dump
 * of the user data.
 *
 * The pane scrolls as one page of three parts: the event's name, provider
 * and process (a #GtkTextView); the decoded fields as a table of name,
 * value and type (a #GtkTreeView over a #GtkListStore), under a line saying
 * which schema source decoded them (TraceLogging, in-trace TDH metadata,
 * an EventSource manifest, a manifest file, a kernel MOF table) and whether
 * decoding was complete; then the header fields and the hex dump (a second
 * #GtkTextView).  The fields come from etl_trace_decode_record(), the
 * process from etl_trace_get_record_process().  When the event has a call
 * stack (etl_details_set_stacks()), a "Stack" section below the fields lists
 * it frame by frame, innermost first, as `module.dll!Function+0xOFFSET`
 * (the stacks' symbol resolver named it), `module.dll+0xOFFSET` (its PDB is
 * not loaded, or not yet: etl_details_refresh_stack() names it once
 * loaded), `Namespace.Method` (a .NET JIT method) or the bare address.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-details.h"
#include "etl-decode-status.h"
#include "etl-names.h"
#include "etl-stacks.h"
#include "etl-time-ruler.h"

#define MAX_DUMP_BYTES (64 * 1024)
#define MAX_FIELDS_SHOWN 2000
#define MAX_STACK_FRAMES 64

/* Windows FILETIME of the Unix epoch, 100-ns units. */
#define FILETIME_UNIX_EPOCH G_GINT64_CONSTANT (116444736000000000)

enum
{
  FIELD_COLUMN_NAME,
  FIELD_COLUMN_VALUE,
  FIELD_COLUMN_TYPE,
  N_FIELD_COLUMNS
};

struct _EtlDetails
{
  GtkScrolledWindow parent_instance;

  GtkTextView *head_view;     /* name, provider, process */
  GtkTextBuffer *head;
  GtkLabel *source_label;     /* which schema decoded the fields */
  GtkTreeView *fields_view;
  GtkListStore *fields;
  GtkTextView *text_view;     /* header fields, extended data */
  GtkTextBuffer *buffer;
  GtkTextView *dump_view;     /* the hex dump: its lines do not wrap */
  GtkTextBuffer *dump;
  char *text;                 /* all of it as plain text */
  GHashTable *manifest_files; /* provider name → manifest file's base name */
  EtlStacks *stacks;          /* the trace's stacks, or NULL */
  gboolean has_event;         /* an event is shown, not "No event selected" */
  EtlTrace *trace;            /* the record shown: its trace and row */
  guint64 row;
  char *stack_text;           /* its frames as shown, one per line, or NULL */
};

G_DEFINE_TYPE (EtlDetails, etl_details, GTK_TYPE_SCROLLED_WINDOW)

enum
{
  PROP_0,
  PROP_HAS_EVENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_has_event (EtlDetails *self, gboolean has_event)
{
  if (self->has_event == has_event)
    return;
  self->has_event = has_event;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_EVENT]);
}

/* Writes the same text to a plain string and, when present, a tagged buffer
 * (the head buffer first, then the one below the fields) and the fields'
 * list store. */
typedef struct
{
  GString *text;
  GtkTextBuffer *buffer;
  GtkTextBuffer *below;
  GtkTextBuffer *dump;  /* the hex dump's own buffer, or NULL: into buffer */
  GtkListStore *fields;
  GtkLabel *source_label;
  GHashTable *manifest_files;
  EtlStacks *stacks;
  char *stack_text;     /* out: the frames shown (format_stack()), or NULL */
} Out;

static void
out_append (Out *out, const char *text, const char *tag)
{
  g_string_append (out->text, text);
  if (out->buffer != NULL)
    {
      GtkTextIter end;

      gtk_text_buffer_get_end_iter (out->buffer, &end);
      if (tag != NULL)
        gtk_text_buffer_insert_with_tags_by_name (out->buffer, &end, text, -1, tag, NULL);
      else
        gtk_text_buffer_insert (out->buffer, &end, text, -1);
    }
}

static void
out_section (Out *out, const char *title)
{
  if (out->text->len > 0)
    out_append (out, "\n", NULL);
  out_append (out, title, "section");
  out_append (out, "\n", NULL);
}

G_GNUC_PRINTF (3, 4)
static void
out_field (Out *out, const char *name, const char *format, ...)
{
  g_autofree char *value = NULL;
  g_autofree char *label = g_strdup_printf ("%s\t", name);
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  out_append (out, label, "name");
  out_append (out, value, NULL);
  out_append (out, "\n", NULL);
}

static char *
filetime_local (gint64 filetime, gint tz_bias_minutes, gboolean viewer)
{
  gint64 us = (filetime - FILETIME_UNIX_EPOCH) / 10;
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  g_autoptr (GDateTime) exact = NULL;
  g_autoptr (GDateTime) local = NULL;

  if (utc == NULL)
    return g_strdup ("(out of range)");
  exact = g_date_time_add (utc, us % G_USEC_PER_SEC);
  if (viewer)
    local = g_date_time_to_local (exact);
  else
    {
      g_autoptr (GTimeZone) tz = g_time_zone_new_offset (-tz_bias_minutes * 60);

      local = g_date_time_to_timezone (exact, tz);
    }
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S.%f %:z");
}

static char *
guid_string (const EtlGuid *guid)
{
  char buf[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (guid, buf);
  return g_strdup (buf);
}

static char *
flags_string (guint value, const char *const *names, const guint *bits, guint n)
{
  GString *s = g_string_new (NULL);
  guint rest = value;

  g_string_append_printf (s, "0x%04x", value);
  for (guint i = 0; i < n; i++)
    if (value & bits[i])
      {
        g_string_append_printf (s, "%s%s", rest == value ? " (" : " | ", names[i]);
        rest &= ~bits[i];
      }
  if (rest != 0 && rest != value)
    g_string_append_printf (s, " | 0x%x", rest);
  if (rest != value)
    g_string_append (s, ")");
  return g_string_free (s, FALSE);
}

static const char *
ext_type_name (guint type)
{
  static const char *const names[] = {
    NULL, "RELATED_ACTIVITYID", "SID", "TS_ID", "INSTANCE_INFO", "STACK_TRACE32", "STACK_TRACE64",
    "PEBS_INDEX", "PMC_COUNTERS", "PSM_KEY", "EVENT_KEY", "EVENT_SCHEMA_TL", "PROV_TRAITS",
    "PROCESS_START_KEY",
  };

  return type < G_N_ELEMENTS (names) && names[type] != NULL ? names[type] : "unknown";
}

static void
format_ext_items (Out *out, const EtlRecord *r)
{
  gsize pos = 0;
  guint n = 0;

  /* EVENT_HEADER_EXTENDED_DATA_ITEM as stored: u16 item size (header
   * included), u16 ExtType, u16 reserved/linkage, u16 DataSize, then data. */
  while (r->ext != NULL && r->ext_len - pos >= 8)
    {
      const guint8 *item = r->ext + pos;
      guint item_size = item[0] | (item[1] << 8);
      guint type = item[2] | (item[3] << 8);
      guint data_size = item[6] | (item[7] << 8);
      const guint8 *d = item + 8;
      g_autofree char *label = NULL;
      g_autofree char *value = NULL;

      if (item_size < 8 + data_size || item_size > r->ext_len - pos)
        break;
      if (n == 0)
        out_section (out, "Extended data");
      label = g_strdup_printf ("[%u] %s", n, ext_type_name (type));

      switch (type)
        {
        case ETL_EXT_TYPE_RELATED_ACTIVITYID:
          if (data_size >= 16)
            {
              EtlGuid guid;

              etl_guid_read (&guid, d);
              value = guid_string (&guid);
            }
          break;
        case ETL_EXT_TYPE_TS_ID:
          if (data_size >= 4)
            value = g_strdup_printf ("session %u", d[0] | (d[1] << 8) | (d[2] << 16) | ((guint) d[3] << 24));
          break;
        case ETL_EXT_TYPE_EVENT_KEY:
        case ETL_EXT_TYPE_PROCESS_START_KEY:
          if (data_size >= 8)
            {
              guint64 key = 0;

              for (int i = 7; i >= 0; i--)
                key = (key << 8) | d[i];
              value = g_strdup_printf ("%" G_GUINT64_FORMAT, key);
            }
          break;
        case ETL_EXT_TYPE_PROV_TRAITS:
          {
            g_autofree char *name = etl_tracelogging_provider_name (d, data_size);

            value = g_strdup_printf ("provider name \"%s\"", name != NULL ? name : "?");
          }
          break;
        case ETL_EXT_TYPE_EVENT_SCHEMA_TL:
          {
            g_autofree char *name = etl_tracelogging_event_name (d, data_size);
            g_auto (GStrv) fields = etl_tracelogging_field_names (d, data_size);

            value = g_strdup_printf ("event \"%s\", %u fields", name != NULL ? name : "?",
                                     fields != NULL ? g_strv_length (fields) : 0);
          }
          break;
        case ETL_EXT_TYPE_STACK_TRACE32:
        case ETL_EXT_TYPE_STACK_TRACE64:
          {
            guint word = type == ETL_EXT_TYPE_STACK_TRACE64 ? 8 : 4;
            guint frames = data_size >= 8 ? (data_size - 8) / word : 0;
            GString *s = g_string_new (NULL);

            g_string_append_printf (s, "%u frames", frames);
            for (guint f = 0; f < frames && f < MAX_STACK_FRAMES; f++)
              {
                guint64 addr = 0;

                for (int i = (int) word - 1; i >= 0; i--)
                  addr = (addr << 8) | d[8 + f * word + i];
                g_string_append_printf (s, "\n\t  #%-2u 0x%0*" G_GINT64_MODIFIER "x", f, (int) word * 2, addr);
              }
            value = g_string_free (s, FALSE);
          }
          break;
        default:
          break;
        }
      if (value == NULL)
        value = g_strdup_printf ("%u bytes", data_size);
      out_field (out, label, "%s", value);
      pos += item_size;
      n++;
    }
}

static void
format_hex_dump (Out *out, const guint8 *data, gsize len)
{
  GString *s = g_string_new (NULL);
  gsize shown = MIN (len, (gsize) MAX_DUMP_BYTES);

  for (gsize off = 0; off < shown; off += 16)
    {
      g_string_append_printf (s, "%04" G_GSIZE_MODIFIER "x  ", off);
      for (gsize i = 0; i < 16; i++)
        {
          if (off + i < shown)
            g_string_append_printf (s, "%02x ", data[off + i]);
          else
            g_string_append (s, "   ");
          if (i == 7)
            g_string_append_c (s, ' ');
        }
      g_string_append_c (s, ' ');
      for (gsize i = 0; i < 16 && off + i < shown; i++)
        g_string_append_c (s, data[off + i] >= 0x20 && data[off + i] < 0x7f ? (char) data[off + i] : '.');
      g_string_append_c (s, '\n');
    }
  if (len > shown)
    g_string_append_printf (s, "… %" G_GSIZE_FORMAT " more bytes\n", len - shown);
  if (out->dump != NULL)
    {
      GtkTextBuffer *buffer = out->buffer;

      out->buffer = out->dump;
      out_append (out, s->str, "mono");
      out->buffer = buffer;
    }
  else
    out_append (out, s->str, "mono");
  g_string_free (s, TRUE);
}

static const char *
in_type_name (guint in_type)
{
  /* TDH_IN_TYPE as manifests spell it, without "win:". */
  static const char *const names[] = {
    "Null", "UnicodeString", "AnsiString", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64",
    "UInt64", "Float", "Double", "Boolean", "Binary", "GUID", "Pointer", "FILETIME", "SYSTEMTIME", "SID",
    "HexInt32", "HexInt64", "CountedString", "CountedAnsiString", "ReversedCountedString",
    "ReversedCountedAnsiString", "NonNullTerminatedString", "NonNullTerminatedAnsiString", "UnicodeChar",
    "AnsiChar", "SizeT", "HexDump", "WBEMSID",
  };

  if (in_type < G_N_ELEMENTS (names))
    return names[in_type];
  if (in_type == ETL_IN_COUNTEDBINARY)
    return "CountedBinary";
  return NULL;
}

static const char *
out_type_name (guint out_type)
{
  /* TDH_OUT_TYPE; only those that change how a value reads. */
  switch (out_type)
    {
    case ETL_OUT_HEXINT8:
    case ETL_OUT_HEXINT16:
    case ETL_OUT_HEXINT32:
    case ETL_OUT_HEXINT64:
      return "hex";
    case ETL_OUT_PID:
      return "PID";
    case ETL_OUT_TID:
      return "TID";
    case ETL_OUT_PORT:
      return "Port";
    case ETL_OUT_IPV4:
      return "IPv4";
    case ETL_OUT_IPV6:
      return "IPv6";
    case ETL_OUT_SOCKETADDRESS:
      return "SocketAddress";
    case ETL_OUT_XML:
      return "XML";
    case ETL_OUT_JSON:
      return "JSON";
    case ETL_OUT_UTF8:
      return "UTF-8";
    case ETL_OUT_WIN32ERROR:
      return "Win32Error";
    case ETL_OUT_NTSTATUS:
      return "NTSTATUS";
    case ETL_OUT_HRESULT:
      return "HRESULT";
    case ETL_OUT_DATETIME_UTC:
      return "DateTime UTC";
    case ETL_OUT_CODE_POINTER:
      return "CodePointer";
    case ETL_OUT_NT_PATH:
      return "NT path";
    default:
      return NULL;
    }
}

/* "UInt32", "UInt32 (hex)", "UInt32, map GCReason": the in-type, what the
 * out-type changes, and the value map or bitmap the schema names for it. */
static char *
field_type (const EtlSchema *schema, const EtlField *f)
{
  const char *in = in_type_name (f->in_type);
  const char *o = out_type_name (f->out_type);
  const char *map = NULL;
  GString *s = g_string_new (NULL);

  for (guint i = 0; schema != NULL && i < schema->n_properties; i++)
    if (schema->properties[i].map_name != NULL && g_strcmp0 (schema->properties[i].name, f->name) == 0)
      {
        map = schema->properties[i].map_name;
        break;
      }
  if (in != NULL)
    g_string_append (s, in);
  else
    g_string_append_printf (s, "in-type %u", f->in_type);
  if (o != NULL)
    g_string_append_printf (s, " (%s)", o);
  if (map != NULL)
    g_string_append_printf (s, ", map %s", map);
  return g_string_free (s, FALSE);
}

/* Says where @schema came from, as the source line above the fields. */
static char *
schema_origin (Out *out, const EtlSchema *schema)
{
  switch (schema->source)
    {
    case ETL_SCHEMA_SOURCE_TRACELOGGING:
      return g_strdup ("TraceLogging metadata in the event");
    case ETL_SCHEMA_SOURCE_TDH:
      return g_strdup ("in-trace TDH metadata (KernelTraceControl MetaData EventInfo)");
    case ETL_SCHEMA_SOURCE_EVENTSOURCE:
      return g_strdup ("EventSource manifest logged in the trace");
    case ETL_SCHEMA_SOURCE_SYSTEM_TDH:
      return g_strdup ("TDH of this machine (the provider is registered here; the trace has no metadata for it)");
    case ETL_SCHEMA_SOURCE_MANIFEST:
      {
        const char *file = NULL;

        if (out->manifest_files != NULL && schema->provider_name != NULL)
          file = g_hash_table_lookup (out->manifest_files, schema->provider_name);
        if (file != NULL)
          return g_strdup_printf ("manifest file %s", file);
        return g_strdup_printf ("instrumentation manifest of %s",
                                schema->provider_name != NULL ? schema->provider_name : "the provider");
      }
    case ETL_SCHEMA_SOURCE_MOF:
      return g_strdup_printf ("kernel MOF table (%s, version %u)",
                              schema->task_name != NULL ? schema->task_name : "class", schema->key.version);
    case ETL_SCHEMA_SOURCE_BUILTIN:
      return g_strdup_printf ("layout of KernelTraceControl's %s records built into etlscope",
                              schema->task_name != NULL ? schema->task_name : "");
    case ETL_N_SCHEMA_SOURCES:
    default:
      return g_strdup (etl_schema_source_name (schema->source));
    }
}

/* The decoded fields: a source line, then one row per field in the list
 * store (and "Name\tvalue" lines in the plain text). */
static void
format_fields (Out *out, const EtlDecoded *decoded, const EtlRecord *r, EtlDecodeStatus status)
{
  g_autofree char *source = NULL;
  guint n = decoded->fields->len;

  out_section (out, "Fields");
  /* Without a schema: why, and what would help (etl-decode-status.h). */
  if (decoded->schema == NULL)
    source = etl_decode_status_dup_reason (status, r, decoded);
  else
    {
      g_autofree char *origin = schema_origin (out, decoded->schema);

      if (decoded->complete)
        source = g_strdup_printf ("Decoded from the %s: %u field%s, complete.", origin, n, n == 1 ? "" : "s");
      else
        source = g_strdup_printf ("Decoded from the %s: %u field%s, incomplete (%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                                  " bytes; the rest is in the hex dump below).",
                                  origin, n, n == 1 ? "" : "s", decoded->n_bytes, r->user_data_len);
    }
  g_string_append (out->text, "Decoding\t");
  g_string_append (out->text, source);
  g_string_append_c (out->text, '\n');
  if (out->source_label != NULL)
    gtk_label_set_text (out->source_label, source);

  for (guint i = 0; i < n && i < MAX_FIELDS_SHOWN; i++)
    {
      const EtlField *f = &g_array_index (decoded->fields, EtlField, i);
      g_autofree char *type = field_type (decoded->schema, f);

      g_string_append_printf (out->text, "%s\t%s\t%s\n", f->name, f->value, type);
      if (out->fields != NULL)
        gtk_list_store_insert_with_values (out->fields, NULL, -1, FIELD_COLUMN_NAME, f->name, FIELD_COLUMN_VALUE,
                                           f->value, FIELD_COLUMN_TYPE, type, -1);
    }
  if (n > MAX_FIELDS_SHOWN)
    g_string_append_printf (out->text, "…\t%u more fields\n", n - MAX_FIELDS_SHOWN);
}

/* The event's call stack, innermost frame first (etl-stacks.h). */
static void
format_stack (Out *out, guint64 row)
{
  g_auto (GStrv) frames = out->stacks != NULL ? etl_stacks_dup_symbolized (out->stacks, row) : NULL;
  guint n;

  if (frames == NULL)
    return;
  g_free (out->stack_text);
  out->stack_text = g_strjoinv ("\n", frames);
  n = g_strv_length (frames);
  out_section (out, "Stack");
  for (guint f = 0; f < n && f < ETL_STACKS_MAX_FRAMES; f++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "#%u", f);
      out_field (out, name, "%s", frames[f]);
    }
}

static void
format_record (Out *out, EtlTrace *trace, guint64 row)
{
  static const char *const flag_names[] = {
    "EXTENDED_INFO", "PRIVATE_SESSION", "STRING_ONLY", "TRACE_MESSAGE",
    "NO_CPUTIME", "32_BIT_HEADER", "64_BIT_HEADER", "CLASSIC_HEADER",
  };
  static const guint flag_bits[] = {
    ETL_EVENT_HEADER_FLAG_EXTENDED_INFO, ETL_EVENT_HEADER_FLAG_PRIVATE_SESSION,
    ETL_EVENT_HEADER_FLAG_STRING_ONLY, ETL_EVENT_HEADER_FLAG_TRACE_MESSAGE,
    ETL_EVENT_HEADER_FLAG_NO_CPUTIME, ETL_EVENT_HEADER_FLAG_32_BIT_HEADER,
    ETL_EVENT_HEADER_FLAG_64_BIT_HEADER, ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER,
  };
  /* EVENT_HEADER_PROPERTY_* (evntcons.h) */
  static const char *const property_names[] = { "XML", "FORWARDED_XML", "LEGACY_EVENTLOG", "RELOGGABLE" };
  static const guint property_bits[] = { 0x1, 0x2, 0x4, 0x8 };
  g_autoptr (GError) error = NULL;
  g_autofree char *provider = NULL;
  g_autofree char *event = NULL;
  g_autofree char *guid = NULL;
  g_autofree char *iso = NULL;
  g_autofree char *local = NULL;
  g_autofree char *trace_local = NULL;
  g_autofree char *flags = NULL;
  g_autofree char *property = NULL;
  g_autofree char *base = NULL;
  g_autofree char *title = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  EtlDecodeStatus status;
  const EtlProcess *process;
  const EtlFileInfo *info;
  const char *level, *header_type;
  EtlRecord r;

  if (!etl_trace_get_record (trace, row, &r, &error))
    {
      out_section (out, "Record");
      out_field (out, "Row", "%" G_GUINT64_FORMAT, row);
      out_field (out, "Error", "%s", error->message);
      return;
    }

  info = etl_trace_get_file_info (trace, r.file);
  decoded = etl_trace_decode_record (trace, &r);
  if (decoded->schema != NULL && decoded->schema->provider_name != NULL && decoded->schema->provider_name[0] != '\0')
    provider = g_strdup (decoded->schema->provider_name);
  else
    provider = etl_record_dup_provider_name (&r);
  if (decoded->schema != NULL && r.kind != ETL_RECORD_KIND_TRACELOGGING)
    event = etl_schema_dup_display_name (decoded->schema);
  else
    event = etl_record_dup_event_name (&r);
  title = g_strdup_printf ("%s/%s", provider, event);
  process = etl_trace_get_record_process (trace, &r, decoded);
  guid = guid_string (&r.provider);
  iso = etl_filetime_to_iso8601 (r.filetime);
  local = filetime_local (r.filetime, 0, TRUE);
  trace_local = filetime_local (r.filetime, info->tz_bias_minutes, FALSE);
  base = g_path_get_basename (info->path);
  header_type = etl_header_type_name (r.header_type);
  level = etl_names_level (r.level);

  out_section (out, title);
  out_field (out, "Event", "%s", event);
  /* Up here, where a short pane shows it: why the fields are missing. */
  status = etl_decode_status_of (&r, decoded);
  if (etl_decode_status_label (status) != NULL)
    {
      g_autofree char *reason = etl_decode_status_dup_reason (status, &r, decoded);

      out_field (out, "Decode status", "%s — %s", etl_decode_status_name (status), reason);
    }
  else
    out_field (out, "Decode status", "%s", etl_decode_status_name (status));
  out_field (out, "Provider", "%s", provider);
  out_field (out, "Provider GUID", "{%s}", guid);
  if (process != NULL || r.has_pid)
    {
      g_autofree char *name = etl_process_format_name (process, r.pid);

      out_field (out, "Process", "%s", name);
    }
  if (r.has_pid)
    {
      const EtlThread *thread = etl_process_table_lookup_thread (etl_trace_get_process_table (trace), r.tid,
                                                                 r.filetime);

      if (thread != NULL && thread->name != NULL)
        out_field (out, "Thread", "%u (%s)", r.tid, thread->name);
    }
  {
    g_autofree char *since = etl_time_format_span (r.filetime - etl_trace_get_origin (trace));

    out_field (out, "Time", "%s since the start", since);
  }

  format_fields (out, decoded, &r, status);

  /* The rest goes below the fields table. */
  if (out->below != NULL)
    out->buffer = out->below;
  format_stack (out, row);
  out_section (out, "Record");
  out_field (out, "Row", "%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, row, etl_trace_get_n_records (trace));
  out_field (out, "File", "%s (file %u)", base, r.file);
  out_field (out, "File offset", "%" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x)", r.file_offset, r.file_offset);
  out_field (out, "CPU", "%u", r.cpu);

  out_section (out, "Time");
  out_field (out, "Time (UTC)", "%s", iso);
  out_field (out, "Local time (viewer)", "%s", local);
  out_field (out, "Local time (trace)", "%s", trace_local);
  {
    g_autofree char *relative = etl_time_format_span (r.filetime - etl_trace_get_origin (trace));

    out_field (out, "Relative", "%s", relative);
  }
  out_field (out, "FILETIME", "%" G_GINT64_FORMAT, r.filetime);
  out_field (out, "Raw timestamp", "%" G_GINT64_FORMAT, r.ts_raw);

  out_section (out, "Header");
  out_field (out, "Header type", "%s (%u)", header_type != NULL ? header_type : "unknown", r.header_type);
  out_field (out, "Kind", "%s", etl_record_kind_name (r.kind));
  out_field (out, "Marker flags", "0x%02x", r.marker_flags);
  out_field (out, "Size", "%u bytes", r.size);
  if (r.has_pid)
    {
      out_field (out, "Process id", "%u", r.pid);
      out_field (out, "Thread id", "%u", r.tid);
    }
  else
    out_field (out, "Process / thread", "not recorded");
  if (r.hook_id != 0 || r.kind == ETL_RECORD_KIND_KERNEL || r.kind == ETL_RECORD_KIND_PERFINFO)
    out_field (out, "HookId", "0x%04x (group 0x%02x, type %u)", r.hook_id, r.hook_id >> 8, r.hook_id & 0xff);
  out_field (out, "Event id", "%u", r.event_id);
  out_field (out, "Version", "%u", r.version);
  out_field (out, "Opcode", "%u%s%s%s", r.opcode, etl_names_classic_opcode (r.opcode) != NULL ? " (" : "",
             etl_names_classic_opcode (r.opcode) != NULL ? etl_names_classic_opcode (r.opcode) : "",
             etl_names_classic_opcode (r.opcode) != NULL ? ")" : "");
  out_field (out, "Level", "%u%s%s%s", r.level, level != NULL ? " (" : "", level != NULL ? level : "",
             level != NULL ? ")" : "");
  out_field (out, "Task", "%u", r.task);
  out_field (out, "Keyword", "0x%016" G_GINT64_MODIFIER "x", r.keyword);
  out_field (out, "Channel", "%u", r.channel);
  flags = flags_string (r.flags, flag_names, flag_bits, G_N_ELEMENTS (flag_bits));
  out_field (out, "Flags", "%s", flags);
  property = flags_string (r.event_property, property_names, property_bits, G_N_ELEMENTS (property_bits));
  out_field (out, "EventProperty", "%s", property);
  if (r.has_cpu_time)
    {
      out_field (out, "Kernel time", "%u ticks (%.3f ms)", r.kernel_time,
                 r.kernel_time * (double) info->timer_resolution / 10000.0);
      out_field (out, "User time", "%u ticks (%.3f ms)", r.user_time,
                 r.user_time * (double) info->timer_resolution / 10000.0);
    }
  if (r.has_activity_id)
    {
      g_autofree char *activity = guid_string (&r.activity_id);

      out_field (out, "Activity id", "{%s}", activity);
    }

  format_ext_items (out, &r);

  out_section (out, "User data");
  out_field (out, "Length", "%" G_GSIZE_FORMAT " bytes", r.user_data_len);
  if (r.user_data != NULL && r.user_data_len > 0)
    format_hex_dump (out, r.user_data, r.user_data_len);

  etl_record_clear (&r);
}

static void
etl_details_finalize (GObject *object)
{
  EtlDetails *self = ETL_DETAILS (object);

  g_free (self->text);
  g_free (self->stack_text);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->manifest_files, g_hash_table_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_object (&self->fields);

  G_OBJECT_CLASS (etl_details_parent_class)->finalize (object);
}

static void
etl_details_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlDetails *self = ETL_DETAILS (object);

  switch (prop_id)
    {
    case PROP_HAS_EVENT:
      g_value_set_boolean (value, self->has_event);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_details_class_init (EtlDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = etl_details_finalize;
  object_class->get_property = etl_details_get_property;

  /**
   * EtlDetails:has-event:
   *
   * Whether an event is shown (etl_details_show_row()) rather than "No
   * event selected" (etl_details_clear()): the window shows the pane only
   * then, so an empty pane takes no room.
   */
  properties[PROP_HAS_EVENT] =
    g_param_spec_boolean ("has-event", "Has event", "Whether an event is shown", FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etldetails");
}

/* The pane's text views.  A wrapping GtkTextView of GTK 3 asks, as its
 * minimum width, the width it was last laid out at, so a pane once wide
 * could never be narrowed again (and the window's minimum width grew with
 * it): this one asks at most DETAILS_TEXT_MIN_WIDTH and rewraps to the
 * width it gets.  Private to the details pane. */
#define DETAILS_TEXT_MIN_WIDTH 120

typedef struct
{
  GtkTextView parent_instance;
} EtlDetailsText;

typedef struct
{
  GtkTextViewClass parent_class;
} EtlDetailsTextClass;

static GType etl_details_text_get_type (void);
G_DEFINE_TYPE (EtlDetailsText, etl_details_text, GTK_TYPE_TEXT_VIEW)

static void
etl_details_text_get_preferred_width (GtkWidget *widget, int *min, int *nat)
{
  GTK_WIDGET_CLASS (etl_details_text_parent_class)->get_preferred_width (widget, min, nat);
  if (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (widget)) != GTK_WRAP_NONE)
    *min = MIN (*min, DETAILS_TEXT_MIN_WIDTH);
}

static void
etl_details_text_class_init (EtlDetailsTextClass *klass)
{
  GTK_WIDGET_CLASS (klass)->get_preferred_width = etl_details_text_get_preferred_width;
}

static void
etl_details_text_init (EtlDetailsText *self)
{
}

static GtkTextView *
new_text_view (EtlDetails *self, gboolean head)
{
  GtkTextView *view = GTK_TEXT_VIEW (g_object_new (etl_details_text_get_type (), NULL));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  PangoTabArray *tabs;

  gtk_text_view_set_editable (view, FALSE);
  gtk_text_view_set_cursor_visible (view, FALSE);
  gtk_text_view_set_left_margin (view, 12);
  gtk_text_view_set_right_margin (view, 12);
  gtk_text_view_set_top_margin (view, head ? 8 : 4);
  gtk_text_view_set_bottom_margin (view, head ? 0 : 8);
  gtk_text_view_set_wrap_mode (view, GTK_WRAP_WORD_CHAR);
  tabs = pango_tab_array_new_with_positions (1, TRUE, PANGO_TAB_LEFT, 190);
  gtk_text_view_set_tabs (view, tabs);
  pango_tab_array_free (tabs);
  gtk_text_view_set_indent (view, -190);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (view)), "event-details");

  gtk_text_buffer_create_tag (buffer, "section", "weight", PANGO_WEIGHT_BOLD, "scale", 1.1, "pixels-above-lines", 4,
                              "pixels-below-lines", 2, "indent", 0, NULL);
  gtk_text_buffer_create_tag (buffer, "name", "weight", PANGO_WEIGHT_SEMIBOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "mono", "family", "Monospace", "indent", 0, "wrap-mode", GTK_WRAP_NONE, NULL);
  gtk_widget_show (GTK_WIDGET (view));
  return view;
}

static GtkTreeViewColumn *
add_field_column (EtlDetails *self, const char *title, int column, gboolean expand)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;

  g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, "single-paragraph-mode", TRUE, "xpad", 6, NULL);
  if (column == FIELD_COLUMN_VALUE)
    g_object_set (cell, "family", "Monospace", NULL);
  col = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, expand);
  gtk_tree_view_column_set_sizing (col, GTK_TREE_VIEW_COLUMN_FIXED);
  /* Narrow enough for a pane beside the list; the value column takes
   * what the pane has beyond them, and the pane scrolls sideways below. */
  gtk_tree_view_column_set_fixed_width (col, column == FIELD_COLUMN_NAME ? 150 : column == FIELD_COLUMN_TYPE ? 100 : 220);
  gtk_tree_view_append_column (self->fields_view, col);
  return col;
}

static void
etl_details_init (EtlDetails *self)
{
  GtkWidget *box;

  /* Beside the list the pane is narrow: its texts wrap to its width and
   * the field table scrolls sideways in a scroller of its own. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  self->manifest_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (box), "view");

  self->head_view = new_text_view (self, TRUE);
  self->head = gtk_text_view_get_buffer (self->head_view);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->head_view));

  self->source_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->source_label, 0.0);
  gtk_label_set_line_wrap (self->source_label, TRUE);
  gtk_label_set_selectable (self->source_label, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->source_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->source_label), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->source_label), 4);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->source_label)), "dim-label");
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->source_label));

  self->fields = gtk_list_store_new (N_FIELD_COLUMNS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  self->fields_view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->fields)));
  gtk_tree_view_set_enable_search (self->fields_view, FALSE);
  gtk_tree_view_set_grid_lines (self->fields_view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
  gtk_tree_view_set_tooltip_column (self->fields_view, FIELD_COLUMN_VALUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->fields_view)), "event-fields");
  add_field_column (self, "Field", FIELD_COLUMN_NAME, FALSE);
  add_field_column (self, "Value", FIELD_COLUMN_VALUE, TRUE);
  add_field_column (self, "Type", FIELD_COLUMN_TYPE, FALSE);
  {
    GtkWidget *table_scroller = gtk_scrolled_window_new (NULL, NULL);

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (table_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (table_scroller), TRUE);
    gtk_widget_set_margin_start (table_scroller, 12);
    gtk_widget_set_margin_end (table_scroller, 12);
    gtk_container_add (GTK_CONTAINER (table_scroller), GTK_WIDGET (self->fields_view));
    gtk_container_add (GTK_CONTAINER (box), table_scroller);
  }

  self->text_view = new_text_view (self, FALSE);
  self->buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_view_set_bottom_margin (self->text_view, 0);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->text_view));

  /* The hex dump scrolls sideways by itself; the texts above wrap. */
  self->dump_view = new_text_view (self, FALSE);
  self->dump = gtk_text_view_get_buffer (self->dump_view);
  gtk_text_view_set_wrap_mode (self->dump_view, GTK_WRAP_NONE);
  gtk_text_view_set_top_margin (self->dump_view, 0);
  {
    GtkWidget *dump_scroller = gtk_scrolled_window_new (NULL, NULL);

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (dump_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (dump_scroller), TRUE);
    gtk_container_add (GTK_CONTAINER (dump_scroller), GTK_WIDGET (self->dump_view));
    gtk_container_add (GTK_CONTAINER (box), dump_scroller);
  }

  gtk_widget_show_all (box);
  gtk_container_add (GTK_CONTAINER (self), box);
  etl_details_clear (self);
}

/**
 * etl_details_new:
 *
 * Returns: (transfer floating): a new, empty details pane
 */
GtkWidget *
etl_details_new (void)
{
  return g_object_new (ETL_TYPE_DETAILS, NULL);
}

/**
 * etl_details_show_row:
 * @self: a details pane
 * @trace: the trace
 * @row: a position in @trace's merged sequence
 *
 * Shows every field of record @row (one record read, one decode).
 */
void
etl_details_show_row (EtlDetails *self, EtlTrace *trace, guint64 row)
{
  Out out = { 0 };

  g_return_if_fail (ETL_IS_DETAILS (self));
  g_return_if_fail (trace != NULL);
  g_return_if_fail (row < etl_trace_get_n_records (trace));

  gtk_text_buffer_set_text (self->head, "", 0);
  gtk_text_buffer_set_text (self->buffer, "", 0);
  gtk_text_buffer_set_text (self->dump, "", 0);
  gtk_list_store_clear (self->fields);
  out.text = g_string_new (NULL);
  out.buffer = self->head;
  out.below = self->buffer;
  out.dump = self->dump;
  out.fields = self->fields;
  out.source_label = self->source_label;
  out.manifest_files = self->manifest_files;
  out.stacks = self->stacks;
  format_record (&out, trace, row);
  gtk_widget_show (GTK_WIDGET (self->source_label));
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->fields_view)),
                          gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->fields), NULL) > 0);
  gtk_widget_show (GTK_WIDGET (self->text_view));
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->dump_view)),
                          gtk_text_buffer_get_char_count (self->dump) > 0);
  g_free (self->text);
  self->text = g_string_free (out.text, FALSE);
  g_free (self->stack_text);
  self->stack_text = out.stack_text;
  if (self->trace != trace)
    {
      etl_trace_ref (trace);
      g_clear_pointer (&self->trace, etl_trace_unref);
      self->trace = trace;
    }
  self->row = row;
  set_has_event (self, TRUE);
}

/**
 * etl_details_refresh_stack:
 * @self: a details pane
 *
 * Names the shown record's stack again (etl_stacks_dup_symbolized()) and,
 * when a frame reads otherwise than shown (a module's PDB loaded since:
 * `module+0xOFFSET` became `module!function+0xOFFSET`), shows the record
 * again, at the same scroll position.  Cheap when nothing changed: the
 * owner of the stacks' symbol resolver calls it whenever the resolver
 * settled a module (etl_symbol_resolver_set_notify_full()).
 *
 * Returns: whether the record was shown again
 */
gboolean
etl_details_refresh_stack (EtlDetails *self)
{
  g_auto (GStrv) frames = NULL;
  g_autofree char *text = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  GtkAdjustment *adj;
  double value;

  g_return_val_if_fail (ETL_IS_DETAILS (self), FALSE);
  if (!self->has_event || self->trace == NULL || self->stacks == NULL || self->stack_text == NULL)
    return FALSE;
  frames = etl_stacks_dup_symbolized (self->stacks, self->row);
  text = frames != NULL ? g_strjoinv ("\n", frames) : NULL;
  if (g_strcmp0 (text, self->stack_text) == 0)
    return FALSE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self));
  value = gtk_adjustment_get_value (adj);
  trace = etl_trace_ref (self->trace);
  etl_details_show_row (self, trace, self->row);
  gtk_adjustment_set_value (adj, value);
  return TRUE;
}

/**
 * etl_details_set_stacks:
 * @self: a details pane
 * @stacks: (nullable) (transfer none): the shown trace's stacks
 *   (etl_stacks_compute()), or %NULL for none
 *
 * Sets where the "Stack" section of an event comes from; takes effect on the
 * next etl_details_show_row().
 */
void
etl_details_set_stacks (EtlDetails *self, EtlStacks *stacks)
{
  g_return_if_fail (ETL_IS_DETAILS (self));
  if (stacks != NULL)
    etl_stacks_ref (stacks);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  self->stacks = stacks;
}

/**
 * etl_details_clear:
 * @self: a details pane
 *
 * Shows "No event selected".
 */
void
etl_details_clear (EtlDetails *self)
{
  g_return_if_fail (ETL_IS_DETAILS (self));
  gtk_text_buffer_set_text (self->head, "No event selected", -1);
  gtk_text_buffer_set_text (self->buffer, "", 0);
  gtk_list_store_clear (self->fields);
  gtk_widget_hide (GTK_WIDGET (self->source_label));
  gtk_widget_hide (gtk_widget_get_parent (GTK_WIDGET (self->fields_view)));
  gtk_widget_hide (GTK_WIDGET (self->text_view));
  gtk_text_buffer_set_text (self->dump, "", 0);
  gtk_widget_hide (gtk_widget_get_parent (GTK_WIDGET (self->dump_view)));
  g_free (self->text);
  self->text = g_strdup ("No event selected");
  g_clear_pointer (&self->stack_text, g_free);
  g_clear_pointer (&self->trace, etl_trace_unref);
  set_has_event (self, FALSE);
}

/**
 * etl_details_get_has_event:
 * @self: a details pane
 *
 * Returns: whether an event is shown (see #EtlDetails:has-event)
 */
gboolean
etl_details_get_has_event (EtlDetails *self)
{
  g_return_val_if_fail (ETL_IS_DETAILS (self), FALSE);
  return self->has_event;
}

/**
 * etl_details_dup_text:
 * @self: a details pane
 *
 * Returns: (transfer full): the text shown, as plain text (see
 *   etl_details_format()); "No event selected" when empty
 */
char *
etl_details_dup_text (EtlDetails *self)
{
  g_return_val_if_fail (ETL_IS_DETAILS (self), NULL);
  return g_strdup (self->text);
}

/**
 * etl_details_get_fields:
 * @self: a details pane
 *
 * Returns: (transfer none): the decoded fields shown: a #GtkListStore of
 *   three strings per field (name, value, type), in schema order
 */
GtkTreeModel *
etl_details_get_fields (EtlDetails *self)
{
  g_return_val_if_fail (ETL_IS_DETAILS (self), NULL);
  return GTK_TREE_MODEL (self->fields);
}

/**
 * etl_details_dup_source:
 * @self: a details pane
 *
 * Returns: (transfer full): the line saying which schema source decoded
 *   the event shown and whether decoding was complete; "" when none is shown
 */
char *
etl_details_dup_source (EtlDetails *self)
{
  g_return_val_if_fail (ETL_IS_DETAILS (self), NULL);
  return g_strdup (gtk_widget_get_visible (GTK_WIDGET (self->source_label)) ? gtk_label_get_text (self->source_label)
                                                                             : "");
}

/**
 * etl_details_add_manifest:
 * @self: a details pane
 * @path: a manifest file the user loaded
 * @provider_names: (element-type utf8): the providers it declared
 *   (#EtlManifestInfo.provider_names)
 *
 * Remembers which file described which provider, so the source line can say
 * "manifest file ClrEtwAll.man" (schemas keep their source, not their file).
 */
void
etl_details_add_manifest (EtlDetails *self, const char *path, GPtrArray *provider_names)
{
  g_return_if_fail (ETL_IS_DETAILS (self));
  g_return_if_fail (path != NULL);

  for (guint i = 0; provider_names != NULL && i < provider_names->len; i++)
    g_hash_table_replace (self->manifest_files, g_strdup (g_ptr_array_index (provider_names, i)),
                          g_path_get_basename (path));
}

/**
 * etl_details_format:
 * @trace: the trace
 * @row: a position in @trace's merged sequence
 *
 * Formats record @row as the pane shows it, as plain text ("Name\tvalue"
 * lines under section titles; the decoded fields as "Name\tvalue\ttype").
 *
 * Returns: (transfer full): the text
 */
char *
etl_details_format (EtlTrace *trace, guint64 row)
{
  Out out = { 0 };

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (row < etl_trace_get_n_records (trace), NULL);
  out.text = g_string_new (NULL);
  format_record (&out, trace, row);
  g_free (out.stack_text);
  return g_string_free (out.text, FALSE);
}
