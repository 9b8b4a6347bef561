/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Symbol servers (app/etl-symbol-server.c, app/etl-cab.c) through the
 * resolver: a symbol-store tree served by a SoupServer on 127.0.0.1 (a
 * random port, in its own thread and main context) and a synthetic trace
 * (etl_synth_write() symbols mode) whose CppCon.exe has the DbgID_RSDS
 * identity of ../shared/symbols/CppCon.pdb ({12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}
 * age 5; main at RVA 0x1000).  The server counts the requests it gets.
 *
 * Covered: downloads off never connect (0 requests); a plain .pdb, a
 * `.pd_` cabinet (MSZIP and stored, made with gcab; LZX, made by
 * tests/cab-test-util.h, and a corrupt one), a two-tier store on
 * both sides (index2.txt), 404 (remembered: a second resolver sharing the
 * client asks nothing), a wrong GUID/age, garbage answers (as .pdb and as
 * .pd_), an answer above the size limit, an answer shorter than its
 * Content-Length (a raw socket server), a slow server cancelled mid-body
 * (quick, nothing left on disk), a local `.pd_` unpacked, an https://
 * server without GIO's TLS backend (glib-networking); and the namer
 * swap of etl_stacks_set_namer_full() while another thread names frames.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "cab-test-util.h"
#include "etl-cab.h"
#include "etl-stacks.h"
#include "etl-symbol-path.h"
#include "etl-symbol-resolver.h"
#include "etl-symbol-server.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"

#define APP_BASE G_GUINT64_CONSTANT (0x0000000140000000)
#define CPPCON_KEY "12DC0A4FBD7D4F2AA9BE263BACAEB4675"
#define CPPCON_KEY6 "12DC0A4FBD7D4F2AA9BE263BACAEB4676"

typedef enum
{
  SERVE_FILES,       /* the files under root */
  SERVE_GARBAGE_PDB, /* 200 and random bytes for any .pdb */
  SERVE_GARBAGE_CAB, /* 404 for .pdb, random bytes for .pd_ */
  SERVE_SLOW,        /* .pdb: 200, chunked, 4 KiB then 1 KiB every 20 ms, forever */
} ServeMode;

typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  SoupServer *server;
  char *root;
  char *url;
  ServeMode mode;
  gint requests;
  GPtrArray *trickles; /* Trickle: the slow answers in flight (server thread) */
  GMutex lock;
  GCond cond;
  gboolean ready;
} Server;

typedef struct
{
  SoupServerMessage *msg;
  GSource *source;
  Server *server;
} Trickle;

static void
trickle_stop (Trickle *t)
{
  if (t->source != NULL)
    {
      g_source_destroy (t->source);
      g_source_unref (t->source);
      t->source = NULL;
    }
  g_ptr_array_remove (t->server->trickles, t);
}

static gboolean
trickle_more (gpointer data)
{
  Trickle *t = data;
  char chunk[1024];

  memset (chunk, 'x', sizeof chunk);
  soup_message_body_append (soup_server_message_get_response_body (t->msg), SOUP_MEMORY_COPY, chunk, sizeof chunk);
  soup_server_message_unpause (t->msg);
  return G_SOURCE_CONTINUE;
}

static void
trickle_finished (SoupServerMessage *msg, gpointer data)
{
  trickle_stop (data);
}

static void
trickle_free (gpointer data, GClosure *closure)
{
  g_free (data);
}

static void
handler (SoupServer *server, SoupServerMessage *msg, const char *path, GHashTable *query, gpointer data)
{
  Server *s = data;
  g_autofree char *file = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_atomic_int_inc (&s->requests);
  if (!g_str_has_prefix (path, "/symbols/") || strstr (path, "..") != NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  if ((s->mode == SERVE_GARBAGE_PDB && g_str_has_suffix (path, ".pdb"))
      || (s->mode == SERVE_GARBAGE_CAB && g_str_has_suffix (path, ".pd_")))
    {
      GRand *rand = g_rand_new_with_seed (22);

      len = 100000;
      contents = g_malloc (len);
      for (gsize i = 0; i < len; i++)
        contents[i] = (char)g_rand_int (rand);
      g_rand_free (rand);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_TAKE, contents, len);
      return;
    }
  if (s->mode == SERVE_SLOW && g_str_has_suffix (path, ".pdb"))
    {
      Trickle *t = g_new0 (Trickle, 1);
      char first[4096];

      memset (first, 'M', sizeof first);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg), SOUP_ENCODING_CHUNKED);
      soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_COPY, first, sizeof first);
      t->msg = msg;
      t->server = s;
      g_ptr_array_add (s->trickles, t);
      /* In the server thread's context (not the global default one). */
      t->source = g_timeout_source_new (20);
      g_source_set_callback (t->source, trickle_more, t, NULL);
      g_source_attach (t->source, g_main_context_get_thread_default ());
      g_signal_connect_data (msg, "finished", G_CALLBACK (trickle_finished), t, trickle_free, 0);
      return;
    }
  file = g_build_filename (s->root, path + strlen ("/symbols/"), NULL);
  if (g_file_test (file, G_FILE_TEST_IS_REGULAR) && g_file_get_contents (file, &contents, &len, NULL))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_TAKE, contents, len);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

static gpointer
server_thread (gpointer data)
{
  Server *s = data;
  g_autoptr (GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (s->context);
  s->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (s->server, NULL, handler, s, NULL);
  g_assert_true (soup_server_listen_local (s->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (s->server);
  g_assert_nonnull (uris);
  g_mutex_lock (&s->lock);
  s->url = g_strdup_printf ("http://127.0.0.1:%d/symbols", g_uri_get_port (uris->data));
  s->ready = TRUE;
  g_cond_signal (&s->cond);
  g_mutex_unlock (&s->lock);
  g_slist_free_full (uris, (GDestroyNotify)g_uri_unref);
  g_main_loop_run (s->loop);
  /* A slow answer cut by the client may not have finished yet. */
  while (s->trickles->len > 0)
    trickle_stop (g_ptr_array_index (s->trickles, 0));
  soup_server_disconnect (s->server);
  g_clear_object (&s->server);
  /* Let the disconnections' idle work run. */
  while (g_main_context_iteration (s->context, FALSE))
    ;
  g_main_context_pop_thread_default (s->context);
  return NULL;
}

static Server *
server_start (const char *root, ServeMode mode)
{
  Server *s = g_new0 (Server, 1);

  s->root = g_strdup (root);
  s->mode = mode;
  s->trickles = g_ptr_array_new ();
  s->context = g_main_context_new ();
  s->loop = g_main_loop_new (s->context, FALSE);
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
  s->thread = g_thread_new ("test-symbol-server", server_thread, s);
  g_mutex_lock (&s->lock);
  while (!s->ready)
    g_cond_wait (&s->cond, &s->lock);
  g_mutex_unlock (&s->lock);
  return s;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
server_stop (Server *s)
{
  g_main_context_invoke (s->context, quit_loop, s->loop);
  g_thread_join (s->thread);
  g_main_loop_unref (s->loop);
  g_main_context_unref (s->context);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->cond);
  g_ptr_array_unref (s->trickles);
  g_free (s->root);
  g_free (s->url);
  g_free (s);
}

typedef struct
{
  char *dir;     /* everything below */
  char *served;  /* the server's store */
  char *local;   /* the srv* element's DIR */
  char *trace;
  char *pdb;     /* CppCon.pdb */
  EtlTrace *etl;
  EtlStacks *stacks;
  guint64 sample; /* the record with the stack */
} Fixture;

static const EtlGuid cppcon_guid = { 0x12DC0A4F, 0xBD7D, 0x4F2A, { 0xA9, 0xBE, 0x26, 0x3B, 0xAC, 0xAE, 0xB4, 0x67 } };

/* The trace: CppCon.exe at APP_BASE with DbgID_RSDS {cppcon_guid, @age},
 * one sample at main+0x4. */
static gboolean
fixture_setup (Fixture *f, guint32 age)
{
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;
  EtlSynthModule module = { "CppCon.exe", APP_BASE, 0x100000, TRUE, cppcon_guid, age, "C:\\src\\CppCon.pdb" };
  guint64 stack[] = { APP_BASE + 0x1004, 0 };

  memset (f, 0, sizeof *f);
  f->pdb = g_build_filename (etl_test_corpus_dir (), "..", "symbols", "CppCon.pdb", NULL);
  if (!g_file_test (f->pdb, G_FILE_TEST_IS_REGULAR))
    {
      g_clear_pointer (&f->pdb, g_free);
      etl_test_corpus_missing ("../symbols/CppCon.pdb");
      return FALSE;
    }
  f->dir = g_dir_make_tmp ("etlscope-symsrv-XXXXXX", &error);
  g_assert_no_error (error);
  f->served = g_build_filename (f->dir, "served", NULL);
  f->local = g_build_filename (f->dir, "local", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->served, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (f->local, 0755), ==, 0);
  f->trace = g_build_filename (f->dir, "symbols.etl", NULL);
  etl_synth_params_init (&params);
  params.symbol_modules = &module;
  params.n_symbol_modules = 1;
  params.symbol_stacks = stack;
  params.n_symbol_stacks = G_N_ELEMENTS (stack);
  g_assert_true (etl_synth_write (&params, f->trace, &error));
  g_assert_no_error (error);
  {
    const char *paths[] = { f->trace, NULL };

    f->etl = etl_trace_open (paths, NULL, NULL, NULL, &error);
  }
  g_assert_no_error (error);
  f->stacks = etl_stacks_compute (f->etl, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_stacks_get_n_modules (f->stacks), ==, 1);
  f->sample = G_MAXUINT64;
  for (guint64 i = 0; i < etl_trace_get_n_records (f->etl) && f->sample == G_MAXUINT64; i++)
    if (etl_stacks_has_stack (f->stacks, i))
      f->sample = i;
  g_assert_cmpuint (f->sample, !=, G_MAXUINT64);
  return TRUE;
}

static void
fixture_teardown (Fixture *f)
{
  g_clear_pointer (&f->stacks, etl_stacks_unref);
  g_clear_pointer (&f->etl, etl_trace_unref);
  if (f->dir != NULL)
    etl_test_rm_rf (f->dir);
  g_free (f->dir);
  g_free (f->served);
  g_free (f->local);
  g_free (f->trace);
  g_free (f->pdb);
}

/* Puts @from at @store/[Cp/]CppCon.pdb/@key/@name. */
static char *
put (const char *from, const char *store, gboolean two_tier, const char *key, const char *name)
{
  g_autofree char *dir = two_tier ? g_build_filename (store, "Cp", "CppCon.pdb", key, NULL)
                                  : g_build_filename (store, "CppCon.pdb", key, NULL);
  char *to = g_build_filename (dir, name, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, len, NULL));
  return to;
}

/* The regular files below @dir, relative, sorted, joined by '\n'. */
static void
list_files (const char *dir, const char *prefix, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      g_autofree char *rel = *prefix != '\0' ? g_strconcat (prefix, "/", name, NULL) : g_strdup (name);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        list_files (child, rel, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&rel));
    }
}

static char *
files_below (const char *dir)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  list_files (dir, "", files);
  g_ptr_array_sort (files, etl_test_compare_names);
  g_ptr_array_add (files, NULL);
  return g_strjoinv ("\n", (char **)files->pdata);
}

/* A resolver of the fixture's stacks over `srv*LOCAL*URL` (@extra before
 * it), with @client installed, downloads @downloads, attached. */
static EtlSymbolResolver *
make_resolver (Fixture *f, EtlSymbolServer *client, const char *url, const char *extra, gboolean downloads,
               gboolean on_demand)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("%s%ssrv*%s*%s", extra != NULL ? extra : "", extra != NULL ? ";" : "",
                                           f->local, url);
  g_autoptr (EtlSymbolPath) path = etl_symbol_path_parse (text, &error);
  EtlSymbolResolver *r;

  g_assert_no_error (error);
  r = etl_symbol_resolver_new (f->stacks, path, on_demand);
  if (client != NULL)
    etl_symbol_server_install (client, r);
  etl_symbol_resolver_set_downloads (r, downloads);
  etl_symbol_resolver_attach (r);
  return r;
}

/* The one status row. */
static EtlSymbolModuleStatus
status_row (EtlSymbolResolver *r, GArray **keep)
{
  *keep = etl_symbol_resolver_dup_statuses (r);
  g_assert_cmpuint ((*keep)->len, ==, 1);
  return g_array_index (*keep, EtlSymbolModuleStatus, 0);
}

/* The sample's one frame, named. */
static char *
frame_name (Fixture *f)
{
  g_auto (GStrv) names = etl_stacks_dup_symbolized (f->stacks, f->sample);

  g_assert_nonnull (names);
  g_assert_cmpstr (names[1], ==, NULL);
  return g_strdup (names[0]);
}

static void
assert_same_file (const char *a, const char *b)
{
  g_autofree char *x = NULL;
  g_autofree char *y = NULL;
  gsize nx, ny;

  g_assert_true (g_file_get_contents (a, &x, &nx, NULL));
  g_assert_true (g_file_get_contents (b, &y, &ny, NULL));
  g_assert_cmpmem (x, nx, y, ny);
}

static void
test_off (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autofree char *name = NULL;
  g_autofree char *left = NULL;
  EtlSymbolModuleStatus row;

  if (!fixture_setup (&f, 5))
    return;
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY, "CppCon.pdb"));
  s = server_start (f.served, SERVE_FILES);
  r = make_resolver (&f, client, s->url, NULL, FALSE, TRUE);
  g_assert_false (etl_symbol_resolver_get_downloads (r));
  name = frame_name (&f);
  g_assert_cmpstr (name, ==, "CppCon.exe+0x1004");
  etl_symbol_resolver_request_all (r);
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_nonnull (strstr (row.reason, "downloading is off"));
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 0);
  left = files_below (f.local);
  g_assert_cmpstr (left, ==, "");
  /* Turned on afterwards: retried, then downloaded. */
  etl_symbol_resolver_set_downloads (r, TRUE);
  g_assert_cmpuint (etl_symbol_resolver_retry (r), ==, 1);
  g_assert_cmpuint (etl_symbol_resolver_retry (r), ==, 0); /* pending now, not failed */
  g_clear_pointer (&name, g_free);
  name = frame_name (&f);
  g_assert_cmpstr (name, ==, "CppCon.exe!main+0x4");
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 2);
  server_stop (s);
  fixture_teardown (&f);
}

/* Downloads on; expects main+0x4, the PDB at @stored (relative to the
 * local store), @listing (default @stored) the files of the store, and
 * @requests requests. */
static void
check_download (Fixture *f, Server *s, EtlSymbolServer *client, const char *stored, const char *listing,
                gint requests)
{
  g_autoptr (EtlSymbolResolver) r = make_resolver (f, client, s->url, NULL, TRUE, TRUE);
  g_autoptr (GArray) rows = NULL;
  g_autofree char *name = frame_name (f);
  g_autofree char *left = NULL;
  g_autofree char *full = g_build_filename (f->local, stored, NULL);
  EtlSymbolModuleStatus row;

  g_assert_cmpstr (name, ==, "CppCon.exe!main+0x4");
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_RESOLVED);
  g_assert_null (row.reason);
  g_assert_cmpstr (row.file, ==, full);
  assert_same_file (full, f->pdb);
  left = files_below (f->local);
  g_assert_cmpstr (left, ==, listing != NULL ? listing : stored); /* no temporary file left */
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, requests);
}

static void
test_plain (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();

  if (!fixture_setup (&f, 5))
    return;
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY, "CppCon.pdb"));
  s = server_start (f.served, SERVE_FILES);
  /* index2.txt (404), then the PDB. */
  check_download (&f, s, client, "CppCon.pdb/" CPPCON_KEY "/CppCon.pdb", NULL, 2);
  server_stop (s);
  fixture_teardown (&f);
}

static void
test_two_tier (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autofree char *served_index = NULL;
  g_autofree char *local_index = NULL;

  if (!fixture_setup (&f, 5))
    return;
  g_free (put (f.pdb, f.served, TRUE, CPPCON_KEY, "CppCon.pdb"));
  served_index = g_build_filename (f.served, "index2.txt", NULL);
  local_index = g_build_filename (f.local, "index2.txt", NULL);
  g_assert_true (g_file_set_contents (served_index, "", 0, NULL));
  g_assert_true (g_file_set_contents (local_index, "", 0, NULL));
  s = server_start (f.served, SERVE_FILES);
  check_download (&f, s, client, "Cp/CppCon.pdb/" CPPCON_KEY "/CppCon.pdb",
                  "Cp/CppCon.pdb/" CPPCON_KEY "/CppCon.pdb\nindex2.txt", 2);
  server_stop (s);
  fixture_teardown (&f);
}

/* Runs the fixture's resolver against a server answering with @mode (or
 * the files put in the store) and expects @status with @reason_part, and
 * nothing left in the local store. */
static void
check_refused (Fixture *f, Server *s, EtlSymbolServer *client, EtlSymbolStatus status, const char *reason_part)
{
  g_autoptr (EtlSymbolResolver) r = make_resolver (f, client, s->url, NULL, TRUE, TRUE);
  g_autoptr (GArray) rows = NULL;
  g_autofree char *name = frame_name (f);
  g_autofree char *left = NULL;
  EtlSymbolModuleStatus row;

  g_assert_cmpstr (name, ==, "CppCon.exe+0x1004");
  row = status_row (r, &rows);
  g_test_message ("reason: %s", row.reason);
  g_assert_cmpint (row.status, ==, status);
  g_assert_nonnull (strstr (row.reason, reason_part));
  left = files_below (f->local);
  g_assert_cmpstr (left, ==, "");
}

/* gcab -c [-z] CAB FILE (the file stored without its folder); FALSE after
 * a skip. */
static gboolean
make_cab (const char *file, const char *cab, gboolean mszip)
{
  g_autofree char *gcab = g_find_program_in_path ("gcab");
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;

  if (gcab == NULL)
    {
      if (etl_test_in_ci ())
        g_error ("gcab is not installed (.ci/deps.sh installs it)");
      g_test_skip ("gcab is not installed: no .pd_ made");
      return FALSE;
    }
  {
    const char *argv[] = { gcab, "--create", "--nopath", mszip ? "--zip" : cab, cab, file, NULL };

    if (!mszip)
      memmove (&argv[3], &argv[4], 3 * sizeof argv[0]);
    proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  }
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

typedef enum
{
  CAB_STORED,
  CAB_MSZIP,
  CAB_LZX,         /* tests/cab-test-util.h: window 2^21, 32 KiB blocks */
  CAB_LZX_CORRUPT, /* that, its first block's type 7 (checksums right) */
} CabKind;

/* CppCon.pdb as @cab, written by tests/cab-test-util.h. */
static void
make_lzx_cab (const char *pdb, const char *cab, gboolean corrupt)
{
  g_autofree char *data = NULL;
  g_autoptr (GByteArray) bytes = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (pdb, &data, &len, NULL));
  bytes = cab_test_lzx_cabinet ((const guint8 *)data, len, "CppCon.pdb", 21, 32768);
  g_assert_cmpuint (bytes->len, >, len); /* uncompressed blocks: a little more */
  if (corrupt)
    {
      bytes->data[cab_test_first_data (bytes) + 1] |= 0x70;
      cab_test_seal (bytes);
    }
  g_assert_true (g_file_set_contents (cab, (const char *)bytes->data, bytes->len, NULL));
}

static void
check_compressed (CabKind kind)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autofree char *dir = NULL;
  g_autofree char *cab = NULL;
  g_autofree char *cab_size = NULL;
  GStatBuf a, b;

  if (!etl_cab_available ())
    {
      g_test_skip ("not built with libmspack");
      return;
    }
  if (!fixture_setup (&f, 5))
    return;
  dir = g_build_filename (f.served, "CppCon.pdb", CPPCON_KEY, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  cab = g_build_filename (dir, "CppCon.pd_", NULL);
  if (kind == CAB_LZX || kind == CAB_LZX_CORRUPT)
    make_lzx_cab (f.pdb, cab, kind == CAB_LZX_CORRUPT);
  else if (!make_cab (f.pdb, cab, kind == CAB_MSZIP))
    {
      fixture_teardown (&f);
      return;
    }
  g_assert_cmpint (g_stat (cab, &a), ==, 0);
  g_assert_cmpint (g_stat (f.pdb, &b), ==, 0);
  if (kind == CAB_MSZIP)
    g_assert_cmpint (a.st_size, <, b.st_size); /* really compressed */
  s = server_start (f.served, SERVE_FILES);
  /* index2.txt, CppCon.pdb (404), CppCon.pd_; the store holds the PDB
   * (GUID and age checked, then loaded: the frame is named). */
  if (kind == CAB_LZX_CORRUPT)
    check_refused (&f, s, client, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED, "(LZX, window 2^21): the compressed data is corrupt");
  else
    check_download (&f, s, client, "CppCon.pdb/" CPPCON_KEY "/CppCon.pdb", NULL, 3);
  server_stop (s);
  fixture_teardown (&f);
}

static void
test_compressed_mszip (void)
{
  check_compressed (CAB_MSZIP);
}

static void
test_compressed_stored (void)
{
  check_compressed (CAB_STORED);
}

static void
test_compressed_lzx (void)
{
  check_compressed (CAB_LZX);
}

static void
test_compressed_lzx_corrupt (void)
{
  check_compressed (CAB_LZX_CORRUPT);
}

/* A `.pd_` in a local store, no server: unpacked next to it. */
static void
test_local_cab (void)
{
  Fixture f;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *cab = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  g_autofree char *left = NULL;
  EtlSymbolModuleStatus row;

  if (!etl_cab_available ())
    {
      g_test_skip ("not built with libmspack");
      return;
    }
  if (!fixture_setup (&f, 5))
    return;
  dir = g_build_filename (f.local, "CppCon.pdb", CPPCON_KEY, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  cab = g_build_filename (dir, "CppCon.pd_", NULL);
  if (!make_cab (f.pdb, cab, TRUE))
    {
      fixture_teardown (&f);
      return;
    }
  text = g_strdup_printf ("cache*%s", f.local);
  path = etl_symbol_path_parse (text, &error);
  g_assert_no_error (error);
  r = etl_symbol_resolver_new (f.stacks, path, TRUE);
  /* Without an unpacker: "compressed". */
  etl_symbol_resolver_request_all (r);
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_COMPRESSED);
  g_clear_pointer (&rows, g_array_unref);
  g_clear_pointer (&r, etl_symbol_resolver_unref);

  r = etl_symbol_resolver_new (f.stacks, path, TRUE);
  etl_symbol_server_install (client, r);
  etl_symbol_resolver_attach (r);
  name = frame_name (&f);
  g_assert_cmpstr (name, ==, "CppCon.exe!main+0x4");
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_RESOLVED);
  left = files_below (f.local);
  g_assert_cmpstr (left, ==, "CppCon.pdb/" CPPCON_KEY "/CppCon.pd_\nCppCon.pdb/" CPPCON_KEY "/CppCon.pdb");
  {
    g_autofree char *pdb = g_build_filename (dir, "CppCon.pdb", NULL);

    assert_same_file (pdb, f.pdb);
  }
  fixture_teardown (&f);
}

static void
test_not_on_server (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (EtlSymbolResolver) again = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autoptr (GArray) rows2 = NULL;
  g_autofree char *left = NULL;
  EtlSymbolModuleStatus row;

  if (!fixture_setup (&f, 5))
    return;
  s = server_start (f.served, SERVE_FILES);
  r = make_resolver (&f, client, s->url, NULL, TRUE, TRUE);
  etl_symbol_resolver_request_all (r);
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_nonnull (strstr (row.reason, "not on the symbol server"));
  g_assert_nonnull (strstr (row.reason, s->url));
  /* index2.txt, .pdb, .pd_, file.ptr */
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 4);
  /* Asked again in the session (another resolver, the same client): no
   * request. */
  again = make_resolver (&f, client, s->url, NULL, TRUE, TRUE);
  etl_symbol_resolver_request_all (again);
  row = status_row (again, &rows2);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 4);
  left = files_below (f.local);
  g_assert_cmpstr (left, ==, "");
  server_stop (s);
  fixture_teardown (&f);
}

/* `srv*URL` without a DIR downloads into the default cache
 * ($XDG_CACHE_HOME/etlscope/symbols, set by main()), and a later resolver
 * finds it there with downloads off. */
static void
test_default_cache (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "etlscope", "symbols", NULL);
  g_autofree char *stored = g_build_filename (cache, "CppCon.pdb", CPPCON_KEY, "CppCon.pdb", NULL);

  if (!fixture_setup (&f, 5))
    return;
  g_assert_true (g_str_has_prefix (cache, g_getenv ("XDG_CACHE_HOME")));
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY, "CppCon.pdb"));
  s = server_start (f.served, SERVE_FILES);
  text = g_strdup_printf ("srv*%s", s->url);
  path = etl_symbol_path_parse (text, &error);
  g_assert_no_error (error);
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr (EtlSymbolResolver) r = etl_symbol_resolver_new (f.stacks, path, TRUE);
      g_autoptr (GArray) rows = NULL;
      g_autofree char *name = NULL;
      EtlSymbolModuleStatus row;

      etl_symbol_server_install (client, r);
      etl_symbol_resolver_set_downloads (r, round == 0);
      etl_symbol_resolver_attach (r);
      name = frame_name (&f);
      g_assert_cmpstr (name, ==, "CppCon.exe!main+0x4");
      row = status_row (r, &rows);
      g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_RESOLVED);
      g_assert_cmpstr (row.file, ==, stored);
      g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 2); /* the first round's */
    }
  etl_test_rm_rf (cache);
  server_stop (s);
  fixture_teardown (&f);
}

static void
test_wrong_guid (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();

  /* The image needs age 6; the server files CppCon.pdb (age 5) there. */
  if (!fixture_setup (&f, 6))
    return;
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY6, "CppCon.pdb"));
  s = server_start (f.served, SERVE_FILES);
  check_refused (&f, s, client, ETL_SYMBOL_STATUS_MISMATCH, "is another build");
  server_stop (s);
  fixture_teardown (&f);
}

static void
test_garbage (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolServer) client2 = etl_symbol_server_new ();

  if (!fixture_setup (&f, 5))
    return;
  s = server_start (f.served, SERVE_GARBAGE_PDB);
  check_refused (&f, s, client, ETL_SYMBOL_STATUS_UNREADABLE, "(not kept)");
  server_stop (s);
  if (etl_cab_available ())
    {
      s = server_start (f.served, SERVE_GARBAGE_CAB);
      check_refused (&f, s, client2, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED, "is no cabinet");
      server_stop (s);
    }
  fixture_teardown (&f);
}

/* The fixture's resolver against an https:// URL on 127.0.0.1 (port 9:
 * nothing listens); the module's status row. */
static char *
https_reason (Fixture *f, EtlSymbolStatus *status)
{
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolResolver) r = make_resolver (f, client, "https://127.0.0.1:9/store", NULL, TRUE, TRUE);
  g_autoptr (GArray) rows = NULL;
  g_autofree char *name = frame_name (f);
  EtlSymbolModuleStatus row;

  g_assert_cmpstr (name, ==, "CppCon.exe+0x1004");
  row = status_row (r, &rows);
  g_test_message ("reason: %s", row.reason);
  *status = row.status;
  return g_strdup (row.reason);
}

#define HTTPS_NO_TLS "/symsrv/https-no-tls"

/* Whether this process is the subprocess of @test (g_test_trap_subprocess()
 * runs the program with -p TEST and --GTestSubprocess): for what must be
 * set before g_test_init() and before any thread starts. */
static gboolean
is_subprocess_of (int argc, char **argv, const char *test)
{
  gboolean sub = FALSE, named = FALSE;

  for (int i = 1; i < argc; i++)
    {
      sub = sub || strcmp (argv[i], "--GTestSubprocess") == 0;
      named = named || (strcmp (argv[i], "-p") == 0 && i + 1 < argc && strcmp (argv[i + 1], test) == 0);
    }
  return sub && named;
}

/* https:// without GIO's TLS backend (glib-networking): forced in a
 * subprocess whose GIO_MODULE_DIR is an empty folder (set by main(); GIO's
 * dummy TLS backend then, as without the package), the reason says what to
 * install; with a TLS backend (the parent, when glib-networking is
 * installed) the request is made and fails otherwise. */
static void
test_https_no_tls (void)
{
  Fixture f;
  EtlSymbolStatus status;
  g_autofree char *reason = NULL;

  if (g_test_subprocess ())
    {
      g_assert_false (g_tls_backend_supports_tls (g_tls_backend_get_default ()));
      if (!fixture_setup (&f, 5))
        return;
      reason = https_reason (&f, &status);
      g_assert_cmpint (status, ==, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED);
      g_assert_nonnull (strstr (reason, "https://127.0.0.1:9/store is an https:// server, but GLib has no TLS support "
                                        "here: install glib-networking"));
      fixture_teardown (&f);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    {
      if (etl_test_in_ci ())
        g_error ("glib-networking is not installed (.ci/deps.sh installs it)");
      g_test_message ("no TLS backend here (glib-networking): the case with one not checked");
      return;
    }
  if (!fixture_setup (&f, 5))
    return;
  reason = https_reason (&f, &status);
  g_assert_cmpint (status, ==, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED);
  g_assert_null (strstr (reason, "glib-networking"));
  g_assert_nonnull (strstr (reason, "https://127.0.0.1:9/store"));
  fixture_teardown (&f);
}

static void
test_too_big (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();

  if (!fixture_setup (&f, 5))
    return;
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY, "CppCon.pdb"));
  etl_symbol_server_set_max_size (client, 1000);
  s = server_start (f.served, SERVE_FILES);
  check_refused (&f, s, client, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED, "above the limit of 1000");
  server_stop (s);
  /* Chunked (no Content-Length): stopped once past the limit. */
  s = server_start (f.served, SERVE_SLOW);
  etl_symbol_server_set_max_size (client, 6000);
  check_refused (&f, s, client, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED, "longer than the limit");
  server_stop (s);
  fixture_teardown (&f);
}

/* A raw HTTP server whose answers lie: "Content-Length: 100000", 5000
 * bytes, then the connection closed (index2.txt: a plain 404). */
typedef struct
{
  GSocketListener *listener;
  GCancellable *stop;
  GThread *thread;
  guint16 port;
  gint requests;
} LiarServer;

static gpointer
liar_thread (gpointer data)
{
  LiarServer *l = data;

  for (;;)
    {
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (l->listener, NULL, l->stop, NULL);
      GInputStream *in;
      GOutputStream *out;
      char request[4096];
      gsize got = 0;
      const char *answer;

      if (conn == NULL)
        return NULL;
      in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      while (got < sizeof request - 1)
        {
          gssize n = g_input_stream_read (in, request + got, sizeof request - 1 - got, NULL, NULL);

          if (n <= 0)
            break;
          got += (gsize)n;
          request[got] = '\0';
          if (strstr (request, "\r\n\r\n") != NULL)
            break;
        }
      request[got] = '\0';
      g_atomic_int_inc (&l->requests);
      if (strstr (request, "index2.txt") != NULL)
        answer = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      else
        answer = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n";
      g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL);
      if (strstr (request, "index2.txt") == NULL)
        {
          char body[5000];

          memset (body, 'L', sizeof body);
          g_output_stream_write_all (out, body, sizeof body, NULL, NULL, NULL);
        }
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    }
}

static void
test_short_answer (void)
{
  Fixture f;
  LiarServer l = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autofree char *url = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autofree char *name = NULL;
  g_autofree char *left = NULL;
  EtlSymbolModuleStatus row;

  if (!fixture_setup (&f, 5))
    return;
  l.listener = g_socket_listener_new ();
  {
    g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    g_autoptr (GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
    g_autoptr (GSocketAddress) bound = NULL;

    g_assert_true (g_socket_listener_add_address (l.listener, addr, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                                  NULL, &bound, &error));
    g_assert_no_error (error);
    l.port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  }
  l.stop = g_cancellable_new ();
  l.thread = g_thread_new ("liar", liar_thread, &l);
  url = g_strdup_printf ("http://127.0.0.1:%u/symbols", l.port);
  r = make_resolver (&f, client, url, NULL, TRUE, TRUE);
  name = frame_name (&f);
  g_assert_cmpstr (name, ==, "CppCon.exe+0x1004");
  row = status_row (r, &rows);
  g_test_message ("reason: %s", row.reason);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_DOWNLOAD_FAILED);
  g_assert_nonnull (strstr (row.reason, "CppCon.pdb"));
  g_assert_cmpuint (row.received, ==, 5000);
  g_assert_cmpuint (row.total, ==, 100000);
  g_assert_cmpint (g_atomic_int_get (&l.requests), ==, 2);
  left = files_below (f.local);
  g_assert_cmpstr (left, ==, "");
  g_cancellable_cancel (l.stop);
  g_thread_join (l.thread);
  g_socket_listener_close (l.listener);
  g_object_unref (l.listener);
  g_object_unref (l.stop);
  fixture_teardown (&f);
}

typedef struct
{
  EtlSymbolResolver *resolver;
  GCancellable *cancellable;
  GError *error;
  gint done;
  gint notified;
} Worker;

static void
count_notify (gpointer resolver, gpointer data)
{
  Worker *w = data;

  g_assert_true (resolver == w->resolver);
  g_atomic_int_inc (&w->notified);
}

static gpointer
worker_thread (gpointer data)
{
  Worker *w = data;

  etl_symbol_resolver_resolve_pending (w->resolver, w->cancellable, &w->error);
  g_atomic_int_set (&w->done, 1);
  return NULL;
}

static void
test_cancel (void)
{
  Fixture f;
  Server *s;
  g_autoptr (EtlSymbolServer) client = etl_symbol_server_new ();
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *name = NULL;
  g_autofree char *left = NULL;
  Worker w = { 0 };
  GThread *thread;
  gint64 start, took;
  guint64 received = 0;

  if (!fixture_setup (&f, 5))
    return;
  s = server_start (f.served, SERVE_SLOW);
  r = make_resolver (&f, client, s->url, NULL, TRUE, FALSE);
  name = frame_name (&f); /* queues it */
  g_assert_cmpstr (name, ==, "CppCon.exe+0x1004");
  w.resolver = r;
  w.cancellable = cancellable;
  etl_symbol_resolver_set_notify (r, count_notify, &w);
  thread = g_thread_new ("resolve", worker_thread, &w);
  /* Until some of the body is in (progress reported). */
  start = g_get_monotonic_time ();
  while (received < 8192 && g_get_monotonic_time () - start < 10 * G_USEC_PER_SEC)
    {
      g_autoptr (GArray) rows = etl_symbol_resolver_dup_statuses (r);
      const EtlSymbolModuleStatus *row = &g_array_index (rows, EtlSymbolModuleStatus, 0);

      if (row->status == ETL_SYMBOL_STATUS_DOWNLOADING)
        received = row->received;
      g_usleep (10000);
    }
  g_assert_cmpuint (received, >=, 8192);
  g_assert_cmpint (g_atomic_int_get (&w.notified), >=, 2); /* started, advanced */
  {
    g_autofree char *partial = files_below (f.local);

    g_assert_cmpstr (partial, !=, ""); /* the temporary file is being written */
  }
  start = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  took = g_get_monotonic_time () - start;
  g_test_message ("cancelled in %" G_GINT64_FORMAT " us", took);
  g_assert_cmpint (took, <, G_USEC_PER_SEC / 2);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&w.error);
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, 0), ==, ETL_SYMBOL_STATUS_PENDING);
  left = files_below (f.local);
  g_assert_cmpstr (left, ==, "");
  g_clear_pointer (&r, etl_symbol_resolver_unref);
  server_stop (s);
  fixture_teardown (&f);
}

/* Downloads on, no client installed: said so. */
static void
test_no_client (void)
{
  Fixture f;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  EtlSymbolModuleStatus row;

  if (!fixture_setup (&f, 5))
    return;
  r = make_resolver (&f, NULL, "http://127.0.0.1:9/symbols", NULL, TRUE, TRUE);
  etl_symbol_resolver_request_all (r);
  row = status_row (r, &rows);
  g_assert_cmpint (row.status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_nonnull (strstr (row.reason, "no symbol-server support installed"));
  fixture_teardown (&f);
}

/* `etlscope-cli stacks --symbols srv*LOCAL*URL [--download]`: the JSON's
 * "symbols" row status, and the output. */
static char *
cli_status (Fixture *f, const char *url, gboolean download, char **out)
{
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  g_autofree char *path = g_strdup_printf ("srv*%s*%s", f->local, url);
  const char *argv[] = { cli, "stacks", "--symbols", path, f->trace, download ? "--download" : NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *err = NULL;
  JsonObject *row;

  g_assert_nonnull (cli);
  proc = etl_test_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, *out, -1, &error));
  row = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "symbols"), 0);
  return g_strdup (json_object_get_string_member (row, "status"));
}

static void
test_cli (void)
{
  Fixture f;
  Server *s;
  g_autofree char *status = NULL;
  g_autofree char *out = NULL;

  if (!fixture_setup (&f, 5))
    return;
  g_free (put (f.pdb, f.served, FALSE, CPPCON_KEY, "CppCon.pdb"));
  s = server_start (f.served, SERVE_FILES);
  status = cli_status (&f, s->url, FALSE, &out);
  g_assert_cmpstr (status, ==, "not-found");
  g_assert_nonnull (strstr (out, "downloading is off"));
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 0);
  g_clear_pointer (&status, g_free);
  g_clear_pointer (&out, g_free);
  status = cli_status (&f, s->url, TRUE, &out);
  g_assert_cmpstr (status, ==, "resolved");
  g_assert_nonnull (strstr (out, "CppCon.exe!main"));
  g_assert_cmpint (g_atomic_int_get (&s->requests), ==, 2);
  server_stop (s);
  fixture_teardown (&f);
}

/* The namer swap: a thread names frames in a loop while the main thread
 * installs namers and removes them; each namer's data is poisoned by its
 * destroy notify, and the namer checks its data before and after a short
 * spin.  With a swap that freed (poisoned) the old data at once, a reader
 * inside the old namer would see the poison. */
#define NAMER_ALIVE 0x600DF00Du
#define NAMER_DEAD 0xDEADDEADu

typedef struct
{
  guint magic;
  char name[32];
} NamerData;

static gint namer_calls;
static GPtrArray *namer_graveyard; /* NamerData, poisoned, freed at the end */

static const char *
test_namer (gpointer data, guint module, guint64 offset, guint32 *function_offset)
{
  NamerData *d = data;
  volatile guint spin = 0;

  g_assert_cmphex (d->magic, ==, NAMER_ALIVE);
  for (guint i = 0; i < 2000; i++)
    spin += i;
  g_assert_cmphex (d->magic, ==, NAMER_ALIVE);
  g_atomic_int_inc (&namer_calls);
  if (function_offset != NULL)
    *function_offset = 4;
  return d->name;
}

static void
namer_destroy (gpointer data)
{
  NamerData *d = data;

  d->magic = NAMER_DEAD;
  g_ptr_array_add (namer_graveyard, d); /* only the thread dropping the last reference: the lock orders it */
}

static GMutex graveyard_lock;

static void
namer_destroy_locked (gpointer data)
{
  g_mutex_lock (&graveyard_lock);
  namer_destroy (data);
  g_mutex_unlock (&graveyard_lock);
}

typedef struct
{
  Fixture *f;
  gint stop;
  guint named;
} Reader;

static gpointer
reader_thread (gpointer data)
{
  Reader *rd = data;

  while (!g_atomic_int_get (&rd->stop))
    {
      g_autofree char *name = frame_name (rd->f);

      g_assert_true (g_str_has_prefix (name, "CppCon.exe"));
      rd->named++;
    }
  return NULL;
}

static void
test_namer_swap (void)
{
  Fixture f;
  Reader rd = { 0 };
  GThread *threads[2];
  guint swaps = 0;

  if (!fixture_setup (&f, 5))
    return;
  namer_graveyard = g_ptr_array_new_with_free_func (g_free);
  rd.f = &f;
  threads[0] = g_thread_new ("reader", reader_thread, &rd);
  threads[1] = g_thread_new ("reader", reader_thread, &rd);
  for (guint i = 0; i < 3000; i++)
    {
      NamerData *d = g_new0 (NamerData, 1);

      d->magic = NAMER_ALIVE;
      g_snprintf (d->name, sizeof d->name, "CppCon.exe!f%u", i);
      etl_stacks_set_namer_full (f.stacks, i % 3 == 2 ? NULL : test_namer, d, namer_destroy_locked);
      swaps++;
      if (i % 100 == 0)
        g_usleep (100);
    }
  g_atomic_int_set (&rd.stop, 1);
  g_thread_join (threads[0]);
  g_thread_join (threads[1]);
  etl_stacks_set_namer_full (f.stacks, NULL, NULL, NULL);
  g_test_message ("%u swaps, %u frames named, %d through a namer", swaps, rd.named, g_atomic_int_get (&namer_calls));
  g_assert_cmpint (g_atomic_int_get (&namer_calls), >, 0);
  /* Every namer's data was destroyed exactly once (none leaked, none
   * twice: the graveyard holds each once). */
  g_assert_cmpuint (namer_graveyard->len, ==, 3000);
  for (guint i = 0; i < namer_graveyard->len; i++)
    g_assert_cmphex (((NamerData *)g_ptr_array_index (namer_graveyard, i))->magic, ==, NAMER_DEAD);
  g_clear_pointer (&namer_graveyard, g_ptr_array_unref);
  fixture_teardown (&f);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache_home = NULL;
  g_autofree char *no_modules = NULL;
  int status;

  /* The default symbol cache goes below a folder of the test's own. */
  cache_home = g_dir_make_tmp ("etlscope-symsrv-cache-XXXXXX", NULL);
  g_assert_nonnull (cache_home);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  /* No proxy between the test and 127.0.0.1 (and no libproxy, a C++
   * library whose internal exceptions ASan's interceptor trips on). */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  if (is_subprocess_of (argc, argv, HTTPS_NO_TLS))
    {
      no_modules = g_dir_make_tmp ("etlscope-no-gio-modules-XXXXXX", NULL);
      g_assert_nonnull (no_modules);
      g_setenv ("GIO_MODULE_DIR", no_modules, TRUE);
    }
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/symsrv/downloads-off", test_off);
  g_test_add_func ("/symsrv/plain", test_plain);
  g_test_add_func ("/symsrv/two-tier", test_two_tier);
  g_test_add_func ("/symsrv/compressed-mszip", test_compressed_mszip);
  g_test_add_func ("/symsrv/compressed-stored", test_compressed_stored);
  g_test_add_func ("/symsrv/compressed-lzx", test_compressed_lzx);
  g_test_add_func ("/symsrv/compressed-lzx-corrupt", test_compressed_lzx_corrupt);
  g_test_add_func ("/symsrv/local-cab", test_local_cab);
  g_test_add_func ("/symsrv/not-on-server", test_not_on_server);
  g_test_add_func ("/symsrv/wrong-guid", test_wrong_guid);
  g_test_add_func ("/symsrv/garbage", test_garbage);
  g_test_add_func ("/symsrv/too-big", test_too_big);
  g_test_add_func (HTTPS_NO_TLS, test_https_no_tls);
  g_test_add_func ("/symsrv/short-answer", test_short_answer);
  g_test_add_func ("/symsrv/cancel", test_cancel);
  g_test_add_func ("/symsrv/no-client", test_no_client);
  g_test_add_func ("/symsrv/cli", test_cli);
  g_test_add_func ("/symsrv/default-cache", test_default_cache);
  g_test_add_func ("/stacks/namer-swap", test_namer_swap);
  status = g_test_run ();
  etl_test_rm_rf (cache_home);
  if (no_modules != NULL)
    g_rmdir (no_modules);
  return status;
}
