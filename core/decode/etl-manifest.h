/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-manifest.h: instrumentation manifests (XML) turned into schemas.
 *
 * Two callers: the user's manifests (etlscope-cli --manifest, File ▸ Load
 * Manifest…, $XDG_DATA_HOME/etlscope/manifests/) and the EventSource
 * manifests an EventSource logs into the trace as event 0xFFFE, collected
 * chunk by chunk while the trace is indexed.
 */
#pragma once

#include <glib.h>

#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

/* Caps on hostile input (every count read from a manifest is capped). */
#define ETL_MANIFEST_MAX_BYTES (16u * 1024 * 1024) /* a manifest file or reassembled manifest */
#define ETL_MANIFEST_MAX_DEPTH 64                  /* element nesting */
#define ETL_MANIFEST_MAX_PROVIDERS 1024
#define ETL_MANIFEST_MAX_EVENTS 65536              /* events in one manifest */
#define ETL_MANIFEST_MAX_PROPERTIES 1024           /* data + struct members of one template */
#define ETL_MANIFEST_MAX_SCHEMA_PROPERTIES 262144  /* properties of all schemas of one manifest */
#define ETL_MANIFEST_MAX_ITEMS 262144              /* tasks, opcodes, keywords, map entries, strings, … */
#define ETL_MANIFEST_MAX_NAME 1024                 /* bytes of a name, id, type or reference */
#define ETL_MANIFEST_MAX_STRING 65536              /* bytes of a localized string */
#define ETL_MANIFEST_MAX_WARNINGS 200              /* warnings kept; the rest are counted */

/**
 * EtlManifestInfo:
 * @n_providers: providers the manifest declared
 * @n_events: event schemas registered
 * @n_maps: value maps and bitmaps registered
 * @n_properties: properties of the schemas registered (a template is
 *   copied into each event that uses it; capped at
 *   %ETL_MANIFEST_MAX_SCHEMA_PROPERTIES)
 * @n_skipped: events skipped (dangling template, bad value, duplicates, …)
 * @n_warnings: warnings raised, including those beyond @warnings' cap
 * @warnings: (element-type utf8): "ORIGIN:LINE:COLUMN: reason" for each
 *   problem that skipped an event or made a property undecodable (at most
 *   %ETL_MANIFEST_MAX_WARNINGS)
 * @provider_names: (element-type utf8): the providers' names, in document order
 *
 * What etl_manifest_load_data() registered.  Caller-allocated; zero it
 * before use (or use %ETL_MANIFEST_INFO_INIT) and release with
 * etl_manifest_info_clear().
 */
typedef struct
{
  guint n_providers;
  guint n_events;
  guint n_maps;
  guint n_properties;
  guint n_skipped;
  guint n_warnings;
  GPtrArray *warnings;
  GPtrArray *provider_names;
} EtlManifestInfo;

#define ETL_MANIFEST_INFO_INIT { 0, 0, 0, 0, 0, 0, NULL, NULL }

void etl_manifest_info_clear (EtlManifestInfo *info);

gboolean etl_manifest_load_data (EtlSchemaRegistry *registry,
                                 const char *xml,
                                 gssize len,
                                 EtlSchemaSource source,
                                 guint file,
                                 guint32 pid,
                                 const char *origin,
                                 EtlManifestInfo *info,
                                 GError **error);
gboolean etl_manifest_load_file (EtlSchemaRegistry *registry,
                                 const char *path,
                                 EtlManifestInfo *info,
                                 GError **error);
guint etl_manifest_load_dir (EtlSchemaRegistry *registry,
                             const char *dir,
                             GPtrArray *errors,
                             GPtrArray *warnings);
char *etl_manifest_dup_user_dir (void);
guint etl_manifest_load_user_dir (EtlSchemaRegistry *registry,
                                  GPtrArray *errors,
                                  GPtrArray *warnings);

gboolean etl_manifest_parse_in_type (const char *name, guint16 *in_type);
gboolean etl_manifest_parse_out_type (const char *name, guint16 *out_type);

/* EventSource manifests (event 0xFFFE, opcode 0xFE) in a trace. */
#define ETL_EVENTSOURCE_MANIFEST_EVENT_ID 0xFFFE
#define ETL_EVENTSOURCE_MANIFEST_OPCODE 0xFE
#define ETL_EVENTSOURCE_ENVELOPE_SIZE 8
#define ETL_EVENTSOURCE_ENVELOPE_MAGIC 0x5B
#define ETL_EVENTSOURCE_MAX_CHUNKS 4096
#define ETL_EVENTSOURCE_MAX_PENDING_BYTES (64u * 1024 * 1024) /* all incomplete manifests */
#define ETL_EVENTSOURCE_MAX_PROPERTIES (4u * 1024 * 1024)      /* all manifests of one collector */
#define ETL_EVENTSOURCE_MAX_PENDING 1024                        /* manifests incomplete at once */

gboolean etl_eventsource_record_is_manifest (const EtlRecord *record);

/**
 * EtlEventSourceCollector:
 *
 * Gathers the chunks of EventSource manifests while a trace's records are
 * walked, keyed by (file, provider, process), and registers each complete
 * manifest's schemas scoped to (file, process).  Not thread-safe: one walk
 * feeds one collector.
 */
typedef struct _EtlEventSourceCollector EtlEventSourceCollector;

EtlEventSourceCollector *etl_eventsource_collector_new (EtlSchemaRegistry *registry);
void etl_eventsource_collector_free (EtlEventSourceCollector *collector);
gboolean etl_eventsource_collector_add (EtlEventSourceCollector *collector,
                                        const EtlRecord *record,
                                        GError **error);
guint etl_eventsource_collector_finish (EtlEventSourceCollector *collector,
                                        GPtrArray *problems);
guint etl_eventsource_collector_get_n_manifests (EtlEventSourceCollector *collector);
guint etl_eventsource_collector_get_n_events (EtlEventSourceCollector *collector);
const GPtrArray *etl_eventsource_collector_get_warnings (EtlEventSourceCollector *collector);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlEventSourceCollector, etl_eventsource_collector_free)

G_END_DECLS
