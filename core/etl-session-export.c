/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-session-export
 * @title: Session exports
 * @short_description: C code and command lines for an #EtlSession
 *
 * etl_session_export_c() writes C code that allocates and fills the same
 * EVENT_TRACE_PROPERTIES allocation as etl_session_encode() (the structure,
 * then the session name, then the log file name).  It compiles against
 * the Windows SDK or mingw-w64 (`<windows.h>`, `<evntrace.h>`), and, with
 * ETLSCOPE_PORTABLE_SHIM defined, against tests/mingw/etlscope-shim.h, which
 * is how the tests compare its bytes with the encoder's on Linux.
 *
 * The command-line exports quote arguments the way CommandLineToArgvW and
 * the Microsoft C runtime split them (etl_session_quote_arg()).  What a tool
 * cannot express is reported in @notes rather than silently dropped.
 */
#define G_LOG_DOMAIN "etl-session"

#include "config.h"

#include "etl-session-export.h"

#include <string.h>

/**
 * etl_session_quote_arg:
 * @arg: one argument, UTF-8
 *
 * Quotes @arg for a Windows command line so that CommandLineToArgvW (and
 * the Microsoft C runtime) give back exactly @arg: arguments with spaces,
 * tabs, quotes or cmd.exe metacharacters (& | < > ^ ( ) , ; =) or empty ones
 * are put in double quotes; a quote becomes \" and backslashes before a
 * quote or the closing quote are doubled.  Backslashes elsewhere stay
 * single ("C:\dir with space\" → "C:\dir with space\\").  A % is left as
 * is: cmd.exe expands only %NAME% pairs of an existing variable.
 *
 * Returns: (transfer full): the quoted argument
 */
char *
etl_session_quote_arg (const char *arg)
{
  GString *s;

  g_return_val_if_fail (arg != NULL, NULL);

  if (arg[0] != '\0' && strpbrk (arg, " \t\n\v\"&|<>^(),;=") == NULL)
    return g_strdup (arg);

  s = g_string_new ("\"");
  for (const char *p = arg;; p++)
    {
      guint bs = 0;

      while (*p == '\\')
        {
          bs++;
          p++;
        }
      if (*p == '\0')
        {
          for (guint i = 0; i < 2 * bs; i++)
            g_string_append_c (s, '\\');
          break;
        }
      if (*p == '"')
        {
          for (guint i = 0; i < 2 * bs + 1; i++)
            g_string_append_c (s, '\\');
          g_string_append_c (s, '"');
        }
      else
        {
          for (guint i = 0; i < bs; i++)
            g_string_append_c (s, '\\');
          g_string_append_c (s, *p);
        }
    }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------ */
/* C code                                                                   */

static void
append_comment_text (GString *out, const char *text)
{
  /* Keep the text inside a C comment: no comment terminator, no control characters. */
  for (const char *p = text; *p; p++)
    {
      if (p[0] == '*' && p[1] == '/')
        g_string_append (out, "*\\");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_c (out, '?');
      else
        g_string_append_c (out, *p);
    }
}

static void
append_wchar_array (GString *out, const char *c_name, const char *text)
{
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (text, -1, NULL, &n, NULL);

  g_string_append (out, "/* \"");
  append_comment_text (out, text);
  g_string_append (out, "\" as UTF-16, NUL-terminated */\n");
  g_string_append_printf (out, "static const WCHAR %s[] = {", c_name);
  for (glong i = 0; i <= n; i++)
    {
      if (i % 10 == 0)
        g_string_append (out, "\n ");
      g_string_append_printf (out, " 0x%04x%s", i < n && units ? units[i] : 0, i < n ? "," : "");
    }
  g_string_append (out, "\n};\n\n");
}

static char *
c_flags (guint32 value, gboolean enable)
{
  guint n;
  const EtlSessionFlagInfo *table = enable ? etl_session_enable_flags (&n) : etl_session_log_file_modes (&n);
  GString *s;
  guint32 rest = value;

  if (value == 0)
    return g_strdup ("0");
  s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    if (table[i].value != 0 && (value & table[i].value) == table[i].value)
      {
        g_string_append_printf (s, "%s%s", s->len ? "\n                    | " : "", table[i].name);
        rest &= ~table[i].value;
      }
  if (rest)
    g_string_append_printf (s, "%s0x%08xu", s->len ? " | " : "", rest);
  return g_string_free (s, FALSE);
}

/**
 * etl_session_export_c:
 * @session: an #EtlSession
 *
 * C code (C99 or later) defining
 * `EVENT_TRACE_PROPERTIES *etlscope_session_properties (ULONG *size_out)`,
 * which callocs and fills the documented allocation and gives back its size
 * (free() it), and, when ETLSCOPE_SESSION_MAIN is defined, a main() that
 * passes it to StartTraceW.  The names are WCHAR arrays of UTF-16 code
 * units, so the same code yields the same bytes for any compiler and
 * either pointer size.  Values come out as the evntrace.h names.
 *
 * Returns: (transfer full): the source text
 */
char *
etl_session_export_c (const EtlSession *s)
{
  GString *out;
  gboolean has_file;
  g_autofree char *mode = NULL;
  g_autofree char *eflags = NULL;

  g_return_val_if_fail (s != NULL, NULL);

  has_file = s->log_file_name[0] != '\0';
  out = g_string_new (NULL);
  g_string_append (out, "/* EVENT_TRACE_PROPERTIES for the ETW session \"");
  append_comment_text (out, s->logger_name);
  g_string_append (out,
                   "\", generated by etlscope.\n"
                   " *\n"
                   " * The allocation StartTrace expects (EVENT_TRACE_PROPERTIES, Remarks): the\n"
                   " * zeroed structure, then the session name, then the log file name, both\n"
                   " * NUL-terminated UTF-16; Wnode.BufferSize is the whole allocation.\n"
                   " * Build: cc -c this.c (Windows SDK or mingw-w64); with -DETLSCOPE_SESSION_MAIN\n"
                   " * and -ladvapi32 it is a program that starts the session.\n"
                   " */\n"
                   "#ifdef ETLSCOPE_PORTABLE_SHIM\n"
                   "#include \"etlscope-shim.h\"\n"
                   "#else\n"
                   "#include <windows.h>\n"
                   "#include <evntrace.h>\n"
                   "#endif\n"
                   "#include <stdlib.h>\n"
                   "#include <string.h>\n\n");

  append_wchar_array (out, "etlscope_logger_name", s->logger_name);
  if (has_file)
    append_wchar_array (out, "etlscope_log_file_name", s->log_file_name);
  if (!etl_guid_is_zero (&s->wnode_guid))
    {
      const EtlGuid *g = &s->wnode_guid;
      char text[ETL_GUID_STRING_LEN + 1];

      etl_guid_to_string (g, text);
      g_string_append_printf (out,
                              "/* {%s}%s */\n"
                              "static const GUID etlscope_session_guid =\n"
                              "  { 0x%08x, 0x%04x, 0x%04x, { 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x } };\n\n",
                              text,
                              etl_guid_equal (g, &etl_system_trace_control_guid) ? " SystemTraceControlGuid"
                              : etl_guid_equal (g, &etl_global_logger_guid) ? " GlobalLoggerGuid" : "",
                              g->data1, g->data2, g->data3, g->data4[0], g->data4[1], g->data4[2], g->data4[3],
                              g->data4[4], g->data4[5], g->data4[6], g->data4[7]);
    }

  g_string_append (out,
                   "/* Returns the filled allocation (free() it) and its size in bytes, or NULL. */\n"
                   "EVENT_TRACE_PROPERTIES *etlscope_session_properties (ULONG *size_out);\n\n"
                   "EVENT_TRACE_PROPERTIES *\n"
                   "etlscope_session_properties (ULONG *size_out)\n"
                   "{\n"
                   "  const ULONG size = (ULONG) (sizeof (EVENT_TRACE_PROPERTIES) + sizeof etlscope_logger_name");
  if (has_file)
    g_string_append (out, "\n                              + sizeof etlscope_log_file_name");
  g_string_append (out,
                   ");\n"
                   "  EVENT_TRACE_PROPERTIES *props = (EVENT_TRACE_PROPERTIES *) calloc (1, size); /* zeroed */\n\n"
                   "  if (props == NULL)\n"
                   "    return NULL;\n"
                   "  props->Wnode.BufferSize = size; /* the whole allocation, in bytes */\n");
  if (s->wnode_provider_id)
    g_string_append_printf (out, "  props->Wnode.ProviderId = %uu; /* reserved */\n", s->wnode_provider_id);
  if (s->wnode_historical_context)
    g_string_append_printf (out, "  props->Wnode.HistoricalContext = 0x%" G_GINT64_MODIFIER "xULL; /* output: session handle */\n",
                            s->wnode_historical_context);
  if (s->wnode_time_stamp)
    g_string_append_printf (out, "  props->Wnode.TimeStamp.QuadPart = (LONGLONG) 0x%" G_GINT64_MODIFIER "xULL;\n",
                            (guint64) s->wnode_time_stamp);
  if (!etl_guid_is_zero (&s->wnode_guid))
    g_string_append (out, "  props->Wnode.Guid = etlscope_session_guid;\n");
  {
    const char *clock = s->wnode_client_context == 0 ? "default clock (QPC)"
                        : s->wnode_client_context == 1 ? "QPC"
                        : s->wnode_client_context == 2 ? "system time"
                        : s->wnode_client_context == 3 ? "CPU cycle counter" : "not a documented clock";
    g_string_append_printf (out, "  props->Wnode.ClientContext = %u; /* %s */\n", s->wnode_client_context, clock);
  }
  if ((s->wnode_flags | ETL_WNODE_FLAG_TRACED_GUID) == ETL_WNODE_FLAG_TRACED_GUID)
    g_string_append (out, "  props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;\n");
  else
    g_string_append_printf (out, "  props->Wnode.Flags = WNODE_FLAG_TRACED_GUID | 0x%08xu;\n",
                            s->wnode_flags & ~ETL_WNODE_FLAG_TRACED_GUID);
  g_string_append_printf (out, "  props->BufferSize = %u; /* KB per buffer */\n", s->buffer_size);
  g_string_append_printf (out, "  props->MinimumBuffers = %u;\n", s->minimum_buffers);
  g_string_append_printf (out, "  props->MaximumBuffers = %u;\n", s->maximum_buffers);
  g_string_append_printf (out, "  props->MaximumFileSize = %u; /* %s, 0 = no limit */\n", s->maximum_file_size,
                          (s->log_file_mode & ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE) ? "KB" : "MB");
  mode = c_flags (s->log_file_mode, FALSE);
  g_string_append_printf (out, "  props->LogFileMode = %s;\n", mode);
  g_string_append_printf (out, "  props->FlushTimer = %u; /* seconds */\n", s->flush_timer);
  eflags = c_flags (s->enable_flags, TRUE);
  g_string_append_printf (out, "  props->EnableFlags = %s;\n", eflags);
  if (s->age_limit)
    g_string_append_printf (out, "  props->AgeLimit = %d; /* unused; shares FlushThreshold's slot */\n", s->age_limit);
  {
    static const struct
    {
      const char *name;
      gsize offset;
    } outputs[] = {
      { "NumberOfBuffers", G_STRUCT_OFFSET (EtlSession, number_of_buffers) },
      { "FreeBuffers", G_STRUCT_OFFSET (EtlSession, free_buffers) },
      { "EventsLost", G_STRUCT_OFFSET (EtlSession, events_lost) },
      { "BuffersWritten", G_STRUCT_OFFSET (EtlSession, buffers_written) },
      { "LogBuffersLost", G_STRUCT_OFFSET (EtlSession, log_buffers_lost) },
      { "RealTimeBuffersLost", G_STRUCT_OFFSET (EtlSession, real_time_buffers_lost) },
    };
    for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
      {
        guint32 v = G_STRUCT_MEMBER (guint32, s, outputs[i].offset);

        if (v)
          g_string_append_printf (out, "  props->%s = %uu; /* output-only */\n", outputs[i].name, v);
      }
    if (s->logger_thread_id)
      g_string_append_printf (out, "  props->LoggerThreadId = (HANDLE) (ULONG_PTR) 0x%" G_GINT64_MODIFIER "xULL; /* output-only */\n",
                              s->logger_thread_id);
  }
  g_string_append (out,
                   "  props->LoggerNameOffset = sizeof (EVENT_TRACE_PROPERTIES);\n");
  if (has_file)
    g_string_append (out,
                     "  props->LogFileNameOffset = (ULONG) (sizeof (EVENT_TRACE_PROPERTIES) + sizeof etlscope_logger_name);\n");
  else
    g_string_append (out, "  props->LogFileNameOffset = 0; /* no log file */\n");
  g_string_append (out,
                   "  memcpy ((BYTE *) props + props->LoggerNameOffset, etlscope_logger_name, sizeof etlscope_logger_name);\n");
  if (has_file)
    g_string_append (out,
                     "  memcpy ((BYTE *) props + props->LogFileNameOffset, etlscope_log_file_name, sizeof etlscope_log_file_name);\n");
  g_string_append (out,
                   "  if (size_out != NULL)\n"
                   "    *size_out = size;\n"
                   "  return props;\n"
                   "}\n\n"
                   "#ifdef ETLSCOPE_SESSION_MAIN\n"
                   "#include <stdio.h>\n\n"
                   "int\n"
                   "main (void)\n"
                   "{\n"
                   "  TRACEHANDLE handle = 0;\n"
                   "  ULONG size = 0, status;\n"
                   "  EVENT_TRACE_PROPERTIES *props = etlscope_session_properties (&size);\n\n"
                   "  if (props == NULL)\n"
                   "    return 1;\n"
                   "  status = StartTraceW (&handle, etlscope_logger_name, props);\n"
                   "  printf (\"StartTraceW: %lu\\n\", (unsigned long) status);\n"
                   "  free (props);\n"
                   "  return status == ERROR_SUCCESS ? 0 : 1;\n"
                   "}\n"
                   "#endif\n");
  return g_string_free (out, FALSE);
}

/**
 * etl_session_export_layout_asserts:
 *
 * C11 static asserts of every field's offset and size (both layouts), of
 * sizeof (EVENT_TRACE_PROPERTIES) and of every constant in etlscope's
 * tables, generated from those tables.  Compiled by tests/mingw against
 * mingw-w64's headers (x86_64 and i686) and against the portable shim.
 *
 * Returns: (transfer full): the header text
 */
char *
etl_session_export_layout_asserts (void)
{
  GString *out = g_string_new (NULL);
  guint n;
  const EtlSessionFlagInfo *t;

  g_string_append (out,
                   "/* Generated by etlscope from core/etl-session.c's tables: do not edit. */\n"
                   "#pragma once\n"
                   "#ifdef ETLSCOPE_PORTABLE_SHIM\n"
                   "#include \"etlscope-shim.h\"\n"
                   "#else\n"
                   "#include <windows.h>\n"
                   "#include <evntrace.h>\n"
                   "#endif\n"
                   "#include <stddef.h>\n\n"
                   "#define ETLSCOPE_MEMBER_SIZE(m) sizeof (((EVENT_TRACE_PROPERTIES *) 0)->m)\n\n"
                   "_Static_assert (sizeof (EVENT_TRACE_PROPERTIES) == " G_STRINGIFY (ETL_SESSION_PROPERTIES_SIZE)
                   ", \"sizeof (EVENT_TRACE_PROPERTIES)\");\n"
                   "_Static_assert (sizeof (WNODE_HEADER) == 48, \"sizeof (WNODE_HEADER)\");\n");
  for (int arch = 0; arch < 2; arch++)
    {
      g_string_append (out, arch == 0 ? "\n#if defined (_WIN64) || defined (ETLSCOPE_SHIM_X64)\n"
                                      : "\n#else /* x86 */\n");
      for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
        {
          const EtlSessionFieldInfo *info = etl_session_field_info (f);
          guint off = arch == 0 ? info->offset_x64 : info->offset_x86;
          guint size = arch == 0 ? info->size_x64 : info->size_x86;
          gboolean v2_only = info->field == ETL_SESSION_FIELD_FLUSH_THRESHOLD;

          if (info->kind == ETL_SESSION_FIELD_KIND_STRING)
            continue;
          if (v2_only)
            {
              /* mingw-w64's version-1 structure has no FlushThreshold: check it in _V2. */
              g_string_append_printf (out,
                                      "#ifndef ETLSCOPE_PORTABLE_SHIM\n"
                                      "_Static_assert (offsetof (EVENT_TRACE_PROPERTIES_V2, %s) == %u, \"%s offset\");\n"
                                      "_Static_assert (sizeof (((EVENT_TRACE_PROPERTIES_V2 *) 0)->%s) == %u, \"%s size\");\n"
                                      "#endif\n",
                                      info->name, off, info->name, info->name, size, info->name);
              continue;
            }
          g_string_append_printf (out,
                                  "_Static_assert (offsetof (EVENT_TRACE_PROPERTIES, %s) == %u, \"%s offset\");\n"
                                  "_Static_assert (ETLSCOPE_MEMBER_SIZE (%s) == %u, \"%s size\");\n",
                                  info->name, off, info->name, info->name, size, info->name);
        }
      if (arch == 1)
        g_string_append (out, "#endif\n\n");
    }

  g_string_append (out, "_Static_assert (WNODE_FLAG_TRACED_GUID == 0x00020000u, \"WNODE_FLAG_TRACED_GUID\");\n");
  g_string_append (out, "_Static_assert (EVENT_TRACE_CONTROL_QUERY == 0 && EVENT_TRACE_CONTROL_STOP == 1"
                        " && EVENT_TRACE_CONTROL_FLUSH == 3, \"control codes\");\n");
  t = etl_session_log_file_modes (&n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "_Static_assert (%s == 0x%08xu, \"%s\");\n", t[i].name, t[i].value, t[i].name);
  t = etl_session_enable_flags (&n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "_Static_assert (%s == 0x%08xu, \"%s\");\n", t[i].name, t[i].value, t[i].name);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Command lines                                                            */

static void
arg (GString *cmd, const char *a)
{
  g_autofree char *q = etl_session_quote_arg (a);

  if (cmd->len)
    g_string_append_c (cmd, ' ');
  g_string_append (cmd, q);
}

G_GNUC_PRINTF (2, 3) static void
argf (GString *cmd, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *a = NULL;

  va_start (ap, fmt);
  a = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  arg (cmd, a);
}

G_GNUC_PRINTF (2, 3) static void
note (GPtrArray *notes, const char *fmt, ...)
{
  va_list ap;

  if (notes == NULL)
    return;
  va_start (ap, fmt);
  g_ptr_array_add (notes, g_strdup_vprintf (fmt, ap));
  va_end (ap);
}

static guint32
file_size_mb (const EtlSession *s, const char *tool, GPtrArray *notes)
{
  if (s->log_file_mode & ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE)
    {
      guint32 mb = (s->maximum_file_size + 1023) / 1024;

      note (notes, "%s takes the maximum file size in MB: %u KB was rounded up to %u MB", tool,
            s->maximum_file_size, mb);
      return mb;
    }
  return s->maximum_file_size;
}

static void
note_unhandled_modes (const EtlSession *s, guint32 handled, const char *tool, GPtrArray *notes)
{
  guint32 rest = s->log_file_mode & ~handled & ~ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE;

  if (rest)
    {
      g_autofree char *names = etl_session_format_flags (rest, FALSE);

      note (notes, "%s has no option for LogFileMode %s", tool, names);
    }
}

static gboolean
is_kernel_logger (const EtlSession *s)
{
  return g_ascii_strcasecmp (s->logger_name, ETL_KERNEL_LOGGER_NAME) == 0;
}

/**
 * etl_session_export_logman:
 * @session: an #EtlSession
 * @notes: (nullable) (element-type utf8): where to add what logman cannot express
 *
 * A `logman create trace` command line: -o, -bs (KB), -nb min max, -max (MB),
 * -ft (s), -f bin|bincirc, -a, -rt, -ul, -ct perf|system|cycle, -mode
 * globalsequence|localsequence|pagedmemory, -cnf (new file at the size
 * limit), and -p "Windows Kernel Trace" 0xFLAGS for a kernel logger.
 *
 * Returns: (transfer full): the command line
 */
char *
etl_session_export_logman (const EtlSession *s, GPtrArray *notes)
{
  GString *cmd = g_string_new (NULL);
  guint32 mode, handled = 0;
  GString *modes = g_string_new (NULL);

  g_return_val_if_fail (s != NULL, NULL);
  mode = s->log_file_mode;

  arg (cmd, "logman");
  arg (cmd, "create");
  arg (cmd, "trace");
  arg (cmd, s->logger_name);
  if (s->enable_flags)
    {
      arg (cmd, "-p");
      arg (cmd, "Windows Kernel Trace");
      argf (cmd, "0x%08x", s->enable_flags);
    }
  if (s->log_file_name[0])
    {
      arg (cmd, "-o");
      arg (cmd, s->log_file_name);
    }
  arg (cmd, "-bs");
  argf (cmd, "%u", s->buffer_size);
  arg (cmd, "-nb");
  argf (cmd, "%u", s->minimum_buffers);
  argf (cmd, "%u", s->maximum_buffers);
  if (s->maximum_file_size)
    {
      arg (cmd, "-max");
      argf (cmd, "%u", file_size_mb (s, "logman", notes));
    }
  if (s->flush_timer)
    {
      arg (cmd, "-ft");
      argf (cmd, "%u", s->flush_timer);
    }
  if (mode & ETL_EVENT_TRACE_FILE_MODE_CIRCULAR)
    {
      arg (cmd, "-f");
      arg (cmd, "bincirc");
    }
  else if (s->log_file_name[0])
    {
      arg (cmd, "-f");
      arg (cmd, "bin");
    }
  handled |= ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  if (mode & ETL_EVENT_TRACE_FILE_MODE_APPEND)
    arg (cmd, "-a");
  if (mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE)
    arg (cmd, "-cnf");
  if (mode & ETL_EVENT_TRACE_REAL_TIME_MODE)
    arg (cmd, "-rt");
  if (mode & ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE)
    arg (cmd, "-ul");
  handled |= ETL_EVENT_TRACE_FILE_MODE_APPEND | ETL_EVENT_TRACE_FILE_MODE_NEWFILE | ETL_EVENT_TRACE_REAL_TIME_MODE
             | ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE;
  if (s->wnode_client_context)
    {
      arg (cmd, "-ct");
      arg (cmd, s->wnode_client_context == 2 ? "system" : s->wnode_client_context == 3 ? "cycle" : "perf");
    }
  if (mode & ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE)
    g_string_append (modes, " globalsequence");
  if (mode & ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE)
    g_string_append (modes, " localsequence");
  if (mode & ETL_EVENT_TRACE_USE_PAGED_MEMORY)
    g_string_append (modes, " pagedmemory");
  handled |= ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE | ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE
             | ETL_EVENT_TRACE_USE_PAGED_MEMORY;
  if (modes->len)
    {
      g_auto (GStrv) m = g_strsplit (modes->str + 1, " ", -1);

      arg (cmd, "-mode");
      for (guint i = 0; m[i]; i++)
        arg (cmd, m[i]);
    }
  g_string_free (modes, TRUE);
  note_unhandled_modes (s, handled, "logman", notes);
  if (!etl_guid_is_zero (&s->wnode_guid) && !etl_guid_equal (&s->wnode_guid, &etl_system_trace_control_guid))
    note (notes, "logman has no option for the session GUID (Wnode.Guid)");
  if (mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE)
    note (notes, "logman numbers new files itself; the %%d in the file name is not needed");
  return g_string_free (cmd, FALSE);
}

static const struct
{
  guint32 flags;
  const char *name;
} xperf_kernel_flags[] = {
  { ETL_EVENT_TRACE_FLAG_PROCESS | ETL_EVENT_TRACE_FLAG_THREAD, "PROC_THREAD" },
  { ETL_EVENT_TRACE_FLAG_IMAGE_LOAD, "LOADER" },
  { ETL_EVENT_TRACE_FLAG_PROCESS_COUNTERS, "PERF_COUNTER" },
  { ETL_EVENT_TRACE_FLAG_CSWITCH, "CSWITCH" },
  { ETL_EVENT_TRACE_FLAG_DPC, "DPC" },
  { ETL_EVENT_TRACE_FLAG_INTERRUPT, "INTERRUPT" },
  { ETL_EVENT_TRACE_FLAG_SYSTEMCALL, "SYSCALL" },
  { ETL_EVENT_TRACE_FLAG_DISK_IO, "DISK_IO" },
  { ETL_EVENT_TRACE_FLAG_DISK_FILE_IO, "FILENAME" },
  { ETL_EVENT_TRACE_FLAG_DISK_IO_INIT, "DISK_IO_INIT" },
  { ETL_EVENT_TRACE_FLAG_DISPATCHER, "DISPATCHER" },
  { ETL_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS, "ALL_FAULTS" },
  { ETL_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS, "HARD_FAULTS" },
  { ETL_EVENT_TRACE_FLAG_VIRTUAL_ALLOC, "VIRT_ALLOC" },
  { ETL_EVENT_TRACE_FLAG_VAMAP, "VAMAP" },
  { ETL_EVENT_TRACE_FLAG_NETWORK_TCPIP, "NETWORKTRACE" },
  { ETL_EVENT_TRACE_FLAG_REGISTRY, "REGISTRY" },
  { ETL_EVENT_TRACE_FLAG_ALPC, "ALPC" },
  { ETL_EVENT_TRACE_FLAG_SPLIT_IO, "SPLIT_IO" },
  { ETL_EVENT_TRACE_FLAG_DRIVER, "DRIVERS" },
  { ETL_EVENT_TRACE_FLAG_PROFILE, "PROFILE" },
  { ETL_EVENT_TRACE_FLAG_FILE_IO, "FILE_IO" },
  { ETL_EVENT_TRACE_FLAG_FILE_IO_INIT, "FILE_IO_INIT" },
};

/**
 * etl_session_export_xperf:
 * @session: an #EtlSession
 * @notes: (nullable) (element-type utf8): where to add what xperf cannot express
 *
 * An `xperf` command line: `-on` kernel groups for the NT Kernel Logger
 * (or `-start NAME` for another session), -f, -BufferSize, -MinBuffers,
 * -MaxBuffers, -MaxFile, -FileMode, -FlushTimer, -ClockType, -RealTime,
 * -Buffering.
 *
 * Returns: (transfer full): the command line
 */
char *
etl_session_export_xperf (const EtlSession *s, GPtrArray *notes)
{
  GString *cmd = g_string_new (NULL);
  guint32 mode, handled = 0;

  g_return_val_if_fail (s != NULL, NULL);
  mode = s->log_file_mode;

  arg (cmd, "xperf");
  if (!is_kernel_logger (s))
    {
      arg (cmd, "-start");
      arg (cmd, s->logger_name);
    }
  if (s->enable_flags)
    {
      GString *on = g_string_new (NULL);
      guint32 rest = s->enable_flags;

      for (guint i = 0; i < G_N_ELEMENTS (xperf_kernel_flags); i++)
        if (s->enable_flags & xperf_kernel_flags[i].flags)
          {
            if ((s->enable_flags & xperf_kernel_flags[i].flags) != xperf_kernel_flags[i].flags)
              note (notes, "xperf's %s group enables both process and thread events", xperf_kernel_flags[i].name);
            g_string_append_printf (on, "%s%s", on->len ? "+" : "", xperf_kernel_flags[i].name);
            rest &= ~xperf_kernel_flags[i].flags;
          }
      if (rest)
        {
          g_autofree char *names = etl_session_format_flags (rest, TRUE);

          note (notes, "xperf has no kernel group for %s", names);
        }
      if (on->len)
        {
          arg (cmd, "-on");
          arg (cmd, on->str);
        }
      g_string_free (on, TRUE);
    }
  else if (!is_kernel_logger (s))
    note (notes, "add -on Provider[:Keywords[:Level]] for the providers this session should receive");
  if (s->log_file_name[0])
    {
      arg (cmd, "-f");
      arg (cmd, s->log_file_name);
    }
  arg (cmd, "-BufferSize");
  argf (cmd, "%u", s->buffer_size);
  arg (cmd, "-MinBuffers");
  argf (cmd, "%u", s->minimum_buffers);
  arg (cmd, "-MaxBuffers");
  argf (cmd, "%u", s->maximum_buffers);
  if (s->maximum_file_size)
    {
      arg (cmd, "-MaxFile");
      argf (cmd, "%u", file_size_mb (s, "xperf", notes));
    }
  if (mode & (ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
              | ETL_EVENT_TRACE_FILE_MODE_APPEND | ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL))
    {
      arg (cmd, "-FileMode");
      arg (cmd, (mode & ETL_EVENT_TRACE_FILE_MODE_CIRCULAR) ? "Circular"
                : (mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE) ? "NewFile"
                : (mode & ETL_EVENT_TRACE_FILE_MODE_APPEND) ? "Append" : "Sequential");
    }
  handled |= ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
             | ETL_EVENT_TRACE_FILE_MODE_APPEND | ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  if (s->flush_timer)
    {
      arg (cmd, "-FlushTimer");
      argf (cmd, "%u", s->flush_timer);
    }
  if (s->wnode_client_context)
    {
      arg (cmd, "-ClockType");
      arg (cmd, s->wnode_client_context == 2 ? "SystemTime" : s->wnode_client_context == 3 ? "Cycle" : "PerfCounter");
    }
  if (mode & ETL_EVENT_TRACE_REAL_TIME_MODE)
    arg (cmd, "-RealTime");
  if (mode & ETL_EVENT_TRACE_BUFFERING_MODE)
    arg (cmd, "-Buffering");
  handled |= ETL_EVENT_TRACE_REAL_TIME_MODE | ETL_EVENT_TRACE_BUFFERING_MODE;
  if (s->enable_flags != 0)
    handled |= ETL_EVENT_TRACE_SYSTEM_LOGGER_MODE; /* -start NAME -on kernel groups */
  note_unhandled_modes (s, handled, "xperf", notes);
  if (!etl_guid_is_zero (&s->wnode_guid) && !etl_guid_equal (&s->wnode_guid, &etl_system_trace_control_guid))
    note (notes, "xperf has no option for the session GUID (Wnode.Guid)");
  return g_string_free (cmd, FALSE);
}

/**
 * etl_session_export_tracelog:
 * @session: an #EtlSession
 * @notes: (nullable) (element-type utf8): where to add what tracelog cannot express
 *
 * A `tracelog -start` command line (WDK): -f, -b (KB), -min, -max, -ft,
 * -seq/-cir/-newfile with the size in MB, -prealloc, -append, -rt,
 * -buffering, -paged, -ls/-gs, -UsePerfCounter/-UseSystemTime/-UseCPUCycle,
 * -sessionguid, and -flag 0xFLAGS for the kernel flags.
 *
 * Returns: (transfer full): the command line
 */
char *
etl_session_export_tracelog (const EtlSession *s, GPtrArray *notes)
{
  GString *cmd = g_string_new (NULL);
  guint32 mode, handled = 0;
  guint32 mb;

  g_return_val_if_fail (s != NULL, NULL);
  mode = s->log_file_mode;

  arg (cmd, "tracelog");
  arg (cmd, "-start");
  arg (cmd, s->logger_name);
  if (s->log_file_name[0])
    {
      arg (cmd, "-f");
      arg (cmd, s->log_file_name);
    }
  arg (cmd, "-b");
  argf (cmd, "%u", s->buffer_size);
  arg (cmd, "-min");
  argf (cmd, "%u", s->minimum_buffers);
  arg (cmd, "-max");
  argf (cmd, "%u", s->maximum_buffers);
  if (s->flush_timer)
    {
      arg (cmd, "-ft");
      argf (cmd, "%u", s->flush_timer);
    }
  mb = s->maximum_file_size ? file_size_mb (s, "tracelog", notes) : 0;
  if (mode & ETL_EVENT_TRACE_FILE_MODE_CIRCULAR)
    {
      arg (cmd, "-cir");
      argf (cmd, "%u", mb);
    }
  else if (mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE)
    {
      arg (cmd, "-newfile");
      argf (cmd, "%u", mb);
    }
  else if (mode & ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL || (s->maximum_file_size && s->log_file_name[0]))
    {
      arg (cmd, "-seq");
      argf (cmd, "%u", mb);
    }
  if (mode & ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE)
    arg (cmd, "-prealloc");
  if (mode & ETL_EVENT_TRACE_FILE_MODE_APPEND)
    arg (cmd, "-append");
  if (mode & ETL_EVENT_TRACE_REAL_TIME_MODE)
    arg (cmd, "-rt");
  if (mode & ETL_EVENT_TRACE_BUFFERING_MODE)
    arg (cmd, "-buffering");
  if (mode & ETL_EVENT_TRACE_USE_PAGED_MEMORY)
    arg (cmd, "-paged");
  if (mode & ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE)
    arg (cmd, "-ls");
  if (mode & ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE)
    arg (cmd, "-gs");
  handled |= ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
             | ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL | ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE
             | ETL_EVENT_TRACE_FILE_MODE_APPEND | ETL_EVENT_TRACE_REAL_TIME_MODE | ETL_EVENT_TRACE_BUFFERING_MODE
             | ETL_EVENT_TRACE_USE_PAGED_MEMORY | ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE
             | ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE;
  if (s->wnode_client_context == 1)
    arg (cmd, "-UsePerfCounter");
  else if (s->wnode_client_context == 2)
    arg (cmd, "-UseSystemTime");
  else if (s->wnode_client_context == 3)
    arg (cmd, "-UseCPUCycle");
  if (!etl_guid_is_zero (&s->wnode_guid) && !etl_guid_equal (&s->wnode_guid, &etl_system_trace_control_guid))
    {
      char text[ETL_GUID_STRING_LEN + 1];

      etl_guid_to_string (&s->wnode_guid, text);
      arg (cmd, "-sessionguid");
      argf (cmd, "#%s", text);
    }
  if (s->enable_flags)
    {
      arg (cmd, "-flag");
      argf (cmd, "0x%08x", s->enable_flags);
    }
  note_unhandled_modes (s, handled, "tracelog", notes);
  return g_string_free (cmd, FALSE);
}
