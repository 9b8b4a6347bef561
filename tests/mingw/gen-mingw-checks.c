/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-mingw-checks OUTDIR: writes, from etlscope's own tables and encoder,
 *   layout-asserts.h               static asserts of every offset, size and constant
 *   etlscope-shim-constants.h      the constants for the portable shim
 *   case-N.c                       etl_session_export_c() of test session N
 *   case-N-expected.h              etl_session_encode() of it, x64 and x86
 *   cases.txt                      the N's
 * for tests/mingw/check-mingw.sh.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "etl-session-export.h"
#include "etl-session.h"

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  if (!g_file_set_contents (path, text, -1, &error))
    {
      g_printerr ("%s\n", error->message);
      exit (2);
    }
}

static void
append_array (GString *out, const char *name, GBytes *bytes)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (bytes, &len);

  g_string_append_printf (out, "static const unsigned char %s[%" G_GSIZE_FORMAT "] = {", name, len);
  for (gsize i = 0; i < len; i++)
    g_string_append_printf (out, "%s0x%02x,", i % 16 ? " " : "\n  ", d[i]);
  g_string_append (out, "\n};\n");
}

static EtlSession *
tricky_session (void)
{
  EtlSession *s = etl_session_new ();
  static const char *const sets[][2] = {
    { "LoggerName", "Ünïcode \"quoted\" */ session \xF0\x9F\x98\x80 tab\there" },
    { "LogFileName", "C:\\traces\\dir with space\\out%d.etl" },
    { "Wnode.Guid", "{12345678-9abc-def0-1122-334455667788}" },
    { "Wnode.ClientContext", "2" },
    { "Wnode.Flags", "WNODE_FLAG_TRACED_GUID|0x200" },
    { "Wnode.ProviderId", "0xdeadbeef" },
    { "Wnode.HistoricalContext", "0x0102030405060708" },
    { "Wnode.TimeStamp", "0xfedcba9876543210" },
    { "BufferSize", "4096" },
    { "MinimumBuffers", "3" },
    { "MaximumBuffers", "0xffffffff" },
    { "MaximumFileSize", "512" },
    { "LogFileMode", "EVENT_TRACE_FILE_MODE_NEWFILE|EVENT_TRACE_USE_KBYTES_FOR_SIZE|EVENT_TRACE_SYSTEM_LOGGER_MODE|0x40000000" },
    { "FlushTimer", "7" },
    { "EnableFlags", "PROCESS|DISK_IO|DISK_FILE_IO|0x08000000" },
    { "AgeLimit", "-5" },
    { "NumberOfBuffers", "1" },
    { "FreeBuffers", "2" },
    { "EventsLost", "3" },
    { "BuffersWritten", "4" },
    { "LogBuffersLost", "5" },
    { "RealTimeBuffersLost", "6" },
    { "LoggerThreadId", "0x1122334455667788" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    if (!etl_session_set_field (s, sets[i][0], sets[i][1], NULL))
      {
        g_printerr ("cannot set %s\n", sets[i][0]);
        exit (2);
      }
  return s;
}

int
main (int argc, char **argv)
{
  GPtrArray *sessions = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_session_free);
  GString *list = g_string_new (NULL);
  GString *consts = g_string_new ("/* Generated from etlscope's tables. */\n#pragma once\n");
  guint n;
  const EtlSessionFlagInfo *t;
  g_autofree char *asserts = NULL;

  if (argc != 2)
    {
      g_printerr ("usage: %s OUTDIR\n", argv[0]);
      return 2;
    }

  asserts = etl_session_export_layout_asserts ();
  write_file (argv[1], "layout-asserts.h", asserts);

  g_string_append (consts, "#define WNODE_FLAG_TRACED_GUID 0x00020000u\n");
  g_string_append (consts, "#define EVENT_TRACE_CONTROL_QUERY 0\n#define EVENT_TRACE_CONTROL_STOP 1\n"
                           "#define EVENT_TRACE_CONTROL_FLUSH 3\n");
  t = etl_session_log_file_modes (&n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (consts, "#define %s 0x%08xu\n", t[i].name, t[i].value);
  t = etl_session_enable_flags (&n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (consts, "#define %s 0x%08xu\n", t[i].name, t[i].value);
  write_file (argv[1], "etlscope-shim-constants.h", consts->str);
  g_string_free (consts, TRUE);

  for (const char *const *p = etl_session_preset_names (); *p; p++)
    g_ptr_array_add (sessions, etl_session_new_preset (*p, NULL));
  g_ptr_array_add (sessions, etl_session_new ());
  g_ptr_array_add (sessions, tricky_session ());

  for (guint i = 0; i < sessions->len; i++)
    {
      EtlSession *s = g_ptr_array_index (sessions, i);
      g_autofree char *code = etl_session_export_c (s);
      g_autofree char *c_name = g_strdup_printf ("case-%u.c", i);
      g_autofree char *h_name = g_strdup_printf ("case-%u-expected.h", i);
      g_autoptr (GBytes) x64 = etl_session_encode (s, ETL_SESSION_ARCH_X64);
      g_autoptr (GBytes) x86 = etl_session_encode (s, ETL_SESSION_ARCH_X86);
      GString *h = g_string_new ("/* etl_session_encode() output. */\n");

      write_file (argv[1], c_name, code);
      append_array (h, "etlscope_expected_x64", x64);
      append_array (h, "etlscope_expected_x86", x86);
      write_file (argv[1], h_name, h->str);
      g_string_free (h, TRUE);
      g_string_append_printf (list, "%u\n", i);
    }
  write_file (argv[1], "cases.txt", list->str);
  g_string_free (list, TRUE);
  g_ptr_array_unref (sessions);
  return 0;
}
