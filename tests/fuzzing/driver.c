/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A standalone driver for the fuzz targets, as GLib's fuzzing/driver.c does:
 * each file or directory given on the command line is fed to
 * LLVMFuzzerTestOneInput once, so every corpus input also runs as a plain
 * test without libFuzzer.
 */
#include "config.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static guint
run_path (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len;
  guint n = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          n += run_path (child);
        }
      return n;
    }
  if (!g_file_get_contents (path, &contents, &len, NULL))
    return 0;
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
  return 1;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    n += run_path (argv[i]);
  printf ("1..1\nok 1 - %u inputs ran without a crash\n", n);
  return n > 0 ? 0 : 77;
}
