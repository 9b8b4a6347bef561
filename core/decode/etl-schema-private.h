/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-schema-private.h: what the decoder needs of the registry beyond the
 * public contract: appending a mapped value without an allocation, and the
 * cache of TraceLogging schemas keyed by their metadata blob.
 */
#pragma once

#include <glib.h>

#include "etl-schema.h"

G_BEGIN_DECLS

void etl_map_append (const EtlMap *map, guint64 value, GString *out);

EtlSchema *etl_schema_registry_lookup_blob (EtlSchemaRegistry *registry, const guint8 *blob,
                                            gsize blob_len);
EtlSchema *etl_schema_registry_add_blob (EtlSchemaRegistry *registry, const guint8 *blob,
                                         gsize blob_len, EtlSchema *schema);

G_END_DECLS
