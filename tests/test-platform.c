/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-platform: what differs between POSIX and Windows, checked on both
 * (tests/windows/run.sh runs this under Wine).  Each test failed under Wine
 * before its fix:
 *
 * - files written by EtlWriter are binary: the bytes on disk are exactly the
 *   buffers written (text mode turned 0x0A into 0x0D 0x0A and lost records);
 * - `slice -o` onto an existing file that is not an input works, and onto an
 *   input is refused even when spelled differently (stat()'s st_ino is 0 on
 *   Windows, so comparing it called every file the same);
 * - etlscope-cli's stdout is binary: `session --emit binary` prints exactly
 *   the bytes `-o` writes, and text output has LF line ends, no CR;
 * - etlscope-cli takes file names outside ASCII and outside the ANSI code
 *   page from the command line (Windows passes main()'s argv in the ANSI
 *   code page; the CLI reads the UTF-16 command line).  tests/windows/run.sh
 *   runs Wine under en_US.UTF-8, whose ANSI code page is 1252.
 *
 * On Windows the CLI is started the way a shell starts it (CreateProcessW
 * with pipe handles, see run_cli()), not with GLib's spawn.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-writer.h"

#ifdef G_OS_WIN32
#include <windows.h>
#endif

static char *
make_tmp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("etlscope-platform-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      g_unlink (p);
    }
  g_rmdir (dir);
}

static EtlTrace *
open_one (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

#ifdef G_OS_WIN32
static GBytes *
read_pipe (HANDLE pipe)
{
  GByteArray *data = g_byte_array_new ();
  guint8 chunk[4096];
  DWORD n;

  while (ReadFile (pipe, chunk, sizeof chunk, &n, NULL) && n > 0)
    g_byte_array_append (data, chunk, n);
  return g_byte_array_free_to_bytes (data);
}

/* Starts the CLI as a shell does: CreateProcessW with pipe handles and
 * nothing else, so its C runtime starts stdout in its default mode.  GLib's
 * spawn tells the child's C runtime that its descriptors are binary, which
 * would hide a CLI that leaves stdout in text mode. */
static int
run_cli (const char *const *args, GBytes **out, char **err)
{
  SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
  STARTUPINFOW si = { 0 };
  PROCESS_INFORMATION pi = { 0 };
  HANDLE out_r, out_w, err_r, err_w, nul;
  g_autoptr (GString) cmd = g_string_new (NULL);
  g_autofree gunichar2 *wcmd = NULL;
  g_autoptr (GBytes) err_bytes = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  DWORD status = 0;

  g_assert_nonnull (cli);
  g_string_append_printf (cmd, "\"%s\"", cli);
  for (guint i = 0; args[i] != NULL; i++)
    {
      g_assert_null (strchr (args[i], '"'));
      g_string_append_printf (cmd, " \"%s\"", args[i]);
    }
  wcmd = g_utf8_to_utf16 (cmd->str, -1, NULL, NULL, NULL);
  g_assert_nonnull (wcmd);
  g_assert_true (CreatePipe (&out_r, &out_w, &sa, 0));
  g_assert_true (CreatePipe (&err_r, &err_w, &sa, 0));
  SetHandleInformation (out_r, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation (err_r, HANDLE_FLAG_INHERIT, 0);
  nul = CreateFileW (L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
  g_assert_true (nul != INVALID_HANDLE_VALUE);
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = nul;
  si.hStdOutput = out_w;
  si.hStdError = err_w;
  g_assert_true (CreateProcessW (NULL, wcmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi));
  CloseHandle (out_w);
  CloseHandle (err_w);
  CloseHandle (nul);
  /* The tests' stderr is a few lines: it fits the pipe while stdout drains. */
  *out = read_pipe (out_r);
  err_bytes = read_pipe (err_r);
  CloseHandle (out_r);
  CloseHandle (err_r);
  g_assert_cmpuint (WaitForSingleObject (pi.hProcess, INFINITE), ==, WAIT_OBJECT_0);
  g_assert_true (GetExitCodeProcess (pi.hProcess, &status));
  CloseHandle (pi.hProcess);
  CloseHandle (pi.hThread);
  if (err != NULL)
    *err = g_strndup (g_bytes_get_size (err_bytes) > 0 ? g_bytes_get_data (err_bytes, NULL) : "",
                      g_bytes_get_size (err_bytes));
  return (int) status;
}
#else
/* Runs etlscope-cli; returns its exit status, stdout as bytes (any content). */
static int
run_cli (const char *const *args, GBytes **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) err_bytes = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, out, &err_bytes, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  if (err != NULL)
    *err = g_strndup (g_bytes_get_size (err_bytes) > 0 ? g_bytes_get_data (err_bytes, NULL) : "",
                      g_bytes_get_size (err_bytes));
  return g_subprocess_get_exit_status (proc);
}
#endif

/* A 1,001-record synthetic trace (1,000 records and the EventTrace header):
 * the file is whole buffers, and every record reads back. */
static void
test_writer_binary (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "synth.etl", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  EtlSynthParams params;
  GStatBuf st;
  const EtlFileInfo *info;

  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.n_records = 1000;
  params.buffer_kb = 4;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  trace = open_one (path);
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (info->problems->len, ==, 0);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 1001);
  g_assert_cmpuint (info->buffer_size, ==, 4096);
  g_assert_cmpuint ((guint64) st.st_size, ==, (guint64) info->n_buffers * 4096);
  g_clear_pointer (&trace, etl_trace_unref);
  remove_dir (dir);
}

/* slice onto an existing file that is not an input: replaced. */
static void
test_slice_onto_existing (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *in = g_build_filename (dir, "in.etl", NULL);
  g_autofree char *out = g_build_filename (dir, "out.etl", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlTrace) sliced = NULL;
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_records = 5000;
  g_assert_true (etl_synth_write (&params, in, &error));
  g_assert_true (g_file_set_contents (out, "an older file", -1, &error));
  trace = open_one (in);
  g_assert_true (etl_writer_write_slice (trace, NULL, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  /* And once more, over the slice just written. */
  g_assert_true (etl_writer_write_slice (trace, NULL, out, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  sliced = open_one (out);
  g_assert_cmpuint (etl_trace_get_n_records (sliced), ==, etl_trace_get_n_records (trace));
  g_clear_pointer (&sliced, etl_trace_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  remove_dir (dir);
}

/* slice onto one of its inputs, by the same or another spelling: refused,
 * the input untouched. */
static void
test_slice_onto_input (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *in = g_build_filename (dir, "in.etl", NULL);
  g_autofree char *dotted = g_build_filename (dir, ".", "in.etl", NULL);
  g_autofree char *alias = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize len_before, len_after;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_records = 2000;
  g_assert_true (etl_synth_write (&params, in, &error));
  g_assert_true (g_file_get_contents (in, &before, &len_before, NULL));
#ifdef G_OS_WIN32
  /* NTFS names are case-insensitive. */
  alias = g_build_filename (dir, "IN.ETL", NULL);
#else
  {
    g_autoptr (GFile) link = NULL;

    alias = g_build_filename (dir, "link.etl", NULL);
    link = g_file_new_for_path (alias);
    g_assert_true (g_file_make_symbolic_link (link, in, NULL, &error));
    g_assert_no_error (error);
  }
#endif
  trace = open_one (in);
  g_assert_false (etl_writer_write_slice (trace, NULL, in, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (etl_writer_write_slice (trace, NULL, dotted, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (etl_writer_write_slice (trace, NULL, alias, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_clear_pointer (&trace, etl_trace_unref);

  g_assert_true (g_file_get_contents (in, &after, &len_after, NULL));
  g_assert_cmpmem (before, len_before, after, len_after);
  remove_dir (dir);
}

/* session --emit binary to stdout: exactly the bytes -o writes (an x64
 * EVENT_TRACE_PROPERTIES, 120 bytes, and its names). */
static void
test_stdout_binary (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "props.bin", NULL);
  g_autofree char *file_data = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (GBytes) ignored = NULL;
  gsize file_len;
  const char *to_stdout[] = { "session", "--set", "BufferSize=10", "--emit", "binary", NULL };
  const char *to_file[] = { "session", "--set", "BufferSize=10", "--emit", "binary", "-o", path, NULL };

  g_assert_cmpint (run_cli (to_stdout, &out, NULL), ==, 0);
  g_assert_cmpint (run_cli (to_file, &ignored, NULL), ==, 0);
  g_assert_true (g_file_get_contents (path, &file_data, &file_len, NULL));
  g_assert_cmpuint (file_len, >=, 120);
  /* BufferSize (KB) follows the 48-byte WNODE_HEADER: 10 is 0x0A, a byte
   * that text mode would expand to 0x0D 0x0A. */
  g_assert_cmpuint ((guint8) file_data[0x30], ==, 10);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), file_data, file_len);
  remove_dir (dir);
}

/* Text output ends lines with LF alone, on every platform. */
static void
test_stdout_lf (void)
{
  g_autofree char *corpus = etl_test_corpus_path ("primitive-types.etl");
  const char *info[] = { "info", corpus, NULL };
  const char *lint[] = { "session", "--preset", "kernel-basics", "--emit", "ini", NULL };
  const char *const *runs[] = { info, lint };

  if (corpus == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr (GBytes) out = NULL;
      gsize len;
      const char *data;

      g_assert_cmpint (run_cli (runs[i], &out, NULL), ==, 0);
      data = g_bytes_get_data (out, &len);
      g_assert_cmpuint (len, >, 0);
      g_assert_null (memchr (data, '\r', len));
      g_assert_nonnull (memchr (data, '\n', len));
    }
}

/* `info prüf€.etl` and a name outside code page 1252 (Cyrillic, Japanese)
 * reach the reader intact and are printed as UTF-8; `session -o` and
 * `--load` take such names too. */
static void
test_non_ascii_argv (void)
{
  static const char *const names[] = {
    "pr\xc3\xbc" "f\xe2\x82\xac.etl",                              /* prüf€.etl */
    "\xe6\x97\xa5\xe6\x9c\xac-\xd0\xbf\xd1\x80\xc3\xbc" "f.etl", /* 日本-прüf.etl */
  };
  g_autofree char *corpus = etl_test_corpus_path ("primitive-types.etl");
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *ini = NULL;
  gsize len;

  if (corpus == NULL)
    return;
  dir = make_tmp_dir ();
  g_assert_true (g_file_get_contents (corpus, &data, &len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *err = NULL;
      g_autofree char *text = NULL;
      g_autoptr (GBytes) out = NULL;
      const char *args[] = { "info", path, NULL };

      g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
      g_assert_cmpint (run_cli (args, &out, &err), ==, 0);
      g_assert_cmpstr (err, ==, "");
      text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
      g_assert_true (g_utf8_validate (text, -1, NULL));
      g_assert_nonnull (strstr (text, names[i]));
      g_assert_nonnull (strstr (text, "\"records\" : 7"));
    }

  ini = g_build_filename (dir, "\xd0\xbf\xd1\x80\xc3\xbc" "f\xe2\x82\xac.ini", NULL); /* прüf€.ini */
  {
    const char *save[] = { "session", "--preset", "kernel-basics", "--set", "BufferSize=10", "--emit", "ini",
                           "-o", ini, NULL };
    const char *load[] = { "session", "--load", ini, "--emit", "ini", NULL };
    g_autoptr (GBytes) out = NULL;
    g_autofree char *err = NULL;
    g_autofree char *saved = NULL;
    gsize saved_len;

    g_assert_cmpint (run_cli (save, &out, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_clear_pointer (&out, g_bytes_unref);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_file_get_contents (ini, &saved, &saved_len, NULL));
    g_assert_cmpint (run_cli (load, &out, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), saved, saved_len);
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/platform/writer-binary", test_writer_binary);
  g_test_add_func ("/etl/platform/slice-onto-existing", test_slice_onto_existing);
  g_test_add_func ("/etl/platform/slice-onto-input", test_slice_onto_input);
  g_test_add_func ("/etl/platform/stdout-binary", test_stdout_binary);
  g_test_add_func ("/etl/platform/stdout-lf", test_stdout_lf);
  g_test_add_func ("/etl/platform/non-ascii-argv", test_non_ascii_argv);

  return g_test_run ();
}
