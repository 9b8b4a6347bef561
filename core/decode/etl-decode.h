/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-decode.h: a record's payload as named, formatted fields.
 *
 * Decoding (walking an EtlSchema over the user data, every read
 * bounds-checked) is kept apart from finding the schema (etl-schema.h) and
 * from presenting the fields (CLI JSON, the details pane, the list's Payload
 * column), as Wireshark keeps proto_tree apart from its front ends.
 */
#pragma once

#include <glib.h>

#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlVolumeMap:
 *
 * NT device paths to DOS drive paths ("\Device\HarddiskVolume2\" →
 * "C:\"), from the trace's SysConfig VolumeMapping records.  Filled while a
 * trace is indexed; read-only afterwards.
 */
typedef struct _EtlVolumeMap EtlVolumeMap;

EtlVolumeMap *etl_volume_map_new (void);
void etl_volume_map_free (EtlVolumeMap *map);
void etl_volume_map_add (EtlVolumeMap *map, const char *nt_path, const char *dos_path);
char *etl_volume_map_to_dos (const EtlVolumeMap *map, const char *nt_path);

/**
 * EtlField:
 * @name: the property name; struct members and array elements are named
 *   "Struct.Member" and "Name[i]"
 * @value: the value formatted as TraceEvent would show it (see
 *   etl_decode_record())
 * @in_type: the property's #EtlInType
 * @out_type: the property's #EtlOutType
 * @has_number: %TRUE when @number holds the raw integer value (integers,
 *   pointers, booleans, mapped values)
 * @number: the raw value, zero- or sign-extended to 64 bits
 *
 * One decoded field.
 */
typedef struct
{
  char *name;
  char *value;
  guint16 in_type;
  guint16 out_type;
  gboolean has_number;
  guint64 number;
} EtlField;

/**
 * EtlDecoded:
 * @schema: (nullable): the schema used; %NULL when none was found
 * @fields: (element-type EtlField): the fields in schema order
 * @complete: %FALSE when decoding stopped early (a property that could not
 *   be decoded, or the data ran out); the fields decoded so far are kept
 * @n_bytes: user-data bytes the fields covered
 * @capped: %TRUE when decoding stopped at etl_decode_record_prefix()'s
 *   @max_fields: the rest was not looked at, which is no fault of the
 *   schema (@complete is then %FALSE too)
 * @trailing: %TRUE when every property of the schema was decoded and user
 *   data was left after them (@complete is then %FALSE): what a newer
 *   version of the event appends
 *
 * What etl_decode_record() returns.  Free with etl_decoded_free().
 */
typedef struct
{
  EtlSchema *schema;
  GArray *fields;
  gboolean complete;
  gsize n_bytes;
  gboolean capped;
  gboolean trailing;
} EtlDecoded;

EtlDecoded *etl_decode_record (EtlSchemaRegistry *registry, const EtlVolumeMap *volumes,
                               const EtlRecord *record);
EtlDecoded *etl_decode_record_prefix (EtlSchemaRegistry *registry, const EtlVolumeMap *volumes,
                                      const EtlRecord *record, guint max_fields);
EtlDecoded *etl_decode_with_schema (EtlSchema *schema, const EtlVolumeMap *volumes,
                                    const EtlRecord *record);
void etl_decoded_free (EtlDecoded *decoded);
const EtlField *etl_decoded_find (const EtlDecoded *decoded, const char *name);
char *etl_decoded_format_payload (const EtlDecoded *decoded, gsize max_chars);
char *etl_decode_dup_event_name (EtlSchemaRegistry *registry, const EtlRecord *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlDecoded, etl_decoded_free)

G_END_DECLS
