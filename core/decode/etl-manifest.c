/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-manifest
 * @title: Instrumentation manifests
 * @short_description: manifest XML (user files and EventSource 0xFFFE
 *   events) turned into schemas
 *
 * An instrumentation manifest (the XML that mc.exe compiles, schema
 * "http://schemas.microsoft.com/win/2004/08/events", Microsoft's
 * "Writing an Instrumentation Manifest" and "EventManifest Schema" pages)
 * describes each provider's events: `provider` (name, guid), `tasks` with
 * their `opcodes`, provider `opcodes`, `keywords`, `levels`, `maps`
 * (`valueMap` / `bitMap`), `templates` (`data` and `struct` fields),
 * `events` (value, version, level, task, opcode, keywords, template) and
 * `localization` string tables that `$(string.ID)` references resolve
 * against.  The `win:` names come from winmeta.xml (standard levels,
 * opcodes, keywords, in- and out-types).
 *
 * The document is read with GMarkup in one pass that only collects; the
 * schemas are built afterwards, because a manifest may name a template, a
 * map or a string before defining it (EventSource writes `events` before
 * `templates`, and the string table always comes last).  Properties follow
 * TRACE_EVENT_INFO's flat layout: the top-level properties in template
 * order, then the members of each struct; a count or length that names
 * another field becomes %ETL_PROPERTY_PARAM_COUNT / %ETL_PROPERTY_PARAM_LENGTH
 * with that field's index in the flat array.
 *
 * Hostile input: every count is capped (ETL_MANIFEST_MAX_*); a malformed
 * document is a GError naming the origin, line, column and reason, and
 * registers nothing; an event whose template is missing is skipped, and a
 * property that cannot be described (unknown inType, a count naming a later
 * or missing field, an absurd count) is kept with in-type %ETL_IN_NULL so
 * that the decoder stops there and shows the rest as hex.  Both are
 * reported as warnings.
 *
 * EventSource manifests (EventSource.cs's ManifestEnvelope): event id
 * 0xFFFE, opcode 0xFE, user data = u8 Format (1 = XML), u8 MajorVersion,
 * u8 MinorVersion, u8 Magic (0x5B), u16 TotalChunks, u16 ChunkNumber, then
 * that chunk of the UTF-8 manifest.  #EtlEventSourceCollector reassembles
 * the chunks per (file, provider, process) and registers the schemas
 * scoped to that file and process, since two processes may ship different
 * versions of the same EventSource.  The chunk records themselves are
 * described too, as TraceEvent names them ("ManifestData": Format,
 * MajorVersion, MinorVersion, Magic, TotalChunks, ChunkNumber).
 *
 * GMarkup reads real manifests (the CLR's 540 KB ClrEtwAll.man, the
 * EventSource manifests of net.4.5.2.x64.etl, UTF-16 files converted
 * first), so libxml2 is not needed.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include <gio/gio.h>

#include "etl-error.h"
#include "etl-manifest.h"

/* ------------------------------------------------------------------ */
/* Type names (winmeta.xml, tdh.h)                                    */

typedef struct
{
  const char *name;
  guint16 value;
} TypeName;

static const TypeName in_types[] = {
  { "win:UnicodeString", ETL_IN_UNICODESTRING },
  { "win:AnsiString", ETL_IN_ANSISTRING },
  { "win:Int8", ETL_IN_INT8 },
  { "win:UInt8", ETL_IN_UINT8 },
  { "win:Int16", ETL_IN_INT16 },
  { "win:UInt16", ETL_IN_UINT16 },
  { "win:Int32", ETL_IN_INT32 },
  { "win:UInt32", ETL_IN_UINT32 },
  { "win:Int64", ETL_IN_INT64 },
  { "win:UInt64", ETL_IN_UINT64 },
  { "win:Float", ETL_IN_FLOAT },
  { "win:Double", ETL_IN_DOUBLE },
  { "win:Boolean", ETL_IN_BOOLEAN },
  { "win:Binary", ETL_IN_BINARY },
  { "win:GUID", ETL_IN_GUID },
  { "win:Pointer", ETL_IN_POINTER },
  { "win:FILETIME", ETL_IN_FILETIME },
  { "win:SYSTEMTIME", ETL_IN_SYSTEMTIME },
  { "win:SID", ETL_IN_SID },
  { "win:HexInt32", ETL_IN_HEXINT32 },
  { "win:HexInt64", ETL_IN_HEXINT64 },
  { "win:CountedUnicodeString", ETL_IN_COUNTEDSTRING },
  { "win:CountedString", ETL_IN_COUNTEDSTRING },
  { "win:CountedAnsiString", ETL_IN_COUNTEDANSISTRING },
  { "win:ReversedCountedUnicodeString", ETL_IN_REVERSEDCOUNTEDSTRING },
  { "win:ReversedCountedString", ETL_IN_REVERSEDCOUNTEDSTRING },
  { "win:ReversedCountedAnsiString", ETL_IN_REVERSEDCOUNTEDANSISTRING },
  { "win:NonNullTerminatedUnicodeString", ETL_IN_NONNULLTERMINATEDSTRING },
  { "win:NonNullTerminatedString", ETL_IN_NONNULLTERMINATEDSTRING },
  { "win:NonNullTerminatedAnsiString", ETL_IN_NONNULLTERMINATEDANSISTRING },
  { "win:UnicodeChar", ETL_IN_UNICODECHAR },
  { "win:AnsiChar", ETL_IN_ANSICHAR },
  { "win:SizeT", ETL_IN_SIZET },
  { "win:HexDump", ETL_IN_HEXDUMP },
  { "win:WbemSID", ETL_IN_WBEMSID },
};

static const TypeName out_types[] = {
  { "xs:string", ETL_OUT_STRING },
  { "xs:dateTime", ETL_OUT_DATETIME },
  { "xs:byte", ETL_OUT_BYTE },
  { "xs:unsignedByte", ETL_OUT_UNSIGNEDBYTE },
  { "xs:short", ETL_OUT_SHORT },
  { "xs:unsignedShort", ETL_OUT_UNSIGNEDSHORT },
  { "xs:int", ETL_OUT_INT },
  { "xs:unsignedInt", ETL_OUT_UNSIGNEDINT },
  { "xs:long", ETL_OUT_LONG },
  { "xs:unsignedLong", ETL_OUT_UNSIGNEDLONG },
  { "xs:float", ETL_OUT_FLOAT },
  { "xs:double", ETL_OUT_DOUBLE },
  { "xs:boolean", ETL_OUT_BOOLEAN },
  { "xs:GUID", ETL_OUT_GUID },
  { "xs:hexBinary", ETL_OUT_HEXBINARY },
  { "win:HexInt8", ETL_OUT_HEXINT8 },
  { "win:HexInt16", ETL_OUT_HEXINT16 },
  { "win:HexInt32", ETL_OUT_HEXINT32 },
  { "win:HexInt64", ETL_OUT_HEXINT64 },
  { "win:PID", ETL_OUT_PID },
  { "win:TID", ETL_OUT_TID },
  { "win:Port", ETL_OUT_PORT },
  { "win:IPv4", ETL_OUT_IPV4 },
  { "win:IPv6", ETL_OUT_IPV6 },
  { "win:SocketAddress", ETL_OUT_SOCKETADDRESS },
  { "win:CIMDateTime", ETL_OUT_CIMDATETIME },
  { "win:ETWTIME", ETL_OUT_ETWTIME },
  { "win:Xml", ETL_OUT_XML },
  { "win:ErrorCode", ETL_OUT_ERRORCODE },
  { "win:Win32Error", ETL_OUT_WIN32ERROR },
  { "win:NTSTATUS", ETL_OUT_NTSTATUS },
  { "win:HResult", ETL_OUT_HRESULT },
  { "win:DateTimeCultureInsensitive", ETL_OUT_CULTURE_INSENSITIVE_DATETIME },
  { "win:Json", ETL_OUT_JSON },
  { "win:Utf8", ETL_OUT_UTF8 },
  { "win:Pkcs7WithTypeInfo", ETL_OUT_PKCS7_WITH_TYPE_INFO },
  { "win:CodePointer", ETL_OUT_CODE_POINTER },
  { "win:DateTimeUtc", ETL_OUT_DATETIME_UTC },
};

/* winmeta.xml's standard levels, opcodes and keywords; opcode names are
 * spelled as TraceEvent shows them ("DCStart" for win:DC_Start). */
typedef struct
{
  const char *name;
  guint64 value;
  const char *display;
} StdName;

static const StdName std_levels[] = {
  { "win:LogAlways", 0, "LogAlways" },
  { "win:Critical", 1, "Critical" },
  { "win:Error", 2, "Error" },
  { "win:Warning", 3, "Warning" },
  { "win:Informational", 4, "Informational" },
  { "win:Verbose", 5, "Verbose" },
};

static const StdName std_opcodes[] = {
  { "win:Info", 0, "Info" }, /* opcode 0: display names leave it out */
  { "win:Start", 1, "Start" },
  { "win:Stop", 2, "Stop" },
  { "win:DC_Start", 3, "DCStart" },
  { "win:DC_Stop", 4, "DCStop" },
  { "win:Extension", 5, "Extension" },
  { "win:Reply", 6, "Reply" },
  { "win:Resume", 7, "Resume" },
  { "win:Suspend", 8, "Suspend" },
  { "win:Send", 9, "Send" },
  { "win:Receive", 240, "Receive" },
};

static const StdName std_keywords[] = {
  { "win:AnyKeyword", 0, "AnyKeyword" },
  { "win:ResponseTime", G_GUINT64_CONSTANT (0x0001000000000000), "ResponseTime" },
  { "win:WDIContext", G_GUINT64_CONSTANT (0x0002000000000000), "WDIContext" },
  { "win:WDIDiag", G_GUINT64_CONSTANT (0x0004000000000000), "WDIDiag" },
  { "win:SQM", G_GUINT64_CONSTANT (0x0008000000000000), "SQM" },
  { "win:AuditFailure", G_GUINT64_CONSTANT (0x0010000000000000), "AuditFailure" },
  { "win:CorrelationHint", G_GUINT64_CONSTANT (0x0010000000000000), "CorrelationHint" },
  { "win:AuditSuccess", G_GUINT64_CONSTANT (0x0020000000000000), "AuditSuccess" },
  { "win:EventlogClassic", G_GUINT64_CONSTANT (0x0080000000000000), "EventlogClassic" },
};

static const StdName *
std_lookup (const StdName *table, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (g_ascii_strcasecmp (table[i].name, name) == 0)
      return &table[i];
  return NULL;
}

static gboolean
type_lookup (const TypeName *table, gsize n, const char *name, guint16 *value)
{
  if (name == NULL)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (g_ascii_strcasecmp (table[i].name, name) == 0)
      {
        *value = table[i].value;
        return TRUE;
      }
  return FALSE;
}

/**
 * etl_manifest_parse_in_type:
 * @name: a manifest inType, e.g. "win:UInt32" (compared without case)
 * @in_type: (out): the #EtlInType
 *
 * Maps winmeta.xml's in-type names to TDH_IN_TYPE numbers.
 *
 * Returns: %FALSE when @name is not a known in-type
 */
gboolean
etl_manifest_parse_in_type (const char *name, guint16 *in_type)
{
  g_return_val_if_fail (in_type != NULL, FALSE);
  return type_lookup (in_types, G_N_ELEMENTS (in_types), name, in_type);
}

/**
 * etl_manifest_parse_out_type:
 * @name: a manifest outType, e.g. "xs:unsignedInt" or "win:HexInt64"
 *   (compared without case, so "win:HRESULT" is "win:HResult")
 * @out_type: (out): the #EtlOutType
 *
 * Maps winmeta.xml's out-type names to TDH_OUT_TYPE numbers.
 *
 * Returns: %FALSE when @name is not a known out-type
 */
gboolean
etl_manifest_parse_out_type (const char *name, guint16 *out_type)
{
  g_return_val_if_fail (out_type != NULL, FALSE);
  return type_lookup (out_types, G_N_ELEMENTS (out_types), name, out_type);
}

/* ------------------------------------------------------------------ */
/* What the parse pass collects                                       */

typedef struct
{
  int line;
  int col;
} Pos;

typedef struct
{
  char *name;
  char *message;
  char *value; /* unparsed: value or mask */
  Pos pos;
} MItem;

typedef struct
{
  MItem item;
  GPtrArray *opcodes;      /* MItem */
  GHashTable *opcode_index; /* name → MItem, built on first use */
} MTask;

typedef struct
{
  char *value;
  char *message;
  Pos pos;
} MMapEntry;

typedef struct
{
  char *name;
  gboolean is_bitmap;
  GPtrArray *entries; /* MMapEntry */
  Pos pos;
} MMap;

typedef struct MData MData;
struct MData
{
  char *name;
  char *in_type;
  char *out_type;
  char *map;
  char *count;
  char *length;
  gboolean is_struct;
  gboolean nested; /* a struct inside a struct: TDH has no such layout */
  GPtrArray *members; /* MData, for a struct */
  Pos pos;
};

typedef struct
{
  char *tid;
  GPtrArray *items; /* MData */
  guint n_fields;   /* data + struct members, capped */
  gboolean too_many;
  Pos pos;
} MTemplate;

typedef struct
{
  char *value;
  char *version;
  char *level;
  char *task;
  char *opcode;
  char *keywords;
  char *template;
  char *symbol;
  char *name;
  Pos pos;
} MEvent;

typedef struct
{
  char *name;
  char *guid;
  Pos pos;
  GPtrArray *tasks;     /* MTask */
  GPtrArray *opcodes;   /* MItem */
  GPtrArray *keywords;  /* MItem */
  GPtrArray *levels;    /* MItem */
  GPtrArray *maps;      /* MMap */
  GPtrArray *templates; /* MTemplate */
  GPtrArray *events;    /* MEvent */
  /* Build pass: name → item, built on first use */
  GHashTable *task_index;
  GHashTable *opcode_index;
  GHashTable *keyword_index;
  GHashTable *level_index;
} MProvider;

typedef struct
{
  char *culture;
  GHashTable *strings; /* id → value */
} MCulture;

static void
mitem_clear (MItem *item)
{
  g_free (item->name);
  g_free (item->message);
  g_free (item->value);
}

static void
mitem_free (gpointer p)
{
  mitem_clear (p);
  g_free (p);
}

static void
mtask_free (gpointer p)
{
  MTask *task = p;

  mitem_clear (&task->item);
  g_ptr_array_unref (task->opcodes);
  if (task->opcode_index != NULL)
    g_hash_table_unref (task->opcode_index);
  g_free (task);
}

static void
mmap_entry_free (gpointer p)
{
  MMapEntry *e = p;

  g_free (e->value);
  g_free (e->message);
  g_free (e);
}

static void
mmap_free (gpointer p)
{
  MMap *map = p;

  g_free (map->name);
  g_ptr_array_unref (map->entries);
  g_free (map);
}

static void
mdata_free (gpointer p)
{
  MData *d = p;

  g_free (d->name);
  g_free (d->in_type);
  g_free (d->out_type);
  g_free (d->map);
  g_free (d->count);
  g_free (d->length);
  if (d->members != NULL)
    g_ptr_array_unref (d->members);
  g_free (d);
}

static void
mtemplate_free (gpointer p)
{
  MTemplate *t = p;

  g_free (t->tid);
  g_ptr_array_unref (t->items);
  g_free (t);
}

static void
mevent_free (gpointer p)
{
  MEvent *e = p;

  g_free (e->value);
  g_free (e->version);
  g_free (e->level);
  g_free (e->task);
  g_free (e->opcode);
  g_free (e->keywords);
  g_free (e->template);
  g_free (e->symbol);
  g_free (e->name);
  g_free (e);
}

static void
mprovider_free (gpointer p)
{
  MProvider *prov = p;

  g_free (prov->name);
  g_free (prov->guid);
  g_ptr_array_unref (prov->tasks);
  g_ptr_array_unref (prov->opcodes);
  g_ptr_array_unref (prov->keywords);
  g_ptr_array_unref (prov->levels);
  g_ptr_array_unref (prov->maps);
  g_ptr_array_unref (prov->templates);
  g_ptr_array_unref (prov->events);
  g_clear_pointer (&prov->task_index, g_hash_table_unref);
  g_clear_pointer (&prov->opcode_index, g_hash_table_unref);
  g_clear_pointer (&prov->keyword_index, g_hash_table_unref);
  g_clear_pointer (&prov->level_index, g_hash_table_unref);
  g_free (prov);
}

static void
mculture_free (gpointer p)
{
  MCulture *c = p;

  g_free (c->culture);
  g_hash_table_unref (c->strings);
  g_free (c);
}

typedef struct
{
  const char *origin;
  GMarkupParseContext *context;
  EtlManifestInfo *info;

  GPtrArray *providers; /* MProvider */
  GPtrArray *cultures;  /* MCulture */

  /* The open containers and the depth each was opened at. */
  guint depth;
  MProvider *provider;
  guint provider_depth;
  MTask *task;
  guint task_depth;
  MMap *map;
  guint map_depth;
  MTemplate *template;
  guint template_depth;
  MData *structure;
  guint structure_depth;
  MCulture *culture;
  guint culture_depth;

  guint n_items;
  guint n_events;

  /* Build pass */
  guint n_properties;
  GHashTable *strings; /* the chosen culture's, or NULL */
} Parser;

static void
info_add_warning_at (Parser *p, const Pos *pos, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
info_add_warning_at (Parser *p, const Pos *pos, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  p->info->n_warnings++;
  if (p->info->warnings->len >= ETL_MANIFEST_MAX_WARNINGS)
    return;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (pos != NULL)
    g_ptr_array_add (p->info->warnings, g_strdup_printf ("%s:%d:%d: %s", p->origin, pos->line, pos->col, msg));
  else
    g_ptr_array_add (p->info->warnings, g_strdup_printf ("%s: %s", p->origin, msg));
}

/* The element name without a namespace prefix ("win:foo" → "foo"). */
static const char *
local_name (const char *name)
{
  const char *colon;

  if (name == NULL)
    return "";
  colon = strrchr (name, ':');
  return colon != NULL ? colon + 1 : name;
}

static const char *
attr (const char **names, const char **values, const char *name)
{
  for (gsize i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], name) == 0)
      return values[i];
  return NULL;
}

/* Copies the attributes in @wanted (NULL-terminated) into @out, each capped
 * at ETL_MANIFEST_MAX_NAME bytes.  Returns FALSE (and warns) when one is
 * longer: the element is then skipped. */
static gboolean
copy_attrs (Parser *p, const Pos *pos, const char *element, const char **names,
            const char **values, const char *const *wanted, char **out[])
{
  for (gsize i = 0; wanted[i] != NULL; i++)
    {
      const char *v = attr (names, values, wanted[i]);

      if (v != NULL && strlen (v) > ETL_MANIFEST_MAX_NAME)
        {
          info_add_warning_at (p, pos, "<%s> skipped: attribute %s is longer than %u bytes", element,
                               wanted[i], ETL_MANIFEST_MAX_NAME);
          for (gsize j = 0; j < i; j++)
            g_clear_pointer (out[j], g_free);
          return FALSE;
        }
      *out[i] = g_strdup (v);
    }
  return TRUE;
}

static gboolean
count_item (Parser *p, GError **error)
{
  if (++p->n_items > ETL_MANIFEST_MAX_ITEMS)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "more than %u elements describe events", ETL_MANIFEST_MAX_ITEMS);
      return FALSE;
    }
  return TRUE;
}

static MProvider *
mprovider_new (void)
{
  MProvider *prov = g_new0 (MProvider, 1);

  prov->tasks = g_ptr_array_new_with_free_func (mtask_free);
  prov->opcodes = g_ptr_array_new_with_free_func (mitem_free);
  prov->keywords = g_ptr_array_new_with_free_func (mitem_free);
  prov->levels = g_ptr_array_new_with_free_func (mitem_free);
  prov->maps = g_ptr_array_new_with_free_func (mmap_free);
  prov->templates = g_ptr_array_new_with_free_func (mtemplate_free);
  prov->events = g_ptr_array_new_with_free_func (mevent_free);
  return prov;
}

static MItem *
new_item (Parser *p, const Pos *pos, const char *element, const char **names, const char **values,
          const char *value_attr)
{
  MItem *item = g_new0 (MItem, 1);
  const char *const wanted[] = { "name", "message", value_attr, NULL };
  char **out[] = { &item->name, &item->message, &item->value };

  item->pos = *pos;
  if (!copy_attrs (p, pos, element, names, values, wanted, out))
    {
      g_free (item);
      return NULL;
    }
  if (item->name == NULL)
    {
      info_add_warning_at (p, pos, "<%s> without a name skipped", element);
      mitem_free (item);
      return NULL;
    }
  return item;
}

static MData *
new_data (Parser *p, const Pos *pos, const char *element, const char **names, const char **values)
{
  MData *d = g_new0 (MData, 1);
  const char *const wanted[] = { "name", "inType", "outType", "map", "count", "length", NULL };
  char **out[] = { &d->name, &d->in_type, &d->out_type, &d->map, &d->count, &d->length };

  d->pos = *pos;
  if (!copy_attrs (p, pos, element, names, values, wanted, out))
    {
      g_free (d);
      return NULL;
    }
  if (d->name == NULL)
    d->name = g_strdup ("");
  return d;
}

/* Adds one field to the open template, counting it against the cap. */
static gboolean
template_take (Parser *p, MTemplate *t, const Pos *pos)
{
  if (t->n_fields >= ETL_MANIFEST_MAX_PROPERTIES)
    {
      if (!t->too_many)
        info_add_warning_at (p, pos, "template %s has more than %u fields; its events are skipped",
                             t->tid, ETL_MANIFEST_MAX_PROPERTIES);
      t->too_many = TRUE;
      return FALSE;
    }
  t->n_fields++;
  return TRUE;
}

static void
on_start_element (GMarkupParseContext *context, const char *element_name, const char **names,
                  const char **values, gpointer user_data, GError **error)
{
  Parser *p = user_data;
  const GSList *stack = g_markup_parse_context_get_element_stack (context);
  const char *name = local_name (element_name);
  const char *parent = stack->next != NULL ? local_name (stack->next->data) : "";
  const char *grandparent = stack->next != NULL && stack->next->next != NULL
                              ? local_name (stack->next->next->data)
                              : "";
  Pos pos;

  p->depth++;
  if (p->depth > ETL_MANIFEST_MAX_DEPTH)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "elements nested deeper than %u", ETL_MANIFEST_MAX_DEPTH);
      return;
    }
  g_markup_parse_context_get_position (context, &pos.line, &pos.col);

  if (strcmp (name, "provider") == 0 && strcmp (parent, "events") == 0 && p->provider == NULL)
    {
      MProvider *prov;
      const char *const wanted[] = { "name", "guid", NULL };
      char *n = NULL, *g = NULL;
      char **out[] = { &n, &g };

      if (p->providers->len >= ETL_MANIFEST_MAX_PROVIDERS)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "more than %u providers", ETL_MANIFEST_MAX_PROVIDERS);
          return;
        }
      if (!count_item (p, error))
        return;
      prov = mprovider_new ();
      prov->pos = pos;
      if (copy_attrs (p, &pos, name, names, values, wanted, out))
        {
          prov->name = n;
          prov->guid = g;
        }
      g_ptr_array_add (p->providers, prov);
      p->provider = prov;
      p->provider_depth = p->depth;
      return;
    }

  if (p->provider != NULL)
    {
      gboolean in_provider_list = strcmp (grandparent, "provider") == 0;

      if (strcmp (name, "task") == 0 && strcmp (parent, "tasks") == 0 && in_provider_list && p->task == NULL)
        {
          MItem *item;
          MTask *task;

          if (!count_item (p, error))
            return;
          item = new_item (p, &pos, name, names, values, "value");
          if (item == NULL)
            return;
          task = g_new0 (MTask, 1);
          task->item = *item;
          g_free (item);
          task->opcodes = g_ptr_array_new_with_free_func (mitem_free);
          g_ptr_array_add (p->provider->tasks, task);
          p->task = task;
          p->task_depth = p->depth;
          return;
        }
      if (strcmp (name, "opcode") == 0 && strcmp (parent, "opcodes") == 0)
        {
          GPtrArray *list = NULL;
          MItem *item;

          if (strcmp (grandparent, "task") == 0 && p->task != NULL)
            list = p->task->opcodes;
          else if (in_provider_list)
            list = p->provider->opcodes;
          if (list == NULL)
            return;
          if (!count_item (p, error))
            return;
          item = new_item (p, &pos, name, names, values, "value");
          if (item != NULL)
            g_ptr_array_add (list, item);
          return;
        }
      if ((strcmp (name, "keyword") == 0 && strcmp (parent, "keywords") == 0 && in_provider_list)
          || (strcmp (name, "level") == 0 && strcmp (parent, "levels") == 0 && in_provider_list))
        {
          gboolean is_keyword = name[0] == 'k';
          MItem *item;

          if (!count_item (p, error))
            return;
          item = new_item (p, &pos, name, names, values, is_keyword ? "mask" : "value");
          if (item != NULL)
            g_ptr_array_add (is_keyword ? p->provider->keywords : p->provider->levels, item);
          return;
        }
      if ((strcmp (name, "valueMap") == 0 || strcmp (name, "bitMap") == 0) && strcmp (parent, "maps") == 0
          && in_provider_list && p->map == NULL)
        {
          MMap *map;
          const char *n = attr (names, values, "name");

          if (!count_item (p, error))
            return;
          if (n == NULL || strlen (n) > ETL_MANIFEST_MAX_NAME)
            {
              info_add_warning_at (p, &pos, "<%s> without a usable name skipped", name);
              return;
            }
          map = g_new0 (MMap, 1);
          map->name = g_strdup (n);
          map->is_bitmap = name[0] == 'b';
          map->entries = g_ptr_array_new_with_free_func (mmap_entry_free);
          map->pos = pos;
          g_ptr_array_add (p->provider->maps, map);
          p->map = map;
          p->map_depth = p->depth;
          return;
        }
      if (strcmp (name, "map") == 0 && p->map != NULL && p->depth == p->map_depth + 1)
        {
          MMapEntry *e = g_new0 (MMapEntry, 1);
          const char *const wanted[] = { "value", "message", NULL };
          char **out[] = { &e->value, &e->message };

          if (!count_item (p, error) || !copy_attrs (p, &pos, name, names, values, wanted, out))
            {
              g_free (e);
              return;
            }
          e->pos = pos;
          g_ptr_array_add (p->map->entries, e);
          return;
        }
      if (strcmp (name, "template") == 0 && strcmp (parent, "templates") == 0 && in_provider_list
          && p->template == NULL)
        {
          MTemplate *t;
          const char *tid = attr (names, values, "tid");

          if (!count_item (p, error))
            return;
          if (tid == NULL || strlen (tid) > ETL_MANIFEST_MAX_NAME)
            {
              info_add_warning_at (p, &pos, "<template> without a usable tid skipped");
              return;
            }
          t = g_new0 (MTemplate, 1);
          t->tid = g_strdup (tid);
          t->items = g_ptr_array_new_with_free_func (mdata_free);
          t->pos = pos;
          g_ptr_array_add (p->provider->templates, t);
          p->template = t;
          p->template_depth = p->depth;
          return;
        }
      if (p->template != NULL && (strcmp (name, "data") == 0 || strcmp (name, "struct") == 0))
        {
          gboolean top = p->depth == p->template_depth + 1;
          gboolean member = p->structure != NULL && p->depth == p->structure_depth + 1;
          MData *d;

          if (!top && !member)
            return;
          if (!count_item (p, error))
            return;
          if (!template_take (p, p->template, &pos))
            return;
          d = new_data (p, &pos, name, names, values);
          if (d == NULL)
            {
              p->template->too_many = TRUE; /* a field is missing: the layout is unknown */
              return;
            }
          if (name[0] == 's')
            {
              d->is_struct = TRUE;
              d->members = g_ptr_array_new_with_free_func (mdata_free);
              if (member)
                d->nested = TRUE;
              else
                {
                  p->structure = d;
                  p->structure_depth = p->depth;
                }
            }
          g_ptr_array_add (top ? p->template->items : p->structure->members, d);
          return;
        }
      if (strcmp (name, "event") == 0 && strcmp (parent, "events") == 0 && in_provider_list)
        {
          MEvent *e;
          const char *const wanted[] = { "value", "version", "level", "task", "opcode", "keywords",
                                         "template", "symbol", "name", NULL };
          char **out[9];

          if (++p->n_events > ETL_MANIFEST_MAX_EVENTS)
            {
              g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "more than %u events", ETL_MANIFEST_MAX_EVENTS);
              return;
            }
          if (!count_item (p, error))
            return;
          e = g_new0 (MEvent, 1);
          out[0] = &e->value;
          out[1] = &e->version;
          out[2] = &e->level;
          out[3] = &e->task;
          out[4] = &e->opcode;
          out[5] = &e->keywords;
          out[6] = &e->template;
          out[7] = &e->symbol;
          out[8] = &e->name;
          e->pos = pos;
          if (!copy_attrs (p, &pos, name, names, values, wanted, out))
            {
              g_free (e);
              p->info->n_skipped++;
              return;
            }
          g_ptr_array_add (p->provider->events, e);
          return;
        }
      return;
    }

  if (strcmp (name, "resources") == 0 && strcmp (parent, "localization") == 0 && p->culture == NULL)
    {
      MCulture *c;
      const char *culture = attr (names, values, "culture");

      if (!count_item (p, error))
        return;
      c = g_new0 (MCulture, 1);
      c->culture = g_strndup (culture != NULL ? culture : "", ETL_MANIFEST_MAX_NAME);
      c->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_ptr_array_add (p->cultures, c);
      p->culture = c;
      p->culture_depth = p->depth;
      return;
    }
  if (strcmp (name, "string") == 0 && strcmp (parent, "stringTable") == 0 && p->culture != NULL)
    {
      const char *id = attr (names, values, "id");
      const char *value = attr (names, values, "value");

      if (!count_item (p, error))
        return;
      if (id == NULL || value == NULL || strlen (id) > ETL_MANIFEST_MAX_NAME
          || strlen (value) > ETL_MANIFEST_MAX_STRING)
        {
          info_add_warning_at (p, &pos, "<string> without a usable id or value skipped");
          return;
        }
      if (!g_hash_table_contains (p->culture->strings, id))
        g_hash_table_insert (p->culture->strings, g_strdup (id), g_strdup (value));
      return;
    }
}

static void
on_end_element (GMarkupParseContext *context, const char *element_name, gpointer user_data, GError **error)
{
  Parser *p = user_data;

  if (p->structure != NULL && p->depth == p->structure_depth)
    p->structure = NULL;
  if (p->template != NULL && p->depth == p->template_depth)
    p->template = NULL;
  if (p->map != NULL && p->depth == p->map_depth)
    p->map = NULL;
  if (p->task != NULL && p->depth == p->task_depth)
    p->task = NULL;
  if (p->provider != NULL && p->depth == p->provider_depth)
    p->provider = NULL;
  if (p->culture != NULL && p->depth == p->culture_depth)
    p->culture = NULL;
  p->depth--;
}

static const GMarkupParser markup_parser = {
  on_start_element,
  on_end_element,
  NULL,
  NULL,
  NULL,
};

/* ------------------------------------------------------------------ */
/* Build pass                                                         */

static gboolean
parse_u64 (const char *str, guint64 max, guint64 *out)
{
  g_autofree char *s = NULL;
  const char *digits;
  guint base = 10;

  if (str == NULL)
    return FALSE;
  s = g_strstrip (g_strdup (str));
  digits = s;
  if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    {
      digits += 2;
      base = 16;
    }
  if (digits[0] == '\0' || digits[0] == '+' || digits[0] == '-')
    return FALSE;
  return g_ascii_string_to_unsigned (digits, base, 0, max, out, NULL);
}

/* A $(string.ID) reference resolved against the chosen string table;
 * anything else returned as is.  Returns NULL when @text is NULL or the
 * reference does not resolve. */
static const char *
resolve (Parser *p, const char *text)
{
  gsize len;

  if (text == NULL)
    return NULL;
  len = strlen (text);
  if (g_str_has_prefix (text, "$(string.") && len > 10 && text[len - 1] == ')')
    {
      g_autofree char *id = g_strndup (text + 9, len - 10);

      return p->strings != NULL ? g_hash_table_lookup (p->strings, id) : NULL;
    }
  return text;
}

/* A name for display: the resolved message when it has one, else the name. */
static const char *
display_name (Parser *p, const MItem *item)
{
  const char *msg = resolve (p, item->message);

  return msg != NULL && msg[0] != '\0' ? msg : item->name;
}

/* Name → item (the first of a name wins), so that lookups stay O(1) on
 * manifests with many tasks, opcodes, keywords or levels. */
static GHashTable *
index_items (GPtrArray *items)
{
  GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < items->len; i++)
    {
      MItem *item = g_ptr_array_index (items, i);

      if (!g_hash_table_contains (index, item->name))
        g_hash_table_insert (index, item->name, item);
    }
  return index;
}

static const MItem *
find_item (GHashTable **index, GPtrArray *items, const char *name)
{
  if (*index == NULL)
    *index = index_items (items);
  return g_hash_table_lookup (*index, name);
}

/* One property of a template, laid out as in TRACE_EVENT_INFO. */
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
} RProp;

typedef struct
{
  GArray *props; /* RProp */
  guint n_top_level;
  gboolean unusable;
} RTemplate;

static void
rtemplate_free (gpointer data)
{
  RTemplate *rt = data;

  for (guint i = 0; i < rt->props->len; i++)
    {
      RProp *rp = &g_array_index (rt->props, RProp, i);

      g_free (rp->name);
      g_free (rp->map_name);
      if (rp->map != NULL)
        etl_map_unref (rp->map);
    }
  g_array_unref (rt->props);
  g_free (rt);
}

static gboolean
is_integer_in_type (guint16 in_type)
{
  switch (in_type)
    {
    case ETL_IN_INT8:
    case ETL_IN_UINT8:
    case ETL_IN_INT16:
    case ETL_IN_UINT16:
    case ETL_IN_INT32:
    case ETL_IN_UINT32:
    case ETL_IN_INT64:
    case ETL_IN_UINT64:
    case ETL_IN_HEXINT32:
    case ETL_IN_HEXINT64:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Resolves a count or length attribute of field @d.  A name is looked up
 * in @inner (the earlier members of its struct; NULL for a top-level
 * field), then in @outer (the earlier top-level fields): name → flat index
 * + 1 of the nearest earlier field of that name.  Returns FALSE (after
 * warning) when the field cannot be described. */
static gboolean
resolve_count (Parser *p, const MTemplate *t, const MData *d, GArray *props, GHashTable *inner,
               GHashTable *outer, const char *what, const char *text, guint16 fixed_flag,
               guint16 param_flag, guint16 *value, guint16 *flags)
{
  guint64 n;
  guint index;
  const RProp *other;

  if (text == NULL)
    return TRUE;
  if (parse_u64 (text, G_MAXUINT64, &n))
    {
      if (n > G_MAXUINT16)
        {
          info_add_warning_at (p, &d->pos, "template %s field %s: %s %" G_GUINT64_FORMAT " is too large",
                               t->tid, d->name, what, n);
          return FALSE;
        }
      *value = (guint16) n;
      *flags |= fixed_flag;
      return TRUE;
    }
  index = inner != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (inner, text)) : 0;
  if (index == 0)
    index = GPOINTER_TO_UINT (g_hash_table_lookup (outer, text));
  if (index == 0)
    {
      info_add_warning_at (p, &d->pos, "template %s field %s: %s names %s, which is not an earlier field",
                           t->tid, d->name, what, text);
      return FALSE;
    }
  other = &g_array_index (props, RProp, index - 1);
  if ((other->flags & ETL_PROPERTY_STRUCT) != 0 || !is_integer_in_type (other->in_type) || other->count != 1
      || (other->flags & (ETL_PROPERTY_PARAM_COUNT | ETL_PROPERTY_PARAM_FIXED_COUNT)) != 0)
    {
      info_add_warning_at (p, &d->pos, "template %s field %s: %s names %s, which is not an integer",
                           t->tid, d->name, what, text);
      return FALSE;
    }
  *value = (guint16) (index - 1);
  *flags |= param_flag;
  return TRUE;
}

/* Fills @rp from the data element @d (not a struct). */
static void
resolve_data (Parser *p, const MTemplate *t, const MData *d, GHashTable *maps, RProp *rp)
{
  guint16 v;

  rp->count = 1;
  if (d->in_type == NULL || !etl_manifest_parse_in_type (d->in_type, &v))
    {
      info_add_warning_at (p, &d->pos, "template %s field %s: unknown inType %s; decoding stops there",
                           t->tid, d->name, d->in_type != NULL ? d->in_type : "(none)");
      rp->in_type = ETL_IN_NULL;
    }
  else
    rp->in_type = v;
  if (d->out_type != NULL)
    {
      if (etl_manifest_parse_out_type (d->out_type, &v))
        rp->out_type = v;
      else
        info_add_warning_at (p, &d->pos, "template %s field %s: unknown outType %s, shown by its inType",
                             t->tid, d->name, d->out_type);
    }
  if (d->map != NULL)
    {
      EtlMap *map = g_hash_table_lookup (maps, d->map);

      if (map == NULL)
        info_add_warning_at (p, &d->pos, "template %s field %s: no map named %s; shown as a number",
                             t->tid, d->name, d->map);
      else
        {
          rp->map_name = g_strdup (d->map);
          rp->map = etl_map_ref (map);
        }
    }
}

static RProp *
append_prop (GArray *props, const char *name)
{
  RProp rp = { 0 };

  rp.name = g_strdup (name);
  rp.count = 1;
  g_array_append_val (props, rp);
  return &g_array_index (props, RProp, props->len - 1);
}

/* Marks a property as one the decoder cannot walk past. */
static void
make_undecodable (RProp *rp)
{
  rp->flags &= ~(ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_COUNT | ETL_PROPERTY_PARAM_LENGTH);
  rp->in_type = ETL_IN_NULL;
  rp->count = 1;
  rp->length = 0;
  rp->struct_start = 0;
  rp->n_struct_members = 0;
}

static RTemplate *
resolve_template (Parser *p, const MTemplate *t, GHashTable *maps)
{
  RTemplate *rt = g_new0 (RTemplate, 1);
  guint n_top = t->items->len;
  g_autoptr (GHashTable) outer = NULL; /* earlier top-level names → index + 1 */

  rt->props = g_array_new (FALSE, TRUE, sizeof (RProp));
  rt->n_top_level = n_top;
  if (t->too_many)
    {
      rt->unusable = TRUE;
      return rt;
    }
  outer = g_hash_table_new (g_str_hash, g_str_equal);

  /* Top-level fields first, in template order. */
  for (guint i = 0; i < n_top; i++)
    {
      const MData *d = g_ptr_array_index (t->items, i);
      RProp *rp = append_prop (rt->props, d->name);

      if (!d->is_struct)
        resolve_data (p, t, d, maps, rp);
    }
  /* Then the members of each struct; counts and lengths may name earlier
   * fields (of the struct first, then top-level ones). */
  for (guint i = 0; i < n_top; i++)
    {
      const MData *d = g_ptr_array_index (t->items, i);
      RProp *rp = &g_array_index (rt->props, RProp, i);
      gboolean ok = TRUE;

      if (d->is_struct)
        {
          guint start = rt->props->len;
          g_autoptr (GHashTable) inner = g_hash_table_new (g_str_hash, g_str_equal);

          rp->flags = ETL_PROPERTY_STRUCT;
          rp->struct_start = (guint16) start;
          rp->n_struct_members = (guint16) d->members->len;
          for (guint m = 0; m < d->members->len; m++)
            {
              const MData *md = g_ptr_array_index (d->members, m);
              RProp *mp = append_prop (rt->props, md->name);

              if (md->is_struct)
                {
                  info_add_warning_at (p, &md->pos, "template %s: struct %s inside struct %s is not supported; decoding stops there",
                                       t->tid, md->name, d->name);
                  mp->in_type = ETL_IN_NULL;
                }
              else
                resolve_data (p, t, md, maps, mp);
            }
          for (guint m = 0; m < d->members->len; m++)
            {
              const MData *md = g_ptr_array_index (d->members, m);
              RProp *mp = &g_array_index (rt->props, RProp, start + m);
              gboolean mok;

              mok = resolve_count (p, t, md, rt->props, inner, outer, "count", md->count,
                                   ETL_PROPERTY_PARAM_FIXED_COUNT, ETL_PROPERTY_PARAM_COUNT, &mp->count, &mp->flags);
              if (mok)
                mok = resolve_count (p, t, md, rt->props, inner, outer, "length", md->length,
                                     ETL_PROPERTY_PARAM_FIXED_LENGTH, ETL_PROPERTY_PARAM_LENGTH, &mp->length,
                                     &mp->flags);
              if (!mok)
                make_undecodable (mp);
              g_hash_table_insert (inner, md->name, GUINT_TO_POINTER (start + m + 1));
            }
          if (d->members->len == 0)
            {
              info_add_warning_at (p, &d->pos, "template %s: struct %s has no members; decoding stops there",
                                   t->tid, d->name);
              ok = FALSE;
            }
          rp = &g_array_index (rt->props, RProp, i); /* the array grew */
        }
      if (ok)
        ok = resolve_count (p, t, d, rt->props, NULL, outer, "count", d->count, ETL_PROPERTY_PARAM_FIXED_COUNT,
                            ETL_PROPERTY_PARAM_COUNT, &rp->count, &rp->flags);
      if (ok && !d->is_struct)
        ok = resolve_count (p, t, d, rt->props, NULL, outer, "length", d->length, ETL_PROPERTY_PARAM_FIXED_LENGTH,
                            ETL_PROPERTY_PARAM_LENGTH, &rp->length, &rp->flags);
      if (!ok)
        make_undecodable (rp);
      /* The nearest earlier field of a name wins. */
      g_hash_table_insert (outer, d->name, GUINT_TO_POINTER (i + 1));
    }
  return rt;
}

static EtlSchema *
build_schema (Parser *p, MProvider *prov, const EtlGuid *guid, const MEvent *e, const RTemplate *rt,
              EtlSchemaSource source, guint64 id, guint64 version)
{
  EtlSchemaKey key;
  EtlSchema *schema;
  MTask *task = NULL;
  g_autoptr (GPtrArray) keyword_names = NULL;
  guint64 v;

  etl_schema_key_init_event_id (&key, guid, (guint16) id, (guint8) version);
  schema = etl_schema_new (&key, source);
  schema->provider_name = g_strdup (prov->name);
  schema->event_name = g_strdup (e->name != NULL ? e->name : e->symbol);

  if (e->task != NULL)
    {
      if (prov->task_index == NULL)
        {
          prov->task_index = g_hash_table_new (g_str_hash, g_str_equal);
          for (guint i = 0; i < prov->tasks->len; i++)
            {
              MTask *t = g_ptr_array_index (prov->tasks, i);

              if (!g_hash_table_contains (prov->task_index, t->item.name))
                g_hash_table_insert (prov->task_index, t->item.name, t);
            }
        }
      task = g_hash_table_lookup (prov->task_index, e->task);
      if (task == NULL)
        info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT ": no task named %s",
                             id, version, e->task);
      else
        {
          schema->task_name = g_strdup (display_name (p, &task->item));
          if (parse_u64 (task->item.value, G_MAXUINT16, &v))
            schema->task = (guint16) v;
          else
            info_add_warning_at (p, &task->item.pos, "task %s: value %s is not a number up to 65535",
                                 task->item.name, task->item.value != NULL ? task->item.value : "(none)");
        }
    }

  if (e->opcode != NULL)
    {
      const MItem *op = task != NULL ? find_item (&task->opcode_index, task->opcodes, e->opcode) : NULL;
      const StdName *std = NULL;

      if (op == NULL)
        op = find_item (&prov->opcode_index, prov->opcodes, e->opcode);
      if (op == NULL)
        std = std_lookup (std_opcodes, G_N_ELEMENTS (std_opcodes), e->opcode);
      if (op != NULL)
        {
          schema->opcode_name = g_strdup (display_name (p, op));
          if (parse_u64 (op->value, G_MAXUINT8, &v))
            schema->opcode = (guint8) v;
          else
            info_add_warning_at (p, &op->pos, "opcode %s: value %s is not a number up to 255", op->name,
                                 op->value != NULL ? op->value : "(none)");
        }
      else if (std != NULL)
        {
          schema->opcode_name = g_strdup (std->display);
          schema->opcode = (guint8) std->value;
        }
      else
        info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT ": no opcode named %s",
                             id, version, e->opcode);
    }

  if (e->level != NULL)
    {
      const MItem *lv = find_item (&prov->level_index, prov->levels, e->level);
      const StdName *std = lv == NULL ? std_lookup (std_levels, G_N_ELEMENTS (std_levels), e->level) : NULL;

      if (lv != NULL)
        {
          schema->level_name = g_strdup (display_name (p, lv));
          if (parse_u64 (lv->value, G_MAXUINT8, &v))
            schema->level = (guint8) v;
        }
      else if (std != NULL)
        {
          schema->level_name = g_strdup (std->display);
          schema->level = (guint8) std->value;
        }
      else
        info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT ": no level named %s",
                             id, version, e->level);
    }

  if (e->keywords != NULL)
    {
      g_auto (GStrv) words = g_strsplit_set (e->keywords, " \t\r\n", -1);

      keyword_names = g_ptr_array_new ();
      for (guint i = 0; words[i] != NULL; i++)
        {
          const MItem *kw;
          const StdName *std;

          if (words[i][0] == '\0')
            continue;
          kw = find_item (&prov->keyword_index, prov->keywords, words[i]);
          std = kw == NULL ? std_lookup (std_keywords, G_N_ELEMENTS (std_keywords), words[i]) : NULL;
          if (kw != NULL && parse_u64 (kw->value, G_MAXUINT64, &v))
            {
              schema->keyword |= v;
              g_ptr_array_add (keyword_names, g_strdup (kw->name));
            }
          else if (std != NULL)
            {
              schema->keyword |= std->value;
              g_ptr_array_add (keyword_names, g_strdup (std->display));
            }
          else
            info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT ": no keyword named %s",
                                 id, version, words[i]);
        }
      if (keyword_names->len > 0)
        {
          g_ptr_array_add (keyword_names, NULL);
          schema->keyword_names = (char **) g_ptr_array_free (g_steal_pointer (&keyword_names), FALSE);
        }
    }

  if (rt != NULL)
    {
      for (guint i = 0; i < rt->props->len; i++)
        {
          const RProp *rp = &g_array_index (rt->props, RProp, i);
          guint index = etl_schema_add_property (schema, rp->name, rp->in_type, rp->out_type);
          EtlProperty *prop = &schema->properties[index];

          prop->flags = rp->flags;
          prop->count = rp->count;
          prop->length = rp->length;
          prop->struct_start = rp->struct_start;
          prop->n_struct_members = rp->n_struct_members;
          prop->map_name = g_strdup (rp->map_name);
          prop->map = rp->map != NULL ? etl_map_ref (rp->map) : NULL;
        }
      schema->n_top_level = rt->n_top_level;
    }
  return schema;
}

static EtlMap *
build_map (Parser *p, const MMap *m)
{
  EtlMap *map = etl_map_new (m->name, m->is_bitmap);

  for (guint i = 0; i < m->entries->len; i++)
    {
      const MMapEntry *e = g_ptr_array_index (m->entries, i);
      const char *msg = resolve (p, e->message);
      guint64 v;

      if (!parse_u64 (e->value, G_MAXUINT64, &v))
        {
          info_add_warning_at (p, &e->pos, "map %s: value %s is not a number; entry skipped", m->name,
                               e->value != NULL ? e->value : "(none)");
          continue;
        }
      if (msg == NULL)
        {
          info_add_warning_at (p, &e->pos, "map %s: the message of %s does not resolve; shown as the reference",
                               m->name, e->value);
          msg = e->message != NULL ? e->message : e->value;
        }
      {
        g_autofree char *trimmed = g_strstrip (g_strdup (msg));

        etl_map_add (map, v, trimmed);
      }
    }
  return map;
}

/* Builds and registers the schemas of one provider. */
static void
register_provider (Parser *p, EtlSchemaRegistry *registry, MProvider *prov, EtlSchemaSource source,
                   guint file, guint32 pid)
{
  EtlGuid guid;
  g_autoptr (GHashTable) maps = NULL;
  g_autoptr (GHashTable) templates = NULL;
  g_autoptr (GHashTable) resolved = NULL;
  g_autoptr (GHashTable) seen = NULL;

  if (prov->name == NULL || prov->guid == NULL || !etl_guid_parse (prov->guid, &guid))
    {
      info_add_warning_at (p, &prov->pos, "provider %s: no usable name and guid; its %u events are skipped",
                           prov->name != NULL ? prov->name : "(unnamed)", prov->events->len);
      p->info->n_skipped += prov->events->len;
      return;
    }
  p->info->n_providers++;
  g_ptr_array_add (p->info->provider_names, g_strdup (prov->name));

  maps = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) etl_map_unref);
  for (guint i = 0; i < prov->maps->len; i++)
    {
      const MMap *m = g_ptr_array_index (prov->maps, i);
      EtlMap *map;

      if (g_hash_table_contains (maps, m->name))
        {
          info_add_warning_at (p, &m->pos, "a second map named %s ignored", m->name);
          continue;
        }
      map = build_map (p, m);
      g_hash_table_insert (maps, map->name, map);
      etl_schema_registry_add_map (registry, &guid, map);
      p->info->n_maps++;
    }

  templates = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < prov->templates->len; i++)
    {
      MTemplate *t = g_ptr_array_index (prov->templates, i);

      if (g_hash_table_contains (templates, t->tid))
        info_add_warning_at (p, &t->pos, "a second template %s ignored", t->tid);
      else
        g_hash_table_insert (templates, t->tid, t);
    }
  resolved = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, rtemplate_free);
  seen = g_hash_table_new_full (g_int_hash, g_int_equal, g_free, NULL);

  for (guint i = 0; i < prov->events->len; i++)
    {
      const MEvent *e = g_ptr_array_index (prov->events, i);
      RTemplate *rt = NULL;
      guint64 id, version = 0;
      EtlSchema *schema;
      gint key;

      if (!parse_u64 (e->value, G_MAXUINT16, &id))
        {
          info_add_warning_at (p, &e->pos, "event skipped: value %s is not a number up to 65535",
                               e->value != NULL ? e->value : "(none)");
          p->info->n_skipped++;
          continue;
        }
      if (e->version != NULL && !parse_u64 (e->version, G_MAXUINT8, &version))
        {
          info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " skipped: version %s is not a number up to 255",
                               id, e->version);
          p->info->n_skipped++;
          continue;
        }
      if (e->template != NULL)
        {
          MTemplate *t = g_hash_table_lookup (templates, e->template);

          if (t == NULL)
            {
              info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT " skipped: no template %s",
                                   id, version, e->template);
              p->info->n_skipped++;
              continue;
            }
          rt = g_hash_table_lookup (resolved, t->tid);
          if (rt == NULL)
            {
              rt = resolve_template (p, t, maps);
              g_hash_table_insert (resolved, t->tid, rt);
            }
          if (rt->unusable)
            {
              info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT " skipped: template %s is unusable",
                                   id, version, e->template);
              p->info->n_skipped++;
              continue;
            }
        }
      if (rt != NULL && p->n_properties + rt->props->len > ETL_MANIFEST_MAX_SCHEMA_PROPERTIES)
        {
          info_add_warning_at (p, &e->pos, "event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT " skipped: the manifest's events have more than %u properties in all",
                               id, version, ETL_MANIFEST_MAX_SCHEMA_PROPERTIES);
          p->info->n_skipped++;
          continue;
        }
      key = (gint) (id << 8 | version);
      if (g_hash_table_contains (seen, &key))
        {
          info_add_warning_at (p, &e->pos, "a second event %" G_GUINT64_FORMAT " v%" G_GUINT64_FORMAT " ignored",
                               id, version);
          p->info->n_skipped++;
          continue;
        }
      g_hash_table_add (seen, g_memdup2 (&key, sizeof key));

      schema = build_schema (p, prov, &guid, e, rt, source, id, version);
      if (source == ETL_SCHEMA_SOURCE_EVENTSOURCE)
        etl_schema_registry_add_scoped (registry, schema, file, pid);
      else
        etl_schema_registry_add (registry, schema);
      etl_schema_unref (schema);
      p->info->n_events++;
      p->n_properties += rt != NULL ? rt->props->len : 0;
      p->info->n_properties += rt != NULL ? rt->props->len : 0;
    }

}

static GHashTable *
choose_culture (GPtrArray *cultures)
{
  for (guint i = 0; i < cultures->len; i++)
    {
      MCulture *c = g_ptr_array_index (cultures, i);

      if (g_ascii_strcasecmp (c->culture, "en-US") == 0)
        return c->strings;
    }
  if (cultures->len > 0)
    return ((MCulture *) g_ptr_array_index (cultures, 0))->strings;
  return NULL;
}

/* GMarkup's own messages start with "Error on line N char M: "; the
 * position is given once, in front. */
static const char *
strip_position (const GError *error)
{
  const char *msg = error->message;

  if (error->domain == G_MARKUP_ERROR && g_str_has_prefix (msg, "Error on line "))
    {
      const char *colon = strstr (msg, ": ");

      if (colon != NULL)
        return colon + 2;
    }
  return msg;
}

/**
 * etl_manifest_info_clear:
 * @info: an #EtlManifestInfo filled by etl_manifest_load_data()
 *
 * Frees what @info holds and zeroes it.
 */
void
etl_manifest_info_clear (EtlManifestInfo *info)
{
  g_return_if_fail (info != NULL);
  g_clear_pointer (&info->warnings, g_ptr_array_unref);
  g_clear_pointer (&info->provider_names, g_ptr_array_unref);
  memset (info, 0, sizeof *info);
}

/* UTF-16 (with a byte-order mark, as mc.exe's inputs often are) to UTF-8;
 * a UTF-8 byte-order mark dropped.  Returns a new buffer or NULL when the
 * input needs no change. */
static char *
to_utf8 (const char *xml, gsize len, gsize *out_len, GError **error)
{
  const guchar *u = (const guchar *) xml;
  const char *charset = NULL;

  if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE)
    charset = "UTF-16LE";
  else if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF)
    charset = "UTF-16BE";
  if (charset == NULL)
    return NULL;
  return g_convert (xml + 2, len - 2, "UTF-8", charset, NULL, out_len, error);
}

/**
 * etl_manifest_load_data:
 * @registry: the registry to add the schemas and maps to
 * @xml: (array length=len): the manifest: UTF-8, or UTF-16 with a
 *   byte-order mark
 * @len: bytes at @xml, or -1 when NUL-terminated; at most
 *   %ETL_MANIFEST_MAX_BYTES
 * @source: %ETL_SCHEMA_SOURCE_MANIFEST for a user's manifest file,
 *   %ETL_SCHEMA_SOURCE_EVENTSOURCE for one found in a trace
 * @file: with %ETL_SCHEMA_SOURCE_EVENTSOURCE, the index of the trace file
 *   that carried it (else ignored)
 * @pid: with %ETL_SCHEMA_SOURCE_EVENTSOURCE, the process that logged it
 *   (else ignored)
 * @origin: (nullable): what to call the manifest in messages (a path, or
 *   "EventSource manifest of …"); "manifest" when %NULL
 * @info: (out caller-allocates) (optional): counts and warnings; zero it
 *   first, clear it with etl_manifest_info_clear()
 * @error: return location for a #GError
 *
 * Parses an instrumentation manifest (EventManifest schema) with GMarkup
 * and registers one #EtlSchema per event (keyed %ETL_SCHEMA_KEY_EVENT_ID:
 * provider GUID, event value, version) and every value map and bitmap of
 * each provider (etl_schema_registry_add_map()).  EventSource manifests are
 * registered scoped to (@file, @pid) (etl_schema_registry_add_scoped()).
 *
 * Names as TraceEvent shows them: task_name and opcode_name are the task's
 * and opcode's localized message when they have one ("GC" for the CLR's
 * GarbageCollection task), else their name; the standard win: opcodes are
 * "Start", "Stop", "DCStart", "DCStop", "Extension", "Reply", "Resume",
 * "Suspend", "Send", "Receive" and "Info" (opcode 0, which display names
 * leave out);
 * event_name is the event's name attribute, else its symbol; keyword_names
 * are the keywords' names.  Localized strings come from the en-US
 * resources, else the first.
 *
 * Problems that leave the rest usable are warnings in @info: an event
 * naming a missing template (skipped), a field with an unknown inType or a
 * count/length naming no earlier integer field (kept with %ETL_IN_NULL so
 * decoding stops there), a missing map (shown as a number).
 *
 * Returns: %TRUE when the document was read (even with warnings); %FALSE
 *   with %ETL_ERROR_CORRUPT ("ORIGIN:LINE:COLUMN: reason") when it is not
 *   well-formed XML, nests deeper than %ETL_MANIFEST_MAX_DEPTH or exceeds
 *   a cap, or with %ETL_ERROR_EMPTY when it is empty — nothing is
 *   registered then
 */
gboolean
etl_manifest_load_data (EtlSchemaRegistry *registry, const char *xml, gssize len, EtlSchemaSource source,
                        guint file, guint32 pid, const char *origin, EtlManifestInfo *info, GError **error)
{
  EtlManifestInfo local_info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *converted = NULL;
  gsize n;
  Parser p = { 0 };
  gboolean ok;

  g_return_val_if_fail (registry != NULL, FALSE);
  g_return_val_if_fail (xml != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (origin == NULL)
    origin = "manifest";
  n = len < 0 ? strlen (xml) : (gsize) len;
  if (info == NULL)
    info = &local_info;
  if (info->warnings == NULL)
    info->warnings = g_ptr_array_new_with_free_func (g_free);
  if (info->provider_names == NULL)
    info->provider_names = g_ptr_array_new_with_free_func (g_free);

  if (n == 0)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_EMPTY, "%s: the manifest is empty", origin);
      etl_manifest_info_clear (&local_info);
      return FALSE;
    }
  if (n > ETL_MANIFEST_MAX_BYTES)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s: %" G_GSIZE_FORMAT " bytes, more than the %u a manifest may have",
                   origin, n, ETL_MANIFEST_MAX_BYTES);
      etl_manifest_info_clear (&local_info);
      return FALSE;
    }
  converted = to_utf8 (xml, n, &n, &local_error);
  if (local_error != NULL)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s:1:1: not valid UTF-16: %s", origin, local_error->message);
      etl_manifest_info_clear (&local_info);
      return FALSE;
    }
  if (converted != NULL)
    xml = converted;
  if (n >= 3 && memcmp (xml, "\xEF\xBB\xBF", 3) == 0)
    {
      xml += 3;
      n -= 3;
    }

  p.origin = origin;
  p.info = info;
  p.providers = g_ptr_array_new_with_free_func (mprovider_free);
  p.cultures = g_ptr_array_new_with_free_func (mculture_free);
  p.context = g_markup_parse_context_new (&markup_parser, 0, &p, NULL);

  ok = g_markup_parse_context_parse (p.context, xml, (gssize) n, &local_error)
       && g_markup_parse_context_end_parse (p.context, &local_error);
  if (!ok)
    {
      int line = 0, col = 0;

      g_markup_parse_context_get_position (p.context, &line, &col);
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s:%d:%d: %s", origin, line, col,
                   strip_position (local_error));
    }
  else
    {
      p.strings = choose_culture (p.cultures);
      for (guint i = 0; i < p.providers->len; i++)
        register_provider (&p, registry, g_ptr_array_index (p.providers, i), source, file, pid);
      if (p.providers->len == 0)
        info_add_warning_at (&p, NULL, "no <provider> in <events>: nothing registered");
    }

  g_markup_parse_context_free (p.context);
  g_ptr_array_unref (p.providers);
  g_ptr_array_unref (p.cultures);
  etl_manifest_info_clear (&local_info);
  return ok;
}

/**
 * etl_manifest_load_file:
 * @registry: the registry to add to
 * @path: (type filename): a manifest file (.man or .xml)
 * @info: (out caller-allocates) (optional): as for etl_manifest_load_data()
 * @error: return location for a #GError
 *
 * Reads @path (at most %ETL_MANIFEST_MAX_BYTES; never written) and
 * registers its schemas with source %ETL_SCHEMA_SOURCE_MANIFEST, for every
 * process and file (see etl_manifest_load_data()).  Messages name @path.
 *
 * Returns: %TRUE on success; %FALSE with %ETL_ERROR_OPEN when @path cannot
 *   be read or is not a regular file, or the errors of
 *   etl_manifest_load_data()
 */
gboolean
etl_manifest_load_file (EtlSchemaRegistry *registry, const char *path, EtlManifestInfo *info, GError **error)
{
  g_autoptr (GFile) gfile = NULL;
  g_autoptr (GFileInfo) finfo = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_return_val_if_fail (registry != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  gfile = g_file_new_for_path (path);
  finfo = g_file_query_info (gfile, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                             G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (finfo == NULL)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: %s", path, local_error->message);
      return FALSE;
    }
  if (g_file_info_get_file_type (finfo) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: not a regular file", path);
      return FALSE;
    }
  if (g_file_info_get_size (finfo) > (goffset) ETL_MANIFEST_MAX_BYTES)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s: %" G_GINT64_FORMAT " bytes, more than the %u a manifest may have",
                   path, (gint64) g_file_info_get_size (finfo), ETL_MANIFEST_MAX_BYTES);
      return FALSE;
    }
  if (!g_file_load_contents (gfile, NULL, &contents, &len, NULL, &local_error))
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return etl_manifest_load_data (registry, contents, (gssize) len, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, path,
                                 info, error);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * etl_manifest_load_dir:
 * @registry: the registry to add to
 * @dir: (type filename): a folder
 * @errors: (element-type utf8) (nullable): receives one message per file
 *   that failed (an #GPtrArray with g_free() as free function)
 * @warnings: (element-type utf8) (nullable): receives the warnings of the
 *   files loaded
 *
 * Loads every `*.man` and `*.xml` file of @dir (not its subfolders), in
 * name order, with etl_manifest_load_file().  A missing folder is not an
 * error.
 *
 * Returns: the number of files loaded
 */
guint
etl_manifest_load_dir (EtlSchemaRegistry *registry, const char *dir, GPtrArray *errors, GPtrArray *warnings)
{
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) names = NULL;
  const char *name;
  guint n = 0;

  g_return_val_if_fail (registry != NULL, 0);
  g_return_val_if_fail (dir != NULL, 0);

  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return 0;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *lower = g_ascii_strdown (name, -1);

      if (g_str_has_suffix (lower, ".man") || g_str_has_suffix (lower, ".xml"))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_autoptr (GError) error = NULL;
      EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;

      if (etl_manifest_load_file (registry, path, &info, &error))
        {
          n++;
          if (warnings != NULL)
            for (guint w = 0; w < info.warnings->len; w++)
              g_ptr_array_add (warnings, g_strdup (g_ptr_array_index (info.warnings, w)));
        }
      else if (errors != NULL)
        g_ptr_array_add (errors, g_strdup (error->message));
      etl_manifest_info_clear (&info);
    }
  return n;
}

/**
 * etl_manifest_dup_user_dir:
 *
 * Returns: (transfer full) (type filename): the folder whose manifests
 *   are loaded at start: `$XDG_DATA_HOME/etlscope/manifests`
 *   (g_get_user_data_dir(); on Windows the local application data folder)
 */
char *
etl_manifest_dup_user_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "etlscope", "manifests", NULL);
}

/**
 * etl_manifest_load_user_dir:
 * @registry: the registry to add to
 * @errors: (element-type utf8) (nullable): as for etl_manifest_load_dir()
 * @warnings: (element-type utf8) (nullable): as for etl_manifest_load_dir()
 *
 * Loads the user's manifests from etl_manifest_dup_user_dir().
 *
 * Returns: the number of files loaded
 */
guint
etl_manifest_load_user_dir (EtlSchemaRegistry *registry, GPtrArray *errors, GPtrArray *warnings)
{
  g_autofree char *dir = etl_manifest_dup_user_dir ();

  return etl_manifest_load_dir (registry, dir, errors, warnings);
}

/* ------------------------------------------------------------------ */
/* EventSource manifests in a trace                                   */

typedef struct
{
  guint file;
  guint32 pid;
  EtlGuid provider;
} EsKey;

typedef struct
{
  EsKey key;
  guint total;
  GBytes **chunks; /* [total] */
  guint n_have;
  gsize n_bytes;
  /* EVENT_DESCRIPTOR of the last chunk record */
  guint8 version;
  guint8 level;
  guint16 task;
  guint64 keyword;
} EsPending;

struct _EtlEventSourceCollector
{
  EtlSchemaRegistry *registry;
  GHashTable *pending; /* EsKey → EsPending */
  GHashTable *parsed;  /* EsKey → checksum of the manifest last registered */
  GHashTable *named;   /* EsKey: ManifestData schema registered (value: version + 1) */
  gsize pending_bytes;
  guint n_manifests;
  guint n_events;
  guint n_properties;
  guint n_discarded;
  GPtrArray *warnings;
  GPtrArray *problems; /* incomplete manifests given up */
};

static guint
es_key_hash (gconstpointer p)
{
  const EsKey *k = p;

  return etl_guid_hash (&k->provider) ^ (k->pid * 2654435761u) ^ k->file;
}

static gboolean
es_key_equal (gconstpointer a, gconstpointer b)
{
  const EsKey *x = a, *y = b;

  return x->file == y->file && x->pid == y->pid && etl_guid_equal (&x->provider, &y->provider);
}

static void
es_pending_free (gpointer p)
{
  EsPending *pending = p;

  for (guint i = 0; i < pending->total; i++)
    if (pending->chunks[i] != NULL)
      g_bytes_unref (pending->chunks[i]);
  g_free (pending->chunks);
  g_free (pending);
}

static char *
es_describe (const EsKey *key)
{
  char guid[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (&key->provider, guid);
  return g_strdup_printf ("EventSource manifest of provider %s (file %u, PID %u)", guid, key->file, key->pid);
}

/**
 * etl_eventsource_record_is_manifest:
 * @record: a record
 *
 * Whether @record is an EventSource manifest chunk: an EVENT_HEADER record
 * with event id 0xFFFE and opcode 0xFE (EventSource.cs's
 * SendManifest).
 *
 * Returns: %TRUE for a manifest chunk
 */
gboolean
etl_eventsource_record_is_manifest (const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);
  return (record->header_type == ETL_HEADER_TYPE_EVENT_HEADER32
          || record->header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
         && record->event_id == ETL_EVENTSOURCE_MANIFEST_EVENT_ID
         && record->opcode == ETL_EVENTSOURCE_MANIFEST_OPCODE;
}

/**
 * etl_eventsource_collector_new:
 * @registry: the registry that complete manifests are added to
 *
 * Returns: (transfer full): a collector; free with
 *   etl_eventsource_collector_free()
 */
EtlEventSourceCollector *
etl_eventsource_collector_new (EtlSchemaRegistry *registry)
{
  EtlEventSourceCollector *c;

  g_return_val_if_fail (registry != NULL, NULL);
  c = g_new0 (EtlEventSourceCollector, 1);
  c->registry = etl_schema_registry_ref (registry);
  c->pending = g_hash_table_new_full (es_key_hash, es_key_equal, NULL, es_pending_free);
  c->parsed = g_hash_table_new_full (es_key_hash, es_key_equal, g_free, g_free);
  c->named = g_hash_table_new_full (es_key_hash, es_key_equal, g_free, NULL);
  c->warnings = g_ptr_array_new_with_free_func (g_free);
  c->problems = g_ptr_array_new_with_free_func (g_free);
  return c;
}

/**
 * etl_eventsource_collector_free:
 * @collector: (nullable): a collector
 *
 * Frees @collector; incomplete manifests are dropped.
 */
void
etl_eventsource_collector_free (EtlEventSourceCollector *collector)
{
  if (collector == NULL)
    return;
  etl_schema_registry_unref (collector->registry);
  g_hash_table_unref (collector->pending);
  g_hash_table_unref (collector->parsed);
  g_hash_table_unref (collector->named);
  g_ptr_array_unref (collector->warnings);
  g_ptr_array_unref (collector->problems);
  g_free (collector);
}

static void
es_drop (EtlEventSourceCollector *c, EsPending *pending, gboolean report)
{
  if (report && pending->n_have < pending->total)
    {
      g_autofree char *what = es_describe (&pending->key);

      c->n_discarded++;
      if (c->problems->len < ETL_MANIFEST_MAX_WARNINGS)
        g_ptr_array_add (c->problems, g_strdup_printf ("%s: %u of %u chunks arrived; not used", what,
                                                       pending->n_have, pending->total));
    }
  c->pending_bytes -= pending->n_bytes;
  g_hash_table_remove (c->pending, &pending->key);
}

/* The chunk records themselves, as TraceEvent names them: event 0xFFFE
 * "ManifestData" with the envelope's fields, then this chunk's part of the
 * manifest's UTF-8 text (not NUL-terminated: it runs to the end). */
static void
es_register_manifest_data (EtlEventSourceCollector *c, const EsKey *key, guint8 version, guint16 task,
                           guint8 level, guint64 keyword, const char *provider_name)
{
  EtlSchemaKey skey;
  EtlSchema *schema;
  static const struct
  {
    const char *name;
    guint16 in_type;
  } fields[] = {
    { "Format", ETL_IN_UINT8 },       { "MajorVersion", ETL_IN_UINT8 }, { "MinorVersion", ETL_IN_UINT8 },
    { "Magic", ETL_IN_UINT8 },        { "TotalChunks", ETL_IN_UINT16 }, { "ChunkNumber", ETL_IN_UINT16 },
  };

  etl_schema_key_init_event_id (&skey, &key->provider, ETL_EVENTSOURCE_MANIFEST_EVENT_ID, version);
  schema = etl_schema_new (&skey, ETL_SCHEMA_SOURCE_EVENTSOURCE);
  schema->provider_name = g_strdup (provider_name);
  schema->event_name = g_strdup ("ManifestData");
  schema->opcode = ETL_EVENTSOURCE_MANIFEST_OPCODE;
  schema->task = task;
  schema->level = level;
  schema->keyword = keyword;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    etl_schema_add_property (schema, fields[i].name, fields[i].in_type, ETL_OUT_NULL);
  etl_schema_add_property (schema, "ManifestText", ETL_IN_NONNULLTERMINATEDANSISTRING, ETL_OUT_UTF8);
  etl_schema_registry_add_scoped (c->registry, schema, key->file, key->pid);
  etl_schema_unref (schema);
}

/* Before the manifest is complete the provider's name is not known yet;
 * es_complete() registers the schema again with it. */
static void
es_name_chunks (EtlEventSourceCollector *c, const EsKey *key, const EtlRecord *record)
{
  gpointer seen = g_hash_table_lookup (c->named, key);

  if (seen != NULL && GPOINTER_TO_UINT (seen) == (guint) record->version + 1)
    return;
  es_register_manifest_data (c, key, record->version, record->task, record->level, record->keyword, NULL);
  g_hash_table_replace (c->named, g_memdup2 (key, sizeof *key), GUINT_TO_POINTER ((guint) record->version + 1));
}

/* All chunks are in: parse unless the same text was registered for this
 * key already (EventSource sends its manifest again at rundown). */
static gboolean
es_complete (EtlEventSourceCollector *c, EsPending *pending, GError **error)
{
  g_autoptr (GByteArray) xml = g_byte_array_sized_new ((guint) pending->n_bytes);
  g_autofree char *origin = es_describe (&pending->key);
  g_autofree char *checksum = NULL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  EsKey key = pending->key;
  guint8 version = pending->version, level = pending->level;
  guint16 task = pending->task;
  guint64 keyword = pending->keyword;
  const char *previous;
  gboolean ok;
  gsize len;

  for (guint i = 0; i < pending->total; i++)
    {
      gsize n;
      const guint8 *d = g_bytes_get_data (pending->chunks[i], &n);

      g_byte_array_append (xml, d, (guint) n);
    }
  es_drop (c, pending, FALSE);

  len = xml->len;
  while (len > 0 && xml->data[len - 1] == 0)
    len--;
  checksum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, xml->data, len);
  previous = g_hash_table_lookup (c->parsed, &key);
  if (previous != NULL && strcmp (previous, checksum) == 0)
    return TRUE;
  if (c->n_properties >= ETL_EVENTSOURCE_MAX_PROPERTIES)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s: the trace's EventSource manifests already describe %u properties; not parsed",
                   origin, c->n_properties);
      return FALSE;
    }

  ok = etl_manifest_load_data (c->registry, (const char *) xml->data, (gssize) len, ETL_SCHEMA_SOURCE_EVENTSOURCE,
                               key.file, key.pid, origin, &info, error);
  if (ok)
    {
      c->n_manifests++;
      if (info.provider_names->len > 0)
        es_register_manifest_data (c, &key, version, task, level, keyword,
                                   g_ptr_array_index (info.provider_names, 0));
      c->n_events += info.n_events;
      c->n_properties += info.n_properties;
      for (guint i = 0; i < info.warnings->len && c->warnings->len < ETL_MANIFEST_MAX_WARNINGS; i++)
        g_ptr_array_add (c->warnings, g_strdup (g_ptr_array_index (info.warnings, i)));
      g_hash_table_replace (c->parsed, g_memdup2 (&key, sizeof key), g_steal_pointer (&checksum));
    }
  etl_manifest_info_clear (&info);
  return ok;
}

/**
 * etl_eventsource_collector_add:
 * @collector: a collector
 * @record: any record of the trace (records other than manifest chunks
 *   are ignored)
 * @error: return location for a #GError
 *
 * Takes one EventSource manifest chunk: the 8-byte ManifestEnvelope
 * (u8 Format = 1 for XML, u8 MajorVersion, u8 MinorVersion, u8 Magic =
 * 0x5B, u16 TotalChunks, u16 ChunkNumber, little-endian) and that part of
 * the UTF-8 manifest.  Chunks are kept per (file, provider, PID); a chunk
 * 0, or a different TotalChunks, starts the manifest again.  The chunk
 * records themselves get a scoped schema named "ManifestData" (the
 * envelope's fields, as TraceEvent shows them).  When the last
 * chunk arrives the manifest is parsed and its schemas registered scoped
 * to (file, PID) with %ETL_SCHEMA_SOURCE_EVENTSOURCE; an identical
 * manifest sent again is not parsed twice.  The chunk bytes are copied.
 *
 * Returns: %TRUE when @record was taken or ignored; %FALSE with
 *   %ETL_ERROR_CORRUPT (bad envelope, a chunk number out of range, more
 *   than %ETL_MANIFEST_MAX_BYTES for one manifest or
 *   %ETL_EVENTSOURCE_MAX_PENDING_BYTES in all, malformed XML, more than
 *   %ETL_EVENTSOURCE_MAX_PROPERTIES properties registered already, more
 *   than %ETL_EVENTSOURCE_MAX_PENDING manifests incomplete at once) or
 *   %ETL_ERROR_UNSUPPORTED (a Format other than 1); messages name the
 *   file index, the record's offset, the provider and the PID
 */
gboolean
etl_eventsource_collector_add (EtlEventSourceCollector *collector, const EtlRecord *record, GError **error)
{
  EtlEventSourceCollector *c = collector;
  const guint8 *d;
  guint format, magic, total, number;
  EsKey key = { 0 };
  EsPending *pending;
  gsize body_len;
  g_autofree char *what = NULL;

  g_return_val_if_fail (collector != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!etl_eventsource_record_is_manifest (record))
    return TRUE;

  key.file = record->file;
  key.pid = record->pid;
  key.provider = record->provider;
  what = es_describe (&key);

  d = record->user_data;
  if (d == NULL || record->user_data_len < ETL_EVENTSOURCE_ENVELOPE_SIZE)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "file %u, offset %" G_GUINT64_FORMAT ": %s: %" G_GSIZE_FORMAT " bytes, shorter than the %u-byte envelope",
                   record->file, record->file_offset, what, record->user_data_len, ETL_EVENTSOURCE_ENVELOPE_SIZE);
      return FALSE;
    }
  format = d[0];
  magic = d[3];
  total = d[4] | (guint) d[5] << 8;
  number = d[6] | (guint) d[7] << 8;
  if (magic != ETL_EVENTSOURCE_ENVELOPE_MAGIC)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "file %u, offset %" G_GUINT64_FORMAT ": %s: envelope magic 0x%02x, not 0x5b",
                   record->file, record->file_offset, what, magic);
      return FALSE;
    }
  if (format != 1)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED,
                   "file %u, offset %" G_GUINT64_FORMAT ": %s: manifest format %u (only 1, XML, is known)",
                   record->file, record->file_offset, what, format);
      return FALSE;
    }
  if (total == 0 || total > ETL_EVENTSOURCE_MAX_CHUNKS || number >= total)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "file %u, offset %" G_GUINT64_FORMAT ": %s: chunk %u of %u (at most %u chunks)",
                   record->file, record->file_offset, what, number, total, ETL_EVENTSOURCE_MAX_CHUNKS);
      return FALSE;
    }
  body_len = record->user_data_len - ETL_EVENTSOURCE_ENVELOPE_SIZE;
  es_name_chunks (c, &key, record);

  pending = g_hash_table_lookup (c->pending, &key);
  if (pending != NULL && (pending->total != total || (number == 0 && pending->chunks[0] != NULL)))
    {
      es_drop (c, pending, TRUE);
      pending = NULL;
    }
  if (pending == NULL)
    {
      if (g_hash_table_size (c->pending) >= ETL_EVENTSOURCE_MAX_PENDING)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                       "file %u, offset %" G_GUINT64_FORMAT ": %s: %u other manifests are incomplete; chunk dropped",
                       record->file, record->file_offset, what, ETL_EVENTSOURCE_MAX_PENDING);
          c->n_discarded++;
          return FALSE;
        }
      pending = g_new0 (EsPending, 1);
      pending->key = key;
      pending->total = total;
      pending->chunks = g_new0 (GBytes *, total);
      g_hash_table_insert (c->pending, &pending->key, pending);
    }
  if (pending->chunks[number] != NULL)
    {
      /* The same chunk again: keep the newer. */
      pending->n_bytes -= g_bytes_get_size (pending->chunks[number]);
      c->pending_bytes -= g_bytes_get_size (pending->chunks[number]);
      g_clear_pointer (&pending->chunks[number], g_bytes_unref);
      pending->n_have--;
    }
  if (pending->n_bytes + body_len > ETL_MANIFEST_MAX_BYTES
      || c->pending_bytes + body_len > ETL_EVENTSOURCE_MAX_PENDING_BYTES)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "file %u, offset %" G_GUINT64_FORMAT ": %s: more than %u bytes of manifest; dropped",
                   record->file, record->file_offset, what,
                   pending->n_bytes + body_len > ETL_MANIFEST_MAX_BYTES ? ETL_MANIFEST_MAX_BYTES
                                                                       : ETL_EVENTSOURCE_MAX_PENDING_BYTES);
      es_drop (c, pending, FALSE);
      c->n_discarded++;
      return FALSE;
    }
  pending->chunks[number] = g_bytes_new (d + ETL_EVENTSOURCE_ENVELOPE_SIZE, body_len);
  pending->version = record->version;
  pending->level = record->level;
  pending->task = record->task;
  pending->keyword = record->keyword;
  pending->n_have++;
  pending->n_bytes += body_len;
  c->pending_bytes += body_len;
  if (pending->n_have < pending->total)
    return TRUE;
  return es_complete (c, pending, error);
}

/**
 * etl_eventsource_collector_finish:
 * @collector: a collector
 * @problems: (element-type utf8) (nullable): receives a message for each
 *   manifest that never completed or was started again before it did
 *
 * Call after the last record: drops the manifests still missing chunks.
 *
 * Returns: the number of incomplete manifests
 */
guint
etl_eventsource_collector_finish (EtlEventSourceCollector *collector, GPtrArray *problems)
{
  GHashTableIter iter;
  gpointer value;
  g_autoptr (GPtrArray) left = g_ptr_array_new ();

  g_return_val_if_fail (collector != NULL, 0);

  g_hash_table_iter_init (&iter, collector->pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (left, value);
  for (guint i = 0; i < left->len; i++)
    es_drop (collector, g_ptr_array_index (left, i), TRUE);
  if (problems != NULL)
    for (guint i = 0; i < collector->problems->len; i++)
      g_ptr_array_add (problems, g_strdup (g_ptr_array_index (collector->problems, i)));
  g_ptr_array_set_size (collector->problems, 0);
  return collector->n_discarded;
}

/**
 * etl_eventsource_collector_get_n_manifests:
 * @collector: a collector
 *
 * Returns: the number of distinct manifests parsed and registered
 */
guint
etl_eventsource_collector_get_n_manifests (EtlEventSourceCollector *collector)
{
  g_return_val_if_fail (collector != NULL, 0);
  return collector->n_manifests;
}

/**
 * etl_eventsource_collector_get_n_events:
 * @collector: a collector
 *
 * Returns: the number of event schemas registered from those manifests
 */
guint
etl_eventsource_collector_get_n_events (EtlEventSourceCollector *collector)
{
  g_return_val_if_fail (collector != NULL, 0);
  return collector->n_events;
}

/**
 * etl_eventsource_collector_get_warnings:
 * @collector: a collector
 *
 * Returns: (transfer none) (element-type utf8): the warnings of the
 *   manifests parsed so far (see #EtlManifestInfo), at most
 *   %ETL_MANIFEST_MAX_WARNINGS
 */
const GPtrArray *
etl_eventsource_collector_get_warnings (EtlEventSourceCollector *collector)
{
  g_return_val_if_fail (collector != NULL, NULL);
  return collector->warnings;
}
