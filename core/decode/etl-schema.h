/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-schema.h: what an event's payload holds, whoever described it.
 *
 * One shape for every source of layouts (STYLE.md "Decoding": Wireshark's
 * dissector tables, libtraceevent's parsed formats): TraceLogging metadata,
 * in-trace TDH metadata (TRACE_EVENT_INFO / EVENT_MAP_INFO), EventSource
 * manifests, instrumentation manifests loaded by the user, and the kernel's
 * MOF class tables.  Each source turns its description into an EtlSchema
 * once; the decoder (etl-decode.h) walks a schema over a record's user data.
 *
 * Types and flags keep the numbering of tdh.h (TDH_IN_TYPE, TDH_OUT_TYPE,
 * PROPERTY_FLAGS, MAP_FLAGS), so TRACE_EVENT_INFO blobs map one to one and a
 * manifest's "win:UInt32" maps through one table.
 */
#pragma once

#include <glib.h>

#include "etl-types.h"

G_BEGIN_DECLS

/* TDH_IN_TYPE (tdh.h); manifests spell them "win:UnicodeString" and so on. */
typedef enum
{
  ETL_IN_NULL = 0,
  ETL_IN_UNICODESTRING = 1,
  ETL_IN_ANSISTRING = 2,
  ETL_IN_INT8 = 3,
  ETL_IN_UINT8 = 4,
  ETL_IN_INT16 = 5,
  ETL_IN_UINT16 = 6,
  ETL_IN_INT32 = 7,
  ETL_IN_UINT32 = 8,
  ETL_IN_INT64 = 9,
  ETL_IN_UINT64 = 10,
  ETL_IN_FLOAT = 11,
  ETL_IN_DOUBLE = 12,
  ETL_IN_BOOLEAN = 13, /* 4 bytes */
  ETL_IN_BINARY = 14,
  ETL_IN_GUID = 15,
  ETL_IN_POINTER = 16, /* 4 or 8 bytes: the record's pointer size */
  ETL_IN_FILETIME = 17,
  ETL_IN_SYSTEMTIME = 18,
  ETL_IN_SID = 19,
  ETL_IN_HEXINT32 = 20,
  ETL_IN_HEXINT64 = 21,
  ETL_IN_COUNTEDSTRING = 22, /* u16 byte count, then UTF-16 */
  ETL_IN_COUNTEDANSISTRING = 23,
  ETL_IN_REVERSEDCOUNTEDSTRING = 24,
  ETL_IN_REVERSEDCOUNTEDANSISTRING = 25,
  ETL_IN_NONNULLTERMINATEDSTRING = 26,
  ETL_IN_NONNULLTERMINATEDANSISTRING = 27,
  ETL_IN_UNICODECHAR = 28,
  ETL_IN_ANSICHAR = 29,
  ETL_IN_SIZET = 30, /* pointer-sized */
  ETL_IN_HEXDUMP = 31, /* u32 length, then bytes */
  ETL_IN_WBEMSID = 32, /* TOKEN_USER (two pointers), then a SID (kernel Process events) */
  /* Not in tdh.h: TraceLogging's binary (u16 byte count, then the bytes). */
  ETL_IN_COUNTEDBINARY = 0x100,
} EtlInType;

/* TDH_OUT_TYPE (tdh.h). */
typedef enum
{
  ETL_OUT_NULL = 0,
  ETL_OUT_STRING = 1,
  ETL_OUT_DATETIME = 2,
  ETL_OUT_BYTE = 3,
  ETL_OUT_UNSIGNEDBYTE = 4,
  ETL_OUT_SHORT = 5,
  ETL_OUT_UNSIGNEDSHORT = 6,
  ETL_OUT_INT = 7,
  ETL_OUT_UNSIGNEDINT = 8,
  ETL_OUT_LONG = 9,
  ETL_OUT_UNSIGNEDLONG = 10,
  ETL_OUT_FLOAT = 11,
  ETL_OUT_DOUBLE = 12,
  ETL_OUT_BOOLEAN = 13,
  ETL_OUT_GUID = 14,
  ETL_OUT_HEXBINARY = 15,
  ETL_OUT_HEXINT8 = 16,
  ETL_OUT_HEXINT16 = 17,
  ETL_OUT_HEXINT32 = 18,
  ETL_OUT_HEXINT64 = 19,
  ETL_OUT_PID = 20,
  ETL_OUT_TID = 21,
  ETL_OUT_PORT = 22, /* network byte order */
  ETL_OUT_IPV4 = 23,
  ETL_OUT_IPV6 = 24,
  ETL_OUT_SOCKETADDRESS = 25,
  ETL_OUT_CIMDATETIME = 26,
  ETL_OUT_ETWTIME = 27,
  ETL_OUT_XML = 28,
  ETL_OUT_ERRORCODE = 29,
  ETL_OUT_WIN32ERROR = 30,
  ETL_OUT_NTSTATUS = 31,
  ETL_OUT_HRESULT = 32,
  ETL_OUT_CULTURE_INSENSITIVE_DATETIME = 33,
  ETL_OUT_JSON = 34,
  ETL_OUT_UTF8 = 35,
  ETL_OUT_PKCS7_WITH_TYPE_INFO = 36,
  ETL_OUT_CODE_POINTER = 37,
  ETL_OUT_DATETIME_UTC = 38,
  /* Not in tdh.h: a kernel NT path also shown as a DOS path. */
  ETL_OUT_NT_PATH = 0x200,
} EtlOutType;

/* PROPERTY_FLAGS (tdh.h). */
typedef enum
{
  ETL_PROPERTY_STRUCT = 0x1,       /* struct_start / n_struct_members are set */
  ETL_PROPERTY_PARAM_LENGTH = 0x2, /* length is the index of the property holding it */
  ETL_PROPERTY_PARAM_COUNT = 0x4,  /* count is the index of the property holding it */
  ETL_PROPERTY_WBEM_XML = 0x8,
  ETL_PROPERTY_PARAM_FIXED_LENGTH = 0x10,
  ETL_PROPERTY_PARAM_FIXED_COUNT = 0x20, /* an array even when count is 1 */
  /* Not in tdh.h: an array of @in_type elements that runs to the end of the
   * user data (MOF StackWalk_Event's Stack1…Stack192); count is ignored. */
  ETL_PROPERTY_TO_END = 0x1000,
  /* Not in tdh.h: a u16 element count precedes the elements in the payload
   * (TraceLogging's variable-count arrays); @count is then ignored. */
  ETL_PROPERTY_INLINE_COUNT = 0x8000,
} EtlPropertyFlags;

/* Where a schema came from, most trusted first (issue 9's order). */
typedef enum
{
  ETL_SCHEMA_SOURCE_TRACELOGGING,
  ETL_SCHEMA_SOURCE_TDH,         /* KernelTraceControl MetaData records in the trace */
  ETL_SCHEMA_SOURCE_EVENTSOURCE, /* event 0xFFFE manifests in the trace */
  ETL_SCHEMA_SOURCE_SYSTEM_TDH,  /* TDH of the machine etlscope runs on (Windows; etl-tdh-system.h) */
  ETL_SCHEMA_SOURCE_MANIFEST,    /* instrumentation manifest files the user loaded */
  ETL_SCHEMA_SOURCE_MOF,         /* built-in kernel and classic MOF tables */
  ETL_SCHEMA_SOURCE_BUILTIN,     /* read by code, never registered (etl-tdh.c, etl-winsat.c) */
  ETL_N_SCHEMA_SOURCES
} EtlSchemaSource;

const char *etl_schema_source_name (EtlSchemaSource source);

/**
 * EtlMapEntry:
 * @value: the integer value (value map) or the bit mask (bitmap)
 * @name: (not nullable): its name, trimmed
 */
typedef struct
{
  guint64 value;
  char *name;
} EtlMapEntry;

/**
 * EtlMap:
 * @name: the map's name as properties refer to it
 * @is_bitmap: %TRUE for a bitmap (names of set bits joined by "|"), %FALSE
 *   for a value map (EVENT_MAP_INFO Flag 1 / 2; manifest valueMap / bitMap)
 * @entries: (array length=n_entries): sorted by @value ascending
 * @n_entries: number of @entries
 *
 * A value map or bitmap; immutable once built.  Ref-counted.
 */
typedef struct
{
  char *name;
  gboolean is_bitmap;
  EtlMapEntry *entries;
  guint n_entries;
  /*< private >*/
  gint ref_count;
} EtlMap;

EtlMap *etl_map_new (const char *name, gboolean is_bitmap);
void etl_map_add (EtlMap *map, guint64 value, const char *name);
EtlMap *etl_map_ref (EtlMap *map);
void etl_map_unref (EtlMap *map);
char *etl_map_format (const EtlMap *map, guint64 value);

/**
 * EtlProperty:
 * @name: the property name, as TraceEvent and the manifest spell it
 * @in_type: an #EtlInType (ignored when @flags has %ETL_PROPERTY_STRUCT)
 * @out_type: an #EtlOutType
 * @flags: #EtlPropertyFlags
 * @count: number of elements (1 for a scalar), or with
 *   %ETL_PROPERTY_PARAM_COUNT the index in the schema's property array of
 *   the earlier property that holds it
 * @length: fixed length (0 = use the type's own rule): in characters for
 *   strings, as TDH counts them, in bytes for binary; or with
 *   %ETL_PROPERTY_PARAM_LENGTH the index of the property that holds it
 * @struct_start: with %ETL_PROPERTY_STRUCT, index of the first member
 * @n_struct_members: with %ETL_PROPERTY_STRUCT, number of members
 * @map_name: (nullable): the name of a value map or bitmap of the provider
 * @map: (nullable): that map, once resolved (etl_schema_registry_add() and
 *   etl_schema_set_map() fill it)
 *
 * One field of an event's payload, as one EVENT_PROPERTY_INFO.  As in
 * TRACE_EVENT_INFO, struct members follow the top-level properties in the
 * same flat array.
 */
typedef struct
{
  char *name;
  guint16 in_type;
  guint16 out_type;
  guint16 flags;
  guint16 count;
  guint16 length;
  guint16 struct_start;
  guint16 n_struct_members;
  char *map_name;
  EtlMap *map;
} EtlProperty;

/**
 * EtlSchemaKeyKind:
 * @ETL_SCHEMA_KEY_EVENT_ID: manifest-style events (EVENT_HEADER records,
 *   TDH DecodingSource 0): keyed by provider GUID, event id and version
 * @ETL_SCHEMA_KEY_OPCODE: classic and kernel events (SYSTEM, COMPACT,
 *   PERFINFO and FULL_HEADER records, MOF): keyed by the event class GUID
 *   (for kernel records the GUID of the HookId's group), the opcode (the
 *   HookId's low byte) and the version
 */
typedef enum
{
  ETL_SCHEMA_KEY_EVENT_ID,
  ETL_SCHEMA_KEY_OPCODE,
} EtlSchemaKeyKind;

/**
 * EtlSchemaKey:
 * @kind: an #EtlSchemaKeyKind
 * @guid: provider GUID (%ETL_SCHEMA_KEY_EVENT_ID) or event class GUID
 * @id: event id, or opcode
 * @version: the event's version
 *
 * How a schema is found.  EventSource manifests are also scoped by the
 * process that logged them (see etl_schema_registry_add_scoped()).
 */
typedef struct
{
  guint8 kind;
  guint8 version;
  guint16 id;
  EtlGuid guid;
} EtlSchemaKey;

/**
 * EtlSchema:
 * @key: what it describes
 * @source: an #EtlSchemaSource
 * @provider_name: (nullable): e.g. "Microsoft-Windows-DotNETRuntime"
 * @event_name: (nullable): the manifest's event name ("GCStart"), when it has one
 * @task_name: (nullable): e.g. "GC"; for kernel classes the group ("Process")
 * @opcode_name: (nullable): e.g. "Start"
 * @level_name: (nullable): e.g. "Informational"
 * @keyword_names: (nullable) (array zero-terminated=1): names of the keyword bits
 * @task: the task number (0 when the source has none)
 * @opcode: the opcode
 * @level: the level
 * @keyword: the keyword mask
 * @properties: (array length=n_properties): top-level properties first,
 *   then struct members
 * @n_properties: all properties
 * @n_top_level: the top-level ones (the first @n_top_level of @properties)
 *
 * An event's name and payload layout.  Immutable once registered; ref-counted
 * so a decoded record may keep it after the registry changes.
 */
typedef struct
{
  EtlSchemaKey key;
  EtlSchemaSource source;
  char *provider_name;
  char *event_name;
  char *task_name;
  char *opcode_name;
  char *level_name;
  char **keyword_names;
  guint16 task;
  guint8 opcode;
  guint8 level;
  guint64 keyword;
  EtlProperty *properties;
  guint n_properties;
  guint n_top_level;
  /*< private >*/
  gint ref_count;
} EtlSchema;

EtlSchema *etl_schema_new (const EtlSchemaKey *key, EtlSchemaSource source);
EtlSchema *etl_schema_ref (EtlSchema *schema);
void etl_schema_unref (EtlSchema *schema);
guint etl_schema_add_property (EtlSchema *schema, const char *name, guint16 in_type,
                               guint16 out_type);
char *etl_schema_dup_display_name (const EtlSchema *schema);

/**
 * EtlFixedField:
 * @offset: byte offset in the payload (user data); -1 when the schema has
 *   no property of that name
 * @size: bytes: 1, 2, 4 or 8
 * @is_signed: whether the decoder sign-extends it
 *
 * Where an integer property lies in every payload of a schema, as
 * etl_schema_plan_fixed_fields() finds it.
 */
typedef struct
{
  gint32 offset;
  guint8 size;
  guint8 is_signed;
} EtlFixedField;

guint etl_in_type_fixed_size (guint in_type, guint pointer_size);
gboolean etl_schema_plan_fixed_fields (const EtlSchema *schema, guint pointer_size,
                                       const char *const *const *name_lists, EtlFixedField *const *fields);
const EtlProperty *etl_schema_plan_fixed_offset (const EtlSchema *schema, guint pointer_size, const char *name,
                                                 gsize *offset);
gboolean etl_fixed_field_read (const EtlFixedField *fields, guint n_fields, const guint8 *payload,
                               gsize payload_len, guint64 *value);

void etl_schema_key_init_event_id (EtlSchemaKey *key, const EtlGuid *provider, guint16 id,
                                   guint8 version);
void etl_schema_key_init_opcode (EtlSchemaKey *key, const EtlGuid *event_class, guint8 opcode,
                                 guint8 version);
gboolean etl_schema_key_for_record (const EtlRecord *record, EtlSchemaKey *key);

/**
 * EtlSchemaRegistry:
 *
 * Every schema the decoders know, by key, plus the value maps of each
 * provider.  Sources register; consumers look up and never learn where a
 * schema came from except through #EtlSchema.source.  When two sources
 * describe the same key the more trusted one (lower #EtlSchemaSource) wins.
 * Thread-safe: lookups may run in workers while a manifest is being added.
 */
typedef struct _EtlSchemaRegistry EtlSchemaRegistry;

EtlSchemaRegistry *etl_schema_registry_new (void);
EtlSchemaRegistry *etl_schema_registry_ref (EtlSchemaRegistry *registry);
void etl_schema_registry_unref (EtlSchemaRegistry *registry);
void etl_schema_registry_add (EtlSchemaRegistry *registry, EtlSchema *schema);
void etl_schema_registry_add_scoped (EtlSchemaRegistry *registry, EtlSchema *schema,
                                     guint file, guint32 pid);
void etl_schema_registry_add_map (EtlSchemaRegistry *registry, const EtlGuid *provider,
                                  EtlMap *map);
EtlSchema *etl_schema_registry_lookup (EtlSchemaRegistry *registry, const EtlSchemaKey *key,
                                       guint file, guint32 pid);
EtlSchema *etl_schema_registry_lookup_record (EtlSchemaRegistry *registry,
                                              const EtlRecord *record);
guint etl_schema_registry_get_n_schemas (EtlSchemaRegistry *registry, EtlSchemaSource source);

/**
 * EtlSchemaFallbackFunc:
 * @record: the record being looked up
 * @key: its key (etl_schema_key_for_record())
 * @user_data: what etl_schema_registry_set_fallback() was given
 *
 * Describes an event the registry has no trusted schema for, e.g. by asking
 * the machine's TDH (etl_tdh_system_query()).  Called from any thread, at
 * most once per key and registry, never two at a time for one registry.
 *
 * Returns: (transfer full) (nullable): a new schema for @key, or %NULL when
 *   the source does not know the event
 */
typedef EtlSchema *(*EtlSchemaFallbackFunc) (const EtlRecord *record, const EtlSchemaKey *key,
                                             gpointer user_data);

void etl_schema_registry_set_fallback (EtlSchemaRegistry *registry, EtlSchemaFallbackFunc func,
                                       gpointer user_data);
void etl_schema_registry_add_all (EtlSchemaRegistry *registry, EtlSchemaRegistry *from);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlMap, etl_map_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSchema, etl_schema_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSchemaRegistry, etl_schema_registry_unref)

G_END_DECLS
