/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

G_BEGIN_DECLS

/* The real traces in ../shared/etl-corpus (ETL_CORPUS_DIR set by meson).
 * Returns NULL and marks the test skipped when the corpus is absent. */
static inline char *
etl_test_corpus_path (const char *name)
{
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  char *path;

  if (dir == NULL)
    dir = "../shared/etl-corpus";
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("corpus file %s not found (../shared/etl-corpus is absent)", path);

      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

/* Removes @path and, for a folder, everything in it (a test's private
 * XDG folders, temporary traces). */
static inline void
etl_test_rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);

  if (dir != NULL)
    {
      const char *name;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          char *child = g_build_filename (path, name, NULL);

          etl_test_rm_rf (child);
          g_free (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

G_END_DECLS
