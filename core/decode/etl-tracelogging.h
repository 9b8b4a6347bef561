/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

EtlSchema *etl_tracelogging_schema_parse (const guint8 *metadata, gsize metadata_len,
                                          const EtlSchemaKey *key, GError **error);
EtlSchema *etl_tracelogging_schema_new (const EtlRecord *record, GError **error);

G_END_DECLS
