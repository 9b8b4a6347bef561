/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-symbol-resolver
 * @title: EtlSymbolResolver
 * @short_description: native frames named `module!function+0xOFFSET` through PDBs
 *
 * A resolver names the frames of an #EtlStacks that fall in images: for an
 * image with a KernelTraceControl DbgID_RSDS record (etl-module-id.c) it
 * looks for the PDB in the local folders of a symbol path
 * (etl_symbol_path_find_local()), opens it (etl_pdb_open()), checks that its
 * GUID and age are the record's, and then maps each frame's RVA (address -
 * ImageBase) to the function that holds it (etl_pdb_lookup()).
 *
 * Work is per PDB identity (PDB name, GUID, age): images of several
 * processes that share one (ntdll.dll) open it once, and an identity that
 * failed (not found, mismatch, unreadable) is not looked for again while
 * the resolver lives.  Each image gets a status and, when not resolved, the
 * reason (#EtlSymbolStatus).
 *
 * Resolution is lazy: an identity is looked for the first time a frame of
 * its image is named.  With @on_demand (the CLI, tests) that happens in the
 * calling thread, under the resolver's lock; without it the frame is named
 * `module+0xOFFSET` for now and the identity is queued for
 * etl_symbol_resolver_resolve_pending(), which a worker runs: it opens the
 * PDBs outside the lock and publishes each one under it, so the main thread
 * keeps naming frames from what is resolved so far.
 * etl_symbol_resolver_set_notify_full() tells the resolver's owner when an
 * identity is queued (to start that worker at once) and when one settled
 * (to name its frames again).
 *
 * Naming a frame takes the lock briefly; answers are kept in a
 * direct-mapped cache of 65,536 (module, offset) slots, so that the
 * repeated addresses of sampled stacks skip the PDB's bisection.  A miss
 * looks the function up through a page index built when the PDB is opened
 * (for each 4 KiB page of RVAs, the last function starting at or below it:
 * a bisection over a few functions instead of all of them), and its
 * `module!function` string is made once per image name and function.
 *
 * Symbol servers (`srv*DIR*URL`) are asked only when downloading is on
 * (etl_symbol_resolver_set_downloads(), off by default: a trace must not
 * make the viewer phone home unasked) and a fetcher is installed
 * (etl_symbol_resolver_set_fetcher()): the HTTP client and the cabinet
 * unpacker live outside core/ (symsrv/etl-symbol-server.c, libsoup and
 * libmspack), the resolver only calls them.  The local folders of the whole
 * path are looked in first, then the servers in the path's order; a
 * downloaded PDB is checked (GUID and age) before it is renamed into the
 * element's local store at the symbol-store place (etl_symbol_store_dir()),
 * so a store never holds a partial or wrong file.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "etl-pdb.h"
#include "etl-symbol-resolver.h"

#define CACHE_BITS 16
#define CACHE_SLOTS (1u << CACHE_BITS)
#define MAX_TRIED_IN_REASON 16
#define PAGE_SHIFT 12
#define MAX_PAGES (1u << 20) /* 4 GiB of RVAs: beyond, etl_pdb_lookup() alone */

typedef struct
{
  EtlSymbolStatus status;
  gboolean queued;
  gboolean busy;
  gboolean has_id;
  EtlModuleIdKind kind;
  EtlGuid guid;
  guint32 age;
  char *pdb_name;
  char *reason;
  char *file;
  EtlPdb *pdb;
  guint32 *page_first; /* per page of RVAs: the last function starting at or below it */
  guint n_pages;
  /* Under progress_lock: a download in flight. */
  gboolean downloading;
  guint64 received;
  guint64 total;
} Entry;

/* The images of one file name with one entry: they share their names. */
typedef struct
{
  const char *module;    /* the image's file name (the stacks' string) */
  guint entry;
  const char **names;    /* per function of the entry's PDB, made on first use */
} Group;

typedef struct
{
  guint module; /* + 1; 0: empty */
  guint32 function_offset;
  guint64 offset;
  const char *name;
} Slot;

struct _EtlSymbolResolver
{
  gint ref_count;   /* the users' references */
  gint keep_count;  /* the memory's: one for all users, one per stacks namer holding it */
  EtlStacks *stacks;
  EtlSymbolPath *path; /* NULL: none given */
  gboolean on_demand;
  gboolean attached;
  GMutex lock;
  GPtrArray *entries;   /* Entry */
  guint *module_entry;  /* per module of stacks */
  guint *module_group;  /* per module of stacks: index in groups */
  GArray *groups;       /* Group */
  guint n_modules;
  GQueue queue;         /* entry indexes, as GUINT_TO_POINTER */
  GStringChunk *chunk; /* the groups' names */
  Slot *cache;
  /* etl_symbol_resolver_set_fetcher(): set before resolution starts. */
  EtlSymbolFetchFunc fetch;
  EtlSymbolUnpackFunc unpack;
  gpointer fetch_data;
  GDestroyNotify fetch_destroy;
  gint downloads;          /* atomic: etl_symbol_resolver_set_downloads() */
  GFunc notify;            /* etl_symbol_resolver_set_notify(): set before resolution starts */
  GFunc queued;            /* etl_symbol_resolver_set_notify_full(): called under lock */
  gpointer notify_data;
  GDestroyNotify notify_destroy; /* frees notify_data with the memory */
  guint n_busy;            /* under lock: identities being resolved by resolve_pending() */
  GCond settled;           /* with lock: signalled when n_busy drops */
  guint n_resolved;        /* under lock: identities resolved so far (etl_symbol_resolver_get_n_resolved()) */
  GMutex progress_lock;    /* the entries' download progress; taken inside lock, never around it */
};

static void
entry_free (gpointer p)
{
  Entry *e = p;

  g_free (e->pdb_name);
  g_free (e->reason);
  g_free (e->file);
  g_clear_pointer (&e->pdb, etl_pdb_unref);
  g_free (e->page_first);
  g_free (e);
}

/* The entry of a module: one per PDB identity for DbgID_RSDS, one per kind
 * and identity for the recognised kinds, one for all images without any. */
static guint
entry_for (EtlSymbolResolver *r, GHashTable *by_key, const EtlModuleId *id)
{
  g_autofree char *key = NULL;
  gpointer found;
  Entry *e;

  if (id == NULL)
    key = g_strdup ("none");
  else
    {
      /* Kind, GUID + age, PDB file name (case-insensitive, as on Windows). */
      g_autofree char *store_key = etl_symbol_store_key (&id->guid, id->age);
      g_autofree char *base = id->pdb_name != NULL ? etl_symbol_pdb_basename (id->pdb_name) : g_strdup ("");
      g_autofree char *raw = g_strdup_printf ("%d\n%s\n%s", id->kind, store_key, base);

      key = g_ascii_strdown (raw, -1);
    }
  if (g_hash_table_lookup_extended (by_key, key, NULL, &found))
    return GPOINTER_TO_UINT (found);

  e = g_new0 (Entry, 1);
  if (id == NULL)
    {
      e->status = ETL_SYMBOL_STATUS_NO_DBGID;
      e->reason = g_strdup ("the trace has no KernelTraceControl DbgID_RSDS record for this image (merge it "
                            "with its image rundown: xperf -merge or PerfView)");
    }
  else
    {
      e->has_id = TRUE;
      e->kind = id->kind;
      e->guid = id->guid;
      e->age = id->age;
      e->pdb_name = g_strdup (id->pdb_name);
      if (id->kind != ETL_MODULE_ID_RSDS)
        {
          e->status = ETL_SYMBOL_STATUS_UNSUPPORTED;
          e->reason = g_strdup_printf ("only a %s record (%s): recognised, not resolved",
                                       etl_module_id_kind_to_string (id->kind),
                                       id->kind == ETL_MODULE_ID_ILRSDS ? "the PDB of a managed (IL) image"
                                       : id->kind == ETL_MODULE_ID_PPDB ? "a portable PDB"
                                                                        : "a deterministic build");
        }
    }
  g_ptr_array_add (r->entries, e);
  g_hash_table_insert (by_key, g_steal_pointer (&key), GUINT_TO_POINTER (r->entries->len - 1));
  return r->entries->len - 1;
}

/**
 * etl_symbol_resolver_new:
 * @stacks: the stacks whose frames to name (a reference is kept)
 * @path: (nullable): where PDBs are looked for (copied); %NULL: nowhere,
 *   every image with a DbgID_RSDS record ends "not found"
 * @on_demand: look for an image's PDB in the thread that first names one of
 *   its frames (%TRUE), or queue it for etl_symbol_resolver_resolve_pending()
 *   (%FALSE)
 *
 * Makes a resolver for @stacks' images (see the section description).
 * Nothing is read yet.  Call etl_symbol_resolver_attach() for
 * etl_stacks_symbolize() and its callers to use it.
 *
 * Returns: (transfer full): the resolver
 */
EtlSymbolResolver *
etl_symbol_resolver_new (EtlStacks *stacks, const EtlSymbolPath *path, gboolean on_demand)
{
  EtlSymbolResolver *r;
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (stacks != NULL, NULL);

  r = g_new0 (EtlSymbolResolver, 1);
  r->ref_count = 1;
  r->keep_count = 1;
  r->stacks = etl_stacks_ref (stacks);
  if (path != NULL)
    {
      g_autofree char *text = etl_symbol_path_to_string (path);

      r->path = etl_symbol_path_parse (text, NULL);
    }
  r->on_demand = on_demand;
  g_mutex_init (&r->lock);
  g_mutex_init (&r->progress_lock);
  g_cond_init (&r->settled);
  r->entries = g_ptr_array_new_with_free_func (entry_free);
  r->n_modules = etl_stacks_get_n_modules (stacks);
  r->module_entry = g_new0 (guint, MAX (r->n_modules, 1));
  r->module_group = g_new0 (guint, MAX (r->n_modules, 1));
  r->groups = g_array_new (FALSE, TRUE, sizeof (Group));
  for (guint m = 0; m < r->n_modules; m++)
    {
      EtlStackModule mod;
      g_autofree char *key = NULL;
      gpointer found;

      etl_stacks_get_module (stacks, m, &mod);
      r->module_entry[m] = entry_for (r, by_key, mod.id);
      key = g_strdup_printf ("%s\n%u", mod.name, r->module_entry[m]);
      if (g_hash_table_lookup_extended (groups, key, NULL, &found))
        r->module_group[m] = GPOINTER_TO_UINT (found);
      else
        {
          Group g = { mod.name, r->module_entry[m], NULL };

          r->module_group[m] = r->groups->len;
          g_array_append_val (r->groups, g);
          g_hash_table_insert (groups, g_steal_pointer (&key), GUINT_TO_POINTER (r->module_group[m]));
        }
    }
  g_queue_init (&r->queue);
  r->chunk = g_string_chunk_new (4096);
  r->cache = g_new0 (Slot, CACHE_SLOTS);
  return r;
}

/**
 * etl_symbol_resolver_ref:
 * @resolver: a resolver
 *
 * Returns: (transfer full): @resolver
 */
EtlSymbolResolver *
etl_symbol_resolver_ref (EtlSymbolResolver *resolver)
{
  g_atomic_int_inc (&resolver->ref_count);
  return resolver;
}

static void
keep_unref (gpointer data)
{
  EtlSymbolResolver *resolver = data;

  if (!g_atomic_int_dec_and_test (&resolver->keep_count))
    return;
  g_clear_pointer (&resolver->entries, g_ptr_array_unref);
  for (guint i = 0; i < resolver->groups->len; i++)
    g_free (g_array_index (resolver->groups, Group, i).names);
  g_clear_pointer (&resolver->groups, g_array_unref);
  g_free (resolver->module_group);
  g_clear_pointer (&resolver->chunk, g_string_chunk_free);
  g_clear_pointer (&resolver->path, etl_symbol_path_free);
  g_queue_clear (&resolver->queue);
  g_free (resolver->module_entry);
  g_free (resolver->cache);
  g_mutex_clear (&resolver->lock);
  g_mutex_clear (&resolver->progress_lock);
  g_cond_clear (&resolver->settled);
  if (resolver->fetch_destroy != NULL)
    resolver->fetch_destroy (resolver->fetch_data);
  if (resolver->notify_destroy != NULL)
    resolver->notify_destroy (resolver->notify_data);
  etl_stacks_unref (resolver->stacks);
  g_free (resolver);
}

/**
 * etl_symbol_resolver_unref:
 * @resolver: (transfer full) (nullable): a resolver
 *
 * Drops a reference; with the last, detaches it from its stacks and closes
 * its PDBs (once no other thread is naming a frame through it).
 */
void
etl_symbol_resolver_unref (EtlSymbolResolver *resolver)
{
  if (resolver == NULL || !g_atomic_int_dec_and_test (&resolver->ref_count))
    return;
  /* The stacks' namer may still be naming a frame in another thread: it
   * holds its own keep reference, dropped when that thread is done. */
  etl_symbol_resolver_detach (resolver);
  keep_unref (resolver);
}

static const char *
namer (gpointer data, guint module, guint64 offset, guint32 *function_offset)
{
  return etl_symbol_resolver_lookup (data, module, offset, function_offset);
}

/**
 * etl_symbol_resolver_attach:
 * @resolver: a resolver
 *
 * Makes @resolver its stacks' namer (etl_stacks_set_namer()): from then on
 * etl_stacks_symbolize(), etl_stacks_dup_symbolized() and
 * etl_stacks_summarize() name frames through it.  Safe while other
 * threads name frames (etl_stacks_set_namer_full()).
 */
void
etl_symbol_resolver_attach (EtlSymbolResolver *resolver)
{
  g_return_if_fail (resolver != NULL);
  g_atomic_int_inc (&resolver->keep_count);
  etl_stacks_set_namer_full (resolver->stacks, namer, resolver, keep_unref);
  resolver->attached = TRUE;
}

/**
 * etl_symbol_resolver_detach:
 * @resolver: a resolver
 *
 * Undoes etl_symbol_resolver_attach(); frames are `module+0xOFFSET` again.
 */
void
etl_symbol_resolver_detach (EtlSymbolResolver *resolver)
{
  g_return_if_fail (resolver != NULL);
  if (!resolver->attached)
    return;
  etl_stacks_set_namer (resolver->stacks, NULL, NULL);
  resolver->attached = FALSE;
}

typedef struct
{
  EtlSymbolStatus status;
  char *reason;
  char *file;
  EtlPdb *pdb;
  guint32 *page_first;
  guint n_pages;
  gboolean cancelled; /* a download was cancelled: the identity stays pending */
} Outcome;

/* The page index of @pdb's function table (see the section description);
 * none when its RVAs span more than MAX_PAGES pages. */
static void
build_pages (const EtlPdb *pdb, Outcome *out)
{
  guint n;
  const EtlPdbFunction *f = etl_pdb_get_functions (pdb, &n);
  guint64 end = 0;
  guint k = 0;

  for (guint i = 0; i < n; i++)
    end = MAX (end, (guint64)f[i].rva + f[i].length);
  if (n == 0 || (end >> PAGE_SHIFT) + 1 > MAX_PAGES)
    return;
  out->n_pages = (guint)(end >> PAGE_SHIFT) + 1;
  out->page_first = g_new (guint32, out->n_pages);
  for (guint p = 0; p < out->n_pages; p++)
    {
      guint64 start = (guint64)p << PAGE_SHIFT;

      while (k + 1 < n && f[k + 1].rva <= start)
        k++;
      out->page_first[p] = k;
    }
}

/* The function that holds @rva, as etl_pdb_lookup() finds it, through
 * @e's page index: the answer lies between the page's entry and the next
 * page's. */
static const EtlPdbFunction *
lookup_function (const Entry *e, guint32 rva, guint32 *offset)
{
  guint n, p = rva >> PAGE_SHIFT, lo, hi;
  const EtlPdbFunction *f;

  if (e->page_first == NULL)
    return etl_pdb_lookup (e->pdb, rva, offset);
  f = etl_pdb_get_functions (e->pdb, &n);
  if (p >= e->n_pages)
    return NULL; /* past every function's end */
  lo = e->page_first[p];
  hi = p + 1 < e->n_pages ? e->page_first[p + 1] : n - 1;
  if (f[lo].rva > rva)
    return NULL; /* before the first function */
  /* The last entry in [lo, hi] starting at or below @rva. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo + 1) / 2;

      if (f[mid].rva <= rva)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (rva - f[lo].rva >= f[lo].length)
    return NULL;
  *offset = rva - f[lo].rva;
  return &f[lo];
}

static char *
format_guid (const EtlGuid *guid)
{
  char text[ETL_PDB_GUID_STRING_LEN + 1];

  etl_pdb_format_guid (guid, text);
  return g_strdup (text);
}

/* Opens @file and checks it is the PDB wanted; @shown names it in reasons. */
static gboolean
open_and_check (const char *file, const char *shown, const EtlGuid *guid, guint32 age, Outcome *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlPdb) pdb = etl_pdb_open (file, &error);

  if (pdb == NULL)
    {
      out->status = ETL_SYMBOL_STATUS_UNREADABLE;
      out->reason = g_strdup_printf ("%s: %s", shown, error->message);
      return FALSE;
    }
  /* The PDB info stream's GUID and Age against the image's CodeView
   * record, as debuggers match them (a symbol store files a PDB under that
   * pair: etl_symbol_store_key()). */
  if (!etl_guid_equal (etl_pdb_get_guid (pdb), guid) || etl_pdb_get_age (pdb) != age)
    {
      g_autofree char *have = format_guid (etl_pdb_get_guid (pdb));
      g_autofree char *want = format_guid (guid);

      out->status = ETL_SYMBOL_STATUS_MISMATCH;
      out->reason = g_strdup_printf ("%s is another build: GUID %s age %u, the image needs GUID %s age %u", shown,
                                     have, etl_pdb_get_age (pdb), want, age);
      return FALSE;
    }
  out->status = ETL_SYMBOL_STATUS_RESOLVED;
  build_pages (pdb, out);
  out->pdb = g_steal_pointer (&pdb);
  return TRUE;
}

/* Replaces @dest with @tmp (g_rename() does not replace on Windows). */
static gboolean
commit_file (const char *tmp, const char *dest, char **reason)
{
  if (g_rename (tmp, dest) == 0)
    return TRUE;
  if (g_file_test (dest, G_FILE_TEST_EXISTS) && g_remove (dest) == 0 && g_rename (tmp, dest) == 0)
    return TRUE;
  *reason = g_strdup_printf ("cannot rename %s to %s: %s", tmp, dest, g_strerror (errno));
  g_remove (tmp);
  return FALSE;
}

/* Checks a PDB a fetcher or unpacker wrote to @tmp and, when it is the
 * one wanted, moves it to @dest; otherwise removes it. */
static void
adopt_file (const char *tmp, const char *dest, const char *origin, const EtlGuid *guid, guint32 age, Outcome *out)
{
  if (!open_and_check (tmp, origin, guid, age, out))
    {
      /* The reader names the temporary file, which is about to go. */
      g_auto (GStrv) parts = g_strsplit (out->reason, tmp, -1);
      g_autofree char *said = g_strjoinv ("the file", parts);
      char *reason = g_strdup_printf ("%s (not kept)", said);

      g_free (out->reason);
      out->reason = reason;
      g_remove (tmp);
      return;
    }
  if (!commit_file (tmp, dest, &out->reason))
    {
      /* The PDB is read (it copies what it keeps): use it, say so. */
      g_debug ("%s", out->reason);
      g_clear_pointer (&out->reason, g_free);
    }
  out->file = g_strdup (dest);
}

static void
progress_cb (gpointer data, guint64 received, guint64 total)
{
  gpointer *pair = data;
  EtlSymbolResolver *r = pair[0];
  Entry *e = pair[1];

  g_mutex_lock (&r->progress_lock);
  e->received = received;
  e->total = total;
  g_mutex_unlock (&r->progress_lock);
  if (r->notify != NULL)
    r->notify (r, r->notify_data);
}

/* The local store a `srv*` element downloads into: its nearest store, else
 * the last `cache*` folder before it, else the default cache. */
static char *
download_store (const EtlSymbolPath *path, guint index)
{
  const EtlSymbolPathElement *e = etl_symbol_path_get_element (path, index);

  if (e->stores != NULL && e->stores[0] != NULL && *e->stores[0] != '\0')
    return g_strdup (e->stores[0]);
  for (guint i = index; i-- > 0;)
    {
      const EtlSymbolPathElement *c = etl_symbol_path_get_element (path, i);

      if (c->kind == ETL_SYMBOL_PATH_CACHE && c->stores != NULL && c->stores[0] != NULL && *c->stores[0] != '\0')
        return g_strdup (c->stores[0]);
    }
  return g_build_filename (g_get_user_cache_dir (), "etlscope", "symbols", NULL);
}

/* Asks the servers of @path in order, once the local folders failed;
 * @local is the "not found locally" sentence. */
static void
ask_servers (EtlSymbolResolver *r, Entry *entry, const char *pdb_name, const EtlGuid *guid, guint32 age,
             GCancellable *cancellable, const char *local, Outcome *out)
{
  const EtlSymbolPath *path = r->path;
  g_autofree char *base = etl_symbol_pdb_basename (pdb_name);
  g_autofree char *key = etl_symbol_store_key (guid, age);
  g_autoptr (GString) missing = g_string_new (NULL);
  guint n_servers = 0;
  gboolean failed = FALSE;
  gpointer pair[2] = { r, entry };

  for (guint i = 0; i < etl_symbol_path_get_n_elements (path); i++)
    {
      const EtlSymbolPathElement *e = etl_symbol_path_get_element (path, i);
      g_autofree char *store = NULL;
      g_autofree char *dir = NULL;
      g_autofree char *dest = NULL;
      g_autofree char *tmp = NULL;
      g_autofree char *reason = NULL;
      g_autofree char *origin = NULL;
      EtlSymbolFetchRequest request;
      EtlSymbolFetchResult result;

      if (e->kind != ETL_SYMBOL_PATH_SERVER || e->url == NULL)
        continue;
      n_servers++;
      store = download_store (path, i);
      dir = etl_symbol_store_dir (store, base, key);
      dest = g_build_filename (dir, base, NULL);
      /* The default cache (or a cache* folder before the element) is no
       * store of the element: look in it too, downloads on or off. */
      if (g_file_test (dest, G_FILE_TEST_IS_REGULAR))
        {
          Outcome o = { 0 };

          if (open_and_check (dest, dest, guid, age, &o))
            {
              g_free (out->reason);
              *out = o;
              out->file = g_strdup (dest);
              return;
            }
          g_free (o.reason);
        }
      if (!g_atomic_int_get (&r->downloads) || r->fetch == NULL)
        continue;
      request.url = e->url;
      request.pdb_name = base;
      request.key = key;
      request.dest = dest;
      request.progress = progress_cb;
      request.progress_data = pair;
      g_mutex_lock (&r->progress_lock);
      entry->downloading = TRUE;
      entry->received = entry->total = 0;
      g_mutex_unlock (&r->progress_lock);
      if (r->notify != NULL)
        r->notify (r, r->notify_data);
      result = r->fetch (r->fetch_data, &request, cancellable, &tmp, &reason);
      if (result == ETL_SYMBOL_FETCH_DONE && tmp == NULL)
        result = ETL_SYMBOL_FETCH_FAILED; /* a fetcher's bug: no file */
      g_mutex_lock (&r->progress_lock);
      entry->downloading = FALSE;
      g_mutex_unlock (&r->progress_lock);
      switch (result)
        {
        case ETL_SYMBOL_FETCH_DONE:
          {
            Outcome o = { 0 };

            origin = g_strdup_printf ("%s downloaded from %s", base, e->url);
            adopt_file (tmp, dest, origin, guid, age, &o);
            g_free (out->reason);
            g_free (out->file);
            *out = o;
            if (o.status == ETL_SYMBOL_STATUS_RESOLVED)
              return;
            failed = TRUE;
            break;
          }
        case ETL_SYMBOL_FETCH_NOT_ON_SERVER:
          g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", e->url);
          break;
        case ETL_SYMBOL_FETCH_CANCELLED:
          out->cancelled = TRUE;
          return;
        case ETL_SYMBOL_FETCH_FAILED:
        default:
          g_free (out->reason);
          out->status = ETL_SYMBOL_STATUS_DOWNLOAD_FAILED;
          out->reason = g_strdup_printf ("%s from %s: %s", base, e->url, reason != NULL ? reason : "failed");
          failed = TRUE;
          break;
        }
    }
  if (failed)
    return;
  g_free (out->reason);
  out->status = ETL_SYMBOL_STATUS_NOT_FOUND;
  if (n_servers == 0)
    out->reason = g_strdup (local);
  else if (!g_atomic_int_get (&r->downloads))
    out->reason = g_strdup_printf ("%s; symbol servers not asked: downloading is off", local);
  else if (r->fetch == NULL)
    out->reason = g_strdup_printf ("%s; symbol servers not asked: no symbol-server support installed", local);
  else
    out->reason = g_strdup_printf ("%s; not on the symbol server (%s)", local, missing->str);
}

/* Looks for and opens one PDB: shared state is only read (the path, the
 * fetcher) or written under progress_lock, so a worker runs it outside the
 * lock. */
static void
resolve_work (EtlSymbolResolver *r, Entry *entry, const char *pdb_name, const EtlGuid *guid, guint32 age,
              GCancellable *cancellable, Outcome *out)
{
  const EtlSymbolPath *path = r->path;
  g_autoptr (GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *found = NULL;
  EtlSymbolLookup lookup;

  memset (out, 0, sizeof *out);
  if (path == NULL || etl_symbol_path_get_n_elements (path) == 0)
    {
      out->status = ETL_SYMBOL_STATUS_NOT_FOUND;
      out->reason = g_strdup ("no symbol path given (--symbols PATH or _NT_SYMBOL_PATH)");
      return;
    }
  lookup = etl_symbol_path_find_local (path, pdb_name, guid, age, &found, tried);
  switch (lookup)
    {
    case ETL_SYMBOL_LOOKUP_NOT_FOUND:
      {
        g_autoptr (GString) s = g_string_new ("not found in the symbol path's local folders; tried: ");

        for (guint k = 0; k < tried->len && k < MAX_TRIED_IN_REASON; k++)
          g_string_append_printf (s, "%s%s", k > 0 ? ", " : "", (const char *)g_ptr_array_index (tried, k));
        if (tried->len > MAX_TRIED_IN_REASON)
          g_string_append_printf (s, " and %u more", tried->len - MAX_TRIED_IN_REASON);
        if (tried->len == 0)
          g_string_append (s, "nothing (no local folder)");
        ask_servers (r, entry, pdb_name, guid, age, cancellable, s->str, out);
        return;
      }
    case ETL_SYMBOL_LOOKUP_COMPRESSED:
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *tmp = NULL;
        g_autofree char *dest = NULL;

        if (r->unpack == NULL)
          {
            out->status = ETL_SYMBOL_STATUS_COMPRESSED;
            out->reason = g_strdup_printf ("%s is a compressed cabinet (.pd_): no unpacker installed", found);
            out->file = g_steal_pointer (&found);
            return;
          }
        if (!r->unpack (r->fetch_data, found, &tmp, &error))
          {
            out->status = ETL_SYMBOL_STATUS_COMPRESSED;
            out->reason = g_strdup_printf ("%s: %s", found, error->message);
            out->file = g_steal_pointer (&found);
            return;
          }
        /* name.pd_ → name.pdb next to it, as symsrv expands it. */
        dest = g_strdup (found);
        dest[strlen (dest) - 1] = 'b';
        adopt_file (tmp, dest, found, guid, age, out);
        if (out->file == NULL)
          out->file = g_steal_pointer (&found);
        return;
      }
    case ETL_SYMBOL_LOOKUP_FOUND:
    default:
      break;
    }
  open_and_check (found, found, guid, age, out);
  out->file = g_steal_pointer (&found);
}

/* Under the lock. */
static void
publish (EtlSymbolResolver *r, Entry *e, Outcome *out)
{
  e->status = out->status;
  e->reason = out->reason;
  e->file = out->file;
  e->pdb = out->pdb;
  e->page_first = out->page_first;
  e->n_pages = out->n_pages;
  e->busy = FALSE;
  e->queued = FALSE;
  if (out->status == ETL_SYMBOL_STATUS_RESOLVED && !out->cancelled)
    r->n_resolved++;
  if (out->cancelled)
    {
      /* Left pending: a later etl_symbol_resolver_resolve_pending() asks
       * again. */
      e->status = ETL_SYMBOL_STATUS_PENDING;
      g_clear_pointer (&e->reason, g_free);
      g_clear_pointer (&e->file, g_free);
    }
}

/* `module!function` for @f of @e, one string per image name and function
 * (under the lock). */
static const char *
intern_name (EtlSymbolResolver *r, guint module, const Entry *e, const EtlPdbFunction *f)
{
  Group *g = &g_array_index (r->groups, Group, r->module_group[module]);
  guint n;
  const EtlPdbFunction *table = etl_pdb_get_functions (e->pdb, &n);
  gsize i = (gsize)(f - table);

  if (g->names == NULL)
    g->names = g_new0 (const char *, n);
  if (g->names[i] == NULL)
    {
      g_autofree char *full = g_strconcat (g->module, "!", f->name, NULL);

      g->names[i] = g_string_chunk_insert (r->chunk, full);
    }
  return g->names[i];
}

/**
 * etl_symbol_resolver_lookup:
 * @resolver: a resolver
 * @module: a module of its stacks (etl_stacks_get_module())
 * @offset: an address minus the module's ImageBase
 * @function_offset: (out) (optional): the address minus the function's start
 *
 * Names a frame (the #EtlStacksNamer of etl_symbol_resolver_attach()).  The
 * first frame of a module whose PDB identity is still pending starts its
 * resolution: here (on demand) or queued for
 * etl_symbol_resolver_resolve_pending().  Thread-safe.
 *
 * Returns: (transfer none) (nullable): `module!function` (the PDB's
 *   spelling of the function), valid while @resolver lives, or %NULL when
 *   the module is not resolved (yet) or no function holds @offset
 */
const char *
etl_symbol_resolver_lookup (EtlSymbolResolver *resolver, guint module, guint64 offset, guint32 *function_offset)
{
  Entry *e;
  Slot *slot;
  guint h;
  const EtlPdbFunction *f;
  guint32 off = 0;
  const char *name = NULL;

  g_return_val_if_fail (resolver != NULL, NULL);
  if (module >= resolver->n_modules)
    return NULL;
  h = (guint)(((offset ^ (offset >> 17) ^ ((guint64)module * 0x9E3779B1u)) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15))
              >> (64 - CACHE_BITS));
  g_mutex_lock (&resolver->lock);
  slot = &resolver->cache[h];
  if (slot->module == module + 1 && slot->offset == offset)
    {
      name = slot->name;
      off = slot->function_offset;
      goto out;
    }
  e = g_ptr_array_index (resolver->entries, resolver->module_entry[module]);
  if (e->status == ETL_SYMBOL_STATUS_PENDING)
    {
      if (resolver->on_demand)
        {
          Outcome o;

          resolve_work (resolver, e, e->pdb_name, &e->guid, e->age, NULL, &o);
          publish (resolver, e, &o);
        }
      else if (!e->queued && !e->busy)
        {
          e->queued = TRUE;
          g_queue_push_tail (&resolver->queue, GUINT_TO_POINTER (resolver->module_entry[module]));
          if (resolver->queued != NULL)
            resolver->queued (resolver, resolver->notify_data);
        }
    }
  if (e->status != ETL_SYMBOL_STATUS_RESOLVED)
    goto out;
  f = offset <= G_MAXUINT32 ? lookup_function (e, (guint32)offset, &off) : NULL;
  if (f != NULL)
    name = intern_name (resolver, module, e, f);
  else
    off = 0;
  slot->module = module + 1;
  slot->offset = offset;
  slot->name = name;
  slot->function_offset = off;
out:
  g_mutex_unlock (&resolver->lock);
  if (function_offset != NULL)
    *function_offset = off;
  return name;
}

/**
 * etl_symbol_resolver_request_all:
 * @resolver: a resolver
 *
 * Queues every pending PDB identity of the stacks' images for
 * etl_symbol_resolver_resolve_pending() (or, on demand, resolves them now),
 * whether a frame asked for it or not: for a status of every image.
 */
void
etl_symbol_resolver_request_all (EtlSymbolResolver *resolver)
{
  gboolean queued = FALSE;

  g_return_if_fail (resolver != NULL);
  g_mutex_lock (&resolver->lock);
  for (guint i = 0; i < resolver->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (resolver->entries, i);

      if (e->status != ETL_SYMBOL_STATUS_PENDING || e->queued || e->busy)
        continue;
      e->queued = TRUE;
      g_queue_push_tail (&resolver->queue, GUINT_TO_POINTER (i));
      queued = TRUE;
    }
  if (queued && !resolver->on_demand && resolver->queued != NULL)
    resolver->queued (resolver, resolver->notify_data);
  g_mutex_unlock (&resolver->lock);
  if (resolver->on_demand)
    etl_symbol_resolver_resolve_pending (resolver, NULL, NULL);
}

/**
 * etl_symbol_resolver_resolve_pending:
 * @resolver: a resolver
 * @cancellable: (nullable): checked between PDBs
 * @error: return location for G_IO_ERROR_CANCELLED
 *
 * Resolves the queued PDB identities one by one, in the calling thread
 * (meant for a worker): looks for each PDB and opens it without the lock,
 * then publishes the outcome under it, so other threads name frames from
 * what is resolved so far meanwhile.  Several threads may call it at once
 * (a window's worker and a dialog's): each takes the next queued identity,
 * and each returns only once no identity is queued or being resolved by
 * another, so that etl_symbol_resolver_dup_statuses() then shows every
 * identity asked for settled.
 *
 * Returns: the identities resolved or failed by this call (not those it
 *   waited for: etl_symbol_resolver_get_n_resolved() counts every thread's);
 *   with @error set when cancelled (the rest stays queued)
 */
guint
etl_symbol_resolver_resolve_pending (EtlSymbolResolver *resolver, GCancellable *cancellable, GError **error)
{
  guint done = 0;

  g_return_val_if_fail (resolver != NULL, 0);
  for (;;)
    {
      Entry *e;
      Outcome o;
      g_autofree char *pdb_name = NULL;
      EtlGuid guid;
      guint32 age;
      guint index;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return done;
      g_mutex_lock (&resolver->lock);
      if (g_queue_is_empty (&resolver->queue))
        {
          /* Identities another thread is resolving: wait for them, so that
           * the statuses are settled when this returns (checking
           * @cancellable every 50 ms). */
          while (resolver->n_busy > 0 && !g_cancellable_is_cancelled (cancellable))
            {
              g_cond_wait_until (&resolver->settled, &resolver->lock,
                                 g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
              if (!g_queue_is_empty (&resolver->queue))
                break;
            }
          if (resolver->n_busy > 0 || !g_queue_is_empty (&resolver->queue))
            {
              g_mutex_unlock (&resolver->lock);
              continue; /* cancelled (returns below) or more queued */
            }
          g_mutex_unlock (&resolver->lock);
          return done;
        }
      index = GPOINTER_TO_UINT (g_queue_pop_head (&resolver->queue));
      e = g_ptr_array_index (resolver->entries, index);
      if (e->status != ETL_SYMBOL_STATUS_PENDING || e->busy)
        {
          g_mutex_unlock (&resolver->lock);
          continue;
        }
      e->busy = TRUE;
      e->queued = FALSE;
      resolver->n_busy++;
      pdb_name = g_strdup (e->pdb_name);
      guid = e->guid;
      age = e->age;
      g_mutex_unlock (&resolver->lock);

      resolve_work (resolver, e, pdb_name, &guid, age, cancellable, &o);

      g_mutex_lock (&resolver->lock);
      publish (resolver, e, &o);
      resolver->n_busy--;
      g_cond_broadcast (&resolver->settled);
      if (o.cancelled && !e->queued)
        {
          e->queued = TRUE;
          g_queue_push_head (&resolver->queue, GUINT_TO_POINTER (index));
        }
      g_mutex_unlock (&resolver->lock);
      if (resolver->notify != NULL)
        resolver->notify (resolver, resolver->notify_data);
      if (o.cancelled)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "symbol download cancelled");
          return done;
        }
      done++;
    }
}

/**
 * etl_symbol_resolver_get_module_status:
 * @resolver: a resolver
 * @module: a module of its stacks
 *
 * Returns: where @module's symbols stand (%ETL_SYMBOL_STATUS_NO_DBGID when
 *   @module is out of range)
 */
EtlSymbolStatus
etl_symbol_resolver_get_module_status (EtlSymbolResolver *resolver, guint module)
{
  EtlSymbolStatus status;

  g_return_val_if_fail (resolver != NULL, ETL_SYMBOL_STATUS_NO_DBGID);
  if (module >= resolver->n_modules)
    return ETL_SYMBOL_STATUS_NO_DBGID;
  g_mutex_lock (&resolver->lock);
  status = ((Entry *)g_ptr_array_index (resolver->entries, resolver->module_entry[module]))->status;
  g_mutex_unlock (&resolver->lock);
  return status;
}

static void
clear_status (gpointer p)
{
  EtlSymbolModuleStatus *s = p;

  g_free (s->module);
  g_free (s->pdb);
  g_free (s->guid);
  g_free (s->reason);
  g_free (s->file);
}

static int
cmp_status (gconstpointer a, gconstpointer b)
{
  const EtlSymbolModuleStatus *x = a, *y = b;
  int c = g_ascii_strcasecmp (x->module, y->module);

  if (c != 0)
    return c;
  c = g_strcmp0 (x->pdb, y->pdb);
  if (c != 0)
    return c;
  c = g_strcmp0 (x->guid, y->guid);
  return c != 0 ? c : (x->age > y->age) - (x->age < y->age);
}

/**
 * etl_symbol_resolver_dup_statuses:
 * @resolver: a resolver
 *
 * A snapshot of the images' statuses: one row per distinct image file name
 * and PDB identity (the images of several processes that share them are
 * one row), by file name (case-insensitive), PDB name, GUID, age.
 * Thread-safe.
 *
 * Returns: (transfer full) (element-type EtlSymbolModuleStatus): the rows
 *   (freeing the array frees them)
 */
GArray *
etl_symbol_resolver_dup_statuses (EtlSymbolResolver *resolver)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (EtlSymbolModuleStatus));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_array_set_clear_func (rows, clear_status);
  g_return_val_if_fail (resolver != NULL, rows);
  g_mutex_lock (&resolver->lock);
  for (guint m = 0; m < resolver->n_modules; m++)
    {
      EtlStackModule mod;
      const Entry *e = g_ptr_array_index (resolver->entries, resolver->module_entry[m]);
      EtlSymbolModuleStatus row = { 0 };
      char *key;

      etl_stacks_get_module (resolver->stacks, m, &mod);
      key = g_strdup_printf ("%s\n%u", mod.name, resolver->module_entry[m]);
      if (!g_hash_table_add (seen, key))
        continue;
      row.module = g_strdup (mod.name);
      row.pdb = g_strdup (e->pdb_name);
      row.guid = e->has_id && e->kind != ETL_MODULE_ID_PPDB && e->kind != ETL_MODULE_ID_DETERM
                     ? format_guid (&e->guid)
                     : NULL;
      row.age = e->age;
      row.status = e->status;
      row.reason = g_strdup (e->reason);
      row.file = g_strdup (e->file);
      g_mutex_lock (&resolver->progress_lock);
      if (e->downloading)
        row.status = ETL_SYMBOL_STATUS_DOWNLOADING;
      row.received = e->received;
      row.total = e->total;
      g_mutex_unlock (&resolver->progress_lock);
      g_array_append_val (rows, row);
    }
  g_mutex_unlock (&resolver->lock);
  g_array_sort (rows, cmp_status);
  return rows;
}

/**
 * etl_symbol_status_to_string:
 * @status: a status
 *
 * Returns: (transfer none): its name in the CLI's JSON: "pending",
 *   "resolved", "no-dbgid", "unsupported", "not-found", "mismatch",
 *   "unreadable", "compressed", "downloading", "download-failed"
 */
const char *
etl_symbol_status_to_string (EtlSymbolStatus status)
{
  static const char *const names[] = { "pending",    "resolved",   "no-dbgid",    "unsupported",    "not-found",
                                       "mismatch",   "unreadable", "compressed", "downloading", "download-failed" };

  return (guint)status < G_N_ELEMENTS (names) ? names[status] : "unknown";
}

/**
 * etl_symbol_resolver_set_fetcher:
 * @resolver: a resolver
 * @fetch: (nullable): downloads a PDB from a symbol server
 * @unpack: (nullable): unpacks a compressed `name.pd_` found locally
 * @data: (transfer full): for @fetch and @unpack
 * @destroy: (nullable): frees @data with the resolver
 *
 * Installs the code that reaches symbol servers and unpacks cabinets, which
 * lives outside core/ (etl_symbol_server_install() does it with libsoup and
 * libmspack).  Call it once, before the first frame is named.  Installing
 * does not turn downloading on (etl_symbol_resolver_set_downloads()).
 */
void
etl_symbol_resolver_set_fetcher (EtlSymbolResolver *resolver, EtlSymbolFetchFunc fetch, EtlSymbolUnpackFunc unpack,
                                 gpointer data, GDestroyNotify destroy)
{
  g_return_if_fail (resolver != NULL);
  g_mutex_lock (&resolver->lock);
  if (resolver->fetch_destroy != NULL)
    resolver->fetch_destroy (resolver->fetch_data);
  resolver->fetch = fetch;
  resolver->unpack = unpack;
  resolver->fetch_data = data;
  resolver->fetch_destroy = destroy;
  g_mutex_unlock (&resolver->lock);
}

/**
 * etl_symbol_resolver_set_downloads:
 * @resolver: a resolver
 * @enabled: whether the `srv*` elements' servers may be asked
 *
 * Turns downloading from symbol servers on or off (off when made).  It
 * applies to PDB identities resolved from then on; one already failed "not
 * found" stays so until etl_symbol_resolver_retry().  Thread-safe.
 */
void
etl_symbol_resolver_set_downloads (EtlSymbolResolver *resolver, gboolean enabled)
{
  g_return_if_fail (resolver != NULL);
  g_atomic_int_set (&resolver->downloads, enabled ? 1 : 0);
}

/**
 * etl_symbol_resolver_get_downloads:
 * @resolver: a resolver
 *
 * Returns: whether symbol servers may be asked
 */
gboolean
etl_symbol_resolver_get_downloads (EtlSymbolResolver *resolver)
{
  g_return_val_if_fail (resolver != NULL, FALSE);
  return g_atomic_int_get (&resolver->downloads) != 0;
}

/**
 * etl_symbol_resolver_retry:
 * @resolver: a resolver
 *
 * Makes the PDB identities that ended "not found" or "download failed"
 * pending again, for instance after downloading was turned on
 * (etl_symbol_resolver_set_downloads()) or the network came back: they are
 * looked for again when a frame names them or at
 * etl_symbol_resolver_request_all().  What a symbol-server client
 * remembers as not on a server (404) stays so for its session.
 * Thread-safe.
 *
 * Returns: how many identities were made pending
 */
guint
etl_symbol_resolver_retry (EtlSymbolResolver *resolver)
{
  guint n = 0;

  g_return_val_if_fail (resolver != NULL, 0);
  g_mutex_lock (&resolver->lock);
  for (guint i = 0; i < resolver->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (resolver->entries, i);

      if (e->busy || (e->status != ETL_SYMBOL_STATUS_NOT_FOUND && e->status != ETL_SYMBOL_STATUS_DOWNLOAD_FAILED))
        continue;
      e->status = ETL_SYMBOL_STATUS_PENDING;
      g_clear_pointer (&e->reason, g_free);
      g_clear_pointer (&e->file, g_free);
      n++;
    }
  g_mutex_unlock (&resolver->lock);
  return n;
}

/**
 * etl_symbol_resolver_set_notify:
 * @resolver: a resolver
 * @notify: (nullable): called with (@resolver, @data) when a download starts
 *   or advances and when etl_symbol_resolver_resolve_pending() has settled
 *   an identity
 * @data: for @notify (not owned)
 *
 * Lets a view follow the resolution (a status list, a progress bar, stacks
 * to rename) without polling.  @notify runs in the resolving thread (the
 * worker, or on demand the thread naming a frame, then with the resolver's
 * lock held): it must not call the resolver back; schedule an idle
 * callback in the main loop that calls etl_symbol_resolver_dup_statuses().
 * Set it before resolution starts.
 */
void
etl_symbol_resolver_set_notify (EtlSymbolResolver *resolver, GFunc notify, gpointer data)
{
  etl_symbol_resolver_set_notify_full (resolver, notify, NULL, data, NULL);
}

/**
 * etl_symbol_resolver_set_notify_full:
 * @resolver: a resolver (made with on_demand %FALSE for @queued to be used)
 * @notify: (nullable): as in etl_symbol_resolver_set_notify()
 * @queued: (nullable): called with (@resolver, @data) when an identity is
 *   queued for etl_symbol_resolver_resolve_pending() (a frame of a pending
 *   module was named, or etl_symbol_resolver_request_all()), in the thread
 *   that queued it and with the resolver's lock held: it must only schedule
 *   a worker (g_idle_add() to the main loop, which starts one), never call
 *   the resolver
 * @data: (transfer full): for @notify and @queued
 * @destroy: (nullable): frees @data once the resolver's memory goes (after
 *   its last reference and the last frame named through it), so that @data
 *   outlives every call of @notify and @queued
 *
 * etl_symbol_resolver_set_notify() with a callback for work queued, so that
 * the owner of a resolver can load what any view asks for in a worker as
 * soon as it is asked (a window: etl-window-symbols.c).  Set it before
 * resolution starts, once.
 */
void
etl_symbol_resolver_set_notify_full (EtlSymbolResolver *resolver, GFunc notify, GFunc queued, gpointer data,
                                     GDestroyNotify destroy)
{
  g_return_if_fail (resolver != NULL);
  g_mutex_lock (&resolver->lock);
  if (resolver->notify_destroy != NULL)
    resolver->notify_destroy (resolver->notify_data);
  resolver->notify = notify;
  resolver->queued = queued;
  resolver->notify_data = data;
  resolver->notify_destroy = destroy;
  g_mutex_unlock (&resolver->lock);
}

/**
 * etl_symbol_resolver_get_n_resolved:
 * @resolver: a resolver
 *
 * How many PDB identities have been resolved so far, by any thread: a
 * counter that only grows, so that a view which named frames when it read
 * the value knows, when the value changed, that naming them again gives
 * more names.  Thread-safe.
 *
 * Returns: the identities resolved since @resolver was made
 */
guint
etl_symbol_resolver_get_n_resolved (EtlSymbolResolver *resolver)
{
  guint n;

  g_return_val_if_fail (resolver != NULL, 0);
  g_mutex_lock (&resolver->lock);
  n = resolver->n_resolved;
  g_mutex_unlock (&resolver->lock);
  return n;
}
