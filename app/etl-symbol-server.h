/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-symbol-resolver.h"

G_BEGIN_DECLS

typedef struct _EtlSymbolServer EtlSymbolServer;

/* 2 GiB: the largest answer (or unpacked cabinet) taken by default. */
#define ETL_SYMBOL_SERVER_DEFAULT_MAX_SIZE (G_GUINT64_CONSTANT (2) << 30)

gboolean etl_symbol_server_available (void);
EtlSymbolServer *etl_symbol_server_new (void);
EtlSymbolServer *etl_symbol_server_ref (EtlSymbolServer *server);
void etl_symbol_server_unref (EtlSymbolServer *server);
void etl_symbol_server_set_max_size (EtlSymbolServer *server, guint64 max_size);
void etl_symbol_server_set_timeout (EtlSymbolServer *server, guint seconds);
void etl_symbol_server_install (EtlSymbolServer *server, EtlSymbolResolver *resolver);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSymbolServer, etl_symbol_server_unref)

G_END_DECLS
