/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-types.h"

G_BEGIN_DECLS

#define ETL_REGIONS_FILE_ERROR (etl_regions_file_error_quark ())

/**
 * EtlRegionsFileError:
 * @ETL_REGIONS_FILE_ERROR_READ: the file cannot be read (missing, not a
 *   regular file, no permission)
 * @ETL_REGIONS_FILE_ERROR_SYNTAX: not well-formed XML (an unclosed tag, a
 *   bad entity, not UTF-8, empty)
 * @ETL_REGIONS_FILE_ERROR_ROOT: the root element is not
 *   InstrumentationManifest
 * @ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE: an element lacks an attribute
 *   the schema requires (Region without Guid or Name, Event without
 *   Provider or Id, …)
 * @ETL_REGIONS_FILE_ERROR_BAD_VALUE: an attribute's value is not of its type
 *   (a GUID, an unsigned short Id, an unsigned char Version or Opcode,
 *   true/false, one of an enumeration's names)
 * @ETL_REGIONS_FILE_ERROR_INVALID: a known element where the schema does not
 *   allow it (an Event directly under Region, two Events in one Start, …)
 *   or two regions with the same Guid
 * @ETL_REGIONS_FILE_ERROR_LIMIT: the file exceeds one of the bounds
 *   (%ETL_REGIONS_MAX_BYTES, %ETL_REGIONS_MAX_DEPTH,
 *   %ETL_REGIONS_MAX_REGIONS, %ETL_REGIONS_MAX_IDENTIFIERS)
 *
 * Error codes in the %ETL_REGIONS_FILE_ERROR domain.  Messages read
 * "FILE:LINE:COLUMN: reason".
 */
typedef enum
{
  ETL_REGIONS_FILE_ERROR_READ,
  ETL_REGIONS_FILE_ERROR_SYNTAX,
  ETL_REGIONS_FILE_ERROR_ROOT,
  ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE,
  ETL_REGIONS_FILE_ERROR_BAD_VALUE,
  ETL_REGIONS_FILE_ERROR_INVALID,
  ETL_REGIONS_FILE_ERROR_LIMIT,
} EtlRegionsFileError;

/* Bounds on a Regions of Interest file (a hostile file stops at them with
 * ETL_REGIONS_FILE_ERROR_LIMIT).  Microsoft's own files hold some hundreds
 * of regions nested a few levels deep. */
#define ETL_REGIONS_MAX_BYTES       (16u << 20) /* bytes of the file */
#define ETL_REGIONS_MAX_DEPTH       32          /* elements nested, the root included */
#define ETL_REGIONS_MAX_REGIONS     4096        /* Region and RegionRoot elements */
#define ETL_REGIONS_MAX_IDENTIFIERS 64          /* PayloadIdentifier of one Start/Stop, Payload of one match */
#define ETL_REGIONS_MAX_STRING      4096        /* bytes of one attribute value */
#define ETL_REGIONS_MAX_WARNINGS    200         /* warnings kept (the rest counted) */

#define ETL_REGION_NONE G_MAXUINT32

/**
 * EtlRegionEndpointKind:
 * @ETL_REGION_ENDPOINT_NONE: no such point (both missing: a container)
 * @ETL_REGION_ENDPOINT_EVENT: an Event element: provider, Id, Version
 * @ETL_REGION_ENDPOINT_DURATION: a Duration element (an event's payload
 *   field gives the time to the other point; matched when the other point
 *   is an Event of the same provider and Id)
 * @ETL_REGION_ENDPOINT_REGION: a Region element naming another region by
 *   RegionGuid (parsed, not matched)
 *
 * How a Start or Stop point is defined ("Region types" of Microsoft's
 * "Creating a Regions of Interest File").
 */
typedef enum
{
  ETL_REGION_ENDPOINT_NONE,
  ETL_REGION_ENDPOINT_EVENT,
  ETL_REGION_ENDPOINT_DURATION,
  ETL_REGION_ENDPOINT_REGION,
} EtlRegionEndpointKind;

/**
 * EtlRegionRelationship:
 * @ETL_REGION_IS_EQUAL: the field's value equals FieldValue (case-sensitive)
 * @ETL_REGION_DOES_NOT_CONTAIN: the field's value does not contain FieldValue
 *   (or the event has no such field)
 *
 * PayloadIdentifier's FieldValueRelationship.
 */
typedef enum
{
  ETL_REGION_IS_EQUAL,
  ETL_REGION_DOES_NOT_CONTAIN,
} EtlRegionRelationship;

/**
 * EtlRegionPayloadIdentifier:
 * @field_name: FieldName
 * @field_value: FieldValue, compared with the field's formatted value
 * @relationship: FieldValueRelationship
 * @line: line where the element begins
 */
typedef struct
{
  char *field_name;
  char *field_value;
  EtlRegionRelationship relationship;
  guint line;
} EtlRegionPayloadIdentifier;

/**
 * EtlRegionEndpoint:
 * @kind: #EtlRegionEndpointKind
 * @provider: Event/Duration Provider
 * @id: Event/Duration Id (EVENT_DESCRIPTOR.Id)
 * @has_version: whether Version was given (else any version matches)
 * @version: Version (EVENT_DESCRIPTOR.Version)
 * @has_opcode: whether Opcode was given (else any opcode matches)
 * @opcode: Opcode (EVENT_DESCRIPTOR.Opcode)
 * @duration_field: Duration's payload field name (%ETL_REGION_ENDPOINT_DURATION)
 * @multiplier: Duration's Multiplier to nanoseconds (1 when not given)
 * @region_guid: Region's RegionGuid (%ETL_REGION_ENDPOINT_REGION)
 * @endpoint_start: Region's Endpoint is "Start" (else "Stop"; the default is
 *   Stop for a starting point and Start for a stopping point)
 * @identifiers: (element-type EtlRegionPayloadIdentifier): the
 *   PayloadIdentifier elements, all of which must hold
 * @line: line where the Start or Stop element begins
 */
typedef struct
{
  EtlRegionEndpointKind kind;
  EtlGuid provider;
  guint16 id;
  gboolean has_version;
  guint8 version;
  gboolean has_opcode;
  guint8 opcode;
  char *duration_field;
  guint64 multiplier;
  EtlGuid region_guid;
  gboolean endpoint_start;
  GArray *identifiers;
  guint line;
} EtlRegionEndpoint;

/**
 * EtlRegionPayloadPair:
 * @field_name: FieldName: the field of the Start (Match/Event) or of the
 *   child (Match/Parent, Match/SelfNest)
 * @target_field_name: (nullable): TargetFieldName: the field of the Stop or
 *   of the parent; %NULL when the same @field_name is meant
 */
typedef struct
{
  char *field_name;
  char *target_field_name;
} EtlRegionPayloadPair;

/**
 * EtlRegionMatch:
 * @present: the element was given
 * @tid: TID="true": same ThreadId
 * @pid: PID="true": same ProcessId
 * @aid: AID="true": same ActivityId
 * @payload: (element-type EtlRegionPayloadPair): the Payload elements
 * @line: line where the element begins
 *
 * One of Match's Event, Parent and SelfNest elements.
 */
typedef struct
{
  gboolean present;
  gboolean tid;
  gboolean pid;
  gboolean aid;
  GArray *payload;
  guint line;
} EtlRegionMatch;

/**
 * EtlRegionNamingKind:
 * @ETL_REGION_NAMING_NONE: instances take the region's name
 * @ETL_REGION_NAMING_PAYLOAD: PayloadBased: a payload field's value
 * @ETL_REGION_NAMING_REGION: RegionBased: IfRelationTrue or IfRelationFalse
 *   by whether the region RegionGuid has an instance (Relation IsPresent)
 */
typedef enum
{
  ETL_REGION_NAMING_NONE,
  ETL_REGION_NAMING_PAYLOAD,
  ETL_REGION_NAMING_REGION,
} EtlRegionNamingKind;

/**
 * EtlRegionInstanceEndpoint:
 * @ETL_REGION_INSTANCE_ENDPOINT_ANY: the Start's field, else the Stop's
 * @ETL_REGION_INSTANCE_ENDPOINT_START: the Start's field only
 * @ETL_REGION_INSTANCE_ENDPOINT_STOP: the Stop's field only
 *
 * PayloadBased's InstanceEndpoint.
 */
typedef enum
{
  ETL_REGION_INSTANCE_ENDPOINT_ANY,
  ETL_REGION_INSTANCE_ENDPOINT_START,
  ETL_REGION_INSTANCE_ENDPOINT_STOP,
} EtlRegionInstanceEndpoint;

/**
 * EtlRegionNaming:
 * @kind: #EtlRegionNamingKind
 * @name_field: PayloadBased NameField
 * @instance_endpoint: PayloadBased InstanceEndpoint
 * @type: (nullable): PayloadBased Type (Device, GUID, CLSID, PID: the
 *   mapping is not applied, the value is used as it is)
 * @region_guid: RegionBased RegionGuid
 * @if_true: RegionBased IfRelationTrue
 * @if_false: RegionBased IfRelationFalse
 * @line: line where the element begins
 */
typedef struct
{
  EtlRegionNamingKind kind;
  char *name_field;
  EtlRegionInstanceEndpoint instance_endpoint;
  char *type;
  EtlGuid region_guid;
  char *if_true;
  char *if_false;
  guint line;
} EtlRegionNaming;

/**
 * EtlRegionDef:
 * @guid: Guid
 * @name: Name (unique in the file by the schema; not checked)
 * @friendly_name: (nullable): FriendlyName
 * @root: index of its RegionRoot in #EtlRegionsFile.roots
 * @parent: index of the enclosing Region in #EtlRegionsFile.regions,
 *   %ETL_REGION_NONE directly under RegionRoot
 * @depth: 0 directly under RegionRoot, the parent's + 1 below it
 * @start: the starting point
 * @stop: the stopping point
 * @match_event: Match/Event: what Start and Stop must share
 * @match_parent: Match/Parent: what the child and its parent must share
 * @self_nest: Match/SelfNest
 * @naming: Naming
 * @has_filter: a Filter element was given (not applied: a warning says so)
 * @has_children: Region elements are nested in it
 * @matchable: etl_regions_match() forms its instances: both points are
 *   events, or one is a Duration and the other an Event of the same
 *   provider and Id, or neither is given and it has children (a container)
 * @line: line where the Region element begins
 *
 * One Region element.  The array is in document order, so a parent comes
 * before its children.
 */
typedef struct
{
  EtlGuid guid;
  char *name;
  char *friendly_name;
  guint root;
  guint parent;
  guint depth;
  EtlRegionEndpoint start;
  EtlRegionEndpoint stop;
  EtlRegionMatch match_event;
  EtlRegionMatch match_parent;
  EtlRegionMatch self_nest;
  EtlRegionNaming naming;
  gboolean has_filter;
  gboolean has_children;
  gboolean matchable;
  guint line;
} EtlRegionDef;

/**
 * EtlRegionRoot:
 * @guid: Guid
 * @name: (nullable): Name
 * @friendly_name: (nullable): FriendlyName
 * @line: line where the element begins
 */
typedef struct
{
  EtlGuid guid;
  char *name;
  char *friendly_name;
  guint line;
} EtlRegionRoot;

/**
 * EtlRegionsFile:
 * @origin: the file name messages use
 * @roots: (element-type EtlRegionRoot): the RegionRoot elements
 * @regions: (element-type EtlRegionDef): the Region elements in document
 *   order
 * @warnings: (element-type utf8): what was tolerated or left out, each
 *   "FILE:LINE: element: what" (at most %ETL_REGIONS_MAX_WARNINGS)
 * @n_warnings: warnings met (kept or not)
 *
 * A parsed Regions of Interest file (read-only).  Free with
 * etl_regions_file_free().
 */
typedef struct
{
  char *origin;
  GArray *roots;
  GArray *regions;
  GPtrArray *warnings;
  guint n_warnings;
} EtlRegionsFile;

GQuark etl_regions_file_error_quark (void);
EtlRegionsFile *etl_regions_file_parse (const char *data, gssize length, const char *origin, GError **error);
EtlRegionsFile *etl_regions_file_load (const char *path, GError **error);
void etl_regions_file_free (EtlRegionsFile *file);
const EtlRegionDef *etl_regions_file_find (const EtlRegionsFile *file, const EtlGuid *guid, guint *index);
const char *etl_region_def_display_name (const EtlRegionDef *def);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlRegionsFile, etl_regions_file_free)

G_END_DECLS
