/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-symbol-resolver.h"

G_BEGIN_DECLS

int etl_cli_stacks_main (int argc, char **argv);
EtlSymbolResolver *etl_cli_symbols_resolver_new (EtlStacks *stacks, const char *option, const char *command,
                                                 gboolean download, gboolean *usage_error);

G_END_DECLS
