/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-decode
 * @title: Payload decoding
 * @short_description: a record's user data as named, formatted fields
 *
 * etl_decode_with_schema() walks an #EtlSchema's properties over a record's
 * user data as TDH walks a TRACE_EVENT_INFO (tdh.h, "Using TdhFormatProperty
 * to Consume Event Data"): top-level properties in order, counts and lengths
 * taken from earlier properties (PropertyParamCount / PropertyParamLength),
 * struct members after the top-level properties, pointer-sized fields as
 * wide as the record's header says.  Every read is bounds-checked; the
 * first property that cannot be decoded ends the walk with the fields so
 * far kept (#EtlDecoded.complete is then %FALSE).
 *
 * Values are formatted as TraceEvent shows them: integers in decimal
 * (UInt64 as a signed 64-bit number unless its out-type says unsigned, as
 * TraceEvent does),
 * pointers and hex out-types as 0x with at least 8 hex digits, value maps and
 * bitmaps by name, booleans as True/False, GUIDs without braces, SIDs as
 * S-1-5-…, FILETIME and SYSTEMTIME as ISO 8601, IPv4/IPv6 addresses, ports
 * (network order) and SOCKADDR_IN/SOCKADDR_IN6 as text, strings as UTF-8
 * (invalid sequences replaced by U+FFFD), binary as hex, kernel NT paths as
 * DOS paths through an #EtlVolumeMap.
 *
 * Speed: a record's strings (names and values) are written into one buffer,
 * integers formatted by hand, and the field array is sized once, so a record
 * costs a handful of allocations whatever its number of fields (issue 9:
 * ≤ 1 µs a record on net.4.5.2.x64.etl).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <gio/gio.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-decode-private.h"
#include "etl-tdh.h"
#include "etl-winsat.h"
#include "etl-format-private.h"
#include "etl-names.h"
#include "etl-schema-private.h"
#include "etl-trace-reader.h"
#include "etl-tracelogging.h"

/* Caps against hostile counts: elements of one array property, fields of
 * one record, struct nesting, bytes of one string or binary value shown. */
#define MAX_ELEMENTS 4096
#define MAX_FIELDS 65536
#define MAX_DEPTH 8
#define MAX_BINARY_SHOWN 256
#define MAX_SID_SUBAUTHORITIES 15

/* ---- EtlVolumeMap ----------------------------------------------------- */

typedef struct
{
  char *nt;  /* without a trailing backslash */
  char *dos; /* without a trailing backslash */
} Volume;

struct _EtlVolumeMap
{
  GArray *volumes; /* Volume */
};

static void
volume_clear (gpointer p)
{
  Volume *v = p;

  g_free (v->nt);
  g_free (v->dos);
}

/**
 * etl_volume_map_new:
 *
 * A map that knows the UNC root ("\Device\Mup\" → "\\") and whatever
 * etl_volume_map_add() adds.
 *
 * Returns: (transfer full): an empty map; free with etl_volume_map_free()
 */
EtlVolumeMap *
etl_volume_map_new (void)
{
  EtlVolumeMap *map = g_new0 (EtlVolumeMap, 1);

  map->volumes = g_array_new (FALSE, FALSE, sizeof (Volume));
  g_array_set_clear_func (map->volumes, volume_clear);
  /* The multiple UNC provider's device is the root of UNC paths
   * ("\Device\Mup\server\share" is "\\server\share") on every system. */
  etl_volume_map_add (map, "\\Device\\Mup\\", "\\\\");
  return map;
}

/**
 * etl_volume_map_free:
 * @map: (nullable): a map
 */
void
etl_volume_map_free (EtlVolumeMap *map)
{
  if (map == NULL)
    return;
  g_array_unref (map->volumes);
  g_free (map);
}

/* "C:\Windows\" → "C:\Windows"; the UNC root "\\" (\Device\Mup's DosPath)
 * → "\", so that "\" + "\server\share" reads "\\server\share". */
static char *
strip_trailing_backslash (const char *s)
{
  gsize n = strlen (s);

  while (n > 1 && s[n - 1] == '\\')
    n--;
  if (n == 1 && s[0] == '\\' && s[1] == '\\')
    n = 1; /* "\\" stays "\": the UNC root */
  else if (n == 1 && s[0] == '\\')
    n = 0;
  return g_strndup (s, n);
}

/**
 * etl_volume_map_add:
 * @map: a map
 * @nt_path: an NT device path ("\Device\HarddiskVolume2\", "\SystemRoot\",
 *   "\??\"), as SysConfig VolumeMapping's NtPath
 * @dos_path: its DOS path ("C:\", "C:\Windows\", ""), as DosPath
 *
 * Adds a mapping.  A path already mapped keeps its first DOS path.
 */
void
etl_volume_map_add (EtlVolumeMap *map, const char *nt_path, const char *dos_path)
{
  Volume v;

  g_return_if_fail (map != NULL && nt_path != NULL && dos_path != NULL);

  v.nt = strip_trailing_backslash (nt_path);
  if (v.nt[0] == '\0')
    {
      g_free (v.nt);
      return;
    }
  for (guint i = 0; i < map->volumes->len; i++)
    if (g_ascii_strcasecmp (g_array_index (map->volumes, Volume, i).nt, v.nt) == 0)
      {
        g_free (v.nt);
        return;
      }
  /* One separator only: a UNC root maps to "\\" (\Device\Mup\ in
   * VolumeMapping records) and must keep its first backslash. */
  v.dos = g_str_has_suffix (dos_path, "\\") ? g_strndup (dos_path, strlen (dos_path) - 1)
                                             : g_strdup (dos_path);
  g_array_append_val (map->volumes, v);
}

/* The longest mapped NT prefix of @path (followed by '\' or the end). */
static const Volume *
volume_find (const EtlVolumeMap *map, const char *path, gsize len)
{
  const Volume *best = NULL;
  gsize best_len = 0;

  for (guint i = 0; i < map->volumes->len; i++)
    {
      const Volume *v = &g_array_index (map->volumes, Volume, i);
      gsize n = strlen (v->nt);

      if (n > len || n <= best_len || g_ascii_strncasecmp (path, v->nt, n) != 0)
        continue;
      if (n < len && path[n] != '\\')
        continue;
      best = v;
      best_len = n;
    }
  return best;
}

/**
 * etl_volume_map_to_dos:
 * @map: a map
 * @nt_path: a kernel file name ("\Device\HarddiskVolume2\Windows\x.dll")
 *
 * Replaces the longest mapped NT prefix of @nt_path by its DOS path
 * ("C:\Windows\x.dll"); the prefix must end at a path separator.  Compared
 * ASCII case-insensitively, as the object manager does.  A path with no
 * device ("\Windows\x.dll") is put on the drive of \SystemRoot's mapping.
 *
 * Returns: (transfer full) (nullable): the DOS path, or %NULL when no
 *   mapping applies
 */
char *
etl_volume_map_to_dos (const EtlVolumeMap *map, const char *nt_path)
{
  const Volume *v;
  const char *rest;
  gsize len;

  g_return_val_if_fail (map != NULL && nt_path != NULL, NULL);

  len = strlen (nt_path);
  v = volume_find (map, nt_path, len);
  if (v == NULL)
    {
      /* A rooted path with no device ("\Windows\System32\x.dll", as image
       * loads of Windows 8 give it) lies on the system volume: the drive of
       * \SystemRoot's mapping, as TraceEvent resolves it. */
      const Volume *root;

      if (nt_path[0] != '\\' || nt_path[1] == '\\' || g_str_has_prefix (nt_path, "\\Device\\")
          || g_str_has_prefix (nt_path, "\\??\\"))
        return NULL;
      root = volume_find (map, "\\SystemRoot", strlen ("\\SystemRoot"));
      if (root == NULL || strlen (root->dos) < 2 || root->dos[1] != ':')
        return NULL;
      return g_strdup_printf ("%.2s%s", root->dos, nt_path);
    }
  rest = nt_path + strlen (v->nt);
  if (v->dos[0] == '\0')
    return g_strdup (rest + (rest[0] == '\\' ? 1 : 0));
  return g_strconcat (v->dos, rest, NULL);
}

/* Whether a string value is a kernel file name the volume map translates
 * although its metadata declares a plain string: a "FileName" property
 * holding a device path (Microsoft-Windows-Kernel-File's events), as
 * TraceEvent shows them.  Other strings (command lines, image names,
 * VolumeMapping's own NtPath) stay as logged. */
static gboolean
looks_like_nt_path (const EtlProperty *prop, const char *s)
{
  return prop->name != NULL && strcmp (prop->name, "FileName") == 0
         && (g_ascii_strncasecmp (s, "\\Device\\", 8) == 0 || g_ascii_strncasecmp (s, "\\SystemRoot\\", 12) == 0);
}

/* ---- the walk --------------------------------------------------------- */

typedef struct
{
  EtlDecoded pub;
  GString *text; /* every name and value, NUL-separated */
} Decoded;

typedef struct
{
  const EtlSchema *schema;
  const EtlVolumeMap *volumes;
  const guint8 *data;
  gsize len;
  gsize pos;
  guint pointer_size;
  guint64 *values; /* the last integer value of each property */
  guint8 *has_value;
  EtlField *fields; /* collected here, copied into the GArray once */
  EtlField fields_stack[64];
  guint n_fields;
  guint fields_alloc;
  guint max_fields; /* stop after this many fields (etl_decode_record_prefix()) */
  gboolean capped;  /* stopped there */
  GString *text;
  GString *prefix; /* "Struct[k]." while inside a struct */
} Walk;


/* Appending to a record's text buffer: GString's own calls, without their
 * checks and calls on the hot path (a record appends dozens of pieces). */
static inline void
text_append_len (GString *s, const char *p, gsize n)
{
  if (G_UNLIKELY (s->len + n + 1 > s->allocated_len))
    {
      gsize old = s->len;

      g_string_set_size (s, old + n);
      s->len = old;
    }
  memcpy (s->str + s->len, p, n);
  s->len += n;
  s->str[s->len] = '\0';
}

static inline void
text_append (GString *s, const char *p)
{
  text_append_len (s, p, strlen (p));
}

static inline void
text_append_c (GString *s, char c)
{
  text_append_len (s, &c, 1);
}

static inline void
append_u64 (GString *s, guint64 v)
{
  char buf[24];
  int i = sizeof buf;

  do
    {
      buf[--i] = (char)('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  text_append_len (s, buf + i, sizeof buf - i);
}

static inline void
append_i64 (GString *s, gint64 v)
{
  if (v < 0)
    {
      text_append_c (s, '-');
      append_u64 (s, (guint64)0 - (guint64)v);
    }
  else
    append_u64 (s, (guint64)v);
}

/* "0x" and at least 8 hex digits, as TraceEvent prints pointers and hex. */
static inline void
append_hex (GString *s, guint64 v)
{
  static const char digits[] = "0123456789abcdef";
  char buf[16];
  int i = sizeof buf;

  do
    {
      buf[--i] = digits[v & 0xF];
      v >>= 4;
    }
  while (v != 0 || i > (int)sizeof buf - 8);
  text_append_len (s, "0x", 2);
  text_append_len (s, buf + i, sizeof buf - i);
}

static void
append_hex_bytes (GString *s, const guint8 *p, gsize n)
{
  static const char digits[] = "0123456789abcdef";
  gsize shown = MIN (n, (gsize)MAX_BINARY_SHOWN);

  text_append_len (s, "0x", 2);
  for (gsize i = 0; i < shown; i++)
    {
      text_append_c (s, digits[p[i] >> 4]);
      text_append_c (s, digits[p[i] & 0xF]);
    }
  if (n > shown)
    text_append (s, "…");
}

/* UTF-16LE code units to UTF-8; unpaired surrogates become U+FFFD. */
static void
append_utf16 (GString *s, const guint8 *p, gsize n_units)
{
  for (gsize i = 0; i < n_units; i++)
    {
      gunichar c = etl_read_u16 (p + 2 * i);

      if (c < 0x80)
        {
          text_append_c (s, (char)c);
          continue;
        }
      if (c >= 0xD800 && c < 0xDC00 && i + 1 < n_units)
        {
          gunichar lo = etl_read_u16 (p + 2 * i + 2);

          if (lo >= 0xDC00 && lo < 0xE000)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
              i++;
            }
          else
            c = 0xFFFD;
        }
      else if (c >= 0xD800 && c < 0xE000)
        c = 0xFFFD;
      g_string_append_unichar (s, c);
    }
}

/* ANSI bytes (assumed UTF-8 or ASCII) with invalid sequences made valid. */
static void
append_ansi (GString *s, const guint8 *p, gsize n)
{
  const char *end;

  if (g_utf8_validate ((const char *)p, (gssize)n, &end) && end == (const char *)p + n)
    text_append_len (s, (const char *)p, (gssize)n);
  else
    {
      g_autofree char *valid = g_utf8_make_valid ((const char *)p, (gssize)n);

      text_append (s, valid);
    }
}

static void
append_guid (GString *s, const guint8 *p)
{
  EtlGuid guid;
  char buf[ETL_GUID_STRING_LEN + 1];

  etl_guid_read (&guid, p);
  etl_guid_to_string (&guid, buf);
  text_append_len (s, buf, ETL_GUID_STRING_LEN);
}

/* A SID at @p (@avail bytes): its size, or 0 when it does not fit. */
static gsize
sid_size (const guint8 *p, gsize avail)
{
  gsize n;

  if (avail < 8 || p[1] > MAX_SID_SUBAUTHORITIES)
    return 0;
  n = 8 + 4 * (gsize)p[1];
  return n <= avail ? n : 0;
}

static void
append_sid (GString *s, const guint8 *p)
{
  guint64 authority = 0;

  for (guint i = 0; i < 6; i++)
    authority = (authority << 8) | p[2 + i];
  text_append (s, "S-");
  append_u64 (s, p[0]);
  text_append_c (s, '-');
  append_u64 (s, authority);
  for (guint i = 0; i < p[1]; i++)
    {
      text_append_c (s, '-');
      append_u64 (s, etl_read_u32 (p + 8 + 4 * i));
    }
}

static void
append_systemtime (GString *s, const guint8 *p)
{
  g_string_append_printf (s, "%04u-%02u-%02uT%02u:%02u:%02u.%03u", etl_read_u16 (p),
                          etl_read_u16 (p + 2), etl_read_u16 (p + 6), etl_read_u16 (p + 8),
                          etl_read_u16 (p + 10), etl_read_u16 (p + 12), etl_read_u16 (p + 14));
}

static void
append_filetime (GString *s, guint64 ft)
{
  g_autofree char *iso = ft <= G_MAXINT64 ? etl_filetime_to_iso8601 ((gint64)ft) : NULL;

  if (iso != NULL)
    text_append (s, iso);
  else
    append_u64 (s, ft);
}

static void
append_ipv4 (GString *s, const guint8 *p)
{
  for (guint i = 0; i < 4; i++)
    {
      if (i > 0)
        text_append_c (s, '.');
      append_u64 (s, p[i]);
    }
}

static void
append_ipv6 (GString *s, const guint8 *p)
{
  g_autoptr (GInetAddress) a = g_inet_address_new_from_bytes (p, G_SOCKET_FAMILY_IPV6);
  g_autofree char *text = g_inet_address_to_string (a);

  text_append (s, text);
}

/* SOCKADDR_IN (family 2) and SOCKADDR_IN6 (family 23 on Windows) as
 * "a.b.c.d:port" and "[v6]:port"; other families as hex. */
static void
append_sockaddr (GString *s, const guint8 *p, gsize n)
{
  guint family = n >= 2 ? etl_read_u16 (p) : 0;

  if (family == 2 && n >= 8)
    {
      append_ipv4 (s, p + 4);
      text_append_c (s, ':');
      append_u64 (s, (guint)(p[2] << 8 | p[3]));
    }
  else if (family == 23 && n >= 24)
    {
      text_append_c (s, '[');
      append_ipv6 (s, p + 8);
      text_append (s, "]:");
      append_u64 (s, (guint)(p[2] << 8 | p[3]));
    }
  else
    append_hex_bytes (s, p, n);
}

static gboolean
is_hex_out (guint out_type)
{
  switch (out_type)
    {
    case ETL_OUT_HEXINT8:
    case ETL_OUT_HEXINT16:
    case ETL_OUT_HEXINT32:
    case ETL_OUT_HEXINT64:
    case ETL_OUT_ERRORCODE:
    case ETL_OUT_WIN32ERROR:
    case ETL_OUT_NTSTATUS:
    case ETL_OUT_HRESULT:
    case ETL_OUT_CODE_POINTER:
    case ETL_OUT_HEXBINARY:
      return TRUE;
    default:
      return FALSE;
    }
}

/* An integer already read: formatted by out-type and map. */
static void
append_integer (Walk *w, const EtlProperty *prop, guint64 v, gboolean is_signed, guint size,
                gboolean hex)
{
  GString *s = w->text;
  const EtlMap *map = g_atomic_pointer_get (&((EtlProperty *)prop)->map);

  if (map != NULL)
    {
      etl_map_append (map, v, s);
      return;
    }
  if (hex || is_hex_out (prop->out_type))
    {
      append_hex (s, v);
      return;
    }
  switch (prop->out_type)
    {
    case ETL_OUT_BOOLEAN:
      text_append (s, v != 0 ? "True" : "False");
      return;
    case ETL_OUT_PORT:
      if (size == 2)
        {
          append_u64 (s, ((v & 0xFF) << 8) | ((v >> 8) & 0xFF));
          return;
        }
      break;
    case ETL_OUT_IPV4:
      if (size == 4)
        {
          guint8 b[4] = { (guint8)v, (guint8)(v >> 8), (guint8)(v >> 16), (guint8)(v >> 24) };

          append_ipv4 (s, b);
          return;
        }
      break;
    case ETL_OUT_DATETIME:
    case ETL_OUT_DATETIME_UTC:
    case ETL_OUT_CULTURE_INSENSITIVE_DATETIME:
      if (size == 8)
        {
          append_filetime (s, v);
          return;
        }
      break;
    default:
      break;
    }
  if (is_signed)
    {
      gint64 sv;

      switch (size)
        {
        case 1:
          sv = (gint8)v;
          break;
        case 2:
          sv = (gint16)v;
          break;
        case 4:
          sv = (gint32)v;
          break;
        default:
          sv = (gint64)v;
          break;
        }
      append_i64 (s, sv);
    }
  else
    append_u64 (s, v);
}

/* Length of a NUL-terminated UTF-16 string at @p within @avail bytes, in
 * code units; *consumed gets the bytes used (the NUL included, or all of
 * @avail rounded down to whole units when the data ends first). */
static gsize
utf16_strlen (const guint8 *p, gsize avail, gsize *consumed)
{
  gsize n = 0;

  while (2 * n + 1 < avail)
    {
      if (p[2 * n] == 0 && p[2 * n + 1] == 0)
        {
          *consumed = 2 * n + 2;
          return n;
        }
      n++;
    }
  *consumed = 2 * n;
  return n;
}

/* Resolves a count or length that may name an earlier property. */
static gboolean
param_value (Walk *w, guint16 index, guint64 *out)
{
  if (index >= w->schema->n_properties || !w->has_value[index])
    return FALSE;
  *out = w->values[index];
  return TRUE;
}

/*
 * Decodes one element of a scalar property at w->pos into w->text (the
 * value) and @field (numbers).  @length is the fixed or param length (0 =
 * the type's own rule).  Returns FALSE, with w->text and w->pos unchanged,
 * when the element does not fit or the type is unknown.
 */
static gboolean
decode_element (Walk *w, const EtlProperty *prop, guint64 length, EtlField *field)
{
  const guint8 *p = w->data + w->pos;
  gsize avail = w->len - w->pos;
  gsize need = 0;
  guint64 v = 0;
  GString *s = w->text;
  guint out = prop->out_type;

#define NEED(n)                                                                                    \
  G_STMT_START                                                                                     \
  {                                                                                                \
    need = (n);                                                                                    \
    if (avail < need)                                                                              \
      return FALSE;                                                                                \
  }                                                                                                \
  G_STMT_END

#define INTEGER(size, read, is_signed, hex)                                                        \
  G_STMT_START                                                                                     \
  {                                                                                                \
    NEED (size);                                                                                   \
    v = (read);                                                                                    \
    field->has_number = TRUE;                                                                      \
    field->number = (is_signed) ? (guint64)(gint64)(size == 1   ? (gint64)(gint8)v                 \
                                                    : size == 2 ? (gint64)(gint16)v                \
                                                    : size == 4 ? (gint64)(gint32)v                \
                                                                : (gint64)v)                       \
                                : v;                                                               \
    append_integer (w, prop, v, is_signed, size, hex);                                             \
  }                                                                                                \
  G_STMT_END

  switch (prop->in_type)
    {
    case ETL_IN_NULL:
      break;
    case ETL_IN_INT8:
      INTEGER (1, p[0], TRUE, FALSE);
      break;
    case ETL_IN_UINT8:
      INTEGER (1, p[0], FALSE, FALSE);
      break;
    case ETL_IN_INT16:
      INTEGER (2, etl_read_u16 (p), TRUE, FALSE);
      break;
    case ETL_IN_UINT16:
      INTEGER (2, etl_read_u16 (p), FALSE, FALSE);
      break;
    case ETL_IN_INT32:
      INTEGER (4, etl_read_u32 (p), TRUE, FALSE);
      break;
    case ETL_IN_UINT32:
      INTEGER (4, etl_read_u32 (p), FALSE, FALSE);
      break;
    case ETL_IN_INT64:
      INTEGER (8, etl_read_u64 (p), TRUE, FALSE);
      break;
    case ETL_IN_UINT64:
      /* TraceEvent reads UInt64 as a C# long: values from 2^63 up show
       * negative (primitive-types.etl's int64_type=-204 is a UInt64). */
      INTEGER (8, etl_read_u64 (p), out == ETL_OUT_NULL || out == ETL_OUT_LONG, FALSE);
      break;
    case ETL_IN_HEXINT32:
      INTEGER (4, etl_read_u32 (p), FALSE, TRUE);
      break;
    case ETL_IN_HEXINT64:
      INTEGER (8, etl_read_u64 (p), FALSE, TRUE);
      break;
    case ETL_IN_BOOLEAN:
      NEED (4);
      v = etl_read_u32 (p);
      field->has_number = TRUE;
      field->number = v;
      text_append (s, v != 0 ? "True" : "False");
      break;
    case ETL_IN_POINTER:
    case ETL_IN_SIZET:
      if (w->pointer_size == 4)
        INTEGER (4, etl_read_u32 (p), FALSE, prop->in_type == ETL_IN_POINTER);
      else
        INTEGER (8, etl_read_u64 (p), FALSE, prop->in_type == ETL_IN_POINTER);
      break;
    case ETL_IN_FLOAT:
      {
        guint32 bits;
        float f;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        NEED (4);
        bits = etl_read_u32 (p);
        memcpy (&f, &bits, sizeof f);
        text_append (s, g_ascii_formatd (buf, sizeof buf, "%g", (double)f));
      }
      break;
    case ETL_IN_DOUBLE:
      {
        guint64 bits;
        double d;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        NEED (8);
        bits = etl_read_u64 (p);
        memcpy (&d, &bits, sizeof d);
        text_append (s, g_ascii_dtostr (buf, sizeof buf, d));
      }
      break;
    case ETL_IN_GUID:
      NEED (16);
      append_guid (s, p);
      break;
    case ETL_IN_FILETIME:
      NEED (8);
      v = etl_read_u64 (p);
      field->has_number = TRUE;
      field->number = v;
      append_filetime (s, v);
      break;
    case ETL_IN_SYSTEMTIME:
      NEED (16);
      append_systemtime (s, p);
      break;
    case ETL_IN_SID:
      need = sid_size (p, avail);
      if (need == 0)
        return FALSE;
      append_sid (s, p);
      break;
    case ETL_IN_WBEMSID:
      /* TOKEN_USER: a NULL first pointer stands for no SID (4 bytes, as
       * TraceEvent reads it); else two pointers, then the SID. */
      NEED (4);
      if (etl_read_u32 (p) == 0)
        break;
      NEED (2 * (gsize)w->pointer_size);
      {
        gsize n = sid_size (p + 2 * w->pointer_size, avail - 2 * w->pointer_size);

        if (n == 0)
          return FALSE;
        append_sid (s, p + 2 * w->pointer_size);
        need = 2 * w->pointer_size + n;
      }
      break;
    case ETL_IN_UNICODECHAR:
      NEED (2);
      append_utf16 (s, p, 1);
      break;
    case ETL_IN_ANSICHAR:
      NEED (1);
      append_ansi (s, p, 1);
      break;
    case ETL_IN_UNICODESTRING:
    case ETL_IN_NONNULLTERMINATEDSTRING:
      {
        gsize units;

        if (length > 0)
          {
            /* A fixed length counts characters; strings may end earlier. */
            gsize consumed;

            if (length > avail / 2)
              return FALSE;
            need = 2 * (gsize)length;
            units = utf16_strlen (p, need, &consumed);
          }
        else if (prop->in_type == ETL_IN_NONNULLTERMINATEDSTRING)
          {
            units = avail / 2;
            need = 2 * units;
          }
        else
          units = utf16_strlen (p, avail, &need);
        /* Kernel file names (NT_PATH, and FileName strings that start
         * with a mapped NT prefix, as TraceEvent shows Kernel-File's) as
         * DOS paths; command lines, image names and VolumeMapping's own
         * NtPath stay as logged, as TraceEvent shows them. */
        if (w->volumes != NULL && units > 0 && p[0] == '\\' && p[1] == 0
            && (out == ETL_OUT_NT_PATH || out == ETL_OUT_NULL || out == ETL_OUT_STRING))
          {
            gsize start = s->len;

            append_utf16 (s, p, units);
            if (out == ETL_OUT_NT_PATH || looks_like_nt_path (prop, s->str + start))
              {
                g_autofree char *dos = etl_volume_map_to_dos (w->volumes, s->str + start);

                if (dos != NULL)
                  {
                    g_string_truncate (s, start);
                    text_append (s, dos);
                  }
              }
          }
        else
          append_utf16 (s, p, units);
      }
      break;
    case ETL_IN_ANSISTRING:
    case ETL_IN_NONNULLTERMINATEDANSISTRING:
      {
        gsize n;

        if (length > 0)
          {
            const guint8 *nul;

            if (length > avail)
              return FALSE;
            need = (gsize)length;
            nul = memchr (p, 0, need);
            n = nul != NULL ? (gsize)(nul - p) : need;
          }
        else if (prop->in_type == ETL_IN_NONNULLTERMINATEDANSISTRING)
          n = need = avail;
        else
          {
            const guint8 *nul = memchr (p, 0, avail);

            n = nul != NULL ? (gsize)(nul - p) : avail;
            need = nul != NULL ? n + 1 : n;
          }
        append_ansi (s, p, n);
      }
      break;
    case ETL_IN_COUNTEDSTRING:
    case ETL_IN_REVERSEDCOUNTEDSTRING:
      {
        guint n;

        NEED (2);
        n = prop->in_type == ETL_IN_COUNTEDSTRING ? etl_read_u16 (p) : (guint)(p[0] << 8 | p[1]);
        NEED (2 + (gsize)n);
        append_utf16 (s, p + 2, n / 2);
      }
      break;
    case ETL_IN_COUNTEDANSISTRING:
    case ETL_IN_REVERSEDCOUNTEDANSISTRING:
      {
        guint n;

        NEED (2);
        n = prop->in_type == ETL_IN_COUNTEDANSISTRING ? etl_read_u16 (p)
                                                      : (guint)(p[0] << 8 | p[1]);
        NEED (2 + (gsize)n);
        append_ansi (s, p + 2, n);
      }
      break;
    case ETL_IN_BINARY:
      {
        gsize n;

        if (length > 0)
          n = (gsize)MIN (length, (guint64)G_MAXSIZE);
        else if (out == ETL_OUT_IPV6)
          n = 16;
        else
          n = avail;
        NEED (n);
        if (out == ETL_OUT_IPV6 && n == 16)
          append_ipv6 (s, p);
        else if (out == ETL_OUT_SOCKETADDRESS)
          append_sockaddr (s, p, n);
        else if (out == ETL_OUT_GUID && n == 16)
          append_guid (s, p);
        else
          append_hex_bytes (s, p, n);
      }
      break;
    case ETL_IN_COUNTEDBINARY:
    case ETL_IN_HEXDUMP:
      {
        gsize head = prop->in_type == ETL_IN_HEXDUMP ? 4 : 2;
        gsize n;

        NEED (head);
        n = head == 4 ? etl_read_u32 (p) : etl_read_u16 (p);
        if (n > avail - head)
          return FALSE;
        need = head + n;
        if (out == ETL_OUT_IPV6 && n == 16)
          append_ipv6 (s, p + head);
        else if (out == ETL_OUT_SOCKETADDRESS)
          append_sockaddr (s, p + head, n);
        else
          append_hex_bytes (s, p + head, n);
      }
      break;
    default:
      return FALSE;
    }
#undef INTEGER
#undef NEED

  w->pos += need;
  return TRUE;
}

static gboolean decode_properties (Walk *w, guint first, guint n, guint depth);

/* Appends a field named prefix + name (+ "[k]"), its value to follow. */
static EtlField *
begin_field (Walk *w, const EtlProperty *prop, gboolean is_array, guint k)
{
  EtlField *f;

  if (G_UNLIKELY (w->n_fields == w->fields_alloc))
    {
      EtlField *old = w->fields;

      w->fields_alloc *= 2;
      w->fields = g_new (EtlField, w->fields_alloc);
      memcpy (w->fields, old, w->n_fields * sizeof (EtlField));
      if (old != w->fields_stack)
        g_free (old);
    }
  f = &w->fields[w->n_fields++];
  f->has_number = FALSE;
  f->number = 0;
  f->name = GSIZE_TO_POINTER (w->text->len);
  f->in_type = prop->in_type;
  f->out_type = prop->out_type;
  if (w->prefix != NULL && w->prefix->len > 0)
    text_append_len (w->text, w->prefix->str, w->prefix->len);
  text_append (w->text, prop->name);
  if (is_array)
    {
      text_append_c (w->text, '[');
      append_u64 (w->text, k);
      text_append_c (w->text, ']');
    }
  text_append_c (w->text, '\0');
  f->value = GSIZE_TO_POINTER (w->text->len);
  return f;
}


/* The element count of @prop, FALSE when it cannot be known. */
static gboolean
property_count (Walk *w, guint index, const EtlProperty *prop, guint64 *count, gboolean *is_array)
{
  if (prop->flags & ETL_PROPERTY_TO_END)
    {
      /* MOF StackWalk: as many elements as the rest of the data holds; a
       * partial element is left over (complete is then FALSE). */
      gsize size = etl_in_type_fixed_size (prop->in_type, w->pointer_size);

      if (size == 0)
        return FALSE;
      *count = (w->len - w->pos) / size;
      *is_array = TRUE;
      return TRUE;
    }
  if (prop->flags & ETL_PROPERTY_INLINE_COUNT)
    {
      if (w->len - w->pos < 2)
        return FALSE;
      *count = etl_read_u16 (w->data + w->pos);
      w->pos += 2;
      *is_array = TRUE;
      return TRUE;
    }
  if (prop->flags & ETL_PROPERTY_PARAM_COUNT)
    {
      *is_array = TRUE;
      return param_value (w, prop->count, count);
    }
  *count = prop->count;
  *is_array = prop->count != 1 || (prop->flags & ETL_PROPERTY_PARAM_FIXED_COUNT) != 0;

  /* Known lie (CLR's ClrStackWalk): "Stack" is declared as two pointers but
   * holds FrameCount of them. */
  if (prop->count == 2 && prop->in_type == ETL_IN_POINTER && index > 0
      && strcmp (prop->name, "Stack") == 0)
    for (guint i = 0; i < index; i++)
      if (w->has_value[i] && strcmp (w->schema->properties[i].name, "FrameCount") == 0)
        {
          *count = w->values[i];
          break;
        }
  return TRUE;
}

static gboolean
decode_property (Walk *w, guint index, guint depth)
{
  const EtlProperty *prop = &w->schema->properties[index];
  guint64 count = 1, length = 0;
  gboolean is_array = FALSE;

  if (!property_count (w, index, prop, &count, &is_array))
    return FALSE;
  if (count > MAX_ELEMENTS)
    return FALSE;

  if (prop->flags & ETL_PROPERTY_STRUCT)
    {
      gsize prefix_len;

      if (w->prefix == NULL)
        w->prefix = g_string_new (NULL);
      prefix_len = w->prefix->len;
      if (depth >= MAX_DEPTH
          || (guint)prop->struct_start + prop->n_struct_members > w->schema->n_properties
          || prop->struct_start <= index)
        return FALSE;
      for (guint64 k = 0; k < count; k++)
        {
          gboolean ok;

          text_append (w->prefix, prop->name);
          if (is_array)
            {
              text_append_c (w->prefix, '[');
              append_u64 (w->prefix, k);
              text_append_c (w->prefix, ']');
            }
          text_append_c (w->prefix, '.');
          ok = decode_properties (w, prop->struct_start, prop->n_struct_members, depth + 1);
          g_string_truncate (w->prefix, prefix_len);
          if (!ok)
            return FALSE;
        }
      return TRUE;
    }

  if (prop->flags & ETL_PROPERTY_PARAM_LENGTH)
    {
      if (!param_value (w, prop->length, &length))
        return FALSE;
    }
  else
    length = prop->length;

  for (guint64 k = 0; k < count; k++)
    {
      gsize text_len = w->text->len;
      EtlField *f;

      if (w->n_fields >= w->max_fields)
        {
          w->capped = w->max_fields < MAX_FIELDS;
          return FALSE;
        }
      f = begin_field (w, prop, is_array, (guint)k);
      if (!decode_element (w, prop, length, f))
        {
          w->n_fields--;
          g_string_truncate (w->text, text_len);
          return FALSE;
        }
      text_append_c (w->text, '\0');
      if (f->has_number && !is_array)
        {
          w->values[index] = f->number;
          w->has_value[index] = 1;
        }
    }
  return TRUE;
}

static gboolean
decode_properties (Walk *w, guint first, guint n, guint depth)
{
  for (guint i = first; i < first + n; i++)
    if (!decode_property (w, i, depth))
      return FALSE;
  return TRUE;
}

static EtlDecoded *
decoded_new (EtlSchema *schema)
{
  Decoded *d = g_new0 (Decoded, 1);

  d->pub.schema = schema != NULL ? etl_schema_ref (schema) : NULL;
  d->pub.fields = g_array_sized_new (FALSE, TRUE, sizeof (EtlField),
                                     schema != NULL ? MIN (schema->n_properties, 64u) : 0);
  d->text = g_string_sized_new (256);
  return &d->pub;
}

static EtlDecoded *decode_with_schema (EtlSchema *schema, const EtlVolumeMap *volumes,
                                       const EtlRecord *record, guint max_fields);

/**
 * etl_decode_with_schema:
 * @schema: the schema that describes @record
 * @volumes: (nullable): the trace's volume mapping, for %ETL_OUT_NT_PATH
 *   properties
 * @record: a record
 *
 * Walks @schema's properties over @record's user data (see the section
 * overview for the rules and formats).  Arrays give one field per element,
 * named "Name[i]"; struct members "Struct.Member" ("Struct[i].Member" in
 * arrays of structs).  Pointer-sized properties (POINTER, SIZET, WBEMSID's
 * TOKEN_USER) take the record's pointer size, never the declared length.
 * Decoding stops at the first property that cannot be decoded (data too
 * short, an unknown type, a count or length property not yet decoded, a
 * count above 4096): the fields so far are kept and
 * #EtlDecoded.complete is %FALSE.  #EtlDecoded.complete is also %FALSE when
 * bytes are left over.
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_decode_with_schema (EtlSchema *schema, const EtlVolumeMap *volumes, const EtlRecord *record)
{
  g_return_val_if_fail (schema != NULL && record != NULL, NULL);
  return decode_with_schema (schema, volumes, record, MAX_FIELDS);
}

static EtlDecoded *
decode_with_schema (EtlSchema *schema, const EtlVolumeMap *volumes, const EtlRecord *record,
                    guint max_fields)
{
  EtlDecoded *decoded;
  Decoded *d;
  Walk w;
  guint64 values_stack[32];
  guint8 has_stack[32];
  g_autofree guint64 *values_heap = NULL;
  g_autofree guint8 *has_heap = NULL;
  gboolean ok;

  decoded = decoded_new (schema);
  d = (Decoded *)decoded;

  memset (&w, 0, sizeof w);
  w.schema = schema;
  w.volumes = volumes;
  /* An empty payload still gets a valid pointer (no arithmetic on NULL). */
  w.data = record->user_data != NULL ? record->user_data : (const guint8 *)"";
  w.len = record->user_data != NULL ? record->user_data_len : 0;
  w.pointer_size = etl_record_get_pointer_size (record);
  w.max_fields = MIN (max_fields, MAX_FIELDS);
  w.fields = w.fields_stack;
  w.fields_alloc = G_N_ELEMENTS (w.fields_stack);
  w.text = d->text;
  if (schema->n_properties <= G_N_ELEMENTS (values_stack))
    {
      w.values = values_stack;
      w.has_value = has_stack;
      memset (has_stack, 0, sizeof has_stack);
    }
  else
    {
      w.values = values_heap = g_new (guint64, schema->n_properties);
      w.has_value = has_heap = g_new0 (guint8, schema->n_properties);
    }
  ok = decode_properties (&w, 0, MIN (schema->n_top_level, schema->n_properties), 0);

  if (w.prefix != NULL)
    g_string_free (w.prefix, TRUE);

  for (guint i = 0; i < w.n_fields; i++)
    {
      EtlField *f = &w.fields[i];

      f->name = d->text->str + GPOINTER_TO_SIZE (f->name);
      f->value = d->text->str + GPOINTER_TO_SIZE (f->value);
    }
  g_array_append_vals (decoded->fields, w.fields, w.n_fields);
  if (w.fields != w.fields_stack)
    g_free (w.fields);
  decoded->complete = ok && w.pos == w.len;
  decoded->n_bytes = w.pos;
  decoded->capped = w.capped;
  decoded->trailing = ok && !w.capped && w.pos < w.len;
  return decoded;
}

/* ---- Fields made in code (etl-decode-private.h) ------------------------ */

/*
 * etl_decoded_begin: (private)
 * @schema: (nullable): the schema to name the record by (a reference is taken)
 *
 * Starts an #EtlDecoded to be filled with etl_decoded_add_field() and
 * finished with etl_decoded_end(); its fields are not readable before.
 *
 * Returns: (transfer full): the decoded record being built
 */
EtlDecoded *
etl_decoded_begin (EtlSchema *schema)
{
  return decoded_new (schema);
}

/*
 * etl_decoded_add_field: (private)
 * @decoded: from etl_decoded_begin()
 * @name: the field's name
 * @value: its formatted value (UTF-8; copied)
 * @in_type: an #EtlInType, for the details pane's type column
 * @out_type: an #EtlOutType
 * @has_number: whether @number holds the raw integer
 * @number: the raw integer
 *
 * Appends one field.  Names and values go into the record's one text
 * buffer; the field holds their offsets until etl_decoded_end().
 */
void
etl_decoded_add_field (EtlDecoded *decoded, const char *name, const char *value, guint16 in_type,
                       guint16 out_type, gboolean has_number, guint64 number)
{
  Decoded *d = (Decoded *)decoded;
  EtlField f = { 0 };

  g_return_if_fail (decoded != NULL && name != NULL);

  f.name = GSIZE_TO_POINTER (d->text->len);
  g_string_append_len (d->text, name, (gssize)strlen (name) + 1);
  f.value = GSIZE_TO_POINTER (d->text->len);
  g_string_append_len (d->text, value != NULL ? value : "", (gssize)strlen (value != NULL ? value : "") + 1);
  f.in_type = in_type;
  f.out_type = out_type;
  f.has_number = has_number;
  f.number = number;
  g_array_append_val (decoded->fields, f);
}

/*
 * etl_decoded_end: (private)
 * @decoded: from etl_decoded_begin()
 * @complete: whether the fields cover the whole user data
 * @n_bytes: user-data bytes they cover
 *
 * Turns the fields' offsets into pointers: @decoded is then an ordinary
 * #EtlDecoded.
 */
void
etl_decoded_end (EtlDecoded *decoded, gboolean complete, gsize n_bytes)
{
  Decoded *d = (Decoded *)decoded;

  g_return_if_fail (decoded != NULL);

  for (guint i = 0; i < decoded->fields->len; i++)
    {
      EtlField *f = &g_array_index (decoded->fields, EtlField, i);

      f->name = d->text->str + GPOINTER_TO_SIZE (f->name);
      f->value = d->text->str + GPOINTER_TO_SIZE (f->value);
    }
  decoded->complete = complete;
  decoded->n_bytes = n_bytes;
}

/* The TraceLogging schema of @record, cached in @registry when given. */
static EtlSchema *
tracelogging_schema (EtlSchemaRegistry *registry, const EtlRecord *record)
{
  const guint8 *meta;
  gsize meta_len;
  EtlSchema *schema;
  g_autoptr (EtlSchema) built = NULL;

  if (!etl_record_find_ext_item (record, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &meta, &meta_len))
    return NULL;
  if (registry != NULL)
    {
      schema = etl_schema_registry_lookup_blob (registry, meta, meta_len);
      if (schema != NULL)
        return schema;
    }
  built = etl_tracelogging_schema_new (record, NULL);
  if (built == NULL)
    return NULL;
  if (registry == NULL)
    return g_steal_pointer (&built);
  return etl_schema_registry_add_blob (registry, meta, meta_len, built);
}

/* Versions below a record's own tried when no schema has its version. */
#define MAX_EARLIER_VERSIONS 16

/*
 * A manifest event logged by a newer provider than the manifest describes
 * (AllocationTick v4 of .NET 8 against a 2019 ClrEtwAll.man): versions only
 * append fields, so the newest earlier version's schema names the event and
 * decodes the fields it knows; the bytes after them leave the decode
 * incomplete.
 */
static EtlSchema *
lookup_earlier_version (EtlSchemaRegistry *registry, const EtlRecord *record)
{
  EtlSchemaKey key;

  if (!etl_schema_key_for_record (record, &key) || key.kind != ETL_SCHEMA_KEY_EVENT_ID)
    return NULL;
  for (guint n = 0; n < MAX_EARLIER_VERSIONS && key.version > 0; n++)
    {
      EtlSchema *schema;

      key.version--;
      schema = etl_schema_registry_lookup (registry, &key, record->file,
                                           record->has_pid ? record->pid : G_MAXUINT32);
      if (schema != NULL)
        return schema;
    }
  return NULL;
}

/**
 * etl_decode_record:
 * @registry: (nullable): the schemas; %NULL decodes TraceLogging records only
 * @volumes: (nullable): the trace's volume mapping
 * @record: a record
 *
 * KernelTraceControl MetaData and WinSat records are read by code
 * (etl_tdh_decode_record(), etl_winsat_decode_record()).  For the others, finds @record's schema (its
 * own EVENT_SCHEMA_TL metadata for TraceLogging records, cached in
 * @registry per distinct metadata; else
 * etl_schema_registry_lookup_record(); else, for a manifest event whose
 * version no schema has, the newest earlier version's, whose fields a later
 * version only extends) and decodes it with etl_decode_with_schema().
 *
 * Returns: (transfer full): the decoded fields; without a schema
 *   #EtlDecoded.schema is %NULL, no fields, complete %FALSE
 */
EtlDecoded *
etl_decode_record (EtlSchemaRegistry *registry, const EtlVolumeMap *volumes,
                   const EtlRecord *record)
{
  return etl_decode_record_prefix (registry, volumes, record, MAX_FIELDS);
}

/**
 * etl_decode_record_prefix:
 * @registry: (nullable): where to find the schema
 * @volumes: (nullable): the trace's NT → DOS path map
 * @record: a decoded record
 * @max_fields: decode at most this many fields (array elements and struct
 *   members count one each)
 *
 * etl_decode_record(), stopping after @max_fields fields, for previews such
 * as the event list's Payload column, which shows only the first ~200
 * characters: a CLR rundown record can carry a hundred fields.  When the cap
 * stops decoding, #EtlDecoded.complete is %FALSE.
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_decode_record_prefix (EtlSchemaRegistry *registry, const EtlVolumeMap *volumes,
                          const EtlRecord *record, guint max_fields)
{
  g_autoptr (EtlSchema) schema = NULL;

  g_return_val_if_fail (record != NULL, NULL);

  if (record->kind == ETL_RECORD_KIND_CLASSIC)
    {
      EtlDecoded *own = etl_tdh_decode_record (record);

      if (own == NULL)
        own = etl_winsat_decode_record (record);
      if (own != NULL)
        return own;
    }
  if (record->kind == ETL_RECORD_KIND_TRACELOGGING)
    schema = tracelogging_schema (registry, record);
  if (schema == NULL && registry != NULL)
    schema = etl_schema_registry_lookup_record (registry, record);
  if (schema == NULL && registry != NULL)
    schema = lookup_earlier_version (registry, record);
  if (schema == NULL)
    return decoded_new (NULL);
  return decode_with_schema (schema, volumes, record, max_fields);
}

/**
 * etl_decoded_free:
 * @decoded: (nullable): what etl_decode_record() returned
 */
void
etl_decoded_free (EtlDecoded *decoded)
{
  Decoded *d = (Decoded *)decoded;

  if (decoded == NULL)
    return;
  etl_schema_unref (decoded->schema);
  g_array_unref (decoded->fields);
  g_string_free (d->text, TRUE);
  g_free (d);
}

/**
 * etl_decoded_find:
 * @decoded: decoded fields
 * @name: a field name ("Count", "Struct.Member", "Name[2]")
 *
 * Returns: (transfer none) (nullable): the first field called @name
 */
const EtlField *
etl_decoded_find (const EtlDecoded *decoded, const char *name)
{
  g_return_val_if_fail (decoded != NULL && name != NULL, NULL);

  for (guint i = 0; i < decoded->fields->len; i++)
    {
      const EtlField *f = &g_array_index (decoded->fields, EtlField, i);

      if (strcmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

/**
 * etl_decoded_format_payload:
 * @decoded: decoded fields
 * @max_chars: the most characters (not bytes) to return; 0 for no limit
 *
 * The fields as PerfView's "Rest" column shows them: "Name=value" joined by
 * spaces ("Count=1 Reason=AllocSmall Depth=0 …").  Longer text is cut to
 * @max_chars characters, the last of them "…".
 *
 * Returns: (transfer full): the text, "" without fields
 */
char *
etl_decoded_format_payload (const EtlDecoded *decoded, gsize max_chars)
{
  GString *s;

  g_return_val_if_fail (decoded != NULL, NULL);

  s = g_string_sized_new (max_chars > 0 ? MIN (max_chars + 8, (gsize)1024) : 128);
  for (guint i = 0; i < decoded->fields->len; i++)
    {
      const EtlField *f = &g_array_index (decoded->fields, EtlField, i);

      if (i > 0)
        text_append_c (s, ' ');
      text_append (s, f->name);
      text_append_c (s, '=');
      text_append (s, f->value);
      /* Fields are UTF-8: bytes ≥ characters, so this bounds the work. */
      if (max_chars > 0 && s->len > 4 * max_chars + 4)
        break;
    }
  if (max_chars > 0 && g_utf8_strlen (s->str, (gssize)s->len) > (glong)max_chars)
    {
      const char *cut = g_utf8_offset_to_pointer (s->str, (glong)max_chars - 1);

      g_string_truncate (s, (gsize)(cut - s->str));
      text_append (s, "…");
    }
  return g_string_free (s, FALSE);
}

/**
 * etl_decode_dup_event_name:
 * @registry: (nullable): the schemas
 * @record: a record
 *
 * The event's name without its provider: from its schema when the registry
 * has one (etl_schema_dup_display_name(): "GC/Start", or the manifest's event
 * name), else etl_record_dup_event_name() (kernel group/opcode names,
 * TraceLogging event names, "Event(N)").
 *
 * Returns: (transfer full): the name
 */
char *
etl_decode_dup_event_name (EtlSchemaRegistry *registry, const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);

  if (registry != NULL && record->kind != ETL_RECORD_KIND_TRACELOGGING)
    {
      g_autoptr (EtlSchema) schema = etl_schema_registry_lookup_record (registry, record);

      if (schema == NULL)
        schema = lookup_earlier_version (registry, record);
      if (schema != NULL)
        return etl_schema_dup_display_name (schema);
    }
  return etl_record_dup_event_name (record);
}
