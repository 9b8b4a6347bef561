/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-cab
 * @title: Compressed PDBs (`.pd_`)
 *
 * A symbol store or server may keep a PDB compressed as a Microsoft
 * cabinet named with the extension's last letter replaced by `_`
 * (`name.pd_`, "Symbol Storage Format"; symstore /compress, makecab).
 * The cabinet holds the one file, MSZIP or LZX compressed.  libmspack's
 * cabinet decompressor unpacks it; libmspack is no GLib library, so this
 * lives outside core/ (in app/).  Without libmspack, etl_cab_extract_pdb()
 * says so.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "etl-cab.h"

#ifdef ETL_HAVE_LIBMSPACK
#include <mspack.h>

/* libmspack's MSPACK_ERR_* (mspack.h) in words. */
static const char *
mspack_reason (int err)
{
  switch (err)
    {
    case MSPACK_ERR_OPEN: return "cannot open it";
    case MSPACK_ERR_READ: return "it ends early or cannot be read";
    case MSPACK_ERR_WRITE: return "cannot write the unpacked file";
    case MSPACK_ERR_SEEK: return "cannot seek in it";
    case MSPACK_ERR_NOMEMORY: return "out of memory";
    case MSPACK_ERR_SIGNATURE: return "no MSCF signature";
    case MSPACK_ERR_DATAFORMAT: return "bad cabinet header";
    case MSPACK_ERR_CHECKSUM: return "a CFDATA block's checksum does not match";
    case MSPACK_ERR_DECRUNCH: return "the compressed data is corrupt";
    default: return "error";
    }
}

/* A CFFOLDER typeCompress in words: the method (bits 0-3), and for LZX and
 * Quantum the window or level (bits 8-12); "Microsoft Cabinet File
 * Format", CFFOLDER. */
static char *
comp_type_name (int comp_type)
{
  switch (comp_type & 0x000f)
    {
    case 0: return g_strdup ("stored");
    case 1: return g_strdup ("MSZIP");
    case 2: return g_strdup_printf ("Quantum level %d", (comp_type >> 8) & 0x1f);
    case 3: return g_strdup_printf ("LZX, window 2^%d", (comp_type >> 8) & 0x1f);
    default: return g_strdup_printf ("compression type 0x%04x", (guint)comp_type);
    }
}
#endif

/**
 * etl_cab_available:
 *
 * Returns: whether this build unpacks cabinets (libmspack)
 */
gboolean
etl_cab_available (void)
{
#ifdef ETL_HAVE_LIBMSPACK
  return TRUE;
#else
  return FALSE;
#endif
}

/**
 * etl_cab_extract_pdb:
 * @cabinet: a cabinet file (`name.pd_`)
 * @dest_dir: the folder to write the PDB to (a temporary name in it)
 * @pdb_name: the PDB's file name: the cabinet's file of that name
 *   (case-insensitive) is taken, else its only file
 * @max_size: refuse a file larger than this (bytes)
 * @error: return location for a G_IO_ERROR (G_IO_ERROR_NOT_SUPPORTED
 *   without libmspack, G_IO_ERROR_INVALID_DATA for a bad cabinet)
 *
 * Unpacks the PDB of a cabinet into a new temporary file of @dest_dir
 * (`.name.pdb.unpack-XXXXXX`); the caller renames or removes it.  Nothing
 * is left behind on failure.
 *
 * Returns: (transfer full) (nullable): the temporary file
 */
char *
etl_cab_extract_pdb (const char *cabinet, const char *dest_dir, const char *pdb_name, guint64 max_size,
                     GError **error)
{
#ifdef ETL_HAVE_LIBMSPACK
  struct mscab_decompressor *cabd;
  struct mscabd_cabinet *cab;
  struct mscabd_file *file = NULL;
  guint n_files = 0;
  g_autofree char *tmp = NULL;
  int err, fd;

  cabd = mspack_create_cab_decompressor (NULL);
  if (cabd == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make libmspack's cabinet decompressor");
      return NULL;
    }
  cab = cabd->open (cabd, cabinet);
  if (cab == NULL)
    {
      int last = cabd->last_error (cabd);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is no cabinet: %s (libmspack error %d)", cabinet,
                   mspack_reason (last), last);
      mspack_destroy_cab_decompressor (cabd);
      return NULL;
    }
  for (struct mscabd_file *f = cab->files; f != NULL; f = f->next)
    {
      n_files++;
      if (f->filename != NULL && g_ascii_strcasecmp (f->filename, pdb_name) == 0)
        file = f;
    }
  if (file == NULL && n_files == 1)
    file = cab->files;
  if (file == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the cabinet %s holds %u files, none named %s",
                   cabinet, n_files, pdb_name);
      goto fail;
    }
  if ((guint64)file->length > max_size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the cabinet %s unpacks to %u bytes, above the limit of %" G_GUINT64_FORMAT, cabinet,
                   file->length, max_size);
      goto fail;
    }
  if (g_mkdir_with_parents (dest_dir, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make %s: %s", dest_dir, g_strerror (errno));
      goto fail;
    }
  {
    g_autofree char *templ = g_strdup_printf (".%s.unpack-XXXXXX", pdb_name);

    tmp = g_build_filename (dest_dir, templ, NULL);
  }
  fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make a file in %s: %s", dest_dir,
                   g_strerror (errno));
      g_clear_pointer (&tmp, g_free);
      goto fail;
    }
  g_close (fd, NULL);
  err = cabd->extract (cabd, file, tmp);
  if (err != MSPACK_ERR_OK)
    {
      g_autofree char *method = comp_type_name (file->folder != NULL ? file->folder->comp_type : -1);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "cannot unpack %s from the cabinet %s (%s): %s (libmspack error %d)",
                   file->filename != NULL ? file->filename : "?", cabinet, method, mspack_reason (err), err);
      g_remove (tmp);
      g_clear_pointer (&tmp, g_free);
      goto fail;
    }
  cabd->close (cabd, cab);
  mspack_destroy_cab_decompressor (cabd);
  return g_steal_pointer (&tmp);

fail:
  cabd->close (cabd, cab);
  mspack_destroy_cab_decompressor (cabd);
  return NULL;
#else
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "%s is a compressed cabinet (.pd_): not built with cabinet support (libmspack)", cabinet);
  return NULL;
#endif
}
