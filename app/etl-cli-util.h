/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "etl-trace.h"

G_BEGIN_DECLS

#define ETL_CLI_EXIT_INPUT 1
#define ETL_CLI_EXIT_USAGE 2

void etl_cli_add_id (JsonBuilder *b, const char *member, guint32 id);
void etl_cli_add_named (JsonBuilder *b, const char *member, int value,
                        const char *(*name_of) (int));
void etl_cli_add_us (JsonBuilder *b, const char *member, gint64 ticks);
void etl_cli_add_process_name (JsonBuilder *b, const char *member, EtlProcessTable *table,
                               guint32 pid, gint64 filetime);
gboolean etl_cli_parse_id (const char *arg, gint64 *out);
void etl_cli_print_builder (JsonBuilder *b);
int etl_cli_report_problems (EtlTrace *trace);

G_END_DECLS
