/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* argv: the command's arguments from etlscope-cli's main(), argv[0] the
 * command, NULL-terminated and g_malloc()ed (g_option_context_parse_strv()
 * frees what it consumes); UTF-8 on Windows. */
int etl_cli_slice_main (int argc, char **argv);
int etl_cli_synth_main (int argc, char **argv);

G_END_DECLS
