/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-regions-file
 * @title: Regions of Interest files
 * @short_description: WPA's region definitions (XML) parsed with GMarkup
 *
 * A Regions of Interest file, as Microsoft's "Creating a Regions of
 * Interest File" (Windows Performance Toolkit documentation) describes it:
 *
 * |[
 * InstrumentationManifest ▸ Instrumentation ▸ Regions ▸ RegionRoot (Guid, Name, FriendlyName)
 *   ▸ Region (Guid, Name, FriendlyName), nested Regions below a Region
 *     ▸ Start, Stop ▸ Event (Provider, Id, Version[, Opcode])
 *                   | Duration (Provider, Id, Version, Duration, Multiplier)
 *                   | Region (RegionGuid, Endpoint)
 *                   + PayloadIdentifier (FieldName, FieldValue, FieldValueRelationship)*
 *     ▸ Match ▸ Event | Parent | SelfNest (TID, PID, AID) ▸ Payload (FieldName, TargetFieldName)*
 *     ▸ Naming ▸ PayloadBased (NameField, InstanceEndpoint, Type)
 *              | RegionBased (RegionGuid, Relation, IfRelationTrue, IfRelationFalse)
 *     ▸ Filter, Metadata
 * ]|
 *
 * Rules taken from the page: Region's Guid and Name are required,
 * FriendlyName optional; Event's Id is an unsigned short and Version an
 * unsigned char; PayloadIdentifier's FieldName and FieldValue are required
 * and FieldValueRelationship is IsEqual (default) or DoesNotContain;
 * Match/Event and Match/Parent take TID, PID and AID ="true" and Payload
 * children with FieldName and an optional TargetFieldName; PayloadBased
 * needs NameField, InstanceEndpoint is Start or Stop; RegionBased needs all
 * four attributes and Relation IsPresent is the only one; a region with
 * neither point is a container.  Opcode on Event is not on that page; it
 * is in public region files (TAEF's) and in the Filter element's list, and
 * is read as an unsigned char.  Two regions with one Guid are refused:
 * WPA does not load such a file (public scripts that write region files
 * make one file per provider because of it).
 *
 * What is tolerated (a warning "FILE:LINE: element: what" each, see
 * #EtlRegionsFile.warnings): unknown attributes (the Event's Name in
 * TAEF's files, namespace declarations are silently accepted); unknown
 * elements (their whole subtree is skipped); Metadata's content (free-form
 * by the page, skipped silently); Filter (read, not applied: the region's
 * instances are not filtered); PayloadBased's Type (the value is used as
 * it is, not mapped to a device or process name).  Left out of matching
 * (#EtlRegionDef.matchable is %FALSE, with a warning naming the element
 * and line): regions whose points are Region elements, a Duration point
 * unless the other point is an Event of the same provider and Id (the
 * page's "single stop event with a duration payload field"), and regions
 * with only one of the two points.
 *
 * The document is parsed in one pass; the nesting of elements is bounded
 * by %ETL_REGIONS_MAX_DEPTH, the regions by %ETL_REGIONS_MAX_REGIONS, the
 * identifiers of one point or match by %ETL_REGIONS_MAX_IDENTIFIERS, an
 * attribute by %ETL_REGIONS_MAX_STRING bytes and the file by
 * %ETL_REGIONS_MAX_BYTES: a hostile file ends with
 * %ETL_REGIONS_FILE_ERROR_LIMIT naming the line.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-regions-file.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

G_DEFINE_QUARK (etl-regions-file-error-quark, etl_regions_file_error)

typedef enum
{
  K_MANIFEST,
  K_INSTRUMENTATION,
  K_REGIONS,
  K_ROOT,
  K_REGION,
  K_START,
  K_STOP,
  K_EP_EVENT,
  K_EP_DURATION,
  K_EP_REGION,
  K_PAYLOAD_ID,
  K_MATCH,
  K_MATCH_EVENT,
  K_MATCH_PARENT,
  K_MATCH_SELF_NEST,
  K_MATCH_PAYLOAD,
  K_NAMING,
  K_PAYLOAD_BASED,
  K_REGION_BASED,
  K_SKIP, /* an unknown element, Metadata or Filter: the subtree is skipped */
} Kind;

typedef struct
{
  Kind kind;
  guint region; /* K_REGION: its index */
} Frame;

typedef struct
{
  GMarkupParseContext *context;
  EtlRegionsFile *file;
  Frame stack[ETL_REGIONS_MAX_DEPTH];
  guint depth;
  guint skip; /* > 0: inside a skipped subtree, its depth */
  GHashTable *guids; /* EtlGuid (owned copy) of every region → index + 1 */
  const char *data;  /* the document, for the lines of tags */
  gsize len;
  gsize cur_off;     /* a cursor that follows GMarkup's position */
  gint cur_line;
  gint cur_char;
} Parser;

/* ------------------------------------------------------------------------ */

static void
endpoint_clear (EtlRegionEndpoint *e)
{
  g_free (e->duration_field);
  if (e->identifiers != NULL)
    {
      for (guint i = 0; i < e->identifiers->len; i++)
        {
          EtlRegionPayloadIdentifier *id = &g_array_index (e->identifiers, EtlRegionPayloadIdentifier, i);

          g_free (id->field_name);
          g_free (id->field_value);
        }
      g_array_unref (e->identifiers);
    }
}

static void
match_clear (EtlRegionMatch *m)
{
  if (m->payload == NULL)
    return;
  for (guint i = 0; i < m->payload->len; i++)
    {
      EtlRegionPayloadPair *pp = &g_array_index (m->payload, EtlRegionPayloadPair, i);

      g_free (pp->field_name);
      g_free (pp->target_field_name);
    }
  g_array_unref (m->payload);
}

static void
region_clear (EtlRegionDef *r)
{
  g_free (r->name);
  g_free (r->friendly_name);
  endpoint_clear (&r->start);
  endpoint_clear (&r->stop);
  match_clear (&r->match_event);
  match_clear (&r->match_parent);
  match_clear (&r->self_nest);
  g_free (r->naming.name_field);
  g_free (r->naming.type);
  g_free (r->naming.if_true);
  g_free (r->naming.if_false);
}

/**
 * etl_regions_file_free:
 * @file: (transfer full) (nullable): a parsed file
 */
void
etl_regions_file_free (EtlRegionsFile *file)
{
  if (file == NULL)
    return;
  for (guint i = 0; i < file->regions->len; i++)
    region_clear (&g_array_index (file->regions, EtlRegionDef, i));
  for (guint i = 0; i < file->roots->len; i++)
    {
      EtlRegionRoot *root = &g_array_index (file->roots, EtlRegionRoot, i);

      g_free (root->name);
      g_free (root->friendly_name);
    }
  g_array_unref (file->regions);
  g_array_unref (file->roots);
  g_ptr_array_unref (file->warnings);
  g_free (file->origin);
  g_free (file);
}

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

/*
 * The line (and column) of the tag being reported.  In the callbacks,
 * GMarkup's position is the character after the tag's '>' (the next line
 * when a newline follows); the tag starts at the '<' before it ('<' cannot
 * occur in attribute values).  A cursor follows GMarkup's line and
 * character numbers (a '\n' is the first character of the line it begins,
 * characters are UTF-8 sequences, which GMarkup has validated up to there)
 * forward through the document, so the positions of all tags cost one
 * pass.
 */
static guint
current_line (Parser *p, gint *col)
{
  gint line = 0, c = 0;
  gsize off, lt;
  guint back = 0;

  g_markup_parse_context_get_position (p->context, &line, &c);
  /* GMarkup numbers a '\n' as character 1 of the line it begins. */
  while (p->cur_off < p->len && (p->cur_line < line || (p->cur_line == line && p->cur_char < c)))
    {
      p->cur_off = MIN ((gsize) (g_utf8_next_char (p->data + p->cur_off) - p->data), p->len);
      p->cur_char++;
      if (p->cur_off < p->len && p->data[p->cur_off] == '\n')
        {
          p->cur_line++;
          p->cur_char = 1;
        }
    }
  off = MIN (p->cur_off, p->len);
  /* A '\n' under the cursor opens the line GMarkup gave: the tag is above. */
  if (off < p->len && p->data[off] == '\n')
    back++;
  for (lt = off; lt > 0 && p->data[lt - 1] != '<'; lt--)
    if (p->data[lt - 1] == '\n')
      back++;
  if (lt == 0 || (gint) back >= line)
    {
      if (col != NULL)
        *col = c;
      return (guint) line;
    }
  lt--; /* the '<' */
  if (col != NULL)
    {
      gsize ls = lt;

      while (ls > 0 && p->data[ls - 1] != '\n')
        ls--;
      *col = (gint) g_utf8_strlen (p->data + ls, (gssize) (lt - ls)) + 1;
    }
  return (guint) (line - (gint) back);
}

G_GNUC_PRINTF (4, 5)
static void
fail (Parser *p, GError **error, EtlRegionsFileError code, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;
  gint col;
  guint line = current_line (p, &col);

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, ETL_REGIONS_FILE_ERROR, code, "%s:%u:%d: %s", p->file->origin, line, col, reason);
}

G_GNUC_PRINTF (2, 3)
static void
warn (Parser *p, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  p->file->n_warnings++;
  if (p->file->warnings->len >= ETL_REGIONS_MAX_WARNINGS)
    return;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (p->file->warnings, g_strdup_printf ("%s:%u: %s", p->file->origin, current_line (p, NULL), what));
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                               */

typedef struct
{
  const char *name;
  gboolean required;
  const char *value; /* out */
} Attr;

/* Fills @attrs from the element's attributes; unknown ones warn. */
static gboolean
collect (Parser *p, const char *element, const char **names, const char **values, Attr *attrs, guint n_attrs,
         GError **error)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      gboolean known = FALSE;

      if (strlen (values[i]) > ETL_REGIONS_MAX_STRING)
        {
          fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "%s: attribute %s is longer than %u bytes", element,
                names[i], ETL_REGIONS_MAX_STRING);
          return FALSE;
        }
      for (guint k = 0; k < n_attrs; k++)
        if (strcmp (names[i], attrs[k].name) == 0)
          {
            if (attrs[k].value == NULL)
              attrs[k].value = values[i];
            known = TRUE;
          }
      if (!known && strcmp (names[i], "xmlns") != 0 && !g_str_has_prefix (names[i], "xmlns:")
          && !g_str_has_prefix (names[i], "xml:"))
        warn (p, "%s: unknown attribute %s ignored", element, names[i]);
    }
  for (guint k = 0; k < n_attrs; k++)
    if (attrs[k].required && attrs[k].value == NULL)
      {
        fail (p, error, ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE, "%s: the %s attribute is missing", element,
              attrs[k].name);
        return FALSE;
      }
  return TRUE;
}

static gboolean
parse_guid (Parser *p, const char *element, const char *attr, const char *value, EtlGuid *out, GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (value));

  if (!etl_guid_parse (trimmed, out))
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE, "%s: %s \"%s\" is not a GUID", element, attr, value);
      return FALSE;
    }
  return TRUE;
}

/* A decimal (or 0x-prefixed hexadecimal) number in [0, max]. */
static gboolean
parse_uint (Parser *p, const char *element, const char *attr, const char *value, guint64 max, guint64 *out,
            GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (value));
  gboolean hex = g_str_has_prefix (trimmed, "0x") || g_str_has_prefix (trimmed, "0X");

  if (!g_ascii_string_to_unsigned (hex ? trimmed + 2 : trimmed, hex ? 16 : 10, 0, max, out, NULL))
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE, "%s: %s \"%s\" is not a number from 0 to %" G_GUINT64_FORMAT,
            element, attr, value, max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_bool (Parser *p, const char *element, const char *attr, const char *value, gboolean *out, GError **error)
{
  if (value == NULL)
    {
      *out = FALSE;
      return TRUE;
    }
  if (g_ascii_strcasecmp (value, "true") == 0 || strcmp (value, "1") == 0)
    *out = TRUE;
  else if (g_ascii_strcasecmp (value, "false") == 0 || strcmp (value, "0") == 0)
    *out = FALSE;
  else
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE, "%s: %s \"%s\" is neither true nor false", element, attr,
            value);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Elements                                                                 */

static EtlRegionDef *
current_region (Parser *p)
{
  for (guint i = p->depth; i-- > 0;)
    if (p->stack[i].kind == K_REGION)
      return &g_array_index (p->file->regions, EtlRegionDef, p->stack[i].region);
  g_assert_not_reached ();
  return NULL;
}

static EtlRegionEndpoint *
current_endpoint (Parser *p)
{
  EtlRegionDef *r = current_region (p);

  return p->stack[p->depth - 1].kind == K_START ? &r->start : &r->stop;
}

static EtlRegionMatch *
current_match (Parser *p)
{
  EtlRegionDef *r = current_region (p);

  switch (p->stack[p->depth - 1].kind)
    {
    case K_MATCH_EVENT:
      return &r->match_event;
    case K_MATCH_PARENT:
      return &r->match_parent;
    default:
      return &r->self_nest;
    }
}

static gboolean
start_root (Parser *p, const char **names, const char **values, GError **error)
{
  Attr a[] = { { "Guid", TRUE, NULL }, { "Name", FALSE, NULL }, { "FriendlyName", FALSE, NULL } };
  EtlRegionRoot root = { 0 };

  if (!collect (p, "RegionRoot", names, values, a, G_N_ELEMENTS (a), error)
      || !parse_guid (p, "RegionRoot", "Guid", a[0].value, &root.guid, error))
    return FALSE;
  if (p->file->roots->len + p->file->regions->len >= ETL_REGIONS_MAX_REGIONS)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "RegionRoot: more than %u regions", ETL_REGIONS_MAX_REGIONS);
      return FALSE;
    }
  root.name = g_strdup (a[1].value);
  root.friendly_name = g_strdup (a[2].value);
  root.line = current_line (p, NULL);
  g_array_append_val (p->file->roots, root);
  return TRUE;
}

static gboolean
start_region (Parser *p, const char **names, const char **values, GError **error)
{
  Attr a[] = { { "Guid", TRUE, NULL }, { "Name", TRUE, NULL }, { "FriendlyName", FALSE, NULL } };
  EtlRegionDef r = { 0 };
  gpointer seen;
  guint index = p->file->regions->len;
  const Frame *up = &p->stack[p->depth - 1];

  if (!collect (p, "Region", names, values, a, G_N_ELEMENTS (a), error)
      || !parse_guid (p, "Region", "Guid", a[0].value, &r.guid, error))
    return FALSE;
  if (p->file->roots->len + p->file->regions->len >= ETL_REGIONS_MAX_REGIONS)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "Region: more than %u regions", ETL_REGIONS_MAX_REGIONS);
      return FALSE;
    }
  seen = g_hash_table_lookup (p->guids, &r.guid);
  if (seen != NULL)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "Region: Guid %s is already the Guid of the region on line %u",
            a[0].value, g_array_index (p->file->regions, EtlRegionDef, GPOINTER_TO_UINT (seen) - 1).line);
      return FALSE;
    }
  r.name = g_strdup (a[1].value);
  r.friendly_name = g_strdup (a[2].value);
  r.root = p->file->roots->len - 1;
  r.parent = ETL_REGION_NONE;
  if (up->kind == K_REGION)
    {
      EtlRegionDef *parent = &g_array_index (p->file->regions, EtlRegionDef, up->region);

      parent->has_children = TRUE;
      r.parent = up->region;
      r.depth = parent->depth + 1;
    }
  r.start.identifiers = g_array_new (FALSE, TRUE, sizeof (EtlRegionPayloadIdentifier));
  r.stop.identifiers = g_array_new (FALSE, TRUE, sizeof (EtlRegionPayloadIdentifier));
  r.start.multiplier = r.stop.multiplier = 1;
  r.match_event.payload = g_array_new (FALSE, TRUE, sizeof (EtlRegionPayloadPair));
  r.match_parent.payload = g_array_new (FALSE, TRUE, sizeof (EtlRegionPayloadPair));
  r.self_nest.payload = g_array_new (FALSE, TRUE, sizeof (EtlRegionPayloadPair));
  r.line = current_line (p, NULL);
  g_array_append_val (p->file->regions, r);
  g_hash_table_insert (p->guids, g_memdup2 (&r.guid, sizeof r.guid), GUINT_TO_POINTER (index + 1));
  p->stack[p->depth].region = index;
  return TRUE;
}

/* Start or Stop's Event, Duration or Region: one of them per point. */
static gboolean
start_endpoint_source (Parser *p, Kind kind, const char *element, const char **names, const char **values,
                       GError **error)
{
  EtlRegionEndpoint *e = current_endpoint (p);
  const char *point = p->stack[p->depth - 1].kind == K_START ? "Start" : "Stop";
  guint64 v;

  if (e->kind != ETL_REGION_ENDPOINT_NONE)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "%s: a second Event, Duration or Region in one %s", element,
            point);
      return FALSE;
    }
  if (kind == K_EP_EVENT)
    {
      Attr a[] = { { "Provider", TRUE, NULL }, { "Id", TRUE, NULL }, { "Version", FALSE, NULL },
                   { "Opcode", FALSE, NULL } };

      if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error)
          || !parse_guid (p, element, "Provider", a[0].value, &e->provider, error)
          || !parse_uint (p, element, "Id", a[1].value, G_MAXUINT16, &v, error))
        return FALSE;
      e->id = (guint16) v;
      if (a[2].value != NULL)
        {
          if (!parse_uint (p, element, "Version", a[2].value, G_MAXUINT8, &v, error))
            return FALSE;
          e->has_version = TRUE;
          e->version = (guint8) v;
        }
      if (a[3].value != NULL)
        {
          if (!parse_uint (p, element, "Opcode", a[3].value, G_MAXUINT8, &v, error))
            return FALSE;
          e->has_opcode = TRUE;
          e->opcode = (guint8) v;
        }
      e->kind = ETL_REGION_ENDPOINT_EVENT;
    }
  else if (kind == K_EP_DURATION)
    {
      Attr a[] = { { "Provider", TRUE, NULL }, { "Id", TRUE, NULL }, { "Version", FALSE, NULL },
                   { "Duration", TRUE, NULL }, { "Multiplier", FALSE, NULL } };

      if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error)
          || !parse_guid (p, element, "Provider", a[0].value, &e->provider, error)
          || !parse_uint (p, element, "Id", a[1].value, G_MAXUINT16, &v, error))
        return FALSE;
      e->id = (guint16) v;
      if (a[2].value != NULL)
        {
          if (!parse_uint (p, element, "Version", a[2].value, G_MAXUINT8, &v, error))
            return FALSE;
          e->has_version = TRUE;
          e->version = (guint8) v;
        }
      if (a[4].value != NULL && !parse_uint (p, element, "Multiplier", a[4].value, G_MAXUINT64, &e->multiplier, error))
        return FALSE;
      e->duration_field = g_strdup (a[3].value);
      e->kind = ETL_REGION_ENDPOINT_DURATION;
    }
  else
    {
      Attr a[] = { { "RegionGuid", TRUE, NULL }, { "Endpoint", FALSE, NULL } };

      if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error)
          || !parse_guid (p, element, "RegionGuid", a[0].value, &e->region_guid, error))
        return FALSE;
      /* The default: a start at the other region's stop, a stop at its start. */
      e->endpoint_start = p->stack[p->depth - 1].kind == K_STOP;
      if (a[1].value != NULL)
        {
          if (strcmp (a[1].value, "Start") == 0)
            e->endpoint_start = TRUE;
          else if (strcmp (a[1].value, "Stop") == 0)
            e->endpoint_start = FALSE;
          else
            {
              fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE, "%s: Endpoint \"%s\" is neither Start nor Stop",
                    element, a[1].value);
              return FALSE;
            }
        }
      e->kind = ETL_REGION_ENDPOINT_REGION;
    }
  return TRUE;
}

static gboolean
start_payload_identifier (Parser *p, const char **names, const char **values, GError **error)
{
  Attr a[] = { { "FieldName", TRUE, NULL }, { "FieldValue", TRUE, NULL }, { "FieldValueRelationship", FALSE, NULL } };
  EtlRegionEndpoint *e = current_endpoint (p);
  EtlRegionPayloadIdentifier id = { 0 };

  if (!collect (p, "PayloadIdentifier", names, values, a, G_N_ELEMENTS (a), error))
    return FALSE;
  if (e->identifiers->len >= ETL_REGIONS_MAX_IDENTIFIERS)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "PayloadIdentifier: more than %u in one point",
            ETL_REGIONS_MAX_IDENTIFIERS);
      return FALSE;
    }
  if (a[2].value == NULL || strcmp (a[2].value, "IsEqual") == 0)
    id.relationship = ETL_REGION_IS_EQUAL;
  else if (strcmp (a[2].value, "DoesNotContain") == 0)
    id.relationship = ETL_REGION_DOES_NOT_CONTAIN;
  else
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE,
            "PayloadIdentifier: FieldValueRelationship \"%s\" is neither IsEqual nor DoesNotContain", a[2].value);
      return FALSE;
    }
  id.field_name = g_strdup (a[0].value);
  id.field_value = g_strdup (a[1].value);
  id.line = current_line (p, NULL);
  g_array_append_val (e->identifiers, id);
  return TRUE;
}

static gboolean
start_match_item (Parser *p, Kind kind, const char *element, const char **names, const char **values,
                  GError **error)
{
  Attr a[] = { { "TID", FALSE, NULL }, { "PID", FALSE, NULL }, { "AID", FALSE, NULL } };
  EtlRegionDef *r = current_region (p);
  EtlRegionMatch *m = kind == K_MATCH_EVENT ? &r->match_event : kind == K_MATCH_PARENT ? &r->match_parent
                                                                                       : &r->self_nest;

  if (m->present)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "%s: a second %s in one region's Match", element, element);
      return FALSE;
    }
  if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error)
      || !parse_bool (p, element, "TID", a[0].value, &m->tid, error)
      || !parse_bool (p, element, "PID", a[1].value, &m->pid, error)
      || !parse_bool (p, element, "AID", a[2].value, &m->aid, error))
    return FALSE;
  m->present = TRUE;
  m->line = current_line (p, NULL);
  return TRUE;
}

static gboolean
start_match_payload (Parser *p, const char **names, const char **values, GError **error)
{
  Attr a[] = { { "FieldName", TRUE, NULL }, { "TargetFieldName", FALSE, NULL } };
  EtlRegionMatch *m = current_match (p);
  EtlRegionPayloadPair pp;

  if (!collect (p, "Payload", names, values, a, G_N_ELEMENTS (a), error))
    return FALSE;
  if (m->payload->len >= ETL_REGIONS_MAX_IDENTIFIERS)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "Payload: more than %u in one match",
            ETL_REGIONS_MAX_IDENTIFIERS);
      return FALSE;
    }
  pp.field_name = g_strdup (a[0].value);
  pp.target_field_name = g_strdup (a[1].value);
  g_array_append_val (m->payload, pp);
  return TRUE;
}

static gboolean
start_naming_item (Parser *p, Kind kind, const char **names, const char **values, GError **error)
{
  EtlRegionDef *r = current_region (p);
  EtlRegionNaming *n = &r->naming;
  const char *element = kind == K_PAYLOAD_BASED ? "PayloadBased" : "RegionBased";

  if (n->kind != ETL_REGION_NAMING_NONE)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "%s: a second naming rule in one Naming", element);
      return FALSE;
    }
  if (kind == K_PAYLOAD_BASED)
    {
      Attr a[] = { { "NameField", TRUE, NULL }, { "InstanceEndpoint", FALSE, NULL }, { "Type", FALSE, NULL } };

      if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error))
        return FALSE;
      if (a[1].value == NULL)
        n->instance_endpoint = ETL_REGION_INSTANCE_ENDPOINT_ANY;
      else if (strcmp (a[1].value, "Start") == 0)
        n->instance_endpoint = ETL_REGION_INSTANCE_ENDPOINT_START;
      else if (strcmp (a[1].value, "Stop") == 0)
        n->instance_endpoint = ETL_REGION_INSTANCE_ENDPOINT_STOP;
      else
        {
          fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE,
                "PayloadBased: InstanceEndpoint \"%s\" is neither Start nor Stop", a[1].value);
          return FALSE;
        }
      if (a[2].value != NULL)
        {
          if (strcmp (a[2].value, "Device") != 0 && strcmp (a[2].value, "GUID") != 0
              && strcmp (a[2].value, "CLSID") != 0 && strcmp (a[2].value, "PID") != 0)
            {
              fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE,
                    "PayloadBased: Type \"%s\" is none of Device, GUID, CLSID, PID", a[2].value);
              return FALSE;
            }
          warn (p, "PayloadBased: Type %s is not applied: instances are named by the field's value", a[2].value);
        }
      n->name_field = g_strdup (a[0].value);
      n->type = g_strdup (a[2].value);
      n->kind = ETL_REGION_NAMING_PAYLOAD;
    }
  else
    {
      Attr a[] = { { "RegionGuid", TRUE, NULL }, { "Relation", TRUE, NULL }, { "IfRelationTrue", TRUE, NULL },
                   { "IfRelationFalse", TRUE, NULL } };

      if (!collect (p, element, names, values, a, G_N_ELEMENTS (a), error)
          || !parse_guid (p, element, "RegionGuid", a[0].value, &n->region_guid, error))
        return FALSE;
      if (strcmp (a[1].value, "IsPresent") != 0)
        {
          fail (p, error, ETL_REGIONS_FILE_ERROR_BAD_VALUE, "RegionBased: Relation \"%s\" is not IsPresent",
                a[1].value);
          return FALSE;
        }
      n->if_true = g_strdup (a[2].value);
      n->if_false = g_strdup (a[3].value);
      n->kind = ETL_REGION_NAMING_REGION;
    }
  n->line = current_line (p, NULL);
  return TRUE;
}

/* The element's kind in the context of its parent; K_SKIP for an unknown
 * element (warned) and Metadata/Filter; -1 for a known element out of
 * place. */
static int
classify (Parser *p, const char *element)
{
  Kind up = p->stack[p->depth - 1].kind;

  switch (up)
    {
    case K_MANIFEST:
      return strcmp (element, "Instrumentation") == 0 ? K_INSTRUMENTATION : K_SKIP;
    case K_INSTRUMENTATION:
      return strcmp (element, "Regions") == 0 ? K_REGIONS : K_SKIP;
    case K_REGIONS:
      return strcmp (element, "RegionRoot") == 0 ? K_ROOT : K_SKIP;
    case K_ROOT:
      return strcmp (element, "Region") == 0 ? K_REGION : K_SKIP;
    case K_REGION:
      if (strcmp (element, "Region") == 0)
        return K_REGION;
      if (strcmp (element, "Start") == 0)
        return K_START;
      if (strcmp (element, "Stop") == 0)
        return K_STOP;
      if (strcmp (element, "Match") == 0)
        return K_MATCH;
      if (strcmp (element, "Naming") == 0)
        return K_NAMING;
      if (strcmp (element, "Event") == 0 || strcmp (element, "PayloadIdentifier") == 0)
        return -1;
      return K_SKIP;
    case K_START:
    case K_STOP:
      if (strcmp (element, "Event") == 0)
        return K_EP_EVENT;
      if (strcmp (element, "Duration") == 0)
        return K_EP_DURATION;
      if (strcmp (element, "Region") == 0)
        return K_EP_REGION;
      if (strcmp (element, "PayloadIdentifier") == 0)
        return K_PAYLOAD_ID;
      return K_SKIP;
    case K_MATCH:
      if (strcmp (element, "Event") == 0)
        return K_MATCH_EVENT;
      if (strcmp (element, "Parent") == 0)
        return K_MATCH_PARENT;
      if (strcmp (element, "SelfNest") == 0)
        return K_MATCH_SELF_NEST;
      return K_SKIP;
    case K_MATCH_EVENT:
    case K_MATCH_PARENT:
    case K_MATCH_SELF_NEST:
      return strcmp (element, "Payload") == 0 ? K_MATCH_PAYLOAD : K_SKIP;
    case K_NAMING:
      if (strcmp (element, "PayloadBased") == 0)
        return K_PAYLOAD_BASED;
      if (strcmp (element, "RegionBased") == 0)
        return K_REGION_BASED;
      return K_SKIP;
    case K_EP_EVENT:
    case K_EP_DURATION:
    case K_EP_REGION:
    case K_PAYLOAD_ID:
    case K_MATCH_PAYLOAD:
    case K_PAYLOAD_BASED:
    case K_REGION_BASED:
    case K_SKIP:
    default:
      return K_SKIP;
    }
}

static void
on_start_element (GMarkupParseContext *context, const char *element, const char **names, const char **values,
                  gpointer user_data, GError **error)
{
  Parser *p = user_data;
  int kind;
  gboolean ok = TRUE;

  (void) context;
  if (p->depth >= ETL_REGIONS_MAX_DEPTH)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_LIMIT, "%s: elements nested deeper than %u", element,
            ETL_REGIONS_MAX_DEPTH);
      return;
    }
  if (p->skip > 0)
    {
      p->stack[p->depth++].kind = K_SKIP;
      return;
    }
  if (p->depth == 0)
    {
      if (strcmp (element, "InstrumentationManifest") != 0)
        {
          fail (p, error, ETL_REGIONS_FILE_ERROR_ROOT,
                "%s: the root element is not InstrumentationManifest: not a Regions of Interest file", element);
          return;
        }
      p->stack[p->depth++].kind = K_MANIFEST;
      return;
    }
  kind = classify (p, element);
  if (kind < 0)
    {
      fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "%s: not allowed directly inside %s", element,
            (const char *) g_markup_parse_context_get_element_stack (context)->next->data);
      return;
    }
  switch ((Kind) kind)
    {
    case K_ROOT:
      ok = start_root (p, names, values, error);
      break;
    case K_REGION:
      ok = start_region (p, names, values, error);
      break;
    case K_START:
    case K_STOP:
      {
        EtlRegionDef *r = current_region (p);
        EtlRegionEndpoint *e = kind == K_START ? &r->start : &r->stop;

        if (e->line != 0)
          {
            fail (p, error, ETL_REGIONS_FILE_ERROR_INVALID, "%s: a second %s in one region", element, element);
            return;
          }
        e->line = current_line (p, NULL);
        break;
      }
    case K_EP_EVENT:
    case K_EP_DURATION:
    case K_EP_REGION:
      ok = start_endpoint_source (p, (Kind) kind, element, names, values, error);
      break;
    case K_PAYLOAD_ID:
      ok = start_payload_identifier (p, names, values, error);
      break;
    case K_MATCH_EVENT:
    case K_MATCH_PARENT:
    case K_MATCH_SELF_NEST:
      ok = start_match_item (p, (Kind) kind, element, names, values, error);
      break;
    case K_MATCH_PAYLOAD:
      ok = start_match_payload (p, names, values, error);
      break;
    case K_PAYLOAD_BASED:
    case K_REGION_BASED:
      ok = start_naming_item (p, (Kind) kind, names, values, error);
      break;
    case K_SKIP:
      if (strcmp (element, "Filter") == 0 && p->stack[p->depth - 1].kind == K_REGION)
        {
          current_region (p)->has_filter = TRUE;
          warn (p, "Filter: not applied: the region's instances are not filtered");
        }
      else if (strcmp (element, "Metadata") != 0 || p->stack[p->depth - 1].kind != K_REGION)
        warn (p, "%s: unknown element inside %s skipped", element,
              (const char *) g_markup_parse_context_get_element_stack (context)->next->data);
      p->skip = p->depth + 1;
      break;
    case K_MANIFEST:
    case K_INSTRUMENTATION:
    case K_REGIONS:
    case K_MATCH:
    case K_NAMING:
    default:
      break;
    }
  if (!ok)
    return;
  p->stack[p->depth].kind = (Kind) kind;
  p->depth++;
}

/* Checks a region once its element is closed; warns what is not matched. */
static void
end_region (Parser *p, EtlRegionDef *r)
{
  EtlRegionEndpointKind a = r->start.kind, b = r->stop.kind;

  if (a == ETL_REGION_ENDPOINT_EVENT && b == ETL_REGION_ENDPOINT_EVENT)
    r->matchable = TRUE;
  else if ((a == ETL_REGION_ENDPOINT_DURATION && b == ETL_REGION_ENDPOINT_EVENT)
           || (a == ETL_REGION_ENDPOINT_EVENT && b == ETL_REGION_ENDPOINT_DURATION))
    {
      /* One event gives the point and the duration: the form the page
       * describes ("a single stop event with a duration payload field"). */
      r->matchable = etl_guid_equal (&r->start.provider, &r->stop.provider) && r->start.id == r->stop.id;
      if (!r->matchable)
        warn (p, "Region %s (line %u): a Duration point is matched only with an Event of the same provider and Id "
                 "at the other point: the region has no instances", r->name, r->line);
    }
  else if (a == ETL_REGION_ENDPOINT_NONE && b == ETL_REGION_ENDPOINT_NONE)
    {
      r->matchable = r->has_children;
      if (!r->has_children)
        warn (p, "Region %s: neither Start nor Stop nor nested regions: no instances", r->name);
    }
  else if (a == ETL_REGION_ENDPOINT_DURATION || b == ETL_REGION_ENDPOINT_DURATION)
    warn (p, "Region %s (line %u): a Duration point is matched only with an Event of the same provider and Id "
             "at the other point: the region has no instances", r->name, r->line);
  else if (a == ETL_REGION_ENDPOINT_REGION || b == ETL_REGION_ENDPOINT_REGION)
    warn (p, "Region %s (line %u): points defined by other regions are not matched: the region has no instances",
          r->name, r->line);
  else
    warn (p, "Region %s (line %u): only one of Start and Stop: the region has no instances", r->name, r->line);
  if ((r->start.kind != ETL_REGION_ENDPOINT_NONE || r->stop.kind != ETL_REGION_ENDPOINT_NONE)
      && (r->start.line == 0 || r->stop.line == 0) && r->matchable)
    r->matchable = FALSE;
  if (r->start.line != 0 && r->start.kind == ETL_REGION_ENDPOINT_NONE)
    warn (p, "Region %s (line %u): Start without Event, Duration or Region", r->name, r->start.line);
  if (r->stop.line != 0 && r->stop.kind == ETL_REGION_ENDPOINT_NONE)
    warn (p, "Region %s (line %u): Stop without Event, Duration or Region", r->name, r->stop.line);
}

static void
on_end_element (GMarkupParseContext *context, const char *element, gpointer user_data, GError **error)
{
  Parser *p = user_data;
  Frame *f;

  (void) context;
  (void) element;
  (void) error;
  g_assert (p->depth > 0);
  f = &p->stack[--p->depth];
  if (p->skip > 0)
    {
      if (p->depth + 1 == p->skip)
        p->skip = 0;
      return;
    }
  if (f->kind == K_REGION)
    end_region (p, &g_array_index (p->file->regions, EtlRegionDef, f->region));
}

static const GMarkupParser markup_parser = {
  on_start_element, on_end_element, NULL, NULL, NULL,
};

/* Warns references to regions the file does not define. */
static void
check_references (Parser *p)
{
  for (guint i = 0; i < p->file->regions->len; i++)
    {
      EtlRegionDef *r = &g_array_index (p->file->regions, EtlRegionDef, i);
      char guid[ETL_GUID_STRING_LEN + 1];

      if (r->naming.kind == ETL_REGION_NAMING_REGION && !g_hash_table_contains (p->guids, &r->naming.region_guid))
        {
          etl_guid_to_string (&r->naming.region_guid, guid);
          p->file->n_warnings++;
          if (p->file->warnings->len < ETL_REGIONS_MAX_WARNINGS)
            g_ptr_array_add (p->file->warnings,
                             g_strdup_printf ("%s:%u: RegionBased: RegionGuid {%s} names no region of the file: "
                                              "instances of %s are named %s",
                                              p->file->origin, r->naming.line, guid, r->name, r->naming.if_false));
        }
    }
}

/**
 * etl_regions_file_parse:
 * @data: the file's bytes (UTF-8 XML)
 * @length: bytes in @data, or -1 when NUL-terminated
 * @origin: the name messages give the file
 * @error: return location for a #GError
 *
 * Parses a Regions of Interest file (see the section overview for the
 * schema, what is tolerated and the bounds).
 *
 * Returns: (transfer full) (nullable): the definitions; %NULL with @error
 *   in %ETL_REGIONS_FILE_ERROR ("ORIGIN:LINE:COLUMN: reason"):
 *   %ETL_REGIONS_FILE_ERROR_SYNTAX for XML that is not well-formed,
 *   %ETL_REGIONS_FILE_ERROR_ROOT, %ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE,
 *   %ETL_REGIONS_FILE_ERROR_BAD_VALUE, %ETL_REGIONS_FILE_ERROR_INVALID or
 *   %ETL_REGIONS_FILE_ERROR_LIMIT
 */
EtlRegionsFile *
etl_regions_file_parse (const char *data, gssize length, const char *origin, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  Parser p = { 0 };
  gsize n;
  gboolean ok;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (origin != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = length < 0 ? strlen (data) : (gsize) length;
  if (n > ETL_REGIONS_MAX_BYTES)
    {
      g_set_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT,
                   "%s:1:1: %" G_GSIZE_FORMAT " bytes, more than the %u a regions file may have", origin, n,
                   ETL_REGIONS_MAX_BYTES);
      return NULL;
    }
  p.file = g_new0 (EtlRegionsFile, 1);
  p.file->origin = g_strdup (origin);
  p.file->roots = g_array_new (FALSE, TRUE, sizeof (EtlRegionRoot));
  p.file->regions = g_array_new (FALSE, TRUE, sizeof (EtlRegionDef));
  p.file->warnings = g_ptr_array_new_with_free_func (g_free);
  p.guids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  p.data = n > 0 ? data : "";
  p.len = n;
  p.cur_line = 1;
  p.cur_char = 1;
  p.context = g_markup_parse_context_new (&markup_parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &p, NULL);

  ok = g_markup_parse_context_parse (p.context, n > 0 ? data : "", (gssize) n, &local_error)
       && g_markup_parse_context_end_parse (p.context, &local_error);
  if (!ok)
    {
      if (local_error == NULL || local_error->domain == G_MARKUP_ERROR)
        {
          const char *msg = local_error != NULL ? local_error->message : "the file is empty";
          gint line = 1, col = 1;

          /* GMarkup's messages start with "Error on line N char M: ". */
          if (g_str_has_prefix (msg, "Error on line "))
            {
              const char *colon = strstr (msg, ": ");

              if (colon != NULL)
                msg = colon + 2;
            }
          g_markup_parse_context_get_position (p.context, &line, &col);
          g_set_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_SYNTAX, "%s:%d:%d: not well-formed XML: %s",
                       origin, line, col, msg);
        }
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      g_markup_parse_context_free (p.context);
      g_hash_table_unref (p.guids);
      etl_regions_file_free (p.file);
      return NULL;
    }
  check_references (&p);
  if (p.file->regions->len == 0)
    {
      p.file->n_warnings++;
      g_ptr_array_add (p.file->warnings, g_strdup_printf ("%s: no Region element: nothing to match", origin));
    }
  g_markup_parse_context_free (p.context);
  g_hash_table_unref (p.guids);
  return p.file;
}

/**
 * etl_regions_file_load:
 * @path: a Regions of Interest file (at most %ETL_REGIONS_MAX_BYTES)
 * @error: return location for a #GError
 *
 * Reads @path and parses it with etl_regions_file_parse(), @path naming
 * it in messages.
 *
 * Returns: (transfer full) (nullable): the definitions; %NULL with @error:
 *   %ETL_REGIONS_FILE_ERROR_READ when @path cannot be read or is not a
 *   regular file, %ETL_REGIONS_FILE_ERROR_LIMIT when it is too large, else
 *   as etl_regions_file_parse()
 */
EtlRegionsFile *
etl_regions_file_load (const char *path, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  GStatBuf st;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_READ, "%s: %s", path,
                   g_stat (path, &st) != 0 ? g_strerror (errno) : "not a regular file");
      return NULL;
    }
  if ((guint64) st.st_size > ETL_REGIONS_MAX_BYTES)
    {
      g_set_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT,
                   "%s:1:1: %" G_GUINT64_FORMAT " bytes, more than the %u a regions file may have", path,
                   (guint64) st.st_size, ETL_REGIONS_MAX_BYTES);
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, &len, &local_error))
    {
      g_set_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_READ, "%s: %s", path, local_error->message);
      return NULL;
    }
  return etl_regions_file_parse (contents, (gssize) len, path, error);
}

/**
 * etl_regions_file_find:
 * @file: a parsed file
 * @guid: a region's Guid
 * @index: (out) (optional): its index in @file's regions
 *
 * Returns: (transfer none) (nullable): the region whose Guid is @guid
 */
const EtlRegionDef *
etl_regions_file_find (const EtlRegionsFile *file, const EtlGuid *guid, guint *index)
{
  g_return_val_if_fail (file != NULL && guid != NULL, NULL);

  for (guint i = 0; i < file->regions->len; i++)
    {
      const EtlRegionDef *r = &g_array_index (file->regions, EtlRegionDef, i);

      if (etl_guid_equal (&r->guid, guid))
        {
          if (index != NULL)
            *index = i;
          return r;
        }
    }
  return NULL;
}

/**
 * etl_region_def_display_name:
 * @def: a region
 *
 * Returns: (transfer none): its FriendlyName when it has one, else its Name
 *   (WPA labels regions with FriendlyName)
 */
const char *
etl_region_def_display_name (const EtlRegionDef *def)
{
  g_return_val_if_fail (def != NULL, NULL);
  return def->friendly_name != NULL && def->friendly_name[0] != '\0' ? def->friendly_name : def->name;
}
