/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-symbol-path
 * @title: Symbol paths and local symbol stores
 *
 * Where a module's PDB is looked for, in the syntax of `_NT_SYMBOL_PATH`
 * (Microsoft's "Symbol path for Windows debuggers"): `;`-separated
 * elements, each a plain folder, `cache*DIR` or `srv*[DIR*…]URL`
 * (`symsrv*symsrv.dll*[DIR*…]URL` is the same).  A symbol store keys a PDB
 * by its name and the GUID and age of its CodeView RSDS record (the
 * DbgID_RSDS event in a trace): `STORE\name.pdb\KEY\name.pdb`, KEY the
 * GUID's 32 hex digits and the age in hex ("Symbol Storage Format"); with
 * an `index2.txt` at its root the store is two-tier, the name's first two
 * characters an extra folder level ("Symbol Store Folder Tree").  In the
 * KEY folder a store may hold the PDB compressed as a cabinet (`name.pd_`)
 * or a `file.ptr` whose text is the path of the PDB elsewhere.
 *
 * This file parses paths and finds PDBs in local folders and stores; it
 * never touches the network (symbol servers are asked elsewhere, only when
 * the user turns downloading on) and never checks the PDB it returns: the
 * caller opens it and compares its GUID and age.  There is no C library in
 * Debian for either job (the syntax and layout are symsrv.dll's); the
 * tests check both against the documented examples.
 */
#include "config.h"

#include "etl-symbol-path.h"

#include <gio/gio.h>
#include <string.h>

struct _EtlSymbolPath
{
  GArray *elements; /* EtlSymbolPathElement */
};

static void
element_clear (gpointer data)
{
  EtlSymbolPathElement *e = data;

  g_strfreev (e->stores);
  g_free (e->url);
}

static gboolean
is_url (const char *part)
{
  return strstr (part, "://") != NULL;
}

/* Adds one element of @text (already trimmed, not empty). */
static gboolean
parse_element (EtlSymbolPath *path, const char *element, GError **error)
{
  EtlSymbolPathElement e = { ETL_SYMBOL_PATH_FOLDER, NULL, NULL };
  g_auto (GStrv) parts = g_strsplit (element, "*", -1);
  guint n = g_strv_length (parts), first = 0;
  GPtrArray *stores;

  if (n == 1)
    {
      if (is_url (element))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "symbol path element “%s”: a URL must follow srv* (srv*DIR*%s)", element, element);
          return FALSE;
        }
      e.stores = g_new0 (char *, 2);
      e.stores[0] = g_strdup (element);
      g_array_append_val (path->elements, e);
      return TRUE;
    }
  if (g_ascii_strcasecmp (parts[0], "cache") == 0)
    {
      if (n != 2 || is_url (parts[1]))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "symbol path element “%s”: cache* takes one local folder (cache*DIR)", element);
          return FALSE;
        }
      e.kind = ETL_SYMBOL_PATH_CACHE;
      e.stores = g_new0 (char *, 2);
      e.stores[0] = g_strdup (g_strstrip (parts[1]));
      g_array_append_val (path->elements, e);
      return TRUE;
    }
  if (g_ascii_strcasecmp (parts[0], "srv") == 0)
    first = 1;
  else if (g_ascii_strcasecmp (parts[0], "symsrv") == 0 && n >= 3)
    first = 2; /* symsrv*symsrv.dll*…: the DLL is symsrv's own */
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "symbol path element “%s”: “%s*” is not srv*, symsrv* or cache*", element, parts[0]);
      return FALSE;
    }
  e.kind = ETL_SYMBOL_PATH_SERVER;
  stores = g_ptr_array_new_with_free_func (g_free);
  for (guint i = first; i < n; i++)
    {
      char *part = g_strstrip (parts[i]);

      if (is_url (part))
        {
          if (i != n - 1)
            {
              g_ptr_array_free (stores, TRUE);
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "symbol path element “%s”: the server's URL must be its last part", element);
              return FALSE;
            }
          if (g_ascii_strncasecmp (part, "http://", 7) != 0 && g_ascii_strncasecmp (part, "https://", 8) != 0)
            {
              g_ptr_array_free (stores, TRUE);
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "symbol path element “%s”: only http:// and https:// servers are supported", element);
              return FALSE;
            }
          e.url = g_strdup (part);
        }
      else
        g_ptr_array_add (stores, g_strdup (part)); /* "" (srv**URL): the default cache */
    }
  g_ptr_array_add (stores, NULL);
  e.stores = (char **) g_ptr_array_free (stores, FALSE);
  g_array_append_val (path->elements, e);
  return TRUE;
}

/**
 * etl_symbol_path_parse:
 * @text: (nullable): a symbol path, e.g.
 *   `C:\build;srv*C:\symbols*https://msdl.microsoft.com/download/symbols`;
 *   %NULL or empty: no element
 * @error: return location for a #GError
 *
 * Parses a symbol path in the syntax of `_NT_SYMBOL_PATH` ("Symbol path for
 * Windows debuggers"): elements separated by `;` (empty ones skipped,
 * spaces around each trimmed); `srv*` and `symsrv*symsrv.dll*` elements
 * list local stores and end with the server's URL (a last part without
 * `://` is one more local store, such as a file share); `cache*DIR` names
 * a cache; anything else is a folder.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL with @error set:
 *   %G_IO_ERROR_INVALID_ARGUMENT for a malformed element (naming it) or more
 *   than %ETL_SYMBOL_PATH_MAX_ELEMENTS elements, %G_IO_ERROR_NOT_SUPPORTED
 *   for a server URL other than http:// or https://
 */
EtlSymbolPath *
etl_symbol_path_parse (const char *text, GError **error)
{
  g_autoptr (EtlSymbolPath) path = g_new0 (EtlSymbolPath, 1);
  g_auto (GStrv) elements = NULL;

  path->elements = g_array_new (FALSE, TRUE, sizeof (EtlSymbolPathElement));
  g_array_set_clear_func (path->elements, element_clear);
  if (text == NULL)
    return g_steal_pointer (&path);
  elements = g_strsplit (text, ";", -1);
  for (guint i = 0; elements[i] != NULL; i++)
    {
      char *element = g_strstrip (elements[i]);

      if (*element == '\0')
        continue;
      if (path->elements->len >= ETL_SYMBOL_PATH_MAX_ELEMENTS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "symbol path has more than %u elements", ETL_SYMBOL_PATH_MAX_ELEMENTS);
          return NULL;
        }
      if (!parse_element (path, element, error))
        return NULL;
    }
  return g_steal_pointer (&path);
}

/**
 * etl_symbol_path_free:
 * @path: (transfer full) (nullable): a path from etl_symbol_path_parse()
 *
 * Frees @path.
 */
void
etl_symbol_path_free (EtlSymbolPath *path)
{
  if (path == NULL)
    return;
  g_array_unref (path->elements);
  g_free (path);
}

/**
 * etl_symbol_path_get_n_elements:
 * @path: a path
 *
 * Returns: the number of its elements
 */
guint
etl_symbol_path_get_n_elements (const EtlSymbolPath *path)
{
  g_return_val_if_fail (path != NULL, 0);
  return path->elements->len;
}

/**
 * etl_symbol_path_get_element:
 * @path: a path
 * @index: an element's index, below etl_symbol_path_get_n_elements()
 *
 * Returns: (transfer none): the element, owned by @path
 */
const EtlSymbolPathElement *
etl_symbol_path_get_element (const EtlSymbolPath *path, guint index)
{
  g_return_val_if_fail (path != NULL && index < path->elements->len, NULL);
  return &g_array_index (path->elements, EtlSymbolPathElement, index);
}

/**
 * etl_symbol_path_to_string:
 * @path: a path
 *
 * The path in its canonical spelling (`srv*` for `symsrv*symsrv.dll*`,
 * trimmed, empty elements dropped): what the Preferences show and what
 * etl_symbol_path_parse() reads back to the same elements.
 *
 * Returns: (transfer full): the text
 */
char *
etl_symbol_path_to_string (const EtlSymbolPath *path)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);
  for (guint i = 0; i < path->elements->len; i++)
    {
      const EtlSymbolPathElement *e = etl_symbol_path_get_element (path, i);

      if (i > 0)
        g_string_append_c (s, ';');
      if (e->kind == ETL_SYMBOL_PATH_CACHE)
        g_string_append (s, "cache*");
      else if (e->kind == ETL_SYMBOL_PATH_SERVER)
        g_string_append (s, "srv*");
      for (guint k = 0; e->stores[k] != NULL; k++)
        g_string_append_printf (s, "%s%s", k > 0 ? "*" : "", e->stores[k]);
      if (e->url != NULL)
        g_string_append_printf (s, "%s%s", e->stores[0] != NULL ? "*" : "", e->url);
    }
  return g_string_free (s, FALSE);
}

/**
 * etl_symbol_store_key:
 * @guid: the PDB's GUID (the RSDS record's, DbgID_RSDS's GuidSig)
 * @age: its age
 *
 * The folder a symbol store files a PDB under: the GUID's 32 hex digits
 * (Data1, Data2, Data3, then Data4's bytes) in upper case and the age in
 * hex without leading zeros ("Symbol Storage Format"), e.g.
 * `12DC0A4FBD7D4F2AA9BE263BACAEB4675` for {12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}
 * age 5.
 *
 * Returns: (transfer full): the key
 */
char *
etl_symbol_store_key (const EtlGuid *guid, guint32 age)
{
  g_return_val_if_fail (guid != NULL, NULL);
  return g_strdup_printf ("%08X%04X%04X%02X%02X%02X%02X%02X%02X%02X%02X%X", guid->data1, guid->data2, guid->data3,
                          guid->data4[0], guid->data4[1], guid->data4[2], guid->data4[3], guid->data4[4],
                          guid->data4[5], guid->data4[6], guid->data4[7], age);
}

/**
 * etl_symbol_pdb_basename:
 * @pdb_path: the PDB's path as the RSDS record gives it, Windows-style
 *   (`C:\src\obj\app.pdb`) or not
 *
 * The file name a store files the PDB under: the part after the last `\`
 * or `/`.
 *
 * Returns: (transfer full): the name
 */
char *
etl_symbol_pdb_basename (const char *pdb_path)
{
  const char *slash, *backslash, *start;

  g_return_val_if_fail (pdb_path != NULL, NULL);
  slash = strrchr (pdb_path, '/');
  backslash = strrchr (pdb_path, '\\');
  start = MAX (slash, backslash);
  return g_strdup (start != NULL ? start + 1 : pdb_path);
}

static gboolean
is_file (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* A `file.ptr` in a store's KEY folder: "PATH:x", or x, names the PDB;
 * "MSG:…" says why there is none. */
static char *
follow_file_ptr (const char *ptr)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  char *target;

  if (!g_file_get_contents (ptr, &text, &len, NULL) || len > 4096)
    return NULL;
  target = g_strstrip (text);
  if (g_ascii_strncasecmp (target, "MSG:", 4) == 0)
    return NULL;
  if (g_ascii_strncasecmp (target, "PATH:", 5) == 0)
    target += 5;
  return *target != '\0' && is_file (target) ? g_strdup (target) : NULL;
}

/* Looks in the KEY folder @dir for @name, its cabinet and a file.ptr. */
static EtlSymbolLookup
look_in_key_folder (const char *dir, const char *name, char **found, GPtrArray *tried)
{
  g_autofree char *pdb = g_build_filename (dir, name, NULL);
  g_autofree char *cab = NULL;
  g_autofree char *ptr = NULL;
  gsize len = strlen (name);

  if (tried != NULL)
    g_ptr_array_add (tried, g_strdup (pdb));
  if (is_file (pdb))
    {
      *found = g_steal_pointer (&pdb);
      return ETL_SYMBOL_LOOKUP_FOUND;
    }
  if (len > 0)
    {
      cab = g_build_filename (dir, name, NULL);
      cab[strlen (cab) - 1] = '_'; /* name.pdb → name.pd_ */
      if (is_file (cab))
        {
          *found = g_steal_pointer (&cab);
          return ETL_SYMBOL_LOOKUP_COMPRESSED;
        }
    }
  ptr = g_build_filename (dir, "file.ptr", NULL);
  if (is_file (ptr) && (*found = follow_file_ptr (ptr)) != NULL)
    return ETL_SYMBOL_LOOKUP_FOUND;
  return ETL_SYMBOL_LOOKUP_NOT_FOUND;
}

/**
 * etl_symbol_store_dir:
 * @store: a symbol store's root folder
 * @name: the PDB's file name (etl_symbol_pdb_basename())
 * @key: its key (etl_symbol_store_key())
 *
 * The folder of @store that holds the PDB ("Symbol Store Folder Tree"):
 * `store\name\KEY`, or two-tier `store\na\name\KEY` (the name's first two
 * characters) when `index2.txt` is at the store's root.  Nothing is
 * created.
 *
 * Returns: (transfer full): the folder
 */
char *
etl_symbol_store_dir (const char *store, const char *name, const char *key)
{
  g_autofree char *index2 = NULL;

  g_return_val_if_fail (store != NULL && name != NULL && key != NULL, NULL);
  index2 = g_build_filename (store, "index2.txt", NULL);
  if (is_file (index2))
    {
      g_autofree char *prefix = g_strndup (name, MIN (strlen (name), 2));

      return g_build_filename (store, prefix, name, key, NULL);
    }
  return g_build_filename (store, name, key, NULL);
}

/* A symbol store at @store (etl_symbol_store_dir()). */
static EtlSymbolLookup
look_in_store (const char *store, const char *name, const char *key, char **found, GPtrArray *tried)
{
  g_autofree char *dir = etl_symbol_store_dir (store, name, key);

  return look_in_key_folder (dir, name, found, tried);
}

/* The spellings of @name a case-sensitive file system may hold: as the
 * trace gives it, then in lower case (symstore keeps the case it was
 * given; a PDB named App.pdb in the trace may be app.pdb on disk). */
static guint
name_variants (const char *name, char *out[2])
{
  out[0] = g_strdup (name);
  out[1] = g_ascii_strdown (name, -1);
  if (strcmp (out[0], out[1]) == 0)
    {
      g_clear_pointer (&out[1], g_free);
      return 1;
    }
  return 2;
}

/**
 * etl_symbol_path_find_local:
 * @path: a symbol path
 * @pdb_name: the PDB's file name or its path as the RSDS record gives it
 *   (only the name after the last `\` or `/` is used)
 * @guid: the PDB's GUID (DbgID_RSDS's GuidSig)
 * @age: its age
 * @found: (out) (transfer full) (optional): the file found, or %NULL
 * @tried: (element-type filename) (nullable): receives each file looked
 *   for, in order, for a "why not found" report
 *
 * Looks for a PDB in the local folders of @path, element by element in
 * order: a plain folder holds `name.pdb` directly or as a symbol store; a
 * `cache*` folder and each local store of a `srv*` element are symbol
 * stores (`name.pdb\KEY\name.pdb`, two-tier with index2.txt, the KEY
 * folder's `name.pd_` cabinet or `file.ptr` as well).  Empty stores (the
 * default cache) and servers' URLs are skipped: downloading is the
 * caller's.  The name is tried as given and in lower case.  A plain
 * folder's `name.pdb` may be another build: the caller compares the GUID
 * and age of what it opens.
 *
 * Returns: what was found
 */
EtlSymbolLookup
etl_symbol_path_find_local (const EtlSymbolPath *path, const char *pdb_name, const EtlGuid *guid, guint32 age,
                            char **found, GPtrArray *tried)
{
  g_autofree char *base = NULL;
  g_autofree char *key = NULL;
  char *names[2] = { NULL, NULL };
  guint n_names;
  char *result = NULL;
  EtlSymbolLookup outcome = ETL_SYMBOL_LOOKUP_NOT_FOUND;

  g_return_val_if_fail (path != NULL && pdb_name != NULL && guid != NULL, ETL_SYMBOL_LOOKUP_NOT_FOUND);
  if (found != NULL)
    *found = NULL;
  base = etl_symbol_pdb_basename (pdb_name);
  if (*base == '\0')
    return ETL_SYMBOL_LOOKUP_NOT_FOUND;
  key = etl_symbol_store_key (guid, age);
  n_names = name_variants (base, names);
  for (guint i = 0; i < path->elements->len && outcome == ETL_SYMBOL_LOOKUP_NOT_FOUND; i++)
    {
      const EtlSymbolPathElement *e = etl_symbol_path_get_element (path, i);

      for (guint s = 0; e->stores[s] != NULL && outcome == ETL_SYMBOL_LOOKUP_NOT_FOUND; s++)
        for (guint v = 0; v < n_names && outcome == ETL_SYMBOL_LOOKUP_NOT_FOUND; v++)
          {
            const char *store = e->stores[s];

            if (*store == '\0')
              break;
            if (e->kind == ETL_SYMBOL_PATH_FOLDER)
              {
                g_autofree char *flat = g_build_filename (store, names[v], NULL);

                if (tried != NULL)
                  g_ptr_array_add (tried, g_strdup (flat));
                if (is_file (flat))
                  {
                    result = g_steal_pointer (&flat);
                    outcome = ETL_SYMBOL_LOOKUP_FOUND;
                    break;
                  }
              }
            outcome = look_in_store (store, names[v], key, &result, tried);
          }
    }
  g_free (names[0]);
  g_free (names[1]);
  if (found != NULL)
    *found = result;
  else
    g_free (result);
  return outcome;
}
