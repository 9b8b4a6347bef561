/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-symbol-server
 * @title: EtlSymbolServer
 * @short_description: PDBs from symbol servers over HTTP(S)
 *
 * The fetcher a resolver calls for the `srv*DIR*URL` elements of its
 * symbol path (etl_symbol_resolver_set_fetcher()), with libsoup 3's
 * synchronous API in the resolver's worker.  It follows the SymSrv HTTP
 * protocol as Microsoft's debuggers use it ("Symbol Server and Symbol
 * Stores", "Symbol Storage Format"): for `name.pdb` with key KEY (GUID and
 * age, etl_symbol_store_key()) it asks `URL/name.pdb/KEY/name.pdb`, on 404
 * the compressed `URL/name.pdb/KEY/name.pd_`, on 404 `URL/name.pdb/KEY/file.ptr`
 * (whose text `PATH:…` names the file elsewhere, `MSG:…` says why there is
 * none).  A server whose root has an `index2.txt` is a two-tier store: the
 * name's first two characters are an extra folder level (asked once per
 * server and session).  A `.pd_` is unpacked with libmspack (etl-cab.c).
 *
 * The answer is written to a temporary file in the local store's KEY
 * folder and only renamed to `name.pdb` by the resolver once it has checked
 * the PDB's GUID and age, so a store never holds a partial or wrong file; a
 * cancelled or failed download removes its temporary file.  An answer above
 * the size limit (2 GiB by default), or longer than its Content-Length, is
 * refused.  A PDB the server does not have (404 for all three names) is
 * remembered for the server object's life (the application's session) and
 * not asked again.
 *
 * https:// servers need GIO's TLS backend (the glib-networking package);
 * without it the fetcher says so.
 *
 * Without libsoup (the Windows cross build) the fetcher answers every PDB
 * "not built with symbol-server support".
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#ifdef ETL_HAVE_LIBSOUP
#include <libsoup/soup.h>
#endif

#include "etl-cab.h"
#include "etl-symbol-server.h"

#define READ_CHUNK (64 * 1024)
#define MAX_FILE_PTR 4096
#define DEFAULT_TIMEOUT 60

struct _EtlSymbolServer
{
  gint ref_count;
  GMutex lock;
  GHashTable *missing;  /* URLs of .pdb answered 404 for all names */
  GHashTable *two_tier; /* server URL → GINT_TO_POINTER (1 flat, 2 two-tier) */
  guint64 max_size;
  guint timeout;
};

/**
 * etl_symbol_server_available:
 *
 * Returns: whether this build reaches symbol servers (libsoup 3)
 */
gboolean
etl_symbol_server_available (void)
{
#ifdef ETL_HAVE_LIBSOUP
  return TRUE;
#else
  return FALSE;
#endif
}

/**
 * etl_symbol_server_new:
 *
 * Makes a symbol-server client: one per application session, shared by its
 * resolvers, so that what a server does not have is asked once.
 *
 * Returns: (transfer full): the client
 */
EtlSymbolServer *
etl_symbol_server_new (void)
{
  EtlSymbolServer *s = g_new0 (EtlSymbolServer, 1);

  s->ref_count = 1;
  g_mutex_init (&s->lock);
  s->missing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->two_tier = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->max_size = ETL_SYMBOL_SERVER_DEFAULT_MAX_SIZE;
  s->timeout = DEFAULT_TIMEOUT;
  return s;
}

/**
 * etl_symbol_server_ref:
 * @server: a client
 *
 * Returns: (transfer full): @server
 */
EtlSymbolServer *
etl_symbol_server_ref (EtlSymbolServer *server)
{
  g_atomic_int_inc (&server->ref_count);
  return server;
}

/**
 * etl_symbol_server_unref:
 * @server: (transfer full) (nullable): a client
 *
 * Drops a reference.
 */
void
etl_symbol_server_unref (EtlSymbolServer *server)
{
  if (server == NULL || !g_atomic_int_dec_and_test (&server->ref_count))
    return;
  g_hash_table_unref (server->missing);
  g_hash_table_unref (server->two_tier);
  g_mutex_clear (&server->lock);
  g_free (server);
}

/**
 * etl_symbol_server_set_max_size:
 * @server: a client
 * @max_size: the largest answer, and unpacked cabinet, taken (bytes)
 *
 * Bounds what a download may write (default
 * %ETL_SYMBOL_SERVER_DEFAULT_MAX_SIZE).
 */
void
etl_symbol_server_set_max_size (EtlSymbolServer *server, guint64 max_size)
{
  g_return_if_fail (server != NULL);
  g_mutex_lock (&server->lock);
  server->max_size = max_size;
  g_mutex_unlock (&server->lock);
}

/**
 * etl_symbol_server_set_timeout:
 * @server: a client
 * @seconds: how long a connection may stay silent before the download
 *   fails (default 60)
 */
void
etl_symbol_server_set_timeout (EtlSymbolServer *server, guint seconds)
{
  g_return_if_fail (server != NULL);
  g_mutex_lock (&server->lock);
  server->timeout = seconds;
  g_mutex_unlock (&server->lock);
}

#ifdef ETL_HAVE_LIBSOUP

typedef enum
{
  GOT_FILE,
  GOT_404,
  GOT_ERROR,
  GOT_CANCELLED,
} Got;

/* The body of @uri into @tmp (or into memory, when @memory): GOT_404 for a
 * 404, else the body, bounded by @max_size and its Content-Length. */
static Got
get (SoupSession *session, const char *uri, const char *tmp, GByteArray *memory, guint64 max_size,
     const EtlSymbolFetchRequest *request, GCancellable *cancellable, char **reason)
{
  g_autoptr (SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, uri);
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GFileOutputStream) out = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *buf = NULL;
  SoupMessageHeaders *headers;
  guint64 length = 0, received = 0;
  guint status;
  Got got = GOT_FILE;

  if (msg == NULL)
    {
      *reason = g_strdup_printf ("%s is no valid URL", uri);
      return GOT_ERROR;
    }
  in = soup_session_send (session, msg, cancellable, &error);
  if (in == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return GOT_CANCELLED;
      *reason = g_strdup_printf ("%s: %s", uri, error->message);
      return GOT_ERROR;
    }
  status = soup_message_get_status (msg);
  if (status == SOUP_STATUS_NOT_FOUND)
    {
      g_input_stream_close (in, NULL, NULL);
      return GOT_404;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      *reason = g_strdup_printf ("%s: HTTP %u %s", uri, status, soup_message_get_reason_phrase (msg));
      g_input_stream_close (in, NULL, NULL);
      return GOT_ERROR;
    }
  headers = soup_message_get_response_headers (msg);
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH)
    length = (guint64)soup_message_headers_get_content_length (headers);
  if (length > max_size)
    {
      *reason = g_strdup_printf ("%s: the answer's %" G_GUINT64_FORMAT " bytes are above the limit of %" G_GUINT64_FORMAT,
                                 uri, length, max_size);
      g_input_stream_close (in, NULL, NULL);
      return GOT_ERROR;
    }
  if (memory == NULL)
    {
      file = g_file_new_for_path (tmp);
      out = g_file_create (file, G_FILE_CREATE_PRIVATE, cancellable, &error);
      if (out == NULL)
        {
          *reason = g_strdup_printf ("cannot write %s: %s", tmp, error->message);
          g_input_stream_close (in, NULL, NULL);
          return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? GOT_CANCELLED : GOT_ERROR;
        }
    }
  buf = g_malloc (READ_CHUNK);
  for (;;)
    {
      gssize n = g_input_stream_read (in, buf, READ_CHUNK, cancellable, &error);

      if (n < 0)
        {
          got = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? GOT_CANCELLED : GOT_ERROR;
          if (got == GOT_ERROR)
            *reason = g_strdup_printf ("%s: %s after %" G_GUINT64_FORMAT " bytes", uri, error->message, received);
          break;
        }
      if (n == 0)
        {
          if (length > 0 && received < length)
            {
              got = GOT_ERROR;
              *reason = g_strdup_printf ("%s: the answer ended after %" G_GUINT64_FORMAT " of its %" G_GUINT64_FORMAT
                                         " bytes", uri, received, length);
            }
          break;
        }
      received += (guint64)n;
      if (received > max_size || (length > 0 && received > length))
        {
          got = GOT_ERROR;
          *reason = g_strdup_printf ("%s: the answer is longer than %s (%" G_GUINT64_FORMAT " bytes)", uri,
                                     received > max_size ? "the limit" : "its Content-Length",
                                     received > max_size ? max_size : length);
          break;
        }
      if (memory != NULL)
        g_byte_array_append (memory, buf, (guint)n);
      else if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), buf, (gsize)n, NULL, cancellable, &error))
        {
          got = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? GOT_CANCELLED : GOT_ERROR;
          if (got == GOT_ERROR)
            *reason = g_strdup_printf ("cannot write %s: %s", tmp, error->message);
          break;
        }
      if (request->progress != NULL)
        request->progress (request->progress_data, received, length);
    }
  g_input_stream_close (in, NULL, NULL);
  if (out != NULL)
    {
      g_clear_error (&error);
      if (!g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error) && got == GOT_FILE)
        {
          got = GOT_ERROR;
          *reason = g_strdup_printf ("cannot write %s: %s", tmp, error->message);
        }
      if (got != GOT_FILE)
        g_remove (tmp);
    }
  return got;
}

/* Whether the server's root has an index2.txt (asked once per server). */
static gboolean
is_two_tier (EtlSymbolServer *s, SoupSession *session, const char *base, const EtlSymbolFetchRequest *request,
             GCancellable *cancellable)
{
  gpointer known;
  g_autofree char *uri = NULL;
  g_autofree char *reason = NULL;
  g_autoptr (GByteArray) body = g_byte_array_new ();
  Got got;

  g_mutex_lock (&s->lock);
  known = g_hash_table_lookup (s->two_tier, base);
  g_mutex_unlock (&s->lock);
  if (known != NULL)
    return GPOINTER_TO_INT (known) == 2;
  uri = g_strconcat (base, "/index2.txt", NULL);
  got = get (session, uri, NULL, body, MAX_FILE_PTR, request, cancellable, &reason);
  if (got == GOT_CANCELLED)
    return FALSE; /* not remembered: asked again next time */
  g_mutex_lock (&s->lock);
  g_hash_table_insert (s->two_tier, g_strdup (base), GINT_TO_POINTER (got == GOT_FILE ? 2 : 1));
  g_mutex_unlock (&s->lock);
  return got == GOT_FILE;
}

static char *
temp_name (const char *dest, const char *what)
{
  g_autofree char *dir = g_path_get_dirname (dest);
  g_autofree char *base = g_path_get_basename (dest);
  g_autofree char *name = g_strdup_printf (".%s.%s-%08x", base, what, g_random_int ());

  return g_build_filename (dir, name, NULL);
}

/* A file.ptr's text: "PATH:x" names the PDB elsewhere (taken when that is
 * a readable local file), "MSG:x" why there is none. */
static EtlSymbolFetchResult
follow_pointer (GByteArray *body, const EtlSymbolFetchRequest *request, guint64 max_size, char **file, char **reason)
{
  g_autofree char *text = g_strndup ((const char *)body->data, body->len);
  g_autofree char *tmp = NULL;
  g_autoptr (GFile) src = NULL;
  g_autoptr (GFile) dst = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  char *target = g_strstrip (text);
  GStatBuf st;

  if (g_ascii_strncasecmp (target, "MSG:", 4) == 0)
    {
      *reason = g_strdup_printf ("the server says: %s", g_strstrip (target + 4));
      return ETL_SYMBOL_FETCH_FAILED;
    }
  if (g_ascii_strncasecmp (target, "PATH:", 5) == 0)
    target += 5;
  if (*target == '\0' || g_stat (target, &st) != 0 || !S_ISREG (st.st_mode))
    {
      *reason = g_strdup_printf ("the server's file.ptr points to %s, which is not reachable from here", target);
      return ETL_SYMBOL_FETCH_FAILED;
    }
  if ((guint64)st.st_size > max_size)
    {
      *reason = g_strdup_printf ("the server's file.ptr points to %s, above the size limit", target);
      return ETL_SYMBOL_FETCH_FAILED;
    }
  dir = g_path_get_dirname (request->dest);
  g_mkdir_with_parents (dir, 0755);
  tmp = temp_name (request->dest, "download");
  src = g_file_new_for_path (target);
  dst = g_file_new_for_path (tmp);
  if (!g_file_copy (src, dst, G_FILE_COPY_NONE, NULL, NULL, NULL, &error))
    {
      g_remove (tmp);
      *reason = g_strdup_printf ("cannot copy %s: %s", target, error->message);
      return ETL_SYMBOL_FETCH_FAILED;
    }
  *file = g_steal_pointer (&tmp);
  return ETL_SYMBOL_FETCH_DONE;
}

static EtlSymbolFetchResult
fetch (gpointer data, const EtlSymbolFetchRequest *request, GCancellable *cancellable, char **file, char **reason)
{
  EtlSymbolServer *s = data;
  g_autofree char *base = g_strdup (request->url);
  g_autofree char *dir = g_path_get_dirname (request->dest);
  g_autofree char *folder = NULL;
  g_autofree char *pdb_uri = NULL;
  g_autofree char *cab_name = g_strdup (request->pdb_name);
  g_autofree char *escaped = g_uri_escape_string (request->pdb_name, NULL, FALSE);
  g_autofree char *escaped_cab = NULL;
  g_autoptr (SoupSession) session = NULL;
  guint64 max_size;
  guint timeout;
  gboolean missing;

  *file = NULL;
  *reason = NULL;
  g_strchomp (base);
  while (*base != '\0' && base[strlen (base) - 1] == '/')
    base[strlen (base) - 1] = '\0';
  g_mutex_lock (&s->lock);
  max_size = s->max_size;
  timeout = s->timeout;
  g_mutex_unlock (&s->lock);
  /* libsoup speaks TLS through GIO's TLS backend, a module of the
   * glib-networking package: without it every https:// request fails with
   * GIO's bare "TLS support is not available". */
  if (g_ascii_strncasecmp (base, "https:", 6) == 0 && !g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    {
      *reason = g_strdup_printf ("%s is an https:// server, but GLib has no TLS support here: install "
                                 "glib-networking (Debian/Ubuntu: apt install glib-networking)", base);
      return ETL_SYMBOL_FETCH_FAILED;
    }

  /* One session per download: the worker's own (SoupSession is not shared
   * between threads). */
  session = soup_session_new_with_options ("timeout", timeout, "user-agent", "etlscope/" PACKAGE_VERSION, NULL);
  if (is_two_tier (s, session, base, request, cancellable))
    {
      g_autofree char *prefix = g_strndup (escaped, MIN (strlen (escaped), 2));

      folder = g_strdup_printf ("%s/%s/%s/%s", base, prefix, escaped, request->key);
    }
  else
    folder = g_strdup_printf ("%s/%s/%s", base, escaped, request->key);
  if (g_cancellable_is_cancelled (cancellable))
    return ETL_SYMBOL_FETCH_CANCELLED;
  pdb_uri = g_strdup_printf ("%s/%s", folder, escaped);
  g_mutex_lock (&s->lock);
  missing = g_hash_table_contains (s->missing, pdb_uri);
  g_mutex_unlock (&s->lock);
  if (missing)
    return ETL_SYMBOL_FETCH_NOT_ON_SERVER;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      *reason = g_strdup_printf ("cannot make %s: %s", dir, g_strerror (errno));
      return ETL_SYMBOL_FETCH_FAILED;
    }

  /* 1. name.pdb */
  {
    g_autofree char *tmp = temp_name (request->dest, "download");
    Got got = get (session, pdb_uri, tmp, NULL, max_size, request, cancellable, reason);

    if (got == GOT_FILE)
      {
        *file = g_steal_pointer (&tmp);
        return ETL_SYMBOL_FETCH_DONE;
      }
    if (got != GOT_404)
      return got == GOT_CANCELLED ? ETL_SYMBOL_FETCH_CANCELLED : ETL_SYMBOL_FETCH_FAILED;
  }
  /* 2. name.pd_, a cabinet */
  if (*cab_name != '\0')
    cab_name[strlen (cab_name) - 1] = '_';
  escaped_cab = g_uri_escape_string (cab_name, NULL, FALSE);
  {
    g_autofree char *uri = g_strdup_printf ("%s/%s", folder, escaped_cab);
    g_autofree char *tmp = temp_name (request->dest, "cab");
    Got got = get (session, uri, tmp, NULL, max_size, request, cancellable, reason);

    if (got == GOT_FILE)
      {
        g_autoptr (GError) error = NULL;
        char *pdb;

        if (g_cancellable_is_cancelled (cancellable))
          {
            g_remove (tmp);
            return ETL_SYMBOL_FETCH_CANCELLED;
          }
        pdb = etl_cab_extract_pdb (tmp, dir, request->pdb_name, max_size, &error);
        g_remove (tmp);
        if (pdb == NULL)
          {
            g_auto (GStrv) parts = g_strsplit (error->message, tmp, -1);
            g_autofree char *said = g_strjoinv ("the answer", parts);

            *reason = g_strdup_printf ("%s: %s", uri, said);
            return ETL_SYMBOL_FETCH_FAILED;
          }
        *file = pdb;
        return ETL_SYMBOL_FETCH_DONE;
      }
    if (got != GOT_404)
      return got == GOT_CANCELLED ? ETL_SYMBOL_FETCH_CANCELLED : ETL_SYMBOL_FETCH_FAILED;
  }
  /* 3. file.ptr */
  {
    g_autofree char *uri = g_strdup_printf ("%s/file.ptr", folder);
    g_autoptr (GByteArray) body = g_byte_array_new ();
    Got got = get (session, uri, NULL, body, MAX_FILE_PTR, request, cancellable, reason);

    if (got == GOT_FILE)
      return follow_pointer (body, request, max_size, file, reason);
    if (got != GOT_404)
      return got == GOT_CANCELLED ? ETL_SYMBOL_FETCH_CANCELLED : ETL_SYMBOL_FETCH_FAILED;
  }
  g_mutex_lock (&s->lock);
  g_hash_table_add (s->missing, g_steal_pointer (&pdb_uri));
  g_mutex_unlock (&s->lock);
  return ETL_SYMBOL_FETCH_NOT_ON_SERVER;
}

#else

static EtlSymbolFetchResult
fetch (gpointer data, const EtlSymbolFetchRequest *request, GCancellable *cancellable, char **file, char **reason)
{
  *file = NULL;
  *reason = g_strdup ("not built with symbol-server support (libsoup 3)");
  return ETL_SYMBOL_FETCH_FAILED;
}

#endif

static gboolean
unpack (gpointer data, const char *cabinet, char **file, GError **error)
{
  EtlSymbolServer *s = data;
  g_autofree char *dir = g_path_get_dirname (cabinet);
  g_autofree char *name = g_path_get_basename (cabinet);
  guint64 max_size;

  g_mutex_lock (&s->lock);
  max_size = s->max_size;
  g_mutex_unlock (&s->lock);
  if (*name != '\0')
    name[strlen (name) - 1] = 'b'; /* name.pd_ → name.pdb */
  *file = etl_cab_extract_pdb (cabinet, dir, name, max_size, error);
  return *file != NULL;
}

static void
server_unref (gpointer data)
{
  etl_symbol_server_unref (data);
}

/**
 * etl_symbol_server_install:
 * @server: a client
 * @resolver: a resolver, before its first frame is named
 *
 * Makes @server the resolver's fetcher and unpacker
 * (etl_symbol_resolver_set_fetcher()): its `srv*` elements are asked once
 * downloading is turned on (etl_symbol_resolver_set_downloads(), off by
 * default), and the `.pd_` cabinets of its local stores are unpacked.  The
 * resolver keeps a reference to @server.
 */
void
etl_symbol_server_install (EtlSymbolServer *server, EtlSymbolResolver *resolver)
{
  g_return_if_fail (server != NULL && resolver != NULL);
  etl_symbol_resolver_set_fetcher (resolver, fetch, unpack, etl_symbol_server_ref (server), server_unref);
}
