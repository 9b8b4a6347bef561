/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli session: build, check and export EVENT_TRACE_PROPERTIES.
 *
 *   etlscope-cli session [--preset NAME | --load FILE.ini] [--set Field=Value ...]
 *                        --emit binary|layout|c|logman|xperf|tracelog|ini|lint
 *                        [--arch x64|x86] [--cpus N] [-o FILE]
 *
 * Exit status: 0 on success; 1 when --emit lint found an error; 2 on a
 * usage error or a bad value.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "etl-cli-session.h"
#include "etl-session-export.h"
#include "etl-session.h"

#define EXIT_LINT 1
#define EXIT_USAGE 2

static const char *const emit_kinds[] = {
  "binary", "layout", "c", "logman", "xperf", "tracelog", "ini", "lint", NULL
};

static char *
emit_layout (const EtlSession *session, EtlSessionArch arch)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      const EtlSessionFieldInfo *info = etl_session_field_info (f);
      guint off, size;

      if (!etl_session_field_span (session, arch, f, &off, &size))
        continue;
      json_builder_set_member_name (b, info->name);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, off);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, size);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, TRUE);
  return g_strconcat (text, "\n", NULL);
}

static char *
emit_lint (const EtlSession *session, guint cpus, gboolean *has_errors)
{
  g_autoptr (GPtrArray) diags = etl_session_check (session, cpus);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < diags->len; i++)
    {
      const EtlSessionDiagnostic *d = g_ptr_array_index (diags, i);
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *line = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "severity");
      json_builder_add_string_value (b, etl_session_severity_name (d->severity));
      json_builder_set_member_name (b, "field");
      json_builder_add_string_value (b, etl_session_field_info (d->field)->name);
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, d->message);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      line = json_to_string (root, FALSE);
      g_string_append (out, line);
      g_string_append_c (out, '\n');
    }
  *has_errors = etl_session_diagnostics_have_errors (diags);
  return g_string_free (out, FALSE);
}

static gboolean
write_all_stdout (const void *data, gsize len)
{
  if (len > 0 && fwrite (data, 1, len, stdout) != len)
    return FALSE;
  return fflush (stdout) == 0;
}

/**
 * etl_cli_session_main:
 * @argc: argument count, @argv[0] being "session"
 * @argv: (array length=argc): the arguments
 *
 * Runs `etlscope-cli session`.
 *
 * Returns: the exit status (0, 1 = lint found an error, 2 = usage or value error)
 */
int
etl_cli_session_main (int argc, char **argv)
{
  g_autofree char *preset = NULL;
  g_autofree char *load = NULL;
  g_auto (GStrv) sets = NULL;
  g_autofree char *emit = NULL;
  g_autofree char *arch_text = NULL;
  g_autofree char *output = NULL;
  gint cpus = 0;
  gboolean list_presets = FALSE;
  GOptionEntry entries[] = {
    { "preset", 'p', 0, G_OPTION_ARG_STRING, &preset,
      "Start from a built-in preset (kernel-basics, low-overhead-file, real-time, in-memory-circular)", "NAME" },
    { "load", 'l', 0, G_OPTION_ARG_FILENAME, &load, "Start from an INI preset file", "FILE.ini" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
      "Set a field by its Windows name (BufferSize, LogFileMode, Wnode.Guid, LoggerName, …); flags as NAME|NAME "
      "or numbers; repeatable, the last one wins", "Field=Value" },
    { "emit", 'e', 0, G_OPTION_ARG_STRING, &emit,
      "What to print: binary, layout, c, logman, xperf, tracelog, ini or lint", "KIND" },
    { "arch", 'a', 0, G_OPTION_ARG_STRING, &arch_text, "Structure layout for binary/layout: x64 (default) or x86",
      "ARCH" },
    { "cpus", 'n', 0, G_OPTION_ARG_INT, &cpus,
      "Logical processors for the effective values in lint (default: this machine's)", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE (atomically) instead of stdout", "FILE" },
    { "list-presets", 0, 0, G_OPTION_ARG_NONE, &list_presets, "List the built-in presets", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSession) session = NULL;
  EtlSessionArch arch = ETL_SESSION_ARCH_X64;
  g_autofree char *text = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  gboolean lint_errors = FALSE;
  g_auto (GStrv) args = NULL;
  int n_args;

  ctx = g_option_context_new ("- build, check and export ETW session settings (EVENT_TRACE_PROPERTIES)");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
                                "Builds an EVENT_TRACE_PROPERTIES allocation from a preset, an INI file and --set "
                                "options,\nthen prints it as bytes, its layout (JSON), C code, a logman/xperf/tracelog "
                                "command line,\nan INI preset, or the documented rules it breaks (lint, one JSON "
                                "object per line).");
  g_option_context_set_description (ctx,
                                    "Exit status: 0 on success, 1 when lint reports an error, 2 on a usage error.\n");

  /* GOptionContext wants argv[0] to be the program name. */
  args = g_new0 (char *, argc + 2);
  args[0] = g_strdup ("etlscope-cli session");
  for (int i = 1; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  n_args = MAX (argc, 1);
  {
    char **parse_argv = args;

    if (!g_option_context_parse_strv (ctx, &parse_argv, &error))
      {
        g_printerr ("etlscope-cli session: %s\n", error->message);
        return EXIT_USAGE;
      }
    args = parse_argv;
    n_args = (int) g_strv_length (args);
  }

  if (list_presets)
    {
      for (const char *const *p = etl_session_preset_names (); *p; p++)
        g_print ("%-20s %s\n", *p, etl_session_preset_description (*p));
      return 0;
    }
  if (n_args > 1)
    {
      g_printerr ("etlscope-cli session: unexpected argument “%s” (see --help)\n", args[1]);
      return EXIT_USAGE;
    }
  if (emit == NULL || !g_strv_contains (emit_kinds, emit))
    {
      g_printerr ("etlscope-cli session: --emit must be one of binary, layout, c, logman, xperf, tracelog, ini, lint\n");
      return EXIT_USAGE;
    }
  if (preset != NULL && load != NULL)
    {
      g_printerr ("etlscope-cli session: use either --preset or --load\n");
      return EXIT_USAGE;
    }
  if (arch_text != NULL && !etl_session_arch_parse (arch_text, &arch))
    {
      g_printerr ("etlscope-cli session: --arch must be x64 or x86\n");
      return EXIT_USAGE;
    }
  if (cpus < 0 || cpus > 65536)
    {
      g_printerr ("etlscope-cli session: --cpus must be 1 to 65536\n");
      return EXIT_USAGE;
    }
  if (cpus == 0)
    cpus = (gint) MAX (g_get_num_processors (), 1);

  if (preset != NULL)
    session = etl_session_new_preset (preset, &error);
  else if (load != NULL)
    session = etl_session_load_ini (load, &error);
  else
    session = etl_session_new ();
  if (session == NULL)
    {
      g_printerr ("etlscope-cli session: %s\n", error->message);
      return EXIT_USAGE;
    }

  for (guint i = 0; sets != NULL && sets[i] != NULL; i++)
    {
      const char *eq = strchr (sets[i], '=');
      g_autofree char *field = NULL;

      if (eq == NULL)
        {
          g_printerr ("etlscope-cli session: --set needs Field=Value, got “%s”\n", sets[i]);
          return EXIT_USAGE;
        }
      field = g_strstrip (g_strndup (sets[i], eq - sets[i]));
      if (!etl_session_set_field (session, field, eq + 1, &error))
        {
          g_printerr ("etlscope-cli session: %s\n", error->message);
          return EXIT_USAGE;
        }
    }

  if (g_str_equal (emit, "binary"))
    bytes = etl_session_encode (session, arch);
  else if (g_str_equal (emit, "layout"))
    text = emit_layout (session, arch);
  else if (g_str_equal (emit, "c"))
    text = etl_session_export_c (session);
  else if (g_str_equal (emit, "logman") || g_str_equal (emit, "xperf") || g_str_equal (emit, "tracelog"))
    {
      g_autofree char *line = g_str_equal (emit, "logman") ? etl_session_export_logman (session, notes)
                              : g_str_equal (emit, "xperf") ? etl_session_export_xperf (session, notes)
                              : etl_session_export_tracelog (session, notes);
      text = g_strconcat (line, "\n", NULL);
    }
  else if (g_str_equal (emit, "ini"))
    text = etl_session_to_ini (session);
  else
    text = emit_lint (session, (guint) cpus, &lint_errors);

  if (bytes == NULL)
    {
      gsize text_len = strlen (text);

      bytes = g_bytes_new_take (g_steal_pointer (&text), text_len);
    }
  for (guint i = 0; i < notes->len; i++)
    g_printerr ("note: %s\n", (const char *) g_ptr_array_index (notes, i));

  {
    gsize len;
    const guint8 *data = g_bytes_get_data (bytes, &len);

    if (output != NULL)
      {
        if (!g_file_set_contents (output, (const char *) data, (gssize) len, &error))
          {
            g_printerr ("etlscope-cli session: %s\n", error->message);
            return EXIT_USAGE;
          }
      }
    else if (!write_all_stdout (data, len))
      {
        g_printerr ("etlscope-cli session: cannot write to standard output\n");
        return EXIT_USAGE;
      }
  }
  return lint_errors ? EXIT_LINT : 0;
}
