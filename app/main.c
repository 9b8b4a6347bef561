/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <glib.h>
#include <locale.h>
#include <stdio.h>
#ifdef G_OS_WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "etl-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (EtlApplication) app = NULL;

#ifdef G_OS_WIN32
  /* What --help and --version print: the same bytes as on POSIX (the C
   * runtime's text mode would write CR LF).  GApplication reads the UTF-16
   * command line itself on Windows, not argv. */
  _setmode (_fileno (stdout), _O_BINARY);
  _setmode (_fileno (stderr), _O_BINARY);
#endif
  setlocale (LC_ALL, "");
  g_set_application_name ("etlscope");

  app = etl_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
