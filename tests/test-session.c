/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-session.c: EtlSession model, encoder/decoder, checker rules, exports,
 * INI presets and `etlscope-cli session`.
 *
 * Offsets are also checked against mingw-w64's headers by tests/mingw
 * (meson test session-mingw); here they are checked against the values
 * the mingw-w64 compilers report (sizeof = 120 in both layouts).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "etl-session-export.h"
#include "etl-session.h"
#include "etl-test-util.h"

#define N_CPUS 8

/* ------------------------------------------------------------------------ */

static void
test_layout_table (void)
{
  /* name, x64 offset, x64 size, x86 offset, x86 size (mingw-w64 evntrace.h / wmistr.h) */
  static const struct
  {
    const char *name;
    guint o64, s64, o86, s86;
  } expect[] = {
    { "Wnode.BufferSize", 0, 4, 0, 4 },
    { "Wnode.ProviderId", 4, 4, 4, 4 },
    { "Wnode.HistoricalContext", 8, 8, 8, 8 },
    { "Wnode.TimeStamp", 16, 8, 16, 8 },
    { "Wnode.KernelHandle", 16, 8, 16, 4 },
    { "Wnode.Guid", 24, 16, 24, 16 },
    { "Wnode.ClientContext", 40, 4, 40, 4 },
    { "Wnode.Flags", 44, 4, 44, 4 },
    { "BufferSize", 48, 4, 48, 4 },
    { "MinimumBuffers", 52, 4, 52, 4 },
    { "MaximumBuffers", 56, 4, 56, 4 },
    { "MaximumFileSize", 60, 4, 60, 4 },
    { "LogFileMode", 64, 4, 64, 4 },
    { "FlushTimer", 68, 4, 68, 4 },
    { "EnableFlags", 72, 4, 72, 4 },
    { "AgeLimit", 76, 4, 76, 4 },
    { "FlushThreshold", 76, 4, 76, 4 },
    { "NumberOfBuffers", 80, 4, 80, 4 },
    { "RealTimeBuffersLost", 100, 4, 100, 4 },
    { "LoggerThreadId", 104, 8, 104, 4 },
    { "LogFileNameOffset", 112, 4, 108, 4 },
    { "LoggerNameOffset", 116, 4, 112, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const EtlSessionFieldInfo *info = etl_session_field_lookup (expect[i].name);

      g_assert_nonnull (info);
      g_assert_cmpstr (info->name, ==, expect[i].name);
      g_assert_cmpuint (info->offset_x64, ==, expect[i].o64);
      g_assert_cmpuint (info->size_x64, ==, expect[i].s64);
      g_assert_cmpuint (info->offset_x86, ==, expect[i].o86);
      g_assert_cmpuint (info->size_x86, ==, expect[i].s86);
    }

  /* Primary fields tile the structure without overlap, in order. */
  for (int arch = 0; arch < 2; arch++)
    {
      guint end = 0;

      for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
        {
          const EtlSessionFieldInfo *info = etl_session_field_info (f);
          guint off = arch ? info->offset_x86 : info->offset_x64;
          guint size = arch ? info->size_x86 : info->size_x64;

          g_assert_cmpint (info->field, ==, f);
          if (info->alias_of >= 0 || info->kind == ETL_SESSION_FIELD_KIND_STRING)
            continue;
          g_assert_cmpuint (off, ==, end);
          end = off + size;
        }
      g_assert_cmpuint (end, ==, arch ? 116 : 120);
    }
  g_assert_null (etl_session_field_lookup ("NoSuchField"));
  g_assert_true (etl_session_field_lookup ("guid") == etl_session_field_info (ETL_SESSION_FIELD_WNODE_GUID));
}

static void
test_tables (void)
{
  guint n;
  const EtlSessionFlagInfo *t = etl_session_log_file_modes (&n);
  guint32 seen = 0;

  g_assert_cmpuint (n, >=, 27);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (g_str_has_prefix (t[i].name, "EVENT_TRACE_"));
      g_assert_cmpuint (seen & t[i].value, ==, 0);
      seen |= t[i].value;
      g_assert_nonnull (t[i].meaning);
    }
  t = etl_session_enable_flags (&n);
  seen = 0;
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (g_str_has_prefix (t[i].name, "EVENT_TRACE_FLAG_"));
      g_assert_cmpuint (seen & t[i].value, ==, 0);
      seen |= t[i].value;
    }
  g_assert_cmpuint (n, ==, 31);
  {
    const EtlSessionClockInfo *c = etl_session_clocks (&n);

    g_assert_cmpuint (n, ==, 3);
    g_assert_cmpuint (c[0].value, ==, 1);
    g_assert_cmpuint (c[1].value, ==, 2);
    g_assert_cmpuint (c[2].value, ==, 3);
  }
}

/* ------------------------------------------------------------------------ */

static guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static void
test_encode_documented_allocation (void)
{
  g_autoptr (EtlSession) s = etl_session_new_preset ("kernel-basics", NULL);

  for (int arch = ETL_SESSION_ARCH_X64; arch <= ETL_SESSION_ARCH_X86; arch++)
    {
      g_autoptr (GBytes) b = etl_session_encode (s, arch);
      gsize len;
      const guint8 *d = g_bytes_get_data (b, &len);
      guint name_off = arch == ETL_SESSION_ARCH_X64 ? 116 : 112;
      guint file_off = arch == ETL_SESSION_ARCH_X64 ? 112 : 108;
      static const guint8 name16[] = { 'N', 0, 'T', 0, ' ', 0, 'K', 0 };

      /* 120 + "NT Kernel Logger\0" (17 × 2) + "kernel.etl\0" (11 × 2) */
      g_assert_cmpuint (len, ==, 120 + 34 + 22);
      g_assert_cmpuint (le32 (d), ==, len);                         /* Wnode.BufferSize */
      g_assert_cmpuint (le32 (d + 44) & 0x00020000u, ==, 0x00020000u); /* WNODE_FLAG_TRACED_GUID */
      g_assert_cmpuint (le32 (d + 40), ==, 1);                      /* ClientContext QPC */
      g_assert_cmpuint (le32 (d + 24), ==, 0x9e814aad);             /* SystemTraceControlGuid */
      g_assert_cmpuint (le32 (d + 48), ==, 64);
      g_assert_cmpuint (le32 (d + 72), ==, 7);
      g_assert_cmpuint (le32 (d + name_off), ==, 120);
      g_assert_cmpuint (le32 (d + file_off), ==, 120 + 34);
      g_assert_cmpmem (d + 120, sizeof name16, name16, sizeof name16);
      g_assert_cmpuint (d[120 + 32], ==, 0);
      g_assert_cmpuint (d[120 + 33], ==, 0);
      g_assert_cmpuint (d[len - 1], ==, 0);
      g_assert_cmpuint (d[len - 2], ==, 0);
      if (arch == ETL_SESSION_ARCH_X86)
        for (guint i = 116; i < 120; i++)
          g_assert_cmpuint (d[i], ==, 0); /* padding */
    }

  /* No log file: LogFileNameOffset 0 and nothing after the session name. */
  {
    g_autoptr (EtlSession) rt = etl_session_new_preset ("real-time", NULL);
    g_autoptr (GBytes) b = etl_session_encode (rt, ETL_SESSION_ARCH_X64);
    gsize len;
    const guint8 *d = g_bytes_get_data (b, &len);

    g_assert_cmpuint (le32 (d + 112), ==, 0);
    g_assert_cmpuint (len, ==, 120 + (strlen (rt->logger_name) + 1) * 2);
  }
}

static EtlSession *
tricky_session (void)
{
  EtlSession *s = etl_session_new ();
  static const char *const sets[][2] = {
    { "LoggerName", "Ünïcode \"quoted\" session \xF0\x9F\x98\x80" },
    { "LogFileName", "C:\\dir with space\\out%d.etl" },
    { "Wnode.Guid", "12345678-9abc-def0-1122-334455667788" },
    { "Wnode.ClientContext", "SystemTime" },
    { "Wnode.ProviderId", "0xdeadbeef" },
    { "Wnode.HistoricalContext", "0x0102030405060708" },
    { "Wnode.TimeStamp", "0xfedcba9876543210" },
    { "BufferSize", "4096" },
    { "MaximumBuffers", "4294967295" },
    { "LogFileMode", "FILE_MODE_NEWFILE|0x40000000" },
    { "EnableFlags", "0x12345678" },
    { "AgeLimit", "-5" },
    { "EventsLost", "3" },
    { "LoggerThreadId", "0x11223344" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_true (etl_session_set_field (s, sets[i][0], sets[i][1], &error));
      g_assert_no_error (error);
    }
  return s;
}

static void
check_round_trip (EtlSession *s)
{
  for (int arch = ETL_SESSION_ARCH_X64; arch <= ETL_SESSION_ARCH_X86; arch++)
    {
      g_autoptr (GBytes) b = etl_session_encode (s, arch);
      g_autoptr (GError) error = NULL;
      gsize len;
      const guint8 *d = g_bytes_get_data (b, &len);
      g_autoptr (EtlSession) back = etl_session_decode (d, len, arch, &error);
      g_autoptr (GBytes) again = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (back);
      /* The encoder always adds WNODE_FLAG_TRACED_GUID. */
      s->wnode_flags |= ETL_WNODE_FLAG_TRACED_GUID;
      g_assert_true (etl_session_equal (s, back));
      again = etl_session_encode (back, arch);
      g_assert_true (g_bytes_equal (b, again));
    }
}

static void
test_round_trip (void)
{
  for (const char *const *p = etl_session_preset_names (); *p; p++)
    {
      g_autoptr (EtlSession) s = etl_session_new_preset (*p, NULL);

      check_round_trip (s);
    }
  {
    g_autoptr (EtlSession) s = tricky_session ();
    g_autoptr (EtlSession) empty = etl_session_new ();

    check_round_trip (s);
    check_round_trip (empty);
  }
  /* x86 keeps only the low 32 bits of LoggerThreadId. */
  {
    g_autoptr (EtlSession) s = etl_session_new ();
    g_autoptr (GBytes) b = NULL;
    g_autoptr (EtlSession) back = NULL;

    s->logger_thread_id = G_GUINT64_CONSTANT (0x1122334455667788);
    b = etl_session_encode (s, ETL_SESSION_ARCH_X86);
    back = etl_session_decode (g_bytes_get_data (b, NULL), g_bytes_get_size (b), ETL_SESSION_ARCH_X86, NULL);
    g_assert_cmphex (back->logger_thread_id, ==, 0x55667788);
  }
}

static void
test_decode_errors (void)
{
  g_autoptr (EtlSession) s = etl_session_new_preset ("low-overhead-file", NULL);
  g_autoptr (GBytes) b = etl_session_encode (s, ETL_SESSION_ARCH_X64);
  gsize len;
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (b, &len), g_bytes_get_size (b));
  g_autoptr (GError) error = NULL;
  EtlSession *bad;

  bad = etl_session_decode (d, 100, ETL_SESSION_ARCH_X64, &error);
  g_assert_null (bad);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED);
  g_clear_error (&error);

  bad = etl_session_decode (d, len - 1, ETL_SESSION_ARCH_X64, &error); /* BufferSize > len */
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED);
  g_clear_error (&error);

  d[116] = 8; /* LoggerNameOffset inside the structure */
  bad = etl_session_decode (d, len, ETL_SESSION_ARCH_X64, &error);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_LAYOUT);
  g_clear_error (&error);
  d[116] = 120;

  d[len - 1] = 'x'; /* the last string loses its NUL */
  bad = etl_session_decode (d, len, ETL_SESSION_ARCH_X64, &error);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED);
  g_clear_error (&error);
  d[len - 1] = 0;

  d[0] = 16; /* Wnode.BufferSize smaller than the structure */
  d[1] = 0;
  bad = etl_session_decode (d, len, ETL_SESSION_ARCH_X64, &error);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_LAYOUT);
  g_assert_null (bad);
}

static void
test_set_field (void)
{
  g_autoptr (EtlSession) s = etl_session_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (etl_session_set_field (s, "LogFileMode", "EVENT_TRACE_FILE_MODE_CIRCULAR|real_time_mode|0x10", &error));
  g_assert_no_error (error);
  g_assert_cmphex (s->log_file_mode, ==, 0x00000112);
  text = etl_session_get_field (s, "LogFileMode");
  g_assert_cmpstr (text, ==, "EVENT_TRACE_FILE_MODE_CIRCULAR|EVENT_TRACE_REAL_TIME_MODE|0x00000010");
  g_clear_pointer (&text, g_free);

  g_assert_true (etl_session_set_field (s, "EnableFlags", "PROCESS, THREAD + EVENT_TRACE_FLAG_IMAGE_LOAD", &error));
  g_assert_cmphex (s->enable_flags, ==, 7);
  g_assert_true (etl_session_set_field (s, "Wnode.Guid", "GlobalLoggerGuid", &error));
  g_assert_cmphex (s->wnode_guid.data1, ==, 0xe8908abc);
  g_assert_true (etl_session_set_field (s, "Wnode.ClientContext", "cpu-cycle", &error));
  g_assert_cmpuint (s->wnode_client_context, ==, 3);
  g_assert_true (etl_session_set_field (s, "FlushThreshold", "-3", &error));
  g_assert_cmpint (s->age_limit, ==, -3);
  g_assert_true (etl_session_set_field (s, "MaximumFileSize", "0x100", &error));
  g_assert_cmpuint (s->maximum_file_size, ==, 256);
  g_assert_no_error (error);

  g_assert_false (etl_session_set_field (s, "BufferSize", "-1", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (etl_session_set_field (s, "BufferSize", "4294967296", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (etl_session_set_field (s, "LogFileMode", "NOT_A_MODE", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (etl_session_set_field (s, "Wnode.Guid", "{nope}", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (etl_session_set_field (s, "Bogus", "1", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_UNKNOWN_FIELD);
  g_clear_error (&error);
  g_assert_false (etl_session_set_field (s, "LoggerNameOffset", "1", &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);
  g_clear_error (&error);
}

/* ------------------------------------------------------------------------ */
/* Rules: one failing and one passing case each.                            */

typedef struct
{
  const char *rule;
  const char *fail;
  const char *pass;
} RuleCase;

#define KERNEL "LoggerName=NT Kernel Logger;Wnode.Guid=SystemTraceControlGuid;"
#define PRIV_GUID "Wnode.Guid={11111111-2222-3333-4444-555555555555};"

/* Applied to the low-overhead-file preset (a clean file session) with 8 processors. */
static const RuleCase rule_cases[] = {
  { "buffer-size-range", "BufferSize=2", "BufferSize=64" },
  { "buffer-size-before-windows-8", "BufferSize=2048", "BufferSize=1024" },
  { "buffer-size-diagnostic-only", "BufferSize=256", "BufferSize=128" },
  { "buffer-size-large-events", "BufferSize=128", "BufferSize=64" },
  { "minimum-buffers-raised", "MinimumBuffers=4", "MinimumBuffers=16" },
  { "maximum-buffers-raised", "MaximumBuffers=4", "MaximumBuffers=16" },
  { "maximum-buffers-ignored", "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;MaximumBuffers=60",
    "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;MaximumBuffers=30" },
  { "buffering-memory-budget", "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=0;MaximumBuffers=0",
    "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;MaximumBuffers=0" },
  { "maximum-file-size-required", "LogFileMode=FILE_MODE_CIRCULAR;MaximumFileSize=0",
    "LogFileMode=FILE_MODE_CIRCULAR;MaximumFileSize=100" },
  { "maximum-file-size-kbytes", "LogFileMode=FILE_MODE_SEQUENTIAL|USE_KBYTES_FOR_SIZE;MaximumFileSize=512",
    "LogFileMode=FILE_MODE_SEQUENTIAL;MaximumFileSize=512" },
  { "system-drive-free-space", "LogFileName=a.etl", "LogFileName=;LogFileMode=REAL_TIME_MODE;FlushTimer=5" },
  { "enable-flags-system-logger-only", "EnableFlags=PROCESS",
    "EnableFlags=PROCESS;LogFileMode=FILE_MODE_SEQUENTIAL|SYSTEM_LOGGER_MODE" },
  { "disk-file-io-needs-disk-io", KERNEL "EnableFlags=DISK_FILE_IO", KERNEL "EnableFlags=DISK_FILE_IO|DISK_IO" },
  { "enable-flags-reserved", KERNEL "EnableFlags=PROCESS|0x80000000", KERNEL "EnableFlags=PROCESS" },
  { "enable-flags-min-windows", KERNEL "EnableFlags=JOB", KERNEL "EnableFlags=PROCESS|CSWITCH" },
  { "log-file-mode-reserved", "LogFileMode=FILE_MODE_SEQUENTIAL|0x00100000", "LogFileMode=FILE_MODE_SEQUENTIAL" },
  { "log-file-mode-min-windows", "LogFileMode=FILE_MODE_SEQUENTIAL|COMPRESSED_MODE",
    "LogFileMode=FILE_MODE_SEQUENTIAL|USE_KBYTES_FOR_SIZE" },
  { "file-modes-exclusive", "LogFileMode=FILE_MODE_SEQUENTIAL|FILE_MODE_CIRCULAR;MaximumFileSize=100",
    "LogFileMode=FILE_MODE_CIRCULAR;MaximumFileSize=100" },
  { "append-needs-sequential", "LogFileMode=FILE_MODE_CIRCULAR|FILE_MODE_APPEND;MaximumFileSize=100",
    "LogFileMode=FILE_MODE_SEQUENTIAL|FILE_MODE_APPEND" },
  { "newfile-needs-pattern", "LogFileMode=FILE_MODE_NEWFILE;MaximumFileSize=100;LogFileName=t.etl",
    "LogFileMode=FILE_MODE_NEWFILE;MaximumFileSize=100;LogFileName=t%d.etl" },
  { "file-mode-needs-file", "LogFileName=;LogFileMode=FILE_MODE_SEQUENTIAL|REAL_TIME_MODE",
    "LogFileName=;LogFileMode=REAL_TIME_MODE" },
  { "no-destination", "LogFileName=;LogFileMode=0", "LogFileName=;LogFileMode=REAL_TIME_MODE" },
  { "real-time-needs-consumer", "LogFileMode=REAL_TIME_MODE", "LogFileMode=FILE_MODE_SEQUENTIAL" },
  { "real-time-and-file", "LogFileMode=REAL_TIME_MODE", "LogFileName=;LogFileMode=REAL_TIME_MODE" },
  { "private-in-proc-needs-private-logger", "LogFileMode=FILE_MODE_SEQUENTIAL|PRIVATE_IN_PROC",
    PRIV_GUID "LogFileMode=FILE_MODE_SEQUENTIAL|PRIVATE_IN_PROC|PRIVATE_LOGGER_MODE" },
  { "sequence-modes-exclusive", "LogFileMode=FILE_MODE_SEQUENTIAL|USE_GLOBAL_SEQUENCE|USE_LOCAL_SEQUENCE",
    "LogFileMode=FILE_MODE_SEQUENTIAL|USE_GLOBAL_SEQUENCE" },
  { "private-logger-guid", "LogFileMode=FILE_MODE_SEQUENTIAL|PRIVATE_LOGGER_MODE",
    PRIV_GUID "LogFileMode=FILE_MODE_SEQUENTIAL|PRIVATE_LOGGER_MODE" },
  { "private-logger-file-name", PRIV_GUID "LogFileMode=FILE_MODE_SEQUENTIAL|PRIVATE_LOGGER_MODE",
    PRIV_GUID "LogFileMode=FILE_MODE_SEQUENTIAL" },
  { "kernel-logger-guid", "LoggerName=NT Kernel Logger", KERNEL "BufferSize=64" },
  { "flush-timer-file", "FlushTimer=1", "FlushTimer=0" },
  { "flush-timer-real-time", "LogFileName=;LogFileMode=REAL_TIME_MODE;FlushTimer=0",
    "LogFileName=;LogFileMode=REAL_TIME_MODE;FlushTimer=5" },
  { "flush-timer-buffering", "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;FlushTimer=1",
    "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;FlushTimer=0" },
  { "logger-name-empty", "LoggerName=", "LoggerName=Contoso Disk Session" },
  { "logger-name-length", "LoggerName=@1025", "LoggerName=@1024" },
  { "logger-name-guid", "LoggerName=Session {12345678-9abc-def0-1122-334455667788}",
    "LoggerName=Contoso Disk Session" },
  { "logger-name-digits", "LoggerName=Session 4711081", "LoggerName=Session 2024" },
  { "log-file-name-length", "LogFileName=@1025", "LogFileName=@1024" },
  { "log-file-extension", "LogFileName=trace.log", "LogFileName=TRACE.ETL" },
  { "clock-range", "Wnode.ClientContext=4", "Wnode.ClientContext=1" },
  { "clock-cpu-cycle", "Wnode.ClientContext=3", "Wnode.ClientContext=1" },
  { "clock-system-time", "Wnode.ClientContext=2", "Wnode.ClientContext=1" },
  { "wnode-flags-traced-guid", "Wnode.Flags=0", "Wnode.Flags=WNODE_FLAG_TRACED_GUID" },
  { "age-limit-unused", "AgeLimit=15", "AgeLimit=0" },
  { "output-fields-set", "EventsLost=3", "EventsLost=0" },
};

/* "@N" stands for a name of N characters (".etl" included for LogFileName). */
static void
apply_sets (EtlSession *s, const char *sets)
{
  g_auto (GStrv) parts = g_strsplit (sets, ";", -1);

  for (guint i = 0; parts[i]; i++)
    {
      char *eq = strchr (parts[i], '=');
      g_autoptr (GError) error = NULL;
      g_autofree char *value = NULL;

      if (parts[i][0] == '\0')
        continue;
      g_assert_nonnull (eq);
      *eq = '\0';
      if (eq[1] == '@')
        {
          guint n = (guint) atoi (eq + 2);
          GString *v = g_string_new (NULL);

          for (guint k = 0; k < n; k++)
            g_string_append_c (v, 'a');
          if (g_str_equal (parts[i], "LogFileName"))
            memcpy (v->str + n - 4, ".etl", 4);
          value = g_string_free (v, FALSE);
        }
      else
        value = g_strdup (eq + 1);
      g_assert_true (etl_session_set_field (s, parts[i], value, &error));
      g_assert_no_error (error);
    }
}

static gboolean
has_rule (const EtlSession *s, const char *rule, EtlSessionField *field)
{
  g_autoptr (GPtrArray) diags = etl_session_check (s, N_CPUS);

  for (guint i = 0; i < diags->len; i++)
    {
      const EtlSessionDiagnostic *d = g_ptr_array_index (diags, i);

      g_assert_nonnull (d->message);
      g_assert_cmpstr (d->message, !=, "");
      if (g_str_equal (d->rule, rule))
        {
          if (field)
            *field = d->field;
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_rule (gconstpointer data)
{
  const RuleCase *c = data;
  g_autoptr (EtlSession) failing = etl_session_new_preset ("low-overhead-file", NULL);
  g_autoptr (EtlSession) passing = etl_session_new_preset ("low-overhead-file", NULL);
  EtlSessionField field = ETL_SESSION_N_FIELDS;

  apply_sets (failing, c->fail);
  apply_sets (passing, c->pass);
  g_assert_true (has_rule (failing, c->rule, &field));
  g_assert_cmpint (field, <, ETL_SESSION_N_FIELDS);
  g_assert_false (has_rule (passing, c->rule, NULL));
}

static void
test_rules_covered (void)
{
  guint n;
  const char *const *rules = etl_session_rules (&n);

  g_assert_cmpuint (n, ==, G_N_ELEMENTS (rule_cases));
  for (guint i = 0; i < n; i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (rule_cases); k++)
        found |= g_str_equal (rules[i], rule_cases[k].rule);
      if (!found)
        g_test_message ("rule %s has no test case", rules[i]);
      g_assert_true (found);
    }
}

static void
test_rule_fields_and_severities (void)
{
  g_autoptr (EtlSession) s = etl_session_new_preset ("low-overhead-file", NULL);
  g_autoptr (GPtrArray) diags = NULL;
  const EtlSessionDiagnostic *d;

  apply_sets (s, "LogFileMode=FILE_MODE_CIRCULAR;MaximumFileSize=0;BufferSize=512");
  diags = etl_session_check (s, N_CPUS);
  g_assert_cmpuint (diags->len, >=, 2);
  d = g_ptr_array_index (diags, 0); /* errors first */
  g_assert_cmpint (d->severity, ==, ETL_SESSION_SEVERITY_ERROR);
  g_assert_cmpint (d->field, ==, ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE);
  g_assert_nonnull (strstr (d->message, "EVENT_TRACE_FILE_MODE_CIRCULAR"));
  g_assert_true (etl_session_diagnostics_have_errors (diags));
}

static void
test_presets_clean (void)
{
  for (const char *const *p = etl_session_preset_names (); *p; p++)
    {
      g_autoptr (EtlSession) s = etl_session_new_preset (*p, NULL);
      g_autoptr (GPtrArray) diags = etl_session_check (s, N_CPUS);

      g_assert_nonnull (etl_session_preset_description (*p));
      for (guint i = 0; i < diags->len; i++)
        {
          const EtlSessionDiagnostic *d = g_ptr_array_index (diags, i);

          if (d->severity != ETL_SESSION_SEVERITY_INFO)
            g_test_message ("%s: %s: %s", *p, d->rule, d->message);
          g_assert_cmpint (d->severity, ==, ETL_SESSION_SEVERITY_INFO);
        }
    }
  {
    g_autoptr (GError) error = NULL;

    g_assert_null (etl_session_new_preset ("nope", &error));
    g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_PRESET);
  }
}

static void
test_effective (void)
{
  g_autoptr (EtlSession) s = etl_session_new_preset ("low-overhead-file", NULL);
  EtlSessionEffective eff;

  apply_sets (s, "MinimumBuffers=4;MaximumBuffers=8;BufferSize=32");
  etl_session_effective (s, 8, &eff);
  g_assert_cmpuint (eff.minimum_buffers, ==, 16);
  g_assert_cmpuint (eff.maximum_buffers, ==, 16);
  g_assert_cmpuint (eff.reserved_bytes, ==, 16 * 32 * 1024);
  g_assert_cmpuint (eff.flush_timer_s, ==, 0);
  g_assert_cmpuint (eff.clock, ==, 1);

  apply_sets (s, "LogFileMode=FILE_MODE_SEQUENTIAL|NO_PER_PROCESSOR_BUFFERING;MinimumBuffers=0;MaximumBuffers=0");
  etl_session_effective (s, 8, &eff);
  g_assert_cmpuint (eff.minimum_buffers, ==, 2);
  g_assert_cmpuint (eff.maximum_buffers, ==, 2);

  apply_sets (s, "LogFileName=;LogFileMode=BUFFERING_MODE;MinimumBuffers=30;MaximumBuffers=100");
  etl_session_effective (s, 4, &eff);
  g_assert_cmpuint (eff.minimum_buffers, ==, 30);
  g_assert_cmpuint (eff.maximum_buffers, ==, 30); /* ignored in buffering mode */
  g_assert_cmpuint (eff.maximum_bytes, ==, 30 * 32 * 1024);

  apply_sets (s, "LogFileMode=REAL_TIME_MODE;FlushTimer=0;Wnode.ClientContext=0");
  etl_session_effective (s, 4, &eff);
  g_assert_cmpuint (eff.flush_timer_s, ==, 1);
  g_assert_cmpuint (eff.clock, ==, 1);

  apply_sets (s, "LogFileMode=FILE_MODE_CIRCULAR|USE_KBYTES_FOR_SIZE;MaximumFileSize=512");
  etl_session_effective (s, 4, &eff);
  g_assert_cmpuint (eff.max_file_bytes, ==, 512 * 1024);
}

static void
test_calculator (void)
{
  g_assert_cmpuint (etl_session_buffers_for_rate (16, 60, 32), ==, 30); /* the documented example */
  g_assert_cmpuint (etl_session_buffers_for_rate (16, 61, 32), ==, 31);
  g_assert_cmpuint (etl_session_buffers_for_rate (0.1, 3, 64), ==, 1);
  g_assert_cmpuint (etl_session_buffers_for_rate (0, 60, 32), ==, 0);
  g_assert_cmpuint (etl_session_buffers_for_rate (1e12, 1e6, 4), ==, G_MAXUINT32);
}

/* ------------------------------------------------------------------------ */

static void
test_quote (void)
{
  static const char *const cases[][2] = {
    { "plain", "plain" },
    { "", "\"\"" },
    { "NT Kernel Logger", "\"NT Kernel Logger\"" },
    { "a\"b", "\"a\\\"b\"" },
    { "C:\\dir with space\\", "\"C:\\dir with space\\\\\"" },
    { "C:\\no\\space", "C:\\no\\space" },
    { "a\\\\\"b c", "\"a\\\\\\\\\\\"b c\"" },
    { "x&y", "\"x&y\"" },
    { "trace%d.etl", "trace%d.etl" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *q = etl_session_quote_arg (cases[i][0]);

      g_assert_cmpstr (q, ==, cases[i][1]);
    }
}

static void
test_export_commands (void)
{
  g_autoptr (EtlSession) k = etl_session_new_preset ("kernel-basics", NULL);
  g_autoptr (EtlSession) c = etl_session_new_preset ("low-overhead-file", NULL);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *logman = NULL, *xperf = NULL, *tracelog = NULL;

  logman = etl_session_export_logman (k, notes);
  g_assert_cmpstr (logman, ==,
                   "logman create trace \"NT Kernel Logger\" -p \"Windows Kernel Trace\" 0x00000007 -o kernel.etl "
                   "-bs 64 -nb 64 64 -f bin -ct perf");
  xperf = etl_session_export_xperf (k, notes);
  g_assert_cmpstr (xperf, ==,
                   "xperf -on PROC_THREAD+LOADER -f kernel.etl -BufferSize 64 -MinBuffers 64 -MaxBuffers 64 "
                   "-FileMode Sequential -ClockType PerfCounter");
  tracelog = etl_session_export_tracelog (k, notes);
  g_assert_cmpstr (tracelog, ==,
                   "tracelog -start \"NT Kernel Logger\" -f kernel.etl -b 64 -min 64 -max 64 -seq 0 -UsePerfCounter "
                   "-flag 0x00000007");
  g_assert_cmpuint (notes->len, ==, 0);

  apply_sets (c, "LoggerName=My \"odd\" session;LogFileName=C:\\my traces\\c.etl;"
                 "LogFileMode=FILE_MODE_CIRCULAR|USE_KBYTES_FOR_SIZE|REAL_TIME_MODE|SECURE_MODE;"
                 "MaximumFileSize=1500;FlushTimer=5;Wnode.ClientContext=2");
  g_clear_pointer (&logman, g_free);
  logman = etl_session_export_logman (c, notes);
  g_assert_cmpstr (logman, ==,
                   "logman create trace \"My \\\"odd\\\" session\" -o \"C:\\my traces\\c.etl\" -bs 16 -nb 16 16 "
                   "-max 2 -ft 5 -f bincirc -rt -ct system");
  /* KB rounded up to MB, and SECURE_MODE has no logman option */
  g_assert_cmpuint (notes->len, ==, 2);
  g_clear_pointer (&xperf, g_free);
  xperf = etl_session_export_xperf (c, notes);
  g_assert_nonnull (strstr (xperf, "-start \"My \\\"odd\\\" session\""));
  g_assert_nonnull (strstr (xperf, "-FileMode Circular"));
  g_assert_nonnull (strstr (xperf, "-RealTime"));
  g_clear_pointer (&tracelog, g_free);
  tracelog = etl_session_export_tracelog (c, notes);
  g_assert_nonnull (strstr (tracelog, "-cir 2"));
  g_assert_nonnull (strstr (tracelog, "-UseSystemTime"));
}

static void
test_export_c (void)
{
  g_autoptr (EtlSession) k = etl_session_new_preset ("kernel-basics", NULL);
  g_autofree char *code = etl_session_export_c (k);

  g_assert_nonnull (strstr (code, "props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;"));
  g_assert_nonnull (strstr (code, "EVENT_TRACE_FLAG_PROCESS"));
  g_assert_nonnull (strstr (code, "props->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;"));
  g_assert_nonnull (strstr (code, "SystemTraceControlGuid"));
  g_assert_nonnull (strstr (code, "StartTraceW"));
  /* The byte-for-byte proof is tests/mingw/check-mingw.sh (meson test session-mingw). */
}

static void
test_ini (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "preset.ini", NULL);
  g_autoptr (EtlSession) s = tricky_session ();
  g_autoptr (EtlSession) back = NULL;
  g_autoptr (GError) error = NULL;

  /* counters and reserved fields are not saved in presets */
  s->events_lost = 0;
  s->logger_thread_id = 0;
  s->wnode_provider_id = 0;
  s->wnode_historical_context = 0;
  s->wnode_time_stamp = 0;
  g_assert_true (etl_session_save_ini (s, path, &error));
  g_assert_no_error (error);
  back = etl_session_load_ini (path, &error);
  g_assert_no_error (error);
  g_assert_true (etl_session_equal (s, back));

  g_assert_true (g_file_set_contents (path, "[Other]\nx=1\n", -1, NULL));
  g_clear_pointer (&back, etl_session_free);
  back = etl_session_load_ini (path, &error);
  g_assert_null (back);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_PRESET);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "[EVENT_TRACE_PROPERTIES]\nBufferSize=lots\n", -1, NULL));
  back = etl_session_load_ini (path, &error);
  g_assert_null (back);
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_control_unsupported (void)
{
#ifdef G_OS_WIN32
  g_test_skip ("real sessions are not started by the test suite");
#else
  g_autoptr (EtlSession) s = etl_session_new_preset ("real-time", NULL);
  g_autoptr (GError) error = NULL;
  guint64 handle = 0;

  g_assert_false (etl_session_control_supported ());
  g_assert_false (etl_session_start (s, &handle, &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_null (etl_session_control (0, "x", ETL_EVENT_TRACE_CONTROL_QUERY, &error));
  g_assert_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_NOT_SUPPORTED);
#endif
}

/* ------------------------------------------------------------------------ */
/* etlscope-cli session                                                     */

static gboolean
run_cli (const char *const *args, char **out, gsize *out_len, char **err, int *status)
{
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GBytes) stdout_b = NULL;
  g_autoptr (GBytes) stderr_b = NULL;

  if (cli == NULL)
    return FALSE;
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "session");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &stdout_b, &stderr_b, &error));
  g_assert_no_error (error);
  *out = g_malloc (g_bytes_get_size (stdout_b) + 1); /* binary output may contain NULs */
  if (g_bytes_get_size (stdout_b) > 0)
    memcpy (*out, g_bytes_get_data (stdout_b, NULL), g_bytes_get_size (stdout_b));
  (*out)[g_bytes_get_size (stdout_b)] = '\0';
  if (out_len)
    *out_len = g_bytes_get_size (stdout_b);
  *err = g_strndup (g_bytes_get_data (stderr_b, NULL), g_bytes_get_size (stderr_b));
  *status = g_subprocess_get_exit_status (proc);
  return TRUE;
}

static void
test_cli (void)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;
  gsize len;

  {
    const char *args[] = { "--help", NULL };

    if (!run_cli (args, &out, &len, &err, &status))
      {
        g_test_skip ("ETLSCOPE_CLI not set");
        return;
      }
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "--emit"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* lint: one JSON object per line, exit 1 on an error */
  {
    const char *args[] = { "--preset", "low-overhead-file", "--set", "LogFileMode=FILE_MODE_CIRCULAR",
                           "--set", "MaximumFileSize=0", "--emit", "lint", "--cpus", "8", NULL };
    g_auto (GStrv) lines = NULL;
    gboolean found = FALSE;

    g_assert_true (run_cli (args, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 1);
    lines = g_strsplit (out, "\n", -1);
    for (guint i = 0; lines[i] && lines[i][0]; i++)
      {
        g_autoptr (JsonNode) node = json_from_string (lines[i], NULL);
        JsonObject *o;

        g_assert_nonnull (node);
        o = json_node_get_object (node);
        g_assert_true (json_object_has_member (o, "severity"));
        g_assert_true (json_object_has_member (o, "message"));
        if (g_str_equal (json_object_get_string_member (o, "field"), "MaximumFileSize")
            && g_str_equal (json_object_get_string_member (o, "severity"), "error"))
          found = TRUE;
      }
    g_assert_true (found);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* a later --set wins; lint clean exits 0 */
  {
    const char *args[] = { "--preset", "low-overhead-file", "--set", "BufferSize=2", "--set", "BufferSize=32",
                           "--emit", "lint", "--cpus", "8", NULL };

    g_assert_true (run_cli (args, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_null (strstr (out, "BufferSize"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* layout */
  {
    const char *args[] = { "--preset", "kernel-basics", "--emit", "layout", "--arch", "x86", NULL };
    g_autoptr (JsonNode) node = NULL;
    JsonObject *o, *f;

    g_assert_true (run_cli (args, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    node = json_from_string (out, NULL);
    g_assert_nonnull (node);
    o = json_node_get_object (node);
    f = json_object_get_object_member (o, "LoggerNameOffset");
    g_assert_cmpint (json_object_get_int_member (f, "offset"), ==, 112);
    f = json_object_get_object_member (o, "Wnode.Guid");
    g_assert_cmpint (json_object_get_int_member (f, "offset"), ==, 24);
    g_assert_cmpint (json_object_get_int_member (f, "size"), ==, 16);
    f = json_object_get_object_member (o, "LogFileName");
    g_assert_cmpint (json_object_get_int_member (f, "offset"), ==, 120 + 34);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* binary to stdout and to -o FILE */
  {
    g_autofree char *dir = g_dir_make_tmp ("etl-cli-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "props.bin", NULL);
    const char *args[] = { "--preset", "real-time", "--set", "Wnode.Guid=SystemTraceControlGuid",
                           "--emit", "binary", "--arch", "x64", NULL };
    const char *args_o[] = { "--preset", "real-time", "--set", "Wnode.Guid=SystemTraceControlGuid",
                             "--emit", "binary", "-o", path, NULL };
    g_autoptr (EtlSession) s = etl_session_new_preset ("real-time", NULL);
    g_autoptr (GBytes) expected = NULL;
    g_autofree char *file = NULL;
    gsize file_len;

    s->wnode_guid = etl_system_trace_control_guid;
    expected = etl_session_encode (s, ETL_SESSION_ARCH_X64);
    g_assert_true (run_cli (args, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpmem (out, len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (run_cli (args_o, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpuint (len, ==, 0);
    g_assert_true (g_file_get_contents (path, &file, &file_len, NULL));
    g_assert_cmpmem (file, file_len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
    g_unlink (path);
    g_rmdir (dir);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* ini round trip through --load */
  {
    g_autofree char *dir = g_dir_make_tmp ("etl-cli-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "p.ini", NULL);
    const char *args[] = { "--preset", "in-memory-circular", "--emit", "ini", "-o", path, NULL };
    const char *args_load[] = { "--load", path, "--emit", "xperf", NULL };

    g_assert_true (run_cli (args, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (run_cli (args_load, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (out, ==,
                     "xperf -start \"Etlscope Flight Recorder\" -BufferSize 32 -MinBuffers 30 -MaxBuffers 30 "
                     "-ClockType PerfCounter -Buffering\n");
    g_unlink (path);
    g_rmdir (dir);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* usage errors */
  {
    const char *bad_field[] = { "--set", "Nope=1", "--emit", "c", NULL };
    const char *bad_emit[] = { "--emit", "pdf", NULL };

    g_assert_true (run_cli (bad_field, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "Nope"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (run_cli (bad_emit, &out, &len, &err, &status));
    g_assert_cmpint (status, ==, 2);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/session/layout/table", test_layout_table);
  g_test_add_func ("/etl/session/tables", test_tables);
  g_test_add_func ("/etl/session/encode/documented-allocation", test_encode_documented_allocation);
  g_test_add_func ("/etl/session/encode/round-trip", test_round_trip);
  g_test_add_func ("/etl/session/decode/errors", test_decode_errors);
  g_test_add_func ("/etl/session/set-field", test_set_field);
  g_test_add_func ("/etl/session/rules/covered", test_rules_covered);
  for (guint i = 0; i < G_N_ELEMENTS (rule_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/etl/session/rules/%s", rule_cases[i].rule);

      g_test_add_data_func (path, &rule_cases[i], test_rule);
    }
  g_test_add_func ("/etl/session/rules/order-and-field", test_rule_fields_and_severities);
  g_test_add_func ("/etl/session/presets", test_presets_clean);
  g_test_add_func ("/etl/session/effective", test_effective);
  g_test_add_func ("/etl/session/calculator", test_calculator);
  g_test_add_func ("/etl/session/export/quote", test_quote);
  g_test_add_func ("/etl/session/export/commands", test_export_commands);
  g_test_add_func ("/etl/session/export/c", test_export_c);
  g_test_add_func ("/etl/session/ini", test_ini);
  g_test_add_func ("/etl/session/control/unsupported", test_control_unsupported);
  g_test_add_func ("/etl/session/cli", test_cli);

  return g_test_run ();
}
