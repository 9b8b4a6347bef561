/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-schema
 * @title: Schemas
 * @short_description: event layouts from every source, and the registry that holds them
 *
 * An #EtlSchema is one event's name and payload layout, in the shape of
 * TRACE_EVENT_INFO (tdh.h): a flat array of EVENT_PROPERTY_INFO-like
 * #EtlProperty, top-level properties first, struct members after them.
 * Every source (TraceLogging metadata, in-trace TDH metadata, EventSource
 * manifests, instrumentation manifests, kernel MOF tables) builds schemas
 * once and registers them in an #EtlSchemaRegistry, as Wireshark's
 * dissector tables do; consumers look them up by #EtlSchemaKey.
 *
 * The registry keeps, per key, the schema of the most trusted source
 * (#EtlSchemaSource order; among equals the last one added), EventSource
 * schemas scoped by (file, process) as well, and the value maps and
 * bitmaps of each provider by (provider GUID, map name), resolved into
 * #EtlProperty.map for schemas added before or after the map.
 *
 * A registry may have a fallback (etl_schema_registry_set_fallback(); on
 * Windows the machine's TDH, etl-tdh-system.h), asked by
 * etl_schema_registry_lookup_record() when the trace's own sources describe
 * a record's key not at all or only through a loaded manifest, as WPA and
 * PerfView ask TDH after the trace's metadata.  Its answers, misses
 * included, are remembered per key: each key is asked once.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-format-private.h"
#include "etl-names.h"
#include "etl-schema.h"
#include "etl-schema-private.h"

/**
 * etl_schema_source_name:
 * @source: an #EtlSchemaSource
 *
 * Returns: (transfer none): a short English name of @source ("TraceLogging",
 *   "TDH", "EventSource", "TDH (this machine)", "Manifest", "MOF",
 *   "built-in"), or "unknown"
 */
const char *
etl_schema_source_name (EtlSchemaSource source)
{
  switch (source)
    {
    case ETL_SCHEMA_SOURCE_TRACELOGGING:
      return "TraceLogging";
    case ETL_SCHEMA_SOURCE_TDH:
      return "TDH";
    case ETL_SCHEMA_SOURCE_EVENTSOURCE:
      return "EventSource";
    case ETL_SCHEMA_SOURCE_SYSTEM_TDH:
      return "TDH (this machine)";
    case ETL_SCHEMA_SOURCE_MANIFEST:
      return "Manifest";
    case ETL_SCHEMA_SOURCE_MOF:
      return "MOF";
    case ETL_SCHEMA_SOURCE_BUILTIN:
      return "built-in";
    case ETL_N_SCHEMA_SOURCES:
    default:
      return "unknown";
    }
}

/* ---- EtlMap ----------------------------------------------------------- */

/**
 * etl_map_new:
 * @name: the map's name as properties refer to it (EVENT_MAP_INFO
 *   NameOffset; a manifest's valueMap/bitMap name)
 * @is_bitmap: %TRUE for a bitmap (EVENT_MAP_INFO Flag 2), %FALSE for a value map
 *
 * Returns: (transfer full): a new empty map; add entries with etl_map_add()
 *   before sharing it
 */
EtlMap *
etl_map_new (const char *name, gboolean is_bitmap)
{
  EtlMap *map = g_new0 (EtlMap, 1);

  map->name = g_strdup (name != NULL ? name : "");
  map->is_bitmap = is_bitmap;
  map->ref_count = 1;
  return map;
}

/**
 * etl_map_add:
 * @map: a map not yet shared
 * @value: the value (value map) or bit mask (bitmap)
 * @name: its name; leading and trailing white space is trimmed (TDH map
 *   strings often end in a space)
 *
 * Adds an entry, keeping the entries sorted by value.  A value already
 * present keeps its first name.
 */
void
etl_map_add (EtlMap *map, guint64 value, const char *name)
{
  guint lo = 0, hi;

  g_return_if_fail (map != NULL);
  g_return_if_fail (name != NULL);

  hi = map->n_entries;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (map->entries[mid].value < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < map->n_entries && map->entries[lo].value == value)
    return;

  /* Grow in powers of two: maps are built once, entry by entry. */
  if ((map->n_entries & (map->n_entries - 1)) == 0)
    map->entries = g_renew (EtlMapEntry, map->entries, MAX (4, map->n_entries * 2));
  memmove (&map->entries[lo + 1], &map->entries[lo], (map->n_entries - lo) * sizeof (EtlMapEntry));
  map->entries[lo].value = value;
  map->entries[lo].name = g_strstrip (g_strdup (name));
  map->n_entries++;
}

/**
 * etl_map_ref:
 * @map: a map
 *
 * Returns: (transfer full): @map
 */
EtlMap *
etl_map_ref (EtlMap *map)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_atomic_int_inc (&map->ref_count);
  return map;
}

/**
 * etl_map_unref:
 * @map: (nullable): a map
 *
 * Drops a reference; frees the map with the last one.
 */
void
etl_map_unref (EtlMap *map)
{
  if (map == NULL || !g_atomic_int_dec_and_test (&map->ref_count))
    return;
  for (guint i = 0; i < map->n_entries; i++)
    g_free (map->entries[i].name);
  g_free (map->entries);
  g_free (map->name);
  g_free (map);
}

static const EtlMapEntry *
map_find (const EtlMap *map, guint64 value)
{
  guint lo = 0, hi = map->n_entries;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (map->entries[mid].value == value)
        return &map->entries[mid];
      if (map->entries[mid].value < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/**
 * etl_map_format:
 * @map: a map
 * @value: the property's value
 *
 * Formats @value by name, as TraceEvent shows mapped properties.  A value
 * map gives the entry's name, or the number in decimal when no entry
 * matches.  A bitmap gives the names of the entries whose bits are all set
 * in @value, ascending by value, joined by "|", then the bits no entry
 * covers as one 0x… hex number; a zero value gives the name of a zero entry
 * when the map has one, else "0".  (EVENT_MAP_INFO, MAP_FLAGS; manifest
 * valueMap and bitMap.)
 *
 * Returns: (transfer full): the text
 */
char *
etl_map_format (const EtlMap *map, guint64 value)
{
  GString *s;

  g_return_val_if_fail (map != NULL, NULL);

  s = g_string_sized_new (16);
  etl_map_append (map, value, s);
  return g_string_free (s, FALSE);
}

/* etl_map_format() appending to @out: the decoder's path, no allocation. */
void
etl_map_append (const EtlMap *map, guint64 value, GString *out)
{
  const EtlMapEntry *e;
  gsize start = out->len;
  guint64 rest;

  if (!map->is_bitmap)
    {
      e = map_find (map, value);
      if (e != NULL)
        g_string_append (out, e->name);
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
      return;
    }

  if (value == 0)
    {
      e = map_find (map, 0);
      g_string_append (out, e != NULL ? e->name : "0");
      return;
    }

  rest = value;
  for (guint i = 0; i < map->n_entries; i++)
    {
      guint64 v = map->entries[i].value;

      if (v == 0 || (value & v) != v)
        continue;
      if (out->len > start)
        g_string_append_c (out, '|');
      g_string_append (out, map->entries[i].name);
      rest &= ~v;
    }
  if (rest != 0)
    {
      if (out->len > start)
        g_string_append_c (out, '|');
      g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", rest);
    }
}

/* ---- EtlSchema -------------------------------------------------------- */

/**
 * etl_schema_new:
 * @key: what the schema describes
 * @source: where it came from
 *
 * Returns: (transfer full): a new schema without properties; fill in names
 *   and properties before registering it
 */
EtlSchema *
etl_schema_new (const EtlSchemaKey *key, EtlSchemaSource source)
{
  EtlSchema *schema;

  g_return_val_if_fail (key != NULL, NULL);

  schema = g_new0 (EtlSchema, 1);
  schema->key = *key;
  schema->source = source;
  schema->ref_count = 1;
  return schema;
}

/**
 * etl_schema_ref:
 * @schema: a schema
 *
 * Returns: (transfer full): @schema
 */
EtlSchema *
etl_schema_ref (EtlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);
  g_atomic_int_inc (&schema->ref_count);
  return schema;
}

/**
 * etl_schema_unref:
 * @schema: (nullable): a schema
 *
 * Drops a reference; frees the schema, its strings and its references to
 * maps with the last one.
 */
void
etl_schema_unref (EtlSchema *schema)
{
  if (schema == NULL || !g_atomic_int_dec_and_test (&schema->ref_count))
    return;
  for (guint i = 0; i < schema->n_properties; i++)
    {
      EtlProperty *p = &schema->properties[i];

      g_free (p->name);
      g_free (p->map_name);
      etl_map_unref (g_atomic_pointer_get (&p->map));
    }
  g_free (schema->properties);
  g_free (schema->provider_name);
  g_free (schema->event_name);
  g_free (schema->task_name);
  g_free (schema->opcode_name);
  g_free (schema->level_name);
  g_strfreev (schema->keyword_names);
  g_free (schema);
}

/**
 * etl_schema_add_property:
 * @schema: a schema not yet registered
 * @name: the property's name
 * @in_type: an #EtlInType
 * @out_type: an #EtlOutType
 *
 * Appends a scalar property (count 1, length 0, no flags, no map).  Set its
 * other members through @schema->properties[index]; a property that refers
 * to another (count, length, struct members) uses that one's index.  While
 * @schema->n_top_level equals @schema->n_properties it counts the new
 * property as top-level: after adding struct members (which follow the
 * top-level properties) set @schema->n_top_level yourself.
 *
 * Returns: the new property's index
 */
guint
etl_schema_add_property (EtlSchema *schema, const char *name, guint16 in_type, guint16 out_type)
{
  EtlProperty *p;

  g_return_val_if_fail (schema != NULL, 0);

  /* Sources may have sized the array themselves: grow it by one. */
  schema->properties = g_renew (EtlProperty, schema->properties, schema->n_properties + 1);
  p = &schema->properties[schema->n_properties];
  memset (p, 0, sizeof *p);
  p->name = g_strdup (name != NULL ? name : "");
  p->in_type = in_type;
  p->out_type = out_type;
  p->count = 1;
  if (schema->n_top_level == schema->n_properties)
    schema->n_top_level++;
  return schema->n_properties++;
}

/**
 * etl_schema_dup_display_name:
 * @schema: a schema
 *
 * The event's name as TraceEvent prints it after the provider: "Task/Opcode"
 * when the schema has a task name and an opcode name (the opcode left out
 * when it is 0, win:Info; a "win:" prefix dropped), the task name alone,
 * else the event name, else "Opcode(N)" / "EventID(N)".
 *
 * Returns: (transfer full): the name
 */
char *
etl_schema_dup_display_name (const EtlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);

  if (schema->task_name != NULL && schema->task_name[0] != '\0')
    {
      if (schema->opcode_name != NULL && schema->opcode_name[0] != '\0' && schema->opcode != 0)
        {
          const char *op = schema->opcode_name;

          if (g_str_has_prefix (op, "win:") && op[4] != '\0')
            op += 4;
          return g_strdup_printf ("%s/%s", schema->task_name, op);
        }
      return g_strdup (schema->task_name);
    }
  if (schema->event_name != NULL && schema->event_name[0] != '\0')
    return g_strdup (schema->event_name);
  if (schema->opcode_name != NULL && schema->opcode_name[0] != '\0')
    return g_strdup (schema->opcode_name);
  if (schema->key.kind == ETL_SCHEMA_KEY_OPCODE)
    return g_strdup_printf ("Opcode(%u)", schema->key.id);
  return g_strdup_printf ("EventID(%u)", schema->key.id);
}

/* ---- keys ------------------------------------------------------------- */

/**
 * etl_schema_key_init_event_id:
 * @key: (out caller-allocates): the key
 * @provider: the provider GUID
 * @id: EVENT_DESCRIPTOR.Id
 * @version: EVENT_DESCRIPTOR.Version
 *
 * A key for a manifest-style event (EVENT_HEADER records, TDH
 * DecodingSource 0).  Padding is zeroed so keys compare as bytes.
 */
void
etl_schema_key_init_event_id (EtlSchemaKey *key, const EtlGuid *provider, guint16 id,
                              guint8 version)
{
  g_return_if_fail (key != NULL && provider != NULL);
  memset (key, 0, sizeof *key);
  key->kind = ETL_SCHEMA_KEY_EVENT_ID;
  key->guid = *provider;
  key->id = id;
  key->version = version;
}

/**
 * etl_schema_key_init_opcode:
 * @key: (out caller-allocates): the key
 * @event_class: the event class GUID (for kernel events the HookId group's
 *   GUID, e.g. ProcessGuid)
 * @opcode: the event type (EVENT_TRACE_HEADER Class.Type; HookId low byte)
 * @version: Class.Version (the MOF class version)
 *
 * A key for a classic or kernel (MOF) event.
 */
void
etl_schema_key_init_opcode (EtlSchemaKey *key, const EtlGuid *event_class, guint8 opcode,
                            guint8 version)
{
  g_return_if_fail (key != NULL && event_class != NULL);
  memset (key, 0, sizeof *key);
  key->kind = ETL_SCHEMA_KEY_OPCODE;
  key->guid = *event_class;
  key->id = opcode;
  key->version = version;
}

/**
 * etl_schema_key_for_record:
 * @record: a record
 * @key: (out caller-allocates): its key
 *
 * The key that finds @record's schema.  SYSTEM, COMPACT and PERFINFO
 * records: %ETL_SCHEMA_KEY_OPCODE with the GUID of the HookId's group
 * (etl_names_kernel_event()), the HookId's low byte and the record's
 * version.  FULL_HEADER and INSTANCE records (EVENT_TRACE_HEADER), and
 * EVENT_HEADER records flagged CLASSIC_HEADER: %ETL_SCHEMA_KEY_OPCODE with
 * the event class GUID, Class.Type and Class.Version.  Other EVENT_HEADER
 * records: %ETL_SCHEMA_KEY_EVENT_ID with the provider GUID,
 * EVENT_DESCRIPTOR.Id and Version.
 *
 * Returns: %FALSE for records no schema can describe (WPP messages,
 *   unknown kernel groups, ERROR and WNODE headers)
 */
gboolean
etl_schema_key_for_record (const EtlRecord *record, EtlSchemaKey *key)
{
  EtlKernelEventInfo info;

  g_return_val_if_fail (record != NULL && key != NULL, FALSE);

  switch (record->kind)
    {
    case ETL_RECORD_KIND_KERNEL:
    case ETL_RECORD_KIND_PERFINFO:
      if (etl_names_kernel_event (record->hook_id, &info) && info.provider != NULL)
        etl_schema_key_init_opcode (key, info.provider, record->hook_id & 0xFF, record->version);
      else if (!etl_guid_is_zero (&record->provider))
        etl_schema_key_init_opcode (key, &record->provider, record->hook_id & 0xFF,
                                    record->version);
      else
        return FALSE;
      return TRUE;
    case ETL_RECORD_KIND_CLASSIC:
      etl_schema_key_init_opcode (key, &record->provider, record->opcode, record->version);
      return TRUE;
    case ETL_RECORD_KIND_MANIFEST:
    case ETL_RECORD_KIND_TRACELOGGING:
      if (record->flags & ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER)
        etl_schema_key_init_opcode (key, &record->provider, record->opcode, record->version);
      else
        etl_schema_key_init_event_id (key, &record->provider, record->event_id, record->version);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- the registry ----------------------------------------------------- */

typedef struct
{
  EtlSchemaKey key;
  guint file;
  guint32 pid;
} ScopedKey;

typedef struct
{
  EtlGuid provider;
  char *name;
} MapKey;

struct _EtlSchemaRegistry
{
  gint ref_count;
  GRWLock lock;
  GHashTable *schemas; /* EtlSchemaKey* (owned by the schema) → EtlSchema* */
  GHashTable *scoped;  /* ScopedKey* → EtlSchema* */
  GHashTable *maps;    /* MapKey* → EtlMap* */
  GHashTable *blobs;   /* GBytes* (TraceLogging metadata) → EtlSchema* */
  guint n_by_source[ETL_N_SCHEMA_SOURCES];
  /* The fallback, set before the registry is shared; @asked (under @lock)
   * holds the keys it was asked for, hit or miss; @fallback_lock lets one
   * thread ask at a time. */
  EtlSchemaFallbackFunc fallback;
  gpointer fallback_data;
  GHashTable *asked; /* EtlSchemaKey* (owned) → NULL */
  GMutex fallback_lock;
};

static guint
schema_key_hash (gconstpointer p)
{
  const EtlSchemaKey *k = p;

  return etl_guid_hash (&k->guid) ^ ((guint)k->id * 2654435761u) ^ ((guint)k->version << 24)
         ^ k->kind;
}

static gboolean
schema_key_equal (gconstpointer a, gconstpointer b)
{
  const EtlSchemaKey *x = a, *y = b;

  return x->kind == y->kind && x->id == y->id && x->version == y->version
         && etl_guid_equal (&x->guid, &y->guid);
}

static guint
scoped_key_hash (gconstpointer p)
{
  const ScopedKey *k = p;

  return schema_key_hash (&k->key) ^ (k->pid * 40503u) ^ (k->file << 16);
}

static gboolean
scoped_key_equal (gconstpointer a, gconstpointer b)
{
  const ScopedKey *x = a, *y = b;

  return x->file == y->file && x->pid == y->pid && schema_key_equal (&x->key, &y->key);
}

static guint
map_key_hash (gconstpointer p)
{
  const MapKey *k = p;

  return etl_guid_hash (&k->provider) ^ g_str_hash (k->name);
}

static gboolean
map_key_equal (gconstpointer a, gconstpointer b)
{
  const MapKey *x = a, *y = b;

  return etl_guid_equal (&x->provider, &y->provider) && strcmp (x->name, y->name) == 0;
}

static void
map_key_free (gpointer p)
{
  MapKey *k = p;

  g_free (k->name);
  g_free (k);
}

/**
 * etl_schema_registry_new:
 *
 * Returns: (transfer full): an empty registry
 */
EtlSchemaRegistry *
etl_schema_registry_new (void)
{
  EtlSchemaRegistry *r = g_new0 (EtlSchemaRegistry, 1);

  r->ref_count = 1;
  g_rw_lock_init (&r->lock);
  r->schemas = g_hash_table_new_full (schema_key_hash, schema_key_equal, NULL,
                                      (GDestroyNotify)etl_schema_unref);
  r->scoped = g_hash_table_new_full (scoped_key_hash, scoped_key_equal, g_free,
                                     (GDestroyNotify)etl_schema_unref);
  r->maps = g_hash_table_new_full (map_key_hash, map_key_equal, map_key_free,
                                   (GDestroyNotify)etl_map_unref);
  r->blobs = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref,
                                    (GDestroyNotify)etl_schema_unref);
  r->asked = g_hash_table_new_full (schema_key_hash, schema_key_equal, g_free, NULL);
  g_mutex_init (&r->fallback_lock);
  return r;
}

/**
 * etl_schema_registry_ref:
 * @registry: a registry
 *
 * Returns: (transfer full): @registry
 */
EtlSchemaRegistry *
etl_schema_registry_ref (EtlSchemaRegistry *registry)
{
  g_return_val_if_fail (registry != NULL, NULL);
  g_atomic_int_inc (&registry->ref_count);
  return registry;
}

/**
 * etl_schema_registry_unref:
 * @registry: (nullable): a registry
 *
 * Drops a reference; with the last one frees the registry and drops its
 * references to schemas and maps (schemas still held elsewhere live on).
 */
void
etl_schema_registry_unref (EtlSchemaRegistry *registry)
{
  if (registry == NULL || !g_atomic_int_dec_and_test (&registry->ref_count))
    return;
  g_hash_table_unref (registry->scoped);
  g_hash_table_unref (registry->schemas);
  g_hash_table_unref (registry->maps);
  g_hash_table_unref (registry->blobs);
  g_hash_table_unref (registry->asked);
  g_mutex_clear (&registry->fallback_lock);
  g_rw_lock_clear (&registry->lock);
  g_free (registry);
}

/* The provider whose maps a schema's properties name. */
static const EtlGuid *
schema_map_provider (const EtlSchema *schema)
{
  return &schema->key.guid;
}

/* Called with the write lock held. */
static void
resolve_maps (EtlSchemaRegistry *r, EtlSchema *schema)
{
  for (guint i = 0; i < schema->n_properties; i++)
    {
      EtlProperty *p = &schema->properties[i];
      MapKey mk;
      EtlMap *map;

      if (p->map_name == NULL || g_atomic_pointer_get (&p->map) != NULL)
        continue;
      mk.provider = *schema_map_provider (schema);
      mk.name = p->map_name;
      map = g_hash_table_lookup (r->maps, &mk);
      if (map != NULL)
        g_atomic_pointer_set (&p->map, etl_map_ref (map));
    }
}

/* Whether @candidate replaces @existing: a more trusted source, or the same
 * source added later. */
static gboolean
replaces (const EtlSchema *candidate, const EtlSchema *existing)
{
  return existing == NULL || candidate->source <= existing->source;
}

/* etl_schema_registry_add() with the write lock held. */
static void
add_locked (EtlSchemaRegistry *r, EtlSchema *schema)
{
  EtlSchema *existing = g_hash_table_lookup (r->schemas, &schema->key);

  if (existing != schema && replaces (schema, existing))
    {
      resolve_maps (r, schema);
      if (existing != NULL)
        r->n_by_source[existing->source]--;
      r->n_by_source[schema->source]++;
      /* The key lives in the schema: replace the key along with the value. */
      g_hash_table_replace (r->schemas, &schema->key, etl_schema_ref (schema));
    }
}

/**
 * etl_schema_registry_add:
 * @registry: a registry
 * @schema: (transfer none): a complete schema
 *
 * Registers @schema under @schema->key for every file and process, unless
 * a more trusted source (lower #EtlSchemaSource) already described that
 * key; among schemas of the same source the last one added wins.  Resolves
 * the properties' map names against the maps of the provider
 * (@schema->key.guid) registered so far; later maps are resolved by
 * etl_schema_registry_add_map().  @schema must not be changed afterwards.
 */
void
etl_schema_registry_add (EtlSchemaRegistry *registry, EtlSchema *schema)
{
  g_return_if_fail (registry != NULL && schema != NULL);
  g_return_if_fail (schema->source < ETL_N_SCHEMA_SOURCES);

  g_rw_lock_writer_lock (&registry->lock);
  add_locked (registry, schema);
  g_rw_lock_writer_unlock (&registry->lock);
}

/**
 * etl_schema_registry_add_scoped:
 * @registry: a registry
 * @schema: (transfer none): a complete schema
 * @file: index of the file (#EtlRecord.file) whose records it describes
 * @pid: the process that logged its manifest
 *
 * Registers @schema for the records of one process in one file only, as
 * EventSource manifests (event 0xFFFE) are: the same provider's events can
 * differ between processes.  A scoped schema is preferred over an unscoped
 * one for those records unless the unscoped one comes from a more trusted
 * source.  Among scoped schemas for the same key, file and process the
 * last one added wins.
 */
void
etl_schema_registry_add_scoped (EtlSchemaRegistry *registry, EtlSchema *schema, guint file,
                                guint32 pid)
{
  ScopedKey *sk;
  EtlSchema *existing;

  g_return_if_fail (registry != NULL && schema != NULL);
  g_return_if_fail (schema->source < ETL_N_SCHEMA_SOURCES);

  sk = g_new0 (ScopedKey, 1);
  sk->key = schema->key;
  sk->file = file;
  sk->pid = pid;

  g_rw_lock_writer_lock (&registry->lock);
  existing = g_hash_table_lookup (registry->scoped, sk);
  if (existing != schema && replaces (schema, existing))
    {
      resolve_maps (registry, schema);
      if (existing != NULL)
        registry->n_by_source[existing->source]--;
      registry->n_by_source[schema->source]++;
      g_hash_table_replace (registry->scoped, sk, etl_schema_ref (schema));
      sk = NULL;
    }
  g_rw_lock_writer_unlock (&registry->lock);
  g_free (sk);
}

static void
resolve_map_in (GHashTable *table, const EtlGuid *provider, EtlMap *map)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      EtlSchema *schema = value;

      if (!etl_guid_equal (schema_map_provider (schema), provider))
        continue;
      for (guint i = 0; i < schema->n_properties; i++)
        {
          EtlProperty *p = &schema->properties[i];

          if (p->map_name != NULL && g_atomic_pointer_get (&p->map) == NULL
              && strcmp (p->map_name, map->name) == 0)
            g_atomic_pointer_set (&p->map, etl_map_ref (map));
        }
    }
}

/**
 * etl_schema_registry_add_map:
 * @registry: a registry
 * @provider: the provider whose properties refer to the map by name
 * @map: (transfer none): a complete map
 *
 * Registers a value map or bitmap of @provider (EVENT_MAP_INFO; a manifest's
 * valueMap/bitMap) and resolves it into the properties of schemas already
 * registered whose map name is @map->name and whose map is still unset.
 * A map of the same provider and name registered earlier is kept.
 */
void
etl_schema_registry_add_map (EtlSchemaRegistry *registry, const EtlGuid *provider, EtlMap *map)
{
  MapKey *mk;

  g_return_if_fail (registry != NULL && provider != NULL && map != NULL);

  mk = g_new0 (MapKey, 1);
  mk->provider = *provider;
  mk->name = g_strdup (map->name);

  g_rw_lock_writer_lock (&registry->lock);
  if (g_hash_table_contains (registry->maps, mk))
    {
      map_key_free (mk);
      mk = NULL;
    }
  else
    {
      g_hash_table_insert (registry->maps, mk, etl_map_ref (map));
      resolve_map_in (registry->schemas, provider, map);
      resolve_map_in (registry->scoped, provider, map);
    }
  g_rw_lock_writer_unlock (&registry->lock);
}

/* etl_schema_registry_lookup() with the lock held; (transfer none). */
static EtlSchema *
lookup_locked (EtlSchemaRegistry *r, const EtlSchemaKey *key, guint file, guint32 pid)
{
  EtlSchema *scoped = NULL, *global;

  if (g_hash_table_size (r->scoped) > 0)
    {
      ScopedKey sk;

      memset (&sk, 0, sizeof sk);
      sk.key = *key;
      sk.file = file;
      sk.pid = pid;
      scoped = g_hash_table_lookup (r->scoped, &sk);
    }
  global = g_hash_table_lookup (r->schemas, key);
  if (scoped != NULL && (global == NULL || scoped->source <= global->source))
    return scoped;
  return global;
}

/**
 * etl_schema_registry_lookup:
 * @registry: a registry
 * @key: the key
 * @file: the record's file index
 * @pid: the record's process id (G_MAXUINT32 when the record has none)
 *
 * Finds the schema for @key: the one scoped to (@file, @pid) if any, unless
 * the unscoped one comes from a more trusted source; else the unscoped one.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL
 */
EtlSchema *
etl_schema_registry_lookup (EtlSchemaRegistry *registry, const EtlSchemaKey *key, guint file,
                            guint32 pid)
{
  EtlSchema *found;

  g_return_val_if_fail (registry != NULL && key != NULL, NULL);

  g_rw_lock_reader_lock (&registry->lock);
  found = lookup_locked (registry, key, file, pid);
  if (found != NULL)
    etl_schema_ref (found);
  g_rw_lock_reader_unlock (&registry->lock);
  return found;
}

/* Keys the fallback is asked for, at most (a hostile trace can carry
 * millions of distinct ones; each ask can cost the fallback a registry walk). */
#define MAX_FALLBACK_KEYS 65536

/* Whether the fallback is asked about a record that found @found: nothing,
 * or only a loaded manifest.  The trace's own metadata (TraceLogging, TDH
 * MetaData, EventSource) is more trusted, and the built-in MOF tables are
 * the reference the kernel's events are decoded by everywhere. */
static gboolean
fallback_wanted (const EtlSchema *found)
{
  return found == NULL || found->source == ETL_SCHEMA_SOURCE_MANIFEST;
}

/*
 * Asks the fallback about @key unless it was asked already (by this thread
 * or another one, while this one waited), and registers the answer as
 * etl_schema_registry_add() would; a miss is remembered as well.
 */
static void
ask_fallback (EtlSchemaRegistry *r, const EtlRecord *record, const EtlSchemaKey *key)
{
  g_autoptr (EtlSchema) answer = NULL;
  gboolean asked;

  g_mutex_lock (&r->fallback_lock);
  g_rw_lock_reader_lock (&r->lock);
  asked = g_hash_table_contains (r->asked, key) || g_hash_table_size (r->asked) >= MAX_FALLBACK_KEYS;
  g_rw_lock_reader_unlock (&r->lock);
  if (!asked)
    {
      answer = r->fallback (record, key, r->fallback_data);
      /* Only a schema for this key counts; anything else is a miss. */
      if (answer != NULL
          && (!schema_key_equal (&answer->key, key) || answer->source >= ETL_N_SCHEMA_SOURCES))
        g_clear_pointer (&answer, etl_schema_unref);
      g_rw_lock_writer_lock (&r->lock);
      if (answer != NULL)
        add_locked (r, answer);
      g_hash_table_add (r->asked, g_memdup2 (key, sizeof *key));
      g_rw_lock_writer_unlock (&r->lock);
    }
  g_mutex_unlock (&r->fallback_lock);
}

/**
 * etl_schema_registry_lookup_record:
 * @registry: a registry
 * @record: a record
 *
 * etl_schema_registry_lookup() with the key of etl_schema_key_for_record()
 * and the record's file and process.  TraceLogging records are described by
 * their own metadata (etl_decode_record() handles them), not by the
 * registry.
 *
 * When the registry has a fallback (etl_schema_registry_set_fallback()) and
 * the key has no schema, or only one from a loaded manifest
 * (%ETL_SCHEMA_SOURCE_MANIFEST), the fallback is asked once for that key
 * (misses are remembered too, so 100,000 records of an unknown event ask
 * once); its schema is registered and wins over the manifest, and a schema
 * from the trace's own metadata registered later wins over it.  At most
 * 65,536 keys are asked per registry.  TraceLogging records, WPP messages and
 * keys the MOF tables describe are not asked about.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL
 */
EtlSchema *
etl_schema_registry_lookup_record (EtlSchemaRegistry *registry, const EtlRecord *record)
{
  EtlSchemaKey key;
  guint32 pid;
  EtlSchema *found;
  gboolean ask;

  g_return_val_if_fail (registry != NULL && record != NULL, NULL);

  if (!etl_schema_key_for_record (record, &key))
    return NULL;
  pid = record->has_pid ? record->pid : G_MAXUINT32;
  g_rw_lock_reader_lock (&registry->lock);
  found = lookup_locked (registry, &key, record->file, pid);
  /* Looked up and checked under one lock: an answer registered after the
   * lookup is also marked asked after it. */
  ask = registry->fallback != NULL && record->kind != ETL_RECORD_KIND_TRACELOGGING
        && fallback_wanted (found) && !g_hash_table_contains (registry->asked, &key);
  if (found != NULL)
    etl_schema_ref (found);
  g_rw_lock_reader_unlock (&registry->lock);
  if (!ask)
    return found;

  etl_schema_unref (found);
  ask_fallback (registry, record, &key);
  return etl_schema_registry_lookup (registry, &key, record->file, pid);
}

/**
 * etl_schema_registry_set_fallback:
 * @registry: a registry, not yet shared with other threads
 * @func: (nullable): what describes events the trace does not, or %NULL for nothing
 * @user_data: (nullable): passed to @func; must outlive @registry
 *
 * Sets the source etl_schema_registry_lookup_record() asks when the trace's
 * own sources do not describe a record (see there).  Its schemas should
 * carry %ETL_SCHEMA_SOURCE_SYSTEM_TDH or another source ranked between the
 * trace's own and the loaded manifests; a schema for another key than the
 * one asked is dropped as a miss.  etl_schema_registry_add_all() does not
 * copy the fallback.
 */
void
etl_schema_registry_set_fallback (EtlSchemaRegistry *registry, EtlSchemaFallbackFunc func,
                                  gpointer user_data)
{
  g_return_if_fail (registry != NULL);

  registry->fallback = func;
  registry->fallback_data = user_data;
}

/**
 * etl_schema_registry_get_n_schemas:
 * @registry: a registry
 * @source: an #EtlSchemaSource, or %ETL_N_SCHEMA_SOURCES for all
 *
 * Returns: the number of schemas registered (scoped ones included) that
 *   came from @source and are in effect (not replaced by another)
 */
guint
etl_schema_registry_get_n_schemas (EtlSchemaRegistry *registry, EtlSchemaSource source)
{
  guint n = 0;

  g_return_val_if_fail (registry != NULL, 0);

  g_rw_lock_reader_lock (&registry->lock);
  if (source < ETL_N_SCHEMA_SOURCES)
    n = registry->n_by_source[source];
  else
    for (guint i = 0; i < ETL_N_SCHEMA_SOURCES; i++)
      n += registry->n_by_source[i];
  g_rw_lock_reader_unlock (&registry->lock);
  return n;
}

/* TraceLogging schemas are described by the record itself: the registry
 * caches one schema per distinct EVENT_SCHEMA_TL blob, at most this many. */
#define MAX_BLOB_SCHEMAS 65536

/* Returns: (transfer full) (nullable): the schema cached for @blob. */
EtlSchema *
etl_schema_registry_lookup_blob (EtlSchemaRegistry *registry, const guint8 *blob, gsize blob_len)
{
  g_autoptr (GBytes) key = g_bytes_new_static (blob, blob_len);
  EtlSchema *found;

  g_rw_lock_reader_lock (&registry->lock);
  found = g_hash_table_lookup (registry->blobs, key);
  if (found != NULL)
    etl_schema_ref (found);
  g_rw_lock_reader_unlock (&registry->lock);
  return found;
}

/* Caches @schema for @blob unless one is there already (a race between two
 * workers) or the cache is full.  Returns: (transfer full): the schema in
 * effect for @blob. */
EtlSchema *
etl_schema_registry_add_blob (EtlSchemaRegistry *registry, const guint8 *blob, gsize blob_len,
                              EtlSchema *schema)
{
  g_autoptr (GBytes) probe = g_bytes_new_static (blob, blob_len);
  EtlSchema *found;

  g_rw_lock_writer_lock (&registry->lock);
  found = g_hash_table_lookup (registry->blobs, probe);
  if (found == NULL)
    {
      found = schema;
      if (g_hash_table_size (registry->blobs) < MAX_BLOB_SCHEMAS)
        {
          g_hash_table_insert (registry->blobs, g_bytes_new (blob, blob_len),
                               etl_schema_ref (schema));
          registry->n_by_source[schema->source]++;
        }
    }
  etl_schema_ref (found);
  g_rw_lock_writer_unlock (&registry->lock);
  return found;
}

/**
 * etl_schema_registry_add_all:
 * @registry: a registry
 * @from: another registry, e.g. one built once per process with the kernel's
 *   MOF layouts and the user's manifests
 *
 * Registers every unscoped schema and every map of @from in @registry, as
 * etl_schema_registry_add() and etl_schema_registry_add_map() would: the
 * schemas are shared (they are immutable once registered), not copied, so a
 * trace's registry starts from the common ones in a few microseconds.
 */
void
etl_schema_registry_add_all (EtlSchemaRegistry *registry, EtlSchemaRegistry *from)
{
  g_autoptr (GPtrArray) schemas = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_schema_unref);
  g_autoptr (GPtrArray) map_keys = g_ptr_array_new ();
  g_autoptr (GPtrArray) maps = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_map_unref);
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (registry != NULL && from != NULL && registry != from);

  g_rw_lock_reader_lock (&from->lock);
  g_hash_table_iter_init (&iter, from->maps);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      MapKey *mk = g_new0 (MapKey, 1);

      mk->provider = ((MapKey *) key)->provider;
      mk->name = g_strdup (((MapKey *) key)->name);
      g_ptr_array_add (map_keys, mk);
      g_ptr_array_add (maps, etl_map_ref (value));
    }
  g_hash_table_iter_init (&iter, from->schemas);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (schemas, etl_schema_ref (value));
  g_rw_lock_reader_unlock (&from->lock);

  for (guint i = 0; i < maps->len; i++)
    {
      MapKey *mk = g_ptr_array_index (map_keys, i);

      etl_schema_registry_add_map (registry, &mk->provider, g_ptr_array_index (maps, i));
      map_key_free (mk);
    }
  for (guint i = 0; i < schemas->len; i++)
    etl_schema_registry_add (registry, g_ptr_array_index (schemas, i));
}

/* ------------------------------------------------------------------------ */
/* Fixed fields                                                             */

/* The decoder keeps at most this many fields (etl-decode.c MAX_FIELDS); a
 * property past it is never decoded, so it is not planned either. */
#define MAX_PLAN_PROPERTIES 64

/**
 * etl_in_type_fixed_size:
 * @in_type: an #EtlInType
 * @pointer_size: the pointer size of the record, bytes (4 or 8;
 *   etl_record_get_pointer_size())
 *
 * The size of one element of a fixed-size in-type as the decoder walks it:
 * TDH's integers, FILETIME, GUID, SYSTEMTIME, and pointers and SIZE_T of
 * @pointer_size.
 *
 * Returns: bytes; 0 for the variable-size in-types (strings, SIDs, binary)
 */
guint
etl_in_type_fixed_size (guint in_type, guint pointer_size)
{
  switch (in_type)
    {
    case ETL_IN_INT8:
    case ETL_IN_UINT8:
    case ETL_IN_ANSICHAR:
      return 1;
    case ETL_IN_INT16:
    case ETL_IN_UINT16:
    case ETL_IN_UNICODECHAR:
      return 2;
    case ETL_IN_INT32:
    case ETL_IN_UINT32:
    case ETL_IN_FLOAT:
    case ETL_IN_BOOLEAN:
    case ETL_IN_HEXINT32:
      return 4;
    case ETL_IN_INT64:
    case ETL_IN_UINT64:
    case ETL_IN_DOUBLE:
    case ETL_IN_FILETIME:
    case ETL_IN_HEXINT64:
      return 8;
    case ETL_IN_GUID:
    case ETL_IN_SYSTEMTIME:
      return 16;
    case ETL_IN_POINTER:
    case ETL_IN_SIZET:
      return pointer_size;
    default:
      return 0;
    }
}

/* Whether the decoder gives @in_type a raw number (EtlField.has_number), and
 * whether it sign-extends it. */
static gboolean
integer_type (guint in_type, guint out_type, gboolean *is_signed)
{
  switch (in_type)
    {
    case ETL_IN_INT8:
    case ETL_IN_INT16:
    case ETL_IN_INT32:
    case ETL_IN_INT64:
      *is_signed = TRUE;
      return TRUE;
    case ETL_IN_UINT64:
      *is_signed = out_type == ETL_OUT_NULL || out_type == ETL_OUT_LONG;
      return TRUE;
    case ETL_IN_UINT8:
    case ETL_IN_UINT16:
    case ETL_IN_UINT32:
    case ETL_IN_HEXINT32:
    case ETL_IN_HEXINT64:
    case ETL_IN_BOOLEAN:
    case ETL_IN_POINTER:
    case ETL_IN_SIZET:
    case ETL_IN_FILETIME:
      *is_signed = FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * etl_schema_plan_fixed_fields:
 * @schema: a schema
 * @pointer_size: the pointer size of the records it decodes, bytes (4 for
 *   the 32-bit header types, else 8)
 * @name_lists: %NULL-terminated array of %NULL-terminated lists of
 *   property names (matched without regard to case)
 * @fields: one array per list of @name_lists, each with one #EtlFixedField
 *   per name of its list (caller-allocated; filled)
 *
 * Finds where the first top-level property of each name lies in every
 * payload of @schema, so a pass over millions of records can read a few
 * integers in place instead of decoding the payload (etl_decode_record()).
 * A property's offset is fixed when every property before it has a fixed
 * size: integers, FILETIME, GUID, SYSTEMTIME, pointers and SIZE_T of
 * @pointer_size (the sizes the decoder walks, TDH's in-types).  Read the
 * value with etl_fixed_field_read(): a field is present exactly when the
 * payload holds its last byte, as the decoder stops at the first property
 * the data cannot hold.
 *
 * Returns: %TRUE when every named property of @schema is an integer at a
 *   fixed offset (absent names get offset -1); %FALSE when one is not — a
 *   string, an array, a struct, past a variable-size property or past the
 *   decoder's 64-field cap — and the caller must decode
 */
gboolean
etl_schema_plan_fixed_fields (const EtlSchema *schema, guint pointer_size, const char *const *const *name_lists,
                              EtlFixedField *const *fields)
{
  gsize offset = 0;
  gboolean fixed = TRUE;
  guint n;

  g_return_val_if_fail (schema != NULL && name_lists != NULL && fields != NULL, FALSE);

  for (guint l = 0; name_lists[l] != NULL; l++)
    for (guint k = 0; name_lists[l][k] != NULL; k++)
      fields[l][k].offset = -1;
  n = MIN (schema->n_top_level, schema->n_properties);
  for (guint i = 0; i < n; i++)
    {
      const EtlProperty *prop = &schema->properties[i];
      gboolean plain = prop->count == 1
                       && (prop->flags
                           & (ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_LENGTH | ETL_PROPERTY_PARAM_COUNT
                              | ETL_PROPERTY_PARAM_FIXED_COUNT | ETL_PROPERTY_TO_END | ETL_PROPERTY_INLINE_COUNT))
                              == 0;
      guint size = plain ? etl_in_type_fixed_size (prop->in_type, pointer_size) : 0;

      for (guint l = 0; prop->name != NULL && name_lists[l] != NULL; l++)
        for (guint k = 0; name_lists[l][k] != NULL; k++)
          {
            EtlFixedField *f = &fields[l][k];
            gboolean is_signed = FALSE;

            if (g_ascii_strcasecmp (prop->name, name_lists[l][k]) != 0)
              continue;
            if (!fixed || size == 0 || i >= MAX_PLAN_PROPERTIES
                || !integer_type (prop->in_type, prop->out_type, &is_signed))
              return FALSE;
            if (f->offset < 0)
              {
                f->offset = (gint32)offset;
                f->size = (guint8)size;
                f->is_signed = (guint8)is_signed;
              }
          }
      if (size == 0)
        fixed = FALSE;
      offset += size;
      if (offset > G_MAXINT32 / 2)
        fixed = FALSE;
    }
  return TRUE;
}

/**
 * etl_schema_plan_fixed_offset:
 * @schema: a schema
 * @pointer_size: the pointer size of the records it decodes, bytes
 * @name: a property name (matched without regard to case)
 * @offset: (out): where the first top-level property called @name begins in
 *   every payload of @schema, bytes
 *
 * The offset of a property of any type (a string, say) that follows only
 * fixed-size properties, as etl_schema_plan_fixed_fields() works them out.
 *
 * Returns: (transfer none) (nullable): the property, or %NULL when @schema
 *   has none called @name at a fixed offset within the decoder's 64 fields
 */
const EtlProperty *
etl_schema_plan_fixed_offset (const EtlSchema *schema, guint pointer_size, const char *name, gsize *offset)
{
  gsize at = 0;
  guint n;

  g_return_val_if_fail (schema != NULL && name != NULL && offset != NULL, NULL);

  n = MIN (MIN (schema->n_top_level, schema->n_properties), MAX_PLAN_PROPERTIES);
  for (guint i = 0; i < n; i++)
    {
      const EtlProperty *prop = &schema->properties[i];
      gboolean plain = prop->count == 1
                       && (prop->flags
                           & (ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_LENGTH | ETL_PROPERTY_PARAM_COUNT
                              | ETL_PROPERTY_PARAM_FIXED_COUNT | ETL_PROPERTY_TO_END | ETL_PROPERTY_INLINE_COUNT))
                              == 0;
      guint size = plain ? etl_in_type_fixed_size (prop->in_type, pointer_size) : 0;

      if (prop->name != NULL && g_ascii_strcasecmp (prop->name, name) == 0)
        {
          *offset = at;
          return prop;
        }
      if (size == 0 || at > G_MAXINT32 / 2)
        return NULL;
      at += size;
    }
  return NULL;
}

/**
 * etl_fixed_field_read:
 * @fields: (array length=n_fields): one list's fields, as
 *   etl_schema_plan_fixed_fields() filled them
 * @n_fields: how many
 * @payload: (array length=payload_len) (nullable): the record's user data
 * @payload_len: its length, bytes
 * @value: (out): the value, sign-extended as the decoder does
 *
 * Reads the first field of @fields that @payload holds (bounds-checked), as
 * looking the names up in order among the decoded fields would.
 *
 * Returns: %TRUE when one was present
 */
gboolean
etl_fixed_field_read (const EtlFixedField *fields, guint n_fields, const guint8 *payload, gsize payload_len,
                      guint64 *value)
{
  for (guint n = 0; n < n_fields; n++)
    {
      const EtlFixedField *f = &fields[n];
      const guint8 *p;
      guint64 v;

      if (f->offset < 0 || payload == NULL || payload_len < (gsize)f->offset + f->size)
        continue;
      p = payload + f->offset;
      switch (f->size)
        {
        case 1:
          v = f->is_signed ? (guint64)(gint64)(gint8)p[0] : p[0];
          break;
        case 2:
          v = etl_read_u16 (p);
          if (f->is_signed)
            v = (guint64)(gint64)(gint16)v;
          break;
        case 4:
          v = etl_read_u32 (p);
          if (f->is_signed)
            v = (guint64)(gint64)(gint32)v;
          break;
        default:
          v = etl_read_u64 (p);
          break;
        }
      *value = v;
      return TRUE;
    }
  return FALSE;
}
