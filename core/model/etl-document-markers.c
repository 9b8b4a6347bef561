/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlDocument: named markers of the open trace, kept in a #GKeyFile (see
 * etl-document.c's section overview for the format). */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>

#include <glib/gstdio.h>

#include "etl-document-private.h"

/* Markers read from a markers file, at most. */
#define MAX_MARKERS 10000

static gint
compare_markers (gconstpointer a, gconstpointer b)
{
  gint64 ta = ((const EtlDocumentMarker *) a)->filetime, tb = ((const EtlDocumentMarker *) b)->filetime;

  return ta < tb ? -1 : ta > tb;
}

/**
 * etl_document_dup_markers_group:
 * @self: a document
 *
 * The #GKeyFile group that holds the markers of the open trace: the
 * SHA-256 (hex) of each file's path and size, one "PATH\nSIZE\n" after
 * the other, in the order the files were opened.
 *
 * Returns: (transfer full) (nullable): the group name, or %NULL when
 *   nothing is open
 */
char *
etl_document_dup_markers_group (EtlDocument *self)
{
  g_autoptr (GString) key = g_string_new (NULL);

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  if (self->trace == NULL)
    return NULL;
  for (guint f = 0; f < etl_trace_get_n_files (self->trace); f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (self->trace, f);

      g_string_append_printf (key, "%s\n%" G_GUINT64_FORMAT "\n", info->path, info->file_size);
    }
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, key->str, -1);
}

/* Replaces the markers with @kf's for the open trace (none for %NULL);
 * TRUE when the list was or is not empty. */
static gboolean
read_markers (EtlDocument *self, GKeyFile *kf)
{
  g_autofree char *group = etl_document_dup_markers_group (self);
  g_auto (GStrv) times = NULL;
  g_auto (GStrv) names = NULL;
  gsize n_times = 0, n_names = 0;
  gboolean had = self->markers->len > 0;

  g_array_set_size (self->markers, 0);
  if (kf != NULL && group != NULL)
    {
      times = g_key_file_get_string_list (kf, group, "filetimes", &n_times, NULL);
      names = g_key_file_get_string_list (kf, group, "names", &n_names, NULL);
      for (gsize i = 0; i < MIN (n_times, n_names) && i < MAX_MARKERS; i++)
        {
          EtlDocumentMarker m = { g_ascii_strtoll (times[i], NULL, 10), g_strdup (names[i]) };

          g_array_append_val (self->markers, m);
        }
      g_array_sort (self->markers, compare_markers);
    }
  return had || self->markers->len > 0;
}

/**
 * etl_document_load_markers:
 * @self: a document
 * @key_file: a key file in the markers format (see the section overview)
 *
 * Replaces the markers with those @key_file holds for the open trace (its
 * group etl_document_dup_markers_group(); at most 10,000, sorted by time)
 * and emits #EtlDocument::markers-changed when either list had markers.
 * Nothing is written.  A missing group leaves no markers.
 *
 * Returns: the markers read
 */
guint
etl_document_load_markers (EtlDocument *self, GKeyFile *key_file)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0);
  g_return_val_if_fail (key_file != NULL, 0);

  if (read_markers (self, key_file))
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  return self->markers->len;
}

/**
 * etl_document_save_markers:
 * @self: a document
 * @key_file: the key file to update
 *
 * Writes the open trace's markers into @key_file: its group
 * (etl_document_dup_markers_group()) is removed, then, when there are
 * markers, written anew with "files" (the paths joined by " | ", for a
 * reader), "filetimes" (FILETIME, decimal) and "names".  Other groups are
 * kept.  Nothing happens when nothing is open.
 */
void
etl_document_save_markers (EtlDocument *self, GKeyFile *key_file)
{
  g_autofree char *group = NULL;
  g_autoptr (GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) files = g_string_new (NULL);

  g_return_if_fail (ETL_IS_DOCUMENT (self));
  g_return_if_fail (key_file != NULL);

  group = etl_document_dup_markers_group (self);
  if (group == NULL)
    return;
  g_key_file_remove_group (key_file, group, NULL);
  if (self->markers->len == 0)
    return;
  for (guint i = 0; i < self->markers->len; i++)
    {
      const EtlDocumentMarker *m = &g_array_index (self->markers, EtlDocumentMarker, i);

      g_ptr_array_add (times, g_strdup_printf ("%" G_GINT64_FORMAT, m->filetime));
      g_ptr_array_add (names, m->name);
    }
  for (guint f = 0; f < etl_trace_get_n_files (self->trace); f++)
    g_string_append_printf (files, "%s%s", f > 0 ? " | " : "", etl_trace_get_file_info (self->trace, f)->path);
  g_key_file_set_string (key_file, group, "files", files->str);
  g_key_file_set_string_list (key_file, group, "filetimes", (const char *const *) times->pdata, times->len);
  g_key_file_set_string_list (key_file, group, "names", (const char *const *) names->pdata, names->len);
}

/* Replaces the markers with the markers file's for the open trace (none
 * without a file or when it cannot be read); TRUE when the list was or is
 * not empty: the caller emits markers-changed. */
gboolean
etl_document_read_markers_file (EtlDocument *self)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();

  if (self->markers_file == NULL || !g_key_file_load_from_file (kf, self->markers_file, G_KEY_FILE_NONE, NULL))
    return read_markers (self, NULL);
  return read_markers (self, kf);
}

/* Writes the open trace's group of the markers file, keeping the others. */
static gboolean
write_markers_file (EtlDocument *self, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autofree char *dir = NULL;

  if (self->markers_file == NULL || self->trace == NULL)
    return TRUE;
  g_key_file_load_from_file (kf, self->markers_file, G_KEY_FILE_KEEP_COMMENTS, NULL);
  etl_document_save_markers (self, kf);
  dir = g_path_get_dirname (self->markers_file);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, self->markers_file, error);
}

/**
 * etl_document_get_n_markers:
 * @self: a document
 *
 * Returns: the open trace's markers
 */
guint
etl_document_get_n_markers (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), 0);
  return self->markers->len;
}

/**
 * etl_document_get_marker:
 * @self: a document
 * @i: a marker, in time order, below etl_document_get_n_markers()
 * @filetime: (out) (optional): where it is, FILETIME (100-ns units since
 *   1601)
 *
 * Returns: (transfer none) (nullable): its name, or %NULL when @i is out of
 *   range
 */
const char *
etl_document_get_marker (EtlDocument *self, guint i, gint64 *filetime)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  if (i >= self->markers->len)
    return NULL;
  if (filetime != NULL)
    *filetime = g_array_index (self->markers, EtlDocumentMarker, i).filetime;
  return g_array_index (self->markers, EtlDocumentMarker, i).name;
}

/**
 * etl_document_add_marker:
 * @self: a document with a trace open
 * @filetime: where, FILETIME (100-ns units since 1601)
 * @name: the marker's name (UTF-8)
 * @error: return location for a #GError: the markers file's write error
 *   (a #G_FILE_ERROR or #G_IO_ERROR code)
 *
 * Adds a named marker to the open trace, emits
 * #EtlDocument::markers-changed and, with a markers file
 * (etl_document_set_markers_file()), writes it.
 *
 * Returns: %FALSE when the markers file could not be written (the marker
 *   is added all the same)
 */
gboolean
etl_document_add_marker (EtlDocument *self, gint64 filetime, const char *name, GError **error)
{
  EtlDocumentMarker m;

  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (self->trace != NULL, FALSE);

  m.filetime = filetime;
  m.name = g_strdup (name);
  g_array_append_val (self->markers, m);
  g_array_sort (self->markers, compare_markers);
  etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  return write_markers_file (self, error);
}

/**
 * etl_document_remove_marker:
 * @self: a document
 * @i: a marker, in time order, below etl_document_get_n_markers()
 * @error: return location for a #GError: the markers file's write error
 *
 * Removes marker @i, emits #EtlDocument::markers-changed and, with a
 * markers file, writes it.
 *
 * Returns: %FALSE when the markers file could not be written (the marker
 *   is removed all the same)
 */
gboolean
etl_document_remove_marker (EtlDocument *self, guint i, GError **error)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (i < self->markers->len, FALSE);

  g_array_remove_index (self->markers, i);
  etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  return write_markers_file (self, error);
}

/**
 * etl_document_clear_markers:
 * @self: a document
 * @error: return location for a #GError: the markers file's write error
 *
 * Removes every marker of the open trace; emits
 * #EtlDocument::markers-changed when there were some, and writes the
 * markers file.
 *
 * Returns: %FALSE when the markers file could not be written
 */
gboolean
etl_document_clear_markers (EtlDocument *self, GError **error)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), FALSE);

  if (self->markers->len == 0)
    return TRUE;
  g_array_set_size (self->markers, 0);
  etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
  return write_markers_file (self, error);
}

/**
 * etl_document_get_markers_file:
 * @self: a document
 *
 * Returns: (transfer none) (nullable) (type filename): where markers are
 *   kept, or %NULL when they are not kept
 */
const char *
etl_document_get_markers_file (EtlDocument *self)
{
  g_return_val_if_fail (ETL_IS_DOCUMENT (self), NULL);
  return self->markers_file;
}

/**
 * etl_document_set_markers_file:
 * @self: a document
 * @path: (nullable) (type filename): a #GKeyFile in the markers format
 *   (see the section overview), or %NULL to keep markers in memory only
 *
 * Where markers are kept: read for each trace opened (and at once for the
 * trace open now, emitting #EtlDocument::markers-changed), written after
 * each change.  The file need not exist; its folder is created on the first
 * write.
 */
void
etl_document_set_markers_file (EtlDocument *self, const char *path)
{
  g_return_if_fail (ETL_IS_DOCUMENT (self));

  if (g_strcmp0 (path, self->markers_file) == 0)
    return;
  g_free (self->markers_file);
  self->markers_file = g_strdup (path);
  etl_document_notify (self, ETL_DOCUMENT_PROP_MARKERS_FILE);
  if (self->trace != NULL && etl_document_read_markers_file (self))
    etl_document_emit (self, ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED);
}
