/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <locale.h>

#include "etl-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (EtlApplication) app = NULL;

  setlocale (LC_ALL, "");
  g_set_application_name ("etlscope");

  app = etl_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
