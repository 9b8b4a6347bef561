/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-mof: the kernel MOF tables (core/decode/etl-mof-*.c).
 *
 * - /etl/mof/tables: the tables' shapes (maps, count fields, names and
 *   GUIDs consistent with etl-names.c, every schema found by its key);
 * - /etl/mof/layout/CLASS/vN: for each class and version tabled, a payload
 *   built here field by field from the documentation's layout (the specs
 *   below are a second transcription of the MOF pages, not read from the
 *   tables), for a 32-bit and a 64-bit record, with the documented offset
 *   of the first variable-length field (or the size) written out; the
 *   decoder must give every field's name and value, and consume it all;
 * - /etl/mof/corpus: in net.4.5.2.x64.etl every kernel and classic MOF
 *   record decodes complete (share by group printed), and the kernel EVENT
 *   lines of the TraceEvent baseline, paired with their records by CPU,
 *   DataLen and time as test-baseline does, have >= 95% of their Name=value
 *   fields equal in the decoded fields (differences printed).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-mof-derived.h"
#include "etl-mof-kernel-private.h"
#include "etl-mof-kernel.h"
#include "etl-names.h"
#include "etl-record-private.h"
#include "etl-schema.h"
#include "etl-test-util.h"
#include "etl-trace.h"

static EtlSchemaRegistry *registry;

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const EtlMofClass *
all_classes (guint list, guint *n)
{
  switch (list)
    {
    case 0:
      *n = etl_mof_n_core_classes;
      return etl_mof_core_classes;
    case 1:
      *n = etl_mof_n_io_classes;
      return etl_mof_io_classes;
    default:
      *n = etl_mof_n_config_classes;
      return etl_mof_config_classes;
    }
}

static void
test_tables (void)
{
  guint total = 0, schemas = 0;

  for (guint l = 0; l < 3; l++)
    {
      guint n;
      const EtlMofClass *classes = all_classes (l, &n);

      for (guint c = 0; c < n; c++)
        {
          const EtlMofClass *cls = &classes[c];
          EtlGuid guid;

          total++;
          g_assert_cmpuint (cls->n_opcodes, >=, 1);
          g_assert_cmpuint (cls->n_opcodes, <=, ETL_MOF_MAX_OPCODES);
          if (cls->group >= 0)
            g_assert_null (cls->guid);
          else
            g_assert_true (etl_guid_parse (cls->guid, &guid));
          for (guint f = 0; f < cls->n_fields; f++)
            {
              const EtlMofField *field = &cls->fields[f];

              g_assert_nonnull (field->name);
              /* Only the last field may run to the end of the data. */
              if (field->flags & ETL_MOF_TO_END)
                g_assert_cmpuint (f, ==, cls->n_fields - 1);
              if (field->count_from != NULL)
                {
                  gboolean found = FALSE;

                  for (guint k = 0; k < f; k++)
                    found |= strcmp (cls->fields[k].name, field->count_from) == 0;
                  g_assert_true (found);
                }
              /* No two fields of a class share a name. */
              for (guint k = 0; k < f; k++)
                g_assert_cmpstr (cls->fields[k].name, !=, field->name);
            }
          for (guint o = 0; o < cls->n_opcodes; o++)
            {
              EtlSchemaKey key;
              EtlSchema *schema;
              EtlKernelEventInfo info;

              if (cls->group >= 0)
                {
                  g_assert_true (
                      etl_names_kernel_event ((guint16)(cls->group << 8 | cls->opcodes[o]), &info));
                  guid = *info.provider;
                }
              etl_schema_key_init_opcode (&key, &guid, cls->opcodes[o], cls->version);
              schema = etl_schema_registry_lookup (registry, &key, 0, 0);
              g_assert_nonnull (schema);
              g_assert_cmpint (schema->source, ==, ETL_SCHEMA_SOURCE_MOF);
              g_assert_cmpuint (schema->n_properties, ==, cls->n_fields);
              g_assert_nonnull (schema->task_name);
              if (cls->group >= 0)
                {
                  g_assert_cmpstr (schema->task_name, ==, info.group_name);
                  g_assert_cmpstr (schema->opcode_name, ==, info.opcode_name);
                }
              for (guint f = 0; f < cls->n_fields; f++)
                if (cls->fields[f].map != NULL)
                  g_assert_nonnull (schema->properties[f].map);
              etl_schema_unref (schema);
              schemas++;
            }
        }
    }
  g_assert_cmpuint (total, ==, etl_mof_kernel_n_classes ());
  /* No two (class, version, opcode) rows share a key. */
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MOF), ==,
                    schemas);
  g_test_message ("%u classes, %u (class, opcode) schemas", total, schemas);
}

/* ------------------------------------------------------------------------ */
/* Layouts, from the documentation                                           */
/* ------------------------------------------------------------------------ */

/*
 * One documented field.  kind:
 *   b u8   c i8   h u16   H i16   u u32   i i32   q u64   Q i64
 *   p pointer (4/8)   z SIZE_T (4/8)   w UTF-16 string   W fixed UTF-16 (n chars)
 *   a ANSI string   S TOKEN_USER + SID   g GUID   4 IPv4   6 IPv6   P port
 *   t FILETIME   x binary (n bytes)   m u32 with a map (raw value, expected text)
 *   r pointers to the end (three of them)   n u32 in hex   X u64 in hex (expected text)
 *   M i8 with a map (raw value, expected text)   |  the offset check point
 *   A counted array: n elements of the kind in expect ("q" u64, "g" GUID,
 *     "w" UTF-16 string), named NAME[i]; the count is an earlier 'm' field
 */
typedef struct
{
  char kind;
  const char *name;
  guint64 n;          /* W: characters; x: bytes; m: raw value */
  const char *expect; /* m: the expected text */
} Spec;

typedef struct
{
  const char *path; /* test path under /etl/mof/layout/ */
  int group;        /* HookId group, or -1 for a classic class */
  const char *guid; /* classic class GUID */
  guint8 opcode;
  guint8 version;
  guint off32, off64; /* documented offset of "|" */
  const Spec *fields;
} Layout;

#define END                                                                                        \
  {                                                                                                \
    0, NULL, 0, NULL                                                                               \
  }
#define MARK                                                                                       \
  {                                                                                                \
    '|', NULL, 0, NULL                                                                             \
  }

typedef struct
{
  GByteArray *b;
  guint ps;
  guint idx;
  GPtrArray *names;
  GPtrArray *values;
} Builder;

static void
put (Builder *bd, guint64 v, guint size)
{
  for (guint i = 0; i < size; i++)
    {
      guint8 c = (guint8)(v >> (8 * i));

      g_byte_array_append (bd->b, &c, 1);
    }
}

static void
put_utf16 (Builder *bd, const char *s, gboolean nul)
{
  for (const char *p = s; *p; p++)
    put (bd, (guchar)*p, 2);
  if (nul)
    put (bd, 0, 2);
}

static void
expect (Builder *bd, const char *name, char *value)
{
  g_ptr_array_add (bd->names, g_strdup (name));
  g_ptr_array_add (bd->values, value);
}

static char *
hex (guint64 v)
{
  return g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x", v);
}

/* Builds the payload of @l for pointer size @ps; the values are distinct
 * per field (1 + index based) so a field read from the wrong offset shows. */
static void
build (const Layout *l, Builder *bd, guint *mark)
{
  for (const Spec *s = l->fields; s->kind != 0; s++)
    {
      guint k = ++bd->idx;
      guint64 v = 0x10 + k;

      switch (s->kind)
        {
        case '|':
          *mark = bd->b->len;
          break;
        case 'b':
        case 'c':
          put (bd, v, 1);
          expect (bd, s->name, g_strdup_printf ("%u", (guint)v));
          break;
        case 'h':
        case 'H':
          put (bd, 0x100 + v, 2);
          expect (bd, s->name, g_strdup_printf ("%u", (guint)(0x100 + v)));
          break;
        case 'u':
        case 'i':
          put (bd, 0x10000 + v, 4);
          expect (bd, s->name, g_strdup_printf ("%u", (guint)(0x10000 + v)));
          break;
        case 'q':
        case 'Q':
          put (bd, G_GUINT64_CONSTANT (0x100000000) + v, 8);
          expect (bd, s->name,
                  g_strdup_printf ("%" G_GUINT64_FORMAT, G_GUINT64_CONSTANT (0x100000000) + v));
          break;
        case 'p':
        case 'z':
          {
            guint64 pv = bd->ps == 8 ? G_GUINT64_CONSTANT (0xfffff80000001000) + (v << 4)
                                     : 0x80001000u + (v << 4);

            put (bd, pv, bd->ps);
            expect (bd, s->name,
                    s->kind == 'p' ? hex (pv) : g_strdup_printf ("%" G_GUINT64_FORMAT, pv));
          }
          break;
        case 'r':
          for (guint i = 0; i < 3; i++)
            {
              guint64 pv
                  = bd->ps == 8 ? G_GUINT64_CONSTANT (0xfffff80000002000) + i : 0x80002000u + i;
              char *name = g_strdup_printf ("%s[%u]", s->name, i);

              put (bd, pv, bd->ps);
              expect (bd, name, hex (pv));
              g_free (name);
            }
          break;
        case 'w':
          {
            char *text = g_strdup_printf ("%s text %u", s->name, k);

            put_utf16 (bd, text, TRUE);
            expect (bd, s->name, text);
          }
          break;
        case 'W':
          {
            char *text
                = s->n >= 8 ? g_strdup_printf ("W%u", k) : g_strdup_printf ("%c", 'A' + k % 26);

            g_assert_cmpuint (strlen (text) + 1, <=, s->n);
            put_utf16 (bd, text, FALSE);
            for (guint i = strlen (text); i < s->n; i++)
              put (bd, 0, 2);
            expect (bd, s->name, text);
          }
          break;
        case 'a':
          {
            char *text = g_strdup_printf ("%s.ansi%u", s->name, k);

            g_byte_array_append (bd->b, (const guint8 *)text, strlen (text) + 1);
            expect (bd, s->name, text);
          }
          break;
        case 'S':
          /* TOKEN_USER {PSID Sid; DWORD Attributes (pointer-aligned)}, then
           * the SID S-1-5-18: revision 1, 1 sub-authority, authority 5. */
          put (bd, bd->ps == 8 ? G_GUINT64_CONSTANT (0xffff8a0000001234) : 0x81001234u, bd->ps);
          put (bd, 0, bd->ps);
          {
            static const guint8 sid[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };

            g_byte_array_append (bd->b, sid, sizeof sid);
          }
          expect (bd, s->name, g_strdup ("S-1-5-18"));
          break;
        case 'g':
          {
            static const guint8 g[] = { 0xdf, 0xd8, 0x83, 0xec, 0x59, 0x55, 0xe0, 0x46,
                                        0xb1, 0x2a, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 };

            g_byte_array_append (bd->b, g, sizeof g);
            expect (bd, s->name, g_strdup ("ec83d8df-5559-46e0-b12a-010203040506"));
          }
          break;
        case '4':
          {
            static const guint8 a[] = { 10, 128, 2, 23 };

            g_byte_array_append (bd->b, a, 4);
            expect (bd, s->name, g_strdup ("10.128.2.23"));
          }
          break;
        case '6':
          {
            static const guint8 a[]
                = { 0x20, 0x01, 0x48, 0x98, 0, 0xe0, 0, 0x81, 0x7c, 0xb9, 0, 0, 0, 0, 0, 0x01 };

            g_byte_array_append (bd->b, a, 16);
            expect (bd, s->name, g_strdup ("2001:4898:e0:81:7cb9::1"));
          }
          break;
        case 'P':
          /* Network byte order: 445 = 0x01BD is stored 01 BD. */
          {
            static const guint8 port[] = { 0x01, 0xbd };

            g_byte_array_append (bd->b, port, 2);
            expect (bd, s->name, g_strdup ("445"));
          }
          break;
        case 't':
          /* 2020-07-29 00:07:00 UTC as FILETIME. */
          put (bd, G_GUINT64_CONSTANT (132404548200000000), 8);
          expect (bd, s->name, g_strdup ("2020-07-29T00:07:00"));
          break;
        case 'x':
          {
            GString *text = g_string_new ("0x");

            for (guint i = 0; i < s->n; i++)
              {
                guint8 c = (guint8)(i * 7 + k);

                g_byte_array_append (bd->b, &c, 1);
                g_string_append_printf (text, "%02x", c);
              }
            expect (bd, s->name, g_string_free (text, FALSE));
          }
          break;
        case 'm':
          put (bd, s->n, 4);
          expect (bd, s->name, g_strdup (s->expect));
          break;
        case 'n': /* u32 shown in hex (NTSTATUS, HEXINT32) */
          put (bd, 0x10000 + v, 4);
          expect (bd, s->name, hex (0x10000 + v));
          break;
        case 'X': /* u64 shown in hex */
          put (bd, s->n, 8);
          expect (bd, s->name, g_strdup (s->expect));
          break;
        case 'M': /* i8 with a map */
          put (bd, s->n, 1);
          expect (bd, s->name, g_strdup (s->expect));
          break;
        case 'A':
          for (guint i = 0; i < s->n; i++)
            {
              char *name = g_strdup_printf ("%s[%u]", s->name, i);

              if (s->expect[0] == 'q')
                {
                  guint64 qv = G_GUINT64_CONSTANT (0x200000000) + 16 * k + i;

                  put (bd, qv, 8);
                  expect (bd, name, g_strdup_printf ("%" G_GUINT64_FORMAT, qv));
                }
              else if (s->expect[0] == 'g')
                {
                  guint8 g[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                   0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xf0, (guint8)i };

                  g_byte_array_append (bd->b, g, sizeof g);
                  expect (bd, name, g_strdup_printf ("44332211-6655-8877-99aa-bbccddeef0%02x", i));
                }
              else
                {
                  char *text = g_strdup_printf ("%s item %u", s->name, i);

                  g_assert_cmpint (s->expect[0], ==, 'w');
                  put_utf16 (bd, text, TRUE);
                  expect (bd, name, text);
                }
              g_free (name);
            }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* A whole trace record as the file holds it, header then @payload:
 * SYSTEM32/64 (32-byte header: u16 version, u8 header type, u8 marker flags
 * 0xC0, u16 size, u16 HookId, u32 TID, u32 PID, i64 timestamp, u32 kernel
 * and user time), PERFINFO32/64 (16 bytes: version, type, flags, size,
 * HookId, timestamp) or FULL_HEADER32/64 (EVENT_TRACE_HEADER, 48 bytes:
 * u16 size, type, flags, Class.Type, Level, u16 Class.Version, TID, PID,
 * timestamp, GUID, kernel and user time), parsed back with
 * etl_record_decode(). */
static GByteArray *
make_record (guint8 header_type, guint16 hook_id, const char *guid, guint8 opcode, guint8 version,
             guint32 pid, guint32 tid, gint64 ts, const GByteArray *payload, EtlRecord *r)
{
  GByteArray *raw = g_byte_array_new ();
  guint hdr
      = header_type <= ETL_HEADER_TYPE_SYSTEM64 ? 32
        : header_type <= ETL_HEADER_TYPE_PERFINFO64 && header_type >= ETL_HEADER_TYPE_PERFINFO32
            ? 16
            : 48;
  guint8 h[48] = { 0 };
  guint size = hdr + payload->len;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (size, <=, 0xFFFF);
  h[2] = header_type;
  h[3] = 0xC0;
  if (hdr == 48)
    {
      EtlGuid g;
      guint8 gb[16];

      h[0] = (guint8)size;
      h[1] = (guint8)(size >> 8);
      h[4] = opcode;
      h[6] = version;
      memcpy (h + 8, &tid, 4);
      memcpy (h + 12, &pid, 4);
      memcpy (h + 16, &ts, 8);
      g_assert_true (etl_guid_parse (guid, &g));
      memcpy (gb, &g.data1, 4);
      memcpy (gb + 4, &g.data2, 2);
      memcpy (gb + 6, &g.data3, 2);
      memcpy (gb + 8, g.data4, 8);
      memcpy (h + 24, gb, 16);
    }
  else
    {
      h[0] = version;
      h[4] = (guint8)size;
      h[5] = (guint8)(size >> 8);
      h[6] = (guint8)hook_id;
      h[7] = (guint8)(hook_id >> 8);
      if (hdr == 32)
        {
          memcpy (h + 8, &tid, 4);
          memcpy (h + 12, &pid, 4);
          memcpy (h + 16, &ts, 8);
        }
      else
        memcpy (h + 8, &ts, 8);
    }
  g_byte_array_append (raw, h, hdr);
  g_byte_array_append (raw, payload->data, payload->len);
  g_assert_true (etl_record_decode (raw->data, raw->len, r, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->user_data_len, ==, payload->len);
  return raw;
}

static void
test_layout_ps (const Layout *l, guint ps)
{
  Builder bd = { g_byte_array_new (), ps, 0, g_ptr_array_new_with_free_func (g_free),
                 g_ptr_array_new_with_free_func (g_free) };
  guint mark = G_MAXUINT;
  EtlRecord r;
  g_autoptr (GByteArray) raw = NULL;
  g_autoptr (EtlDecoded) d = NULL;

  build (l, &bd, &mark);
  if (mark == G_MAXUINT)
    mark = bd.b->len;
  g_assert_cmpuint (mark, ==, ps == 8 ? l->off64 : l->off32);

  if (l->group >= 0)
    {
      gboolean perfinfo = l->group == ETL_MOF_GROUP_PERFINFO || l->group == ETL_MOF_GROUP_STACKWALK;
      guint8 type = perfinfo ? (ps == 8 ? ETL_HEADER_TYPE_PERFINFO64 : ETL_HEADER_TYPE_PERFINFO32)
                             : (ps == 8 ? ETL_HEADER_TYPE_SYSTEM64 : ETL_HEADER_TYPE_SYSTEM32);

      raw = make_record (type, (guint16)(l->group << 8 | l->opcode), NULL, 0, l->version, 4, 8,
                         1000, bd.b, &r);
    }
  else
    raw = make_record (ps == 8 ? ETL_HEADER_TYPE_FULL_HEADER64 : ETL_HEADER_TYPE_FULL_HEADER32, 0,
                       l->guid, l->opcode, l->version, 4, 8, 1000, bd.b, &r);
  d = etl_decode_record (registry, NULL, &r);
  g_assert_nonnull (d->schema);
  g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_MOF);
  for (guint i = 0; i < MIN (bd.names->len, d->fields->len); i++)
    {
      const EtlField *f = &g_array_index (d->fields, EtlField, i);
      const char *want = g_ptr_array_index (bd.values, i);

      g_assert_cmpstr (f->name, ==, g_ptr_array_index (bd.names, i));
      if (f->in_type == ETL_IN_FILETIME)
        g_assert_true (g_str_has_prefix (f->value, want));
      else
        g_assert_cmpstr (f->value, ==, want);
    }
  g_assert_cmpuint (d->fields->len, ==, bd.names->len);
  g_assert_true (d->complete);
  g_assert_cmpuint (d->n_bytes, ==, bd.b->len);

  g_byte_array_unref (bd.b);
  g_ptr_array_unref (bd.names);
  g_ptr_array_unref (bd.values);
}

static void
test_layout (gconstpointer data)
{
  test_layout_ps (data, 4);
  test_layout_ps (data, 8);
}

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* ---- the documented layouts (MOF class pages, ntwmi.h) ---- */

/* EventTrace_Header: 13 ULONG-ish fields and EndTime, two pointers, the
 * 176-byte TIME_ZONE_INFORMATION slot (Bias first), then 8-aligned
 * BootTime …; BootTime is at 0xF8 (64-bit) / 0xF0 (32-bit). */
static const Spec s_eventtrace_header[] = {
  { 'u', "BufferSize" }, { 'u', "Version" }, { 'u', "ProviderVersion" },
  { 'u', "NumberOfProcessors" }, { 't', "EndTime" }, { 'u', "TimerResolution" },
  { 'u', "MaxFileSize" }, { 'u', "LogFileMode" }, { 'u', "BuffersWritten" },
  { 'u', "StartBuffers" }, { 'u', "PointerSize" }, { 'u', "EventsLost" }, { 'u', "CPUSpeed" },
  { 'p', "LoggerNamePointer" }, { 'p', "LogFileNamePointer" }, { 'i', "UtcOffsetMinutes" },
  { 'x', "TimeZoneInformation", 172 }, MARK, { 't', "BootTime" }, { 'Q', "PerfFreq" },
  { 't', "StartTime" }, { 'u', "ReservedFlags" }, { 'u', "BuffersLost" },
  { 'w', "SessionName" }, { 'w', "LogFileName" }, END
};
static const Spec s_eventtrace_extension[] = {
  { 'u', "GroupMask1" }, { 'u', "GroupMask2" }, { 'u', "GroupMask3" }, { 'u', "GroupMask4" },
  { 'u', "GroupMask5" }, { 'u', "GroupMask6" }, { 'u', "GroupMask7" }, { 'u', "GroupMask8" },
  { 'u', "KernelEventVersion" }, END
};
static const Spec s_empty[] = { END };
/* Header_PartitionInformation_TypeGroup (TDH's kernel MOF): 2 + 2 + 4 + 8
 * bytes, then two GUIDs; 48 bytes. */
static const Spec s_partitioninfo[] = {
  { 'h', "EventVersion" }, { 'h', "Reserved" }, { 'u', "PartitionType" },
  { 'Q', "QpcOffsetFromRoot" }, MARK, { 'g', "PartitionId" }, { 'g', "ParentId" }, END
};
/* LastDroppedTimes: count, padding, then count u64 at offset 8. */
static const Spec s_lastdroppedtimes[] = {
  { 'm', "TimeStampCount", 3, "3" }, { 'u', "Padding" }, MARK, { 'A', "TimeStamp", 3, "q" }, END
};
static const Spec s_dbgidrsds[] = {
  { 'g', "Guid" }, { 'u', "Age" }, MARK, { 'a', "PdbName" }, END
};
static const Spec s_buildlab[] = { MARK, { 'a', "BuildString" }, END };
static const Spec s_binarypath[] = {
  { 'm', "GuidCount", 2, "2" }, { 'A', "Guid", 2, "g" }, MARK, { 'w', "BinaryPath" }, END
};

static const Spec s_process_v1[] = {
  { 'p', "PageDirectoryBase" }, { 'u', "ProcessId" }, { 'u', "ParentId" }, { 'i', "SessionId" },
  { 'i', "ExitStatus" }, MARK, { 'S', "UserSID" }, { 'a', "ImageFileName" }, END
};
static const Spec s_process_v2[] = {
  { 'p', "UniqueProcessKey" }, { 'u', "ProcessId" }, { 'u', "ParentId" }, { 'i', "SessionId" },
  { 'i', "ExitStatus" }, MARK, { 'S', "UserSID" }, { 'a', "ImageFileName" },
  { 'w', "CommandLine" }, END
};
static const Spec s_process_v3[] = {
  { 'p', "UniqueProcessKey" }, { 'u', "ProcessId" }, { 'u', "ParentId" }, { 'i', "SessionId" },
  { 'i', "ExitStatus" }, { 'p', "PageDirectoryBase" }, MARK, { 'S', "UserSID" },
  { 'a', "ImageFileName" }, { 'w', "CommandLine" }, END
};
static const Spec s_process_v4[] = {
  { 'p', "UniqueProcessKey" }, { 'u', "ProcessId" }, { 'u', "ParentId" }, { 'i', "SessionId" },
  { 'i', "ExitStatus" }, { 'p', "PageDirectoryBase" }, { 'm', "Flags", 4, "Protected" }, MARK,
  { 'S', "UserSID" }, { 'a', "ImageFileName" }, { 'w', "CommandLine" },
  { 'w', "PackageFullName" }, { 'w', "ApplicationId" }, END
};
/* Process_Defunct_TypeGroup1 (v5): version 4 and a trailing u64 ExitTime. */
static const Spec s_process_defunct_v5[] = {
  { 'p', "UniqueProcessKey" }, { 'u', "ProcessId" }, { 'u', "ParentId" }, { 'i', "SessionId" },
  { 'i', "ExitStatus" }, { 'p', "PageDirectoryBase" }, { 'm', "Flags", 2, "Wow64" }, MARK,
  { 'S', "UserSID" }, { 'a', "ImageFileName" }, { 'w', "CommandLine" },
  { 'w', "PackageFullName" }, { 'w', "ApplicationId" }, { 'q', "ExitTime" }, END
};
static const Spec s_process_inswap[] = {
  { 'p', "DirectoryTableBase" }, { 'u', "ProcessId" }, END
};
static const Spec s_process_perfctr[] = {
  { 'u', "ProcessId" }, { 'u', "MemoryCount" }, { 'u', "HandleCount" }, { 'u', "Reserved" },
  { 'z', "PeakVirtualSize" }, { 'z', "PeakWorkingSetSize" }, { 'z', "PeakPagefileUsage" },
  { 'z', "QuotaPeakPagedPoolUsage" }, { 'z', "QuotaPeakNonPagedPoolUsage" },
  { 'z', "VirtualSize" }, { 'z', "WorkingSetSize" }, { 'z', "PagefileUsage" },
  { 'z', "QuotaPagedPoolUsage" }, { 'z', "QuotaNonPagedPoolUsage" },
  { 'z', "PrivatePageCount" }, END
};
static const Spec s_process_terminate[] = { { 'u', "ProcessId" }, END };

static const Spec s_thread_v2[] = {
  { 'u', "ProcessId" }, { 'u', "TThreadId" }, { 'p', "StackBase" }, { 'p', "StackLimit" },
  { 'p', "UserStackBase" }, { 'p', "UserStackLimit" }, { 'p', "StartAddr" },
  { 'p', "Win32StartAddr" }, { 'p', "TebBase" }, { 'u', "SubProcessTag" }, END
};
static const Spec s_thread_v3[] = {
  { 'u', "ProcessId" }, { 'u', "TThreadId" }, { 'p', "StackBase" }, { 'p', "StackLimit" },
  { 'p', "UserStackBase" }, { 'p', "UserStackLimit" }, { 'p', "StartAddr" },
  { 'p', "Win32StartAddr" }, { 'p', "TebBase" }, { 'u', "SubProcessTag" },
  { 'b', "BasePriority" }, { 'b', "PagePriority" }, { 'b', "IoPriority" },
  { 'b', "ThreadFlags" }, END
};
static const Spec s_thread_v4[] = {
  { 'u', "ProcessId" }, { 'u', "TThreadId" }, { 'p', "StackBase" }, { 'p', "StackLimit" },
  { 'p', "UserStackBase" }, { 'p', "UserStackLimit" }, { 'p', "StartAddr" },
  { 'p', "Win32StartAddr" }, { 'p', "TebBase" }, { 'u', "SubProcessTag" },
  { 'b', "BasePriority" }, { 'b', "PagePriority" }, { 'b', "IoPriority" },
  { 'b', "ThreadFlags" }, MARK, { 'w', "ThreadName" }, END
};
static const Spec s_thread_setpriority[] = {
  { 'u', "ThreadId" }, { 'b', "OldPriority" }, { 'b', "NewPriority" }, { 'h', "Reserved" }, END
};
static const Spec s_thread_setaffinity[] = {
  { 'p', "Affinity" }, { 'u', "ThreadId" }, { 'h', "Group" }, { 'h', "Reserved" }, END
};
static const Spec s_cswitch[] = {
  { 'u', "NewThreadId" }, { 'u', "OldThreadId" }, { 'c', "NewThreadPriority" },
  { 'c', "OldThreadPriority" }, { 'b', "PreviousCState" }, { 'c', "SpareByte" },
  { 'M', "OldThreadWaitReason", 15, "WrQueue" }, { 'M', "OldThreadWaitMode", 1, "UserMode" },
  { 'M', "OldThreadState", 5, "Waiting" }, { 'c', "OldThreadWaitIdealProcessor" },
  { 'u', "NewThreadWaitTime" }, { 'u', "Reserved" }, END
};
static const Spec s_readythread[] = {
  { 'u', "TThreadId" }, { 'c', "AdjustReason" }, { 'c', "AdjustIncrement" }, { 'c', "Flag" },
  { 'c', "Reserved" }, END
};
static const Spec s_thread_setname[] = {
  { 'u', "ProcessId" }, { 'u', "ThreadId" }, MARK, { 'w', "ThreadName" }, END
};

static const Spec s_image_load[] = {
  { 'p', "ImageBase" }, { 'z', "ImageSize" }, { 'u', "ProcessId" }, { 'u', "ImageCheckSum" },
  { 'i', "TimeDateStamp" }, { 'u', "Reserved0" }, { 'p', "DefaultBase" }, { 'u', "Reserved1" },
  { 'u', "Reserved2" }, { 'u', "Reserved3" }, { 'u', "Reserved4" }, MARK, { 'w', "FileName" },
  END
};
static const Spec s_image_load_v1[] = {
  { 'p', "ImageBase" }, { 'z', "ImageSize" }, { 'u', "ProcessId" }, MARK, { 'w', "FileName" }, END
};
static const Spec s_image_kernelbase[] = { { 'p', "ImageBase" }, END };
static const Spec s_image_hypercall[] = { { 'p', "HypercallPageVa" }, END };

static const Spec s_sample[] = {
  { 'p', "InstructionPointer" }, { 'u', "ThreadId" }, { 'h', "Count" }, { 'h', "Reserved" }, END
};
static const Spec s_mark[] = { MARK, { 'a', "Message" }, END };
static const Spec s_pmcsample[] = {
  { 'p', "InstructionPointer" }, { 'u', "ThreadId" }, { 'h', "ProfileSource" },
  { 'h', "Reserved" }, END
};
static const Spec s_syscallenter[] = { { 'p', "SysCallAddress" }, END };
static const Spec s_syscallexit[] = {
  { 'm', "SysCallNtStatus", 0xC0000005u, "0xc0000005" }, END
};
static const Spec s_isr[] = {
  { 'q', "InitialTime" }, { 'p', "Routine" }, { 'b', "ReturnValue" }, { 'b', "Vector" },
  { 'h', "Reserved" }, END
};
static const Spec s_isr_msi[] = {
  { 'q', "InitialTime" }, { 'p', "Routine" }, { 'b', "ReturnValue" }, { 'b', "Vector" },
  { 'h', "Reserved" }, { 'u', "MessageNumber" }, END
};
static const Spec s_dpc[] = { { 'q', "InitialTime" }, { 'p', "Routine" }, END };
static const Spec s_interval_v2[] = {
  { 'u', "SampleSource" }, { 'u', "NewInterval" }, { 'u', "OldInterval" }, END
};
static const Spec s_interval_v3[] = {
  { 'u', "SampleSource" }, { 'u', "NewInterval" }, { 'u', "OldInterval" }, MARK,
  { 'w', "SourceName" }, END
};

static const Spec s_stackwalk[] = {
  { 'q', "EventTimeStamp" }, { 'u', "StackProcess" }, { 'u', "StackThread" }, MARK,
  { 'r', "Stack" }, END
};
static const Spec s_stackkey[] = {
  { 'q', "EventTimeStamp" }, { 'u', "StackProcess" }, { 'u', "StackThread" },
  { 'p', "StackKey" }, END
};
static const Spec s_keyframes[] = { { 'p', "StackKey" }, MARK, { 'r', "Stack" }, END };

static const Spec s_alpc_message[] = { { 'u', "MessageID" }, END };
static const Spec s_alpc_unwait[] = { { 'm', "Status", 0, "0x00000000" }, END };
static const Spec s_alpc_wait_new[] = {
  { 'u', "IsServerPort" }, MARK, { 'a', "PortName" }, END
};

static const Spec s_diskio_rw_v2[] = {
  { 'u', "DiskNumber" }, { 'm', "IrpFlags", 0x43, "Nocache|PagingIo|InputOperation" },
  { 'u', "TransferSize" }, { 'u', "Reserved" }, { 'Q', "ByteOffset" }, { 'p', "FileKey" },
  { 'p', "Irp" }, { 'q', "HighResResponseTime" }, END
};
static const Spec s_diskio_rw_v3[] = {
  { 'u', "DiskNumber" }, { 'm', "IrpFlags", 0x20000, "0x20000" }, { 'u', "TransferSize" },
  { 'u', "Reserved" }, { 'Q', "ByteOffset" }, { 'p', "FileKey" }, { 'p', "Irp" },
  { 'q', "HighResResponseTime" }, { 'u', "IssuingThreadId" }, END
};
static const Spec s_diskio_init_v2[] = { { 'p', "Irp" }, END };
static const Spec s_diskio_init_v3[] = { { 'p', "Irp" }, { 'u', "IssuingThreadId" }, END };
static const Spec s_diskio_flush_v2[] = {
  { 'u', "DiskNumber" }, { 'm', "IrpFlags", 0, "None" }, { 'q', "HighResResponseTime" },
  { 'p', "Irp" }, END
};
static const Spec s_diskio_flush_v3[] = {
  { 'u', "DiskNumber" }, { 'm', "IrpFlags", 0, "None" }, { 'q', "HighResResponseTime" },
  { 'p', "Irp" }, { 'u', "IssuingThreadId" }, END
};
static const Spec s_drvmjfncall[] = {
  { 'u', "MajorFunction" }, { 'u', "MinorFunction" }, { 'p', "RoutineAddr" },
  { 'p', "FileObject" }, { 'p', "Irp" }, { 'u', "UniqMatchId" }, END
};
static const Spec s_drvret[] = { { 'p', "Irp" }, { 'u', "UniqMatchId" }, END };
static const Spec s_drvcomprout[] = {
  { 'p', "Routine" }, { 'p', "IrpPtr" }, { 'u', "UniqMatchId" }, END
};
static const Spec s_drvcompreq[] = {
  { 'p', "RoutineAddr" }, { 'p', "Irp" }, { 'u', "UniqMatchId" }, END
};

static const Spec s_fileio_name[] = { { 'p', "FileObject" }, MARK, { 'w', "FileName" }, END };
static const Spec s_fileio_create_v2[] = {
  { 'p', "IrpPtr" }, { 'p', "TTID" }, { 'p', "FileObject" },
  { 'm', "CreateOptions", 0x01000060, "FILE_SYNCHRONOUS_IO_NONALERT|FILE_NON_DIRECTORY_FILE|0x1000000" },
  { 'm', "FileAttributes", 0x80, "Normal" }, { 'm', "ShareAccess", 3, "Read|Write" }, MARK,
  { 'w', "OpenPath" }, END
};
static const Spec s_fileio_simpleop_v2[] = {
  { 'p', "IrpPtr" }, { 'p', "TTID" }, { 'p', "FileObject" }, { 'p', "FileKey" }, END
};
static const Spec s_fileio_readwrite_v2[] = {
  { 'q', "Offset" }, { 'p', "IrpPtr" }, { 'p', "TTID" }, { 'p', "FileObject" },
  { 'p', "FileKey" }, { 'u', "IoSize" }, { 'u', "IoFlags" }, END
};
static const Spec s_fileio_info_v2[] = {
  { 'p', "IrpPtr" }, { 'p', "TTID" }, { 'p', "FileObject" }, { 'p', "FileKey" },
  { 'p', "ExtraInfo" }, { 'u', "InfoClass" }, END
};
static const Spec s_fileio_direnum_v2[] = {
  { 'p', "IrpPtr" }, { 'p', "TTID" }, { 'p', "FileObject" }, { 'p', "FileKey" },
  { 'u', "Length" }, { 'u', "InfoClass" }, { 'u', "FileIndex" }, MARK, { 'w', "FileName" }, END
};
static const Spec s_fileio_opend[] = {
  { 'p', "IrpPtr" }, { 'p', "ExtraInfo" }, { 'n', "NtStatus" }, END
};
static const Spec s_fileio_create_v3[] = {
  { 'p', "IrpPtr" }, { 'p', "FileObject" }, { 'u', "TTID" },
  { 'm', "CreateOptions", 0x20, "FILE_SYNCHRONOUS_IO_NONALERT" },
  { 'm', "FileAttributes", 0, "None" }, { 'm', "ShareAccess", 7, "Read|Write|Delete" }, MARK,
  { 'w', "OpenPath" }, END
};
static const Spec s_fileio_simpleop_v3[] = {
  { 'p', "IrpPtr" }, { 'p', "FileObject" }, { 'p', "FileKey" }, { 'u', "TTID" }, END
};
static const Spec s_fileio_readwrite_v3[] = {
  { 'q', "Offset" }, { 'p', "IrpPtr" }, { 'p', "FileObject" }, { 'p', "FileKey" },
  { 'u', "TTID" }, { 'u', "IoSize" }, { 'u', "IoFlags" }, END
};
static const Spec s_fileio_info_v3[] = {
  { 'p', "IrpPtr" }, { 'p', "FileObject" }, { 'p', "FileKey" }, { 'p', "ExtraInfo" },
  { 'u', "TTID" }, { 'u', "InfoClass" }, END
};
static const Spec s_fileio_direnum_v3[] = {
  { 'p', "IrpPtr" }, { 'p', "FileObject" }, { 'p', "FileKey" }, { 'u', "TTID" },
  { 'u', "Length" }, { 'u', "InfoClass" }, { 'u', "FileIndex" }, MARK, { 'w', "FileName" }, END
};

static const Spec s_tcp_send4[] = {
  { 'u', "PID" }, { 'u', "size" }, { '4', "daddr" }, { '4', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'u', "startime" }, { 'u', "endtime" }, { 'u', "seqnum" },
  { 'p', "connid" }, END
};
static const Spec s_ip_group1[] = {
  { 'u', "PID" }, { 'u', "size" }, { '4', "daddr" }, { '4', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'u', "seqnum" }, { 'p', "connid" }, END
};
static const Spec s_tcp_group2[] = {
  { 'u', "PID" }, { 'u', "size" }, { '4', "daddr" }, { '4', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'h', "mss" }, { 'h', "sackopt" }, { 'h', "tsopt" }, { 'h', "wsopt" },
  { 'u', "rcvwin" }, { 'H', "rcvwinscale" }, { 'H', "sndwinscale" }, { 'u', "seqnum" },
  { 'p', "connid" }, END
};
static const Spec s_tcp_send6[] = {
  { 'u', "PID" }, { 'u', "size" }, { '6', "daddr" }, { '6', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'u', "startime" }, { 'u', "endtime" }, { 'u', "seqnum" },
  { 'p', "connid" }, END
};
static const Spec s_ip_group3[] = {
  { 'u', "PID" }, { 'u', "size" }, { '6', "daddr" }, { '6', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'u', "seqnum" }, { 'p', "connid" }, END
};
static const Spec s_tcp_group4[] = {
  { 'u', "PID" }, { 'u', "size" }, { '6', "daddr" }, { '6', "saddr" }, { 'P', "dport" },
  { 'P', "sport" }, { 'h', "mss" }, { 'h', "sackopt" }, { 'h', "tsopt" }, { 'h', "wsopt" },
  { 'u', "rcvwin" }, { 'H', "rcvwinscale" }, { 'H', "sndwinscale" }, { 'u', "seqnum" },
  { 'p', "connid" }, END
};
static const Spec s_ip_fail[] = { { 'h', "Proto" }, { 'h', "FailureCode" }, END };

static const Spec s_registry[] = {
  { 'Q', "InitialTime" }, { 'n', "Status" }, { 'u', "Index" }, { 'p', "KeyHandle" }, MARK,
  { 'w', "KeyName" }, END
};

static const Spec s_pagefault[] = { { 'p', "VirtualAddress" }, { 'p', "ProgramCounter" }, END };
static const Spec s_hardfault[] = {
  { 'Q', "InitialTime" }, { 'q', "ReadOffset" }, { 'p', "VirtualAddress" }, { 'p', "FileKey" },
  { 'u', "TThreadId" }, { 'u', "ByteCount" }, END
};
static const Spec s_imageloadbacked[] = {
  { 'p', "FileObject" }, { 'u', "DeviceChar" }, { 'h', "FileChar" }, { 'h', "LoadFlags" }, END
};
static const Spec s_virtualalloc[] = {
  { 'p', "BaseAddress" }, { 'z', "RegionSize" }, { 'u', "ProcessId" },
  { 'm', "Flags", 0x3000, "MEM_COMMIT|MEM_RESERVE" }, END
};

static const Spec s_cpu_v2[] = {
  { 'u', "MHz" }, { 'u', "NumberOfProcessors" }, { 'u', "MemSize" }, { 'u', "PageSize" },
  { 'u', "AllocationGranularity" }, { 'W', "ComputerName", 256 }, { 'W', "DomainName", 134 },
  { 'p', "HyperThreadingFlag" }, END
};
static const Spec s_cpu_v3[] = {
  { 'u', "MHz" }, { 'u', "NumberOfProcessors" }, { 'u', "MemSize" }, { 'u', "PageSize" },
  { 'u', "AllocationGranularity" }, { 'W', "ComputerName", 256 }, { 'W', "DomainName", 134 },
  { 'p', "HyperThreadingFlag" }, { 'p', "HighestUserAddress" },
  { 'h', "ProcessorArchitecture" }, { 'h', "ProcessorLevel" }, { 'h', "ProcessorRevision" },
  { 'b', "PaeEnabled" }, { 'b', "NxEnabled" }, { 'u', "MemorySpeed" }, END
};
static const Spec s_phydisk[] = {
  { 'u', "DiskNumber" }, { 'u', "BytesPerSector" }, { 'u', "SectorsPerTrack" },
  { 'u', "TracksPerCylinder" }, { 'q', "Cylinders" }, { 'u', "SCSIPort" }, { 'u', "SCSIPath" },
  { 'u', "SCSITarget" }, { 'u', "SCSILun" }, { 'W', "Manufacturer", 256 },
  { 'u', "PartitionCount" }, { 'b', "WriteCacheEnabled" }, { 'b', "Pad" },
  { 'W', "BootDriveLetter", 3 }, { 'W', "Spare", 2 }, END
};
static const Spec s_logdisk[] = {
  { 'q', "StartOffset" }, { 'q', "PartitionSize" }, { 'u', "DiskNumber" }, { 'u', "Size" },
  { 'u', "DriveType" }, { 'W', "DriveLetterString", 4 }, { 'u', "Pad1" },
  { 'u', "PartitionNumber" }, { 'u', "SectorsPerCluster" }, { 'u', "BytesPerSector" },
  { 'u', "Pad2" }, { 'Q', "NumberOfFreeClusters" }, { 'Q', "TotalNumberOfClusters" },
  { 'W', "FileSystem", 16 }, { 'u', "VolumeExt" }, { 'u', "Pad3" }, END
};
static const Spec s_nic[] = {
  { 'q', "PhysicalAddr" }, { 'u', "PhysicalAddrLen" }, { 'u', "Ipv4Index" },
  { 'u', "Ipv6Index" }, MARK, { 'w', "NICDescription" }, { 'w', "IpAddresses" },
  { 'w', "DnsServerAddresses" }, END
};
static const Spec s_video[] = {
  { 'u', "MemorySize" }, { 'u', "XResolution" }, { 'u', "YResolution" },
  { 'u', "BitsPerPixel" }, { 'u', "VRefresh" }, { 'W', "ChipType", 256 },
  { 'W', "DACType", 256 }, { 'W', "AdapterString", 256 }, { 'W', "BiosString", 256 },
  { 'W', "DeviceId", 256 }, { 'm', "StateFlags", 0x5, "0x00000005" }, END
};
static const Spec s_services_v2[] = {
  { 'u', "ProcessId" }, { 'u', "ServiceState" }, { 'u', "SubProcessTag" }, MARK,
  { 'w', "ServiceName" }, { 'w', "DisplayName" }, { 'w', "ProcessName" }, END
};
static const Spec s_services_v3[] = {
  { 'u', "ProcessId" }, { 'u', "ServiceState" }, { 'u', "SubProcessTag" }, MARK,
  { 'w', "ServiceName" }, { 'w', "DisplayName" }, { 'w', "ProcessName" },
  { 'w', "LoadOrderGroup" }, { 'w', "SvchostGroup" }, END
};
static const Spec s_power[] = {
  { 'b', "S1" }, { 'b', "S2" }, { 'b', "S3" }, { 'b', "S4" }, { 'b', "S5" }, { 'b', "Pad1" },
  { 'b', "Pad2" }, { 'b', "Pad3" }, END
};
static const Spec s_network[] = {
  { 'u', "TcbTablePartitions" }, { 'i', "MaxHashTableSize" }, { 'u', "MaxUserPort" },
  { 'u', "TcpTimedWaitDelay" }, END
};
static const Spec s_opticalmedia[] = {
  { 'h', "DiskNumber" }, { 'h', "BusType" }, { 'h', "DeviceType" }, { 'h', "MediaType" },
  { 'q', "StartingOffset" }, { 'q', "Size" }, { 'q', "NumberOfFreeBlocks" },
  { 'q', "TotalNumberOfBlocks" }, { 'q', "NextWritableAddress" }, { 'u', "NumberOfSessions" },
  { 'u', "NumberOfTracks" }, { 'u', "BytesPerSector" }, { 'h', "DiscStatus" },
  { 'h', "LastSessionStatus" }, MARK, { 'w', "DriveLetter" }, { 'w', "FileSystemName" },
  { 'a', "DeviceName" }, { 'a', "ManufacturerName" }, END
};
static const Spec s_irq[] = {
  { 'X', "IRQAffinity", 0xff, "0x000000ff" }, { 'u', "IRQNum" },
  { 'u', "DeviceDescriptionLen" }, MARK, { 'w', "DeviceDescription" }, END
};
static const Spec s_pnp_v2[] = {
  { 'u', "IDLength" }, { 'u', "DescriptionLength" }, { 'u', "FriendlyNameLength" }, MARK,
  { 'w', "DeviceID" }, { 'w', "DeviceDescription" }, { 'w', "FriendlyName" }, END
};
static const Spec s_irq_v3[] = {
  { 'X', "IRQAffinity", 0xf0, "0x000000f0" }, { 'h', "IRQGroup" }, { 'h', "Reserved" },
  { 'u', "IRQNum" }, { 'u', "DeviceDescriptionLen" }, MARK, { 'w', "DeviceDescription" }, END
};
static const Spec s_pnp_v3[] = {
  { 'u', "IDLength" }, { 'u', "DescriptionLength" }, { 'u', "FriendlyNameLength" }, MARK,
  { 'w', "DeviceID" }, { 'w', "DeviceDescription" }, { 'w', "FriendlyName" },
  { 'w', "PdoName" }, END
};
/* PnP v4 and v5: GUID, two counts (v5: status and problem), five strings,
 * then the counted filter names. */
static const Spec s_pnp_v4[] = {
  { 'g', "ClassGuid" }, { 'm', "UpperFilterCount", 2, "2" }, { 'm', "LowerFilterCount", 1, "1" },
  MARK, { 'w', "DeviceID" }, { 'w', "DeviceDescription" }, { 'w', "FriendlyName" },
  { 'w', "PdoName" }, { 'w', "ServiceName" }, { 'A', "UpperFilters", 2, "w" },
  { 'A', "LowerFilters", 1, "w" }, END
};
static const Spec s_pnp_v5[] = {
  { 'g', "ClassGuid" }, { 'm', "UpperFilterCount", 1, "1" }, { 'm', "LowerFilterCount", 0, "0" },
  { 'm', "DevStatus", 0x0180200a, "0x0180200a" }, { 'u', "DevProblem" }, MARK,
  { 'w', "DeviceID" }, { 'w', "DeviceDescription" }, { 'w', "FriendlyName" },
  { 'w', "PdoName" }, { 'w', "ServiceName" }, { 'A', "UpperFilters", 1, "w" }, END
};
static const Spec s_numanode[] = {
  { 'u', "NodeCount" }, { 'X', "NodeMap", 3, "0x00000003" }, END
};
static const Spec s_processorgroup[] = { { 'u', "GroupCount" }, { 'p', "Affinity" }, END };
static const Spec s_processornumber[] = {
  { 'u', "ProcessorCount" }, { 'u', "ProcessorNumber" }, END
};
static const Spec s_codeintegrity[] = { { 'n', "CodeIntegrityInfo" }, END };
static const Spec s_machineid[] = { { 'g', "MachineId" }, END };
/* Defragmentation: 14 u64 (112 bytes), 23 u32 (92), a GUID at 204, then
 * the volume path names at 220. */
static const Spec s_defrag[] = {
  { 'q', "AlignmentClusters" }, { 'q', "AvgFreeSpaceSize" }, { 'q', "ClustersPerSlab" },
  { 'q', "FragmentedDirectoryExtents" }, { 'q', "FragmentedExtents" }, { 'q', "FreeSpaceCount" },
  { 'q', "LargestFreeSpaceSize" }, { 'q', "LastRunActualPurgeClusters" },
  { 'q', "LastRunClustersTrimmed" }, { 'q', "LastRunFullDefragTime" }, { 'q', "LastRunTime" },
  { 'q', "MFTSize" }, { 'q', "TotalClusters" }, { 'q', "TotalUsedClusters" },
  { 'u', "AvgFragmentsPerFile" }, { 'u', "BytesPerCluster" }, { 'u', "DirectoryCount" },
  { 'u', "FragmentedDirectories" }, { 'u', "FragmentedFiles" }, { 'u', "FragmentedSpace" },
  { 'u', "HardwareIssue" }, { 'u', "InUseMFTRecords" }, { 'u', "InUseSlabs" },
  { 'u', "LastRunActualPurgeSlabs" }, { 'u', "LastRunInitialBackedSlabs" },
  { 'u', "LastRunPercentFragmentation" }, { 'u', "LastRunPinnedSlabs" },
  { 'u', "LastRunPotentialPurgeSlabs" }, { 'u', "LastRunSpaceInefficientSlabs" },
  { 'u', "LastRunTrimmedSlabs" }, { 'u', "LastRunUnknownEvictFailSlabs" },
  { 'u', "LastRunVolsnapPinnedSlabs" }, { 'u', "MFTFragmentCount" }, { 'u', "MovableFiles" },
  { 'u', "TotalMFTRecords" }, { 'u', "TotalSlabs" }, { 'u', "UnmovableFiles" },
  { 'g', "VolumeId" }, MARK, { 'w', "VolumePathNames" }, END
};
static const Spec s_mobileplatform[] = {
  MARK,
  { 'w', "BootLoaderVersion" }, { 'w', "FirmwareRevision" }, { 'w', "FriendlyName" },
  { 'w', "HardwareRevision" }, { 'w', "Manufacturer" }, { 'w', "ManufacturerDisplayName" },
  { 'w', "ManufacturerModelName" }, { 'w', "MobileOperatorDisplayName" },
  { 'w', "MobileOperatorName" }, { 'w', "ModelName" }, { 'w', "RadioHardwareRevision" },
  { 'w', "RadioSoftwareRevision" }, { 'w', "ROMVersion" }, { 'w', "SOCVersion" },
  { 'w', "HardwareVariant" }, END
};
static const Spec s_devicefamily[] = {
  { 'q', "UAPInfo" }, { 'u', "DeviceFamily" }, { 'u', "DeviceForm" }, END
};
static const Spec s_flightids[] = { MARK, { 'w', "UpdateId" }, { 'w', "FlightIdList" }, END };
/* Processors: 12 bytes, then WCHAR[64], [16], [128]: 428 bytes. */
static const Spec s_processors[] = {
  { 'u', "ProcessorIndex" }, { 'n', "FeatureSet" }, { 'u', "ProcessorSpeed" },
  { 'W', "ProcessorName", 64 }, { 'W', "VendorIdentifier", 16 },
  { 'W', "ProcessorIdentifier", 128 }, END
};
static const Spec s_idechannel[] = {
  { 'u', "TargetId" }, { 'u', "DeviceType" }, { 'u', "DeviceTimingMode" },
  { 'u', "LocationInformationLen" }, MARK, { 'w', "LocationInformation" }, END
};
static const Spec s_platform[] = {
  MARK,
  { 'w', "SystemManufacturer" }, { 'w', "SystemProductName" }, { 'w', "BiosDate" },
  { 'w', "BiosVersion" }, END
};
static const Spec s_dpi[] = { { 'u', "MachineDPI" }, { 'u', "UserDPI" }, END };

static const Spec s_buildinfo[] = {
  { 't', "InstallDate" }, MARK, { 'w', "BuildLab" }, { 'w', "ProductName" }, END
};
static const Spec s_systempaths[] = {
  MARK,
  { 'w', "SystemDirectory" }, { 'w', "SystemWindowsDirectory" }, END
};
static const Spec s_unknownvolume[] = { MARK, { 'w', "Value" }, END };
static const Spec s_volumemapping[] = { MARK, { 'w', "NtPath" }, { 'w', "DosPath" }, END };

/* NetworkInterface: MIB_IF_ROW2 (netioapi.h), 1,352 bytes; the flags byte
 * at 0x480, NetworkGuid at 0x490, TransmitLinkSpeed at 0x4A8. */
static const Spec s_networkinterface[] = {
  { 'X', "InterfaceLuid", 0x6000000000000, "0x6000000000000" }, { 'u', "InterfaceIndex" },
  { 'g', "InterfaceGuid" }, { 'W', "Alias", 257 }, { 'W', "Description", 257 },
  { 'u', "PhysicalAddressLength" }, { 'x', "PhysicalAddress", 32 },
  { 'x', "PermanentPhysicalAddress", 32 }, { 'u', "Mtu" }, { 'u', "Type" }, { 'u', "TunnelType" },
  { 'u', "MediaType" }, { 'u', "PhysicalMediumType" }, { 'u', "AccessType" },
  { 'u', "DirectionType" }, MARK, { 'M', "InterfaceAndOperStatusFlags", 0x12, "0x00000012" },
  { 'x', "FlagsPadding", 3 }, { 'u', "OperStatus" }, { 'u', "AdminStatus" },
  { 'u', "MediaConnectState" }, { 'g', "NetworkGuid" }, { 'u', "ConnectionType" },
  { 'u', "SpeedPadding" }, { 'q', "TransmitLinkSpeed" }, { 'q', "ReceiveLinkSpeed" },
  { 'q', "InOctets" }, { 'q', "InUcastPkts" }, { 'q', "InNUcastPkts" }, { 'q', "InDiscards" },
  { 'q', "InErrors" }, { 'q', "InUnknownProtos" }, { 'q', "InUcastOctets" },
  { 'q', "InMulticastOctets" }, { 'q', "InBroadcastOctets" }, { 'q', "OutOctets" },
  { 'q', "OutUcastPkts" }, { 'q', "OutNUcastPkts" }, { 'q', "OutDiscards" },
  { 'q', "OutErrors" }, { 'q', "OutUcastOctets" }, { 'q', "OutMulticastOctets" },
  { 'q', "OutBroadcastOctets" }, { 'q', "OutQLen" }, END
};
static const Spec s_osversion[] = {
  { 'h', "Revision" }, { 'h', "BuildNumber" }, { 'h', "MinorVersion" }, { 'h', "MajorVersion" },
  { 'u', "Value1" }, { 'u', "Value2" }, END
};
static const Spec s_ktc_dbgppdb[] = {
  { 'p', "ImageBase" }, { 'u', "ProcessId" }, { 'u', "TimeDateStamp" }, { 'h', "MajorVersion" },
  { 'h', "MinorVersion" }, END
};
static const Spec s_ktc_dbgdeterm[] = { { 'p', "ImageBase" }, { 'u', "ProcessId" }, END };
static const Spec s_ktc_imageid[] = {
  { 'p', "ImageBase" }, { 'z', "ImageSize" }, { 'u', "ProcessId" }, { 'u', "TimeDateStamp" },
  MARK, { 'w', "OriginalFileName" }, END
};
static const Spec s_ktc_none[] = { { 'p', "ImageBase" }, { 'u', "ProcessId" }, END };
static const Spec s_ktc_rsds[] = {
  { 'p', "ImageBase" }, { 'u', "ProcessId" }, { 'g', "GuidSig" }, { 'u', "Age" }, MARK,
  { 'a', "PdbFileName" }, END
};
static const Spec s_ktc_fileversion[] = {
  { 'u', "ImageSize" }, { 'u', "TimeDateStamp" }, MARK, { 'w', "OrigFileName" },
  { 'w', "FileDescription" }, { 'w', "FileVersion" }, { 'w', "BinFileVersion" },
  { 'w', "VerLanguage" }, { 'w', "ProductName" }, { 'w', "CompanyName" },
  { 'w', "ProductVersion" }, { 'w', "FileId" }, { 'w', "ProgramId" }, END
};

#define K(path, grp, op, ver, o32, o64, spec)                                                      \
  { (path), ETL_MOF_GROUP_##grp, NULL, (op), (ver), (o32), (o64), (spec) }
#define C(path, guid, op, ver, o32, o64, spec) { (path), -1, (guid), (op), (ver), (o32), (o64), (spec) }

static const Layout layouts[] = {
  K ("EventTrace_Header/v2", EVENTTRACE, 0, 2, 0xF0, 0xF8, s_eventtrace_header),
  K ("EventTrace_Header/v1", EVENTTRACE, 0, 1, 0xF0, 0xF8, s_eventtrace_header),
  K ("EventTrace_Extension/v2", EVENTTRACE, 5, 2, 36, 36, s_eventtrace_extension),
  K ("EventTrace_EndExtension/v2", EVENTTRACE, 32, 2, 36, 36, s_eventtrace_extension),
  K ("EventTrace_RundownComplete/v2", EVENTTRACE, 8, 2, 0, 0, s_empty),
  K ("EventTrace_DbgIdRSDS/v2", EVENTTRACE, 64, 2, 20, 20, s_dbgidrsds),
  K ("EventTrace_BuildInfo/v2", EVENTTRACE, 66, 2, 0, 0, s_buildlab),
  K ("EventTrace_ProviderBinaryPath/v2", EVENTTRACE, 67, 2, 36, 36, s_binarypath),
  K ("Header_PartitionInformation_TypeGroup/v2", EVENTTRACE, 80, 2, 16, 16, s_partitioninfo),
  K ("EventTrace_LastDroppedTimes/v2", EVENTTRACE, 82, 2, 8, 8, s_lastdroppedtimes),
  K ("Process_V1_TypeGroup1/v1", PROCESS, 1, 1, 20, 24, s_process_v1),
  K ("Process_V2_TypeGroup1/v2", PROCESS, 3, 2, 20, 24, s_process_v2),
  K ("Process_V3_TypeGroup1/v3", PROCESS, 2, 3, 24, 32, s_process_v3),
  K ("Process_V4_TypeGroup1/v4", PROCESS, 1, 4, 28, 36, s_process_v4),
  K ("Process_V4_TypeGroup1/v4-defunct", PROCESS, 39, 4, 28, 36, s_process_v4),
  K ("Process_Defunct_TypeGroup1/v5", PROCESS, 39, 5, 28, 36, s_process_defunct_v5),
  K ("Process_V2_TypeGroup3/v2", PROCESS, 35, 2, 8, 12, s_process_inswap),
  K ("Process_V2_TypeGroup2/v2", PROCESS, 33, 2, 60, 104, s_process_perfctr),
  K ("Process_Terminate/v2", PROCESS, 11, 2, 4, 4, s_process_terminate),
  K ("Thread_V2_TypeGroup1/v2", THREAD, 1, 2, 40, 68, s_thread_v2),
  K ("Thread_V3_TypeGroup1/v3", THREAD, 3, 3, 44, 72, s_thread_v3),
  K ("Thread_V4_TypeGroup1/v4", THREAD, 4, 4, 44, 72, s_thread_v4),
  K ("Thread_SetPriority/v3", THREAD, 52, 3, 8, 8, s_thread_setpriority),
  K ("Thread_SetAffinity/v2", THREAD, 53, 2, 12, 16, s_thread_setaffinity),
  K ("CSwitch/v2", THREAD, 36, 2, 24, 24, s_cswitch),
  K ("CSwitch/v3", THREAD, 36, 3, 24, 24, s_cswitch),
  K ("ReadyThread/v2", THREAD, 50, 2, 8, 8, s_readythread),
  K ("Thread_SetName/v2", THREAD, 72, 2, 8, 8, s_thread_setname),
  K ("Image_Load/v2", IMAGE, 10, 2, 44, 56, s_image_load),
  K ("Image_Load/v3", IMAGE, 3, 3, 44, 56, s_image_load),
  K ("Image_V1_Load/v1", IMAGE, 2, 1, 12, 20, s_image_load_v1),
  K ("Image_KernelBase/v2", IMAGE, 33, 2, 4, 8, s_image_kernelbase),
  K ("Image_HypercallPage/v2", IMAGE, 34, 2, 4, 8, s_image_hypercall),
  K ("PerfInfo_SampledProfile/v2", PERFINFO, 46, 2, 12, 16, s_sample),
  K ("PerfInfo_Mark/v0", PERFINFO, 34, 0, 0, 0, s_mark),
  K ("PerfInfo_PmcCounterProf/v2", PERFINFO, 47, 2, 12, 16, s_pmcsample),
  K ("SysCallEnter/v2", PERFINFO, 51, 2, 4, 8, s_syscallenter),
  K ("SysCallExit/v2", PERFINFO, 52, 2, 4, 4, s_syscallexit),
  K ("ISR/v2", PERFINFO, 67, 2, 16, 20, s_isr),
  K ("ISR_MSI/v2", PERFINFO, 50, 2, 20, 24, s_isr_msi),
  K ("DPC/v2", PERFINFO, 68, 2, 12, 16, s_dpc),
  K ("PerfInfo_SampledProfileInterval_V2/v2", PERFINFO, 72, 2, 12, 12, s_interval_v2),
  K ("PerfInfo_SampledProfileInterval_V3/v3", PERFINFO, 73, 3, 12, 12, s_interval_v3),
  K ("StackWalk_Event/v2", STACKWALK, 32, 2, 16, 16, s_stackwalk),
  K ("StackWalk_Key/v2", STACKWALK, 38, 2, 20, 24, s_stackkey),
  K ("StackWalk_KeyFrames/v2", STACKWALK, 35, 2, 4, 8, s_keyframes),
  K ("ALPC_Message/v2", ALPC, 33, 2, 4, 4, s_alpc_message),
  K ("ALPC_Wait_For_New_Message/v2", ALPC, 36, 2, 4, 4, s_alpc_wait_new),
  K ("ALPC_Unwait/v2", ALPC, 37, 2, 4, 4, s_alpc_unwait),
  K ("DiskIo_TypeGroup1/v2", DISKIO, 10, 2, 40, 48, s_diskio_rw_v2),
  K ("DiskIo_TypeGroup1/v3", DISKIO, 11, 3, 44, 52, s_diskio_rw_v3),
  K ("DiskIo_TypeGroup2/v2", DISKIO, 12, 2, 4, 8, s_diskio_init_v2),
  K ("DiskIo_TypeGroup2/v3", DISKIO, 13, 3, 8, 12, s_diskio_init_v3),
  K ("DiskIo_TypeGroup3/v2", DISKIO, 14, 2, 20, 24, s_diskio_flush_v2),
  K ("DiskIo_TypeGroup3/v3", DISKIO, 14, 3, 24, 28, s_diskio_flush_v3),
  K ("DiskIo_DrvMjFnCall/v2", DISKIO, 34, 2, 24, 36, s_drvmjfncall),
  K ("DiskIo_DrvMjFnRet/v2", DISKIO, 35, 2, 8, 12, s_drvret),
  K ("DiskIo_DrvCompRout/v2", DISKIO, 37, 2, 12, 20, s_drvcomprout),
  K ("DiskIo_DrvCompReq/v2", DISKIO, 52, 2, 12, 20, s_drvcompreq),
  K ("FileIo_Name/v2", FILEIO, 36, 2, 4, 8, s_fileio_name),
  K ("FileIo_Name/v3", FILEIO, 32, 3, 4, 8, s_fileio_name),
  K ("FileIo_Create/v2", FILEIO, 64, 2, 24, 36, s_fileio_create_v2),
  K ("FileIo_SimpleOp/v2", FILEIO, 66, 2, 16, 32, s_fileio_simpleop_v2),
  K ("FileIo_ReadWrite/v2", FILEIO, 67, 2, 32, 48, s_fileio_readwrite_v2),
  K ("FileIo_Info/v2", FILEIO, 69, 2, 24, 44, s_fileio_info_v2),
  K ("FileIo_DirEnum/v2", FILEIO, 72, 2, 28, 44, s_fileio_direnum_v2),
  K ("FileIo_OpEnd/v2", FILEIO, 76, 2, 12, 20, s_fileio_opend),
  K ("FileIo_V3_Create/v3", FILEIO, 64, 3, 24, 32, s_fileio_create_v3),
  K ("FileIo_V3_SimpleOp/v3", FILEIO, 65, 3, 16, 28, s_fileio_simpleop_v3),
  K ("FileIo_V3_ReadWrite/v3", FILEIO, 68, 3, 32, 44, s_fileio_readwrite_v3),
  K ("FileIo_V3_Info/v3", FILEIO, 71, 3, 24, 40, s_fileio_info_v3),
  K ("FileIo_V3_DirEnum/v3", FILEIO, 77, 3, 28, 40, s_fileio_direnum_v3),
  K ("FileIo_V3_OpEnd/v3", FILEIO, 76, 3, 12, 20, s_fileio_opend),
  K ("TcpIp_SendIPV4/v2", TCPIP, 10, 2, 36, 40, s_tcp_send4),
  K ("TcpIp_TypeGroup1/v2", TCPIP, 11, 2, 28, 32, s_ip_group1),
  K ("TcpIp_TypeGroup2/v2", TCPIP, 12, 2, 44, 48, s_tcp_group2),
  K ("TcpIp_Fail/v2", TCPIP, 17, 2, 4, 4, s_ip_fail),
  K ("TcpIp_SendIPV6/v2", TCPIP, 26, 2, 60, 64, s_tcp_send6),
  K ("TcpIp_TypeGroup3/v2", TCPIP, 27, 2, 52, 56, s_ip_group3),
  K ("TcpIp_TypeGroup4/v2", TCPIP, 28, 2, 68, 72, s_tcp_group4),
  K ("UdpIp_TypeGroup1/v2", UDPIP, 11, 2, 28, 32, s_ip_group1),
  K ("UdpIp_TypeGroup2/v2", UDPIP, 26, 2, 52, 56, s_ip_group3),
  K ("UdpIp_Fail/v2", UDPIP, 17, 2, 4, 4, s_ip_fail),
  K ("Registry_TypeGroup1/v2", REGISTRY, 11, 2, 20, 24, s_registry),
  K ("PageFault_TypeGroup1/v2", MEMORY, 10, 2, 8, 16, s_pagefault),
  K ("PageFault_HardFault/v2", MEMORY, 32, 2, 32, 40, s_hardfault),
  K ("PageFault_ImageLoadBacked/v2", MEMORY, 105, 2, 12, 16, s_imageloadbacked),
  K ("PageFault_VirtualAlloc/v2", MEMORY, 98, 2, 16, 24, s_virtualalloc),
  K ("SystemConfig_CPU/v2", CONFIG, 10, 2, 804, 808, s_cpu_v2),
  K ("SystemConfig_V3_CPU/v3", CONFIG, 10, 3, 820, 828, s_cpu_v3),
  K ("SystemConfig_PhyDisk/v2", CONFIG, 11, 2, 568, 568, s_phydisk),
  K ("SystemConfig_LogDisk/v2", CONFIG, 12, 2, 112, 112, s_logdisk),
  K ("SystemConfig_NIC/v2", CONFIG, 13, 2, 20, 20, s_nic),
  K ("SystemConfig_Video/v2", CONFIG, 14, 2, 2584, 2584, s_video),
  K ("SystemConfig_Services/v2", CONFIG, 15, 2, 12, 12, s_services_v2),
  K ("SystemConfig_Services/v3", CONFIG, 15, 3, 12, 12, s_services_v3),
  K ("SystemConfig_Power/v2", CONFIG, 16, 2, 8, 8, s_power),
  K ("SystemConfig_Network/v2", CONFIG, 17, 2, 16, 16, s_network),
  K ("SystemConfig_OpticalMedia/v2", CONFIG, 18, 2, 64, 64, s_opticalmedia),
  K ("SystemConfig_IRQ/v2", CONFIG, 21, 2, 16, 16, s_irq),
  K ("SystemConfig_PnP/v2", CONFIG, 22, 2, 12, 12, s_pnp_v2),
  K ("SystemConfig_IRQ/v3", CONFIG, 21, 3, 20, 20, s_irq_v3),
  K ("SystemConfig_PnP/v3", CONFIG, 22, 3, 12, 12, s_pnp_v3),
  K ("SystemConfig_PnP/v4", CONFIG, 22, 4, 24, 24, s_pnp_v4),
  K ("SystemConfig_PnP/v5", CONFIG, 22, 5, 32, 32, s_pnp_v5),
  K ("SystemConfig_NumaNode/v2", CONFIG, 24, 2, 12, 12, s_numanode),
  K ("SystemConfig_ProcessorGroup/v2", CONFIG, 26, 2, 8, 12, s_processorgroup),
  K ("SystemConfig_ProcessorNumber/v2", CONFIG, 27, 2, 8, 8, s_processornumber),
  K ("SystemConfig_CodeIntegrity/v2", CONFIG, 29, 2, 4, 4, s_codeintegrity),
  K ("SystemConfig_TelemetryConfiguration/v2", CONFIG, 30, 2, 16, 16, s_machineid),
  K ("SystemConfig_Defragmentation/v2", CONFIG, 31, 2, 220, 220, s_defrag),
  K ("SystemConfig_MobilePlatform/v2", CONFIG, 32, 2, 0, 0, s_mobileplatform),
  K ("SystemConfig_DeviceFamily/v2", CONFIG, 33, 2, 16, 16, s_devicefamily),
  K ("SystemConfig_FlightIds/v2", CONFIG, 34, 2, 0, 0, s_flightids),
  K ("SystemConfig_Processors/v2", CONFIG, 35, 2, 428, 428, s_processors),
  K ("SystemConfig_IDEChannel/v2", CONFIG, 23, 2, 16, 16, s_idechannel),
  K ("SystemConfig_Platform/v2", CONFIG, 25, 2, 0, 0, s_platform),
  K ("SystemConfig_DPI/v2", CONFIG, 28, 2, 8, 8, s_dpi),
  C ("SysConfig_BuildInfo/v0", ETL_MOF_GUID_SYSCONFIG_EX, 32, 0, 8, 8, s_buildinfo),
  C ("SysConfig_SystemPaths/v0", ETL_MOF_GUID_SYSCONFIG_EX, 33, 0, 0, 0, s_systempaths),
  C ("SysConfig_UnknownVolume/v0", ETL_MOF_GUID_SYSCONFIG_EX, 34, 0, 0, 0, s_unknownvolume),
  C ("SysConfig_VolumeMapping/v0", ETL_MOF_GUID_SYSCONFIG_EX, 35, 0, 0, 0, s_volumemapping),
  C ("SysConfig_NetworkInterface/v0", ETL_MOF_GUID_SYSCONFIG_EX, 36, 0, 0x480, 0x480,
     s_networkinterface),
  C ("SysConfig_OSVersion/v0", ETL_MOF_GUID_SYSCONFIG_EX, 37, 0, 16, 16, s_osversion),
  C ("KernelTraceControl_ImageID/v2", ETL_MOF_GUID_KTC_IMAGEID, 0, 2, 16, 24, s_ktc_imageid),
  C ("KernelTraceControl_ImageID_None/v2", ETL_MOF_GUID_KTC_IMAGEID, 32, 2, 8, 12, s_ktc_none),
  C ("KernelTraceControl_DbgID_RSDS/v2", ETL_MOF_GUID_KTC_IMAGEID, 36, 2, 28, 32, s_ktc_rsds),
  C ("KernelTraceControl_DbgID_ILRSDS/v2", ETL_MOF_GUID_KTC_IMAGEID, 37, 2, 28, 32, s_ktc_rsds),
  C ("KernelTraceControl_DbgPPDB/v2", ETL_MOF_GUID_KTC_IMAGEID, 38, 2, 16, 20, s_ktc_dbgppdb),
  C ("KernelTraceControl_DbgDeterm/v2", ETL_MOF_GUID_KTC_IMAGEID, 40, 2, 8, 12, s_ktc_dbgdeterm),
  C ("KernelTraceControl_FileVersion/v0", ETL_MOF_GUID_KTC_IMAGEID, 64, 0, 8, 8, s_ktc_fileversion),
};

/* clang-format on */

/* ------------------------------------------------------------------------ */
/* Derived fields                                                            */
/* ------------------------------------------------------------------------ */

static const EtlField *
find_in (GArray *fields, const char *name)
{
  for (guint i = 0; fields != NULL && i < fields->len; i++)
    {
      const EtlField *f = &g_array_index (fields, EtlField, i);

      if (g_ascii_strcasecmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

static void
derive_one (guint16 hook_id, guint8 version, GByteArray *payload, guint cpu, guint32 pid,
            guint32 tid, gint64 ts_raw, const char *const *expect)
{
  EtlRecord r;
  g_autoptr (GByteArray) raw = NULL;
  g_autoptr (EtlDecoded) d = NULL;
  g_autoptr (GArray) derived = NULL;
  guint n = 0;

  raw = make_record ((hook_id >> 8) == ETL_MOF_GROUP_PERFINFO ? ETL_HEADER_TYPE_PERFINFO64
                                                              : ETL_HEADER_TYPE_SYSTEM64,
                     hook_id, NULL, 0, version, pid, tid, ts_raw, payload, &r);
  r.cpu = cpu;
  d = etl_decode_record (registry, NULL, &r);
  g_assert_true (d->complete);
  derived = etl_mof_derived_fields (d, &r, 10000000, NULL);
  g_assert_nonnull (derived);
  for (; expect[2 * n] != NULL; n++)
    {
      const EtlField *f = find_in (derived, expect[2 * n]);

      g_assert_nonnull (f);
      g_assert_true (g_str_has_prefix (f->value, expect[2 * n + 1]));
    }
  g_assert_cmpuint (derived->len, ==, n);
  g_byte_array_unref (payload);
}

static void
test_file_names (void)
{
  g_autoptr (EtlMofFileNames) names = etl_mof_file_names_new ();
  g_autoptr (GByteArray) name_payload = g_byte_array_new ();
  g_autoptr (GByteArray) disk_payload = g_byte_array_new ();
  g_autoptr (GByteArray) raw1 = NULL;
  g_autoptr (GByteArray) raw2 = NULL;
  g_autoptr (EtlDecoded) d1 = NULL;
  g_autoptr (EtlDecoded) d2 = NULL;
  g_autoptr (GArray) derived = NULL;
  EtlRecord r1, r2;
  const EtlField *f;
  Builder bd = { name_payload, 8, 0, NULL, NULL };
  guint64 key = G_GUINT64_CONSTANT (0xfffff8a0028e0140);

  /* FileIo_Name (FileRundown, type 36), 64-bit: FileObject, then the name. */
  put (&bd, key, 8);
  put_utf16 (&bd, "\\Device\\HarddiskVolume2\\x.txt", TRUE);
  raw1 = make_record (ETL_HEADER_TYPE_PERFINFO64, 0x0424, NULL, 0, 2, 0, 0, 0, name_payload, &r1);
  d1 = etl_decode_record (registry, NULL, &r1);
  g_assert_true (etl_mof_file_names_add (names, d1));
  g_assert_cmpstr (etl_mof_file_names_lookup (names, key), ==, "\\Device\\HarddiskVolume2\\x.txt");
  g_assert_null (etl_mof_file_names_lookup (names, key + 1));

  /* DiskIo_TypeGroup1 v2 Read naming that FileKey at offset 24. */
  bd.b = disk_payload;
  put (&bd, 0, 4);
  put (&bd, 0, 4);
  put (&bd, 4096, 4);
  put (&bd, 0, 4);
  put (&bd, 0, 8);
  put (&bd, key, 8);
  put (&bd, 1, 8);
  put (&bd, 0, 8);
  raw2 = make_record (ETL_HEADER_TYPE_PERFINFO64, 0x010A, NULL, 0, 2, 0, 0, 0, disk_payload, &r2);
  d2 = etl_decode_record (registry, NULL, &r2);
  g_assert_false (etl_mof_file_names_add (names, d2));
  derived = etl_mof_derived_fields (d2, &r2, 0, names);
  f = find_in (derived, "FileName");
  g_assert_nonnull (f);
  g_assert_cmpstr (f->value, ==, "\\Device\\HarddiskVolume2\\x.txt");
}

static GByteArray *
bytes (const guint64 *values, const guint8 *sizes, guint n)
{
  GByteArray *b = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < sizes[i]; k++)
      {
        guint8 c = (guint8)(values[i] >> (8 * k));

        g_byte_array_append (b, &c, 1);
      }
  return b;
}

static void
test_derived (void)
{
  /* Image_Load v2 (64-bit): ImageBase, ImageSize, ProcessId, ImageCheckSum,
   * TimeDateStamp 1343270522 (2012-07-26 02:42:02 UTC), Reserved0,
   * DefaultBase, Reserved1-4, FileName "" . */
  {
    static const guint64 v[]
        = { 0x77710000, 0x157000, 4, 1, 1343270522, 0, 0x77710000, 0, 0, 0, 0, 0 };
    static const guint8 z[] = { 8, 8, 4, 4, 4, 4, 8, 4, 4, 4, 4, 2 };
    static const char *const e[] = { "BuildTime", "2012-07-26T02:42:02", NULL };

    derive_one (0x030A, 2, bytes (v, z, G_N_ELEMENTS (v)), 0, 4, 8, 0, e);
  }
  /* DiskIo_TypeGroup1 v3 Read: IrpFlags 0x20043 (priority hint 1), a
   * HighResResponseTime of 1097765 ticks at 10 MHz = 109.7765 ms. */
  {
    static const guint64 v[]
        = { 0, 0x20043, 4096, 0, 849788928, 0xfffff8a0028e0140, 0xfffffa8302a1dc60, 1097765, 44 };
    static const guint8 z[] = { 4, 4, 4, 4, 8, 8, 8, 8, 4 };
    static const char *const e[] = { "Priority", "Verylow", "ElapsedTimeMSec", "109.777", NULL };

    derive_one (0x010A, 3, bytes (v, z, G_N_ELEMENTS (v)), 0, 4, 44, 0, e);
  }
  /* PerfInfo_SampledProfile: Reserved 0x0070 (priority 14) on CPU 7, then
   * 0x0203 (DPC and ISR bits, rank 2). */
  {
    static const guint64 v[] = { 0xffffffffffd03003, 584, 1, 0x0070 };
    static const guint8 z[] = { 8, 4, 2, 2 };
    static const char *const e[]
        = { "ProcessorNumber", "7",    "Priority", "14", "ExecutingDPC", "False", "ExecutingISR",
            "False",           "Rank", "0",        NULL };

    derive_one (0x0F2E, 2, bytes (v, z, G_N_ELEMENTS (v)), 7, 0, 0, 0, e);
  }
  {
    static const guint64 v[] = { 0xfffff80021434313, 0, 1, 0x0203 };
    static const guint8 z[] = { 8, 4, 2, 2 };
    static const char *const e[] = { "ProcessorNumber",
                                     "3",
                                     "Priority",
                                     "0",
                                     "ExecutingDPC",
                                     "True",
                                     "ExecutingISR",
                                     "True",
                                     "Rank",
                                     "2",
                                     NULL };

    derive_one (0x0F2E, 2, bytes (v, z, G_N_ELEMENTS (v)), 3, 0, 0, 0, e);
  }
  /* Thread_V3_TypeGroup1: Start logged by thread 3780 of process 3988;
   * Stop has no creator. */
  {
    static const guint64 v[] = { 4, 3668, 1, 2, 3, 4, 0xff, 5, 6, 0, 8, 5, 2, 0 };
    static const guint8 z[] = { 4, 4, 8, 8, 8, 8, 8, 8, 8, 4, 1, 1, 1, 1 };
    static const char *const start[]
        = { "ParentThreadID", "3780", "ParentProcessID", "3988", NULL };
    static const char *const stop[] = { "ParentThreadID", "-1", "ParentProcessID", "-1", NULL };

    derive_one (0x0501, 3, bytes (v, z, G_N_ELEMENTS (v)), 0, 3988, 3780, 0, start);
    derive_one (0x0502, 3, bytes (v, z, G_N_ELEMENTS (v)), 0, 3988, 3780, 0, stop);
  }
  /* PageFault_HardFault: 34255 ticks from InitialTime to the record. */
  {
    static const guint64 v[] = { 965745, 283648, 0x7f9c7a891f0, 0xfffff8a001300c50, 1716, 8704 };
    static const guint8 z[] = { 8, 8, 8, 8, 4, 4 };
    static const char *const e[] = { "ElapsedTimeMSec", "3.426", NULL };

    derive_one (0x0220, 2, bytes (v, z, G_N_ELEMENTS (v)), 0, 144, 1716, 1000000, e);
  }
}

/* ------------------------------------------------------------------------ */
/* The corpus                                                                */
/* ------------------------------------------------------------------------ */

#define TOLERANCE_MS 0.0015

/* KernelTraceControl MetaData (TRACE_EVENT_INFO blobs) are the TDH source's,
 * not MOF layouts. */
static gboolean
is_metadata (const EtlRecord *r)
{
  EtlGuid g;

  etl_guid_parse ("bbccf6c1-6cd1-48c4-80ff-839482e37671", &g);
  return r->kind == ETL_RECORD_KIND_CLASSIC && etl_guid_equal (&r->provider, &g);
}

static gboolean
is_mof_kind (const EtlRecord *r)
{
  return (r->kind == ETL_RECORD_KIND_KERNEL || r->kind == ETL_RECORD_KIND_PERFINFO
          || r->kind == ETL_RECORD_KIND_CLASSIC)
         && !is_metadata (r);
}

/* TraceEvent prints "65,536", "0x0055287a", "Nocache, MountCompletion",
 * dates as "yy/MM/dd HH:mm:ss.ff" and cuts values at 20 characters with
 * "..."; the decoder prints "65536", "0x0055287a", "Nocache|…", ISO 8601. */
static gboolean
values_equal (const char *base, const char *dec)
{
  g_autofree char *b = NULL;
  gboolean cut = g_str_has_suffix (base, "...");
  gsize n;

  if (strcmp (base, dec) == 0)
    return TRUE;
  b = cut ? g_strndup (base, strlen (base) - 3) : g_strdup (base);
  n = strlen (b);

  /* Dates. */
  if (n >= 17 && b[2] == '/' && b[5] == '/' && b[8] == ' ' && b[11] == ':')
    {
      int yy = atoi (b);
      g_autofree char *iso = g_strdup_printf ("%04d-%.2s-%.2sT%s", yy >= 70 ? 1900 + yy : 2000 + yy,
                                              b + 3, b + 6, b + 9);

      return g_str_has_prefix (dec, iso);
    }
  /* Numbers with thousands separators. */
  if (n > 0 && strspn (b, "-0123456789,") == n && !cut)
    {
      GString *digits = g_string_new (NULL);
      gboolean eq;

      for (const char *p = b; *p; p++)
        if (*p != ',')
          g_string_append_c (digits, *p);
      if (g_str_has_prefix (dec, "0x"))
        eq = g_ascii_strtoull (dec + 2, NULL, 16)
             == (guint64)g_ascii_strtoll (digits->str, NULL, 10);
      else
        eq = strcmp (digits->str, dec) == 0;
      g_string_free (digits, TRUE);
      return eq;
    }
  /* A number cut at 20 characters: compare the digits it keeps. */
  if (cut && n > 0 && strspn (b, "-0123456789,") == n)
    {
      GString *digits = g_string_new (NULL);
      gboolean eq;

      for (const char *p = b; *p; p++)
        if (*p != ',')
          g_string_append_c (digits, *p);
      eq = g_str_has_prefix (dec, digits->str);
      g_string_free (digits, TRUE);
      return eq;
    }
  /* Hex. */
  if (g_str_has_prefix (b, "0x") && g_str_has_prefix (dec, "0x") && !cut)
    return g_ascii_strtoull (b + 2, NULL, 16) == g_ascii_strtoull (dec + 2, NULL, 16);
  /* Flags: ", " joins TraceEvent's names. */
  {
    g_auto (GStrv) parts = g_strsplit (b, ", ", -1);
    g_autofree char *joined = g_strjoinv ("|", parts);

    if (cut)
      return g_str_has_prefix (dec, joined);
    return strcmp (joined, dec) == 0;
  }
}

typedef struct
{
  guint count;
  char *example;
} DiffNote;

static void
diff_note_free (gpointer p)
{
  DiffNote *note = p;

  g_free (note->example);
  g_free (note);
}

/* A decoded field, else a derived one (etl_mof_derived_fields()); names
 * compared without case (TraceEvent prints ProcessID for MOF ProcessId). */
static const EtlField *
find_field (const EtlDecoded *d, GArray *derived, const char *name)
{
  const EtlField *f = find_in (d->fields, name);

  return f != NULL ? f : find_in (derived, name);
}

typedef struct
{
  guint total, ok;
} Share;

static void
count_share (GHashTable *t, const char *key, gboolean ok)
{
  Share *s = g_hash_table_lookup (t, key);

  if (s == NULL)
    {
      s = g_new0 (Share, 1);
      g_hash_table_insert (t, g_strdup (key), s);
    }
  s->total++;
  s->ok += ok;
}

static void
print_shares (const char *title, GHashTable *t)
{
  g_autoptr (GList) keys = g_list_sort (g_hash_table_get_keys (t), (GCompareFunc)strcmp);

  g_test_message ("%s", title);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      Share *s = g_hash_table_lookup (t, l->data);

      g_test_message ("  %-40s %7u / %7u  %6.2f%%", (char *)l->data, s->ok, s->total,
                      100.0 * s->ok / s->total);
    }
}

/* Pairs each kernel EVENT line of the baseline with its record (CPU,
 * DataLen, time within 0.0015 ms, as test-baseline does) and compares its
 * Name=value fields with the decoded ones (and the derived ones when
 * @with_derived); prints the differences; returns the share equal. */
static double
compare_baseline (EtlTrace *trace, EtlVolumeMap *volumes, const char *base, gboolean with_derived,
                  gint64 clock_freq, const EtlMofFileNames *file_names)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) diffs
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, diff_note_free);
  guint64 n = etl_trace_get_n_records (trace);
  g_autofree guint8 *used = NULL;
  guint fields_total = 0, fields_ok = 0;

  /* The baseline's kernel EVENT lines. */
  g_assert_true (g_file_get_contents (base, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  used = g_malloc0 (n);
  for (guint li = 0; lines[li] != NULL; li++)
    {
      const char *line = lines[li];
      const char *colon, *name_end, *p;
      g_autofree char *name = NULL;
      double ms;
      guint cpu;
      guint64 data_len, k;
      gboolean found = FALSE;
      g_auto (GStrv) parts = NULL;

      if (!g_str_has_prefix (line, "EVENT "))
        continue;
      colon = strstr (line, ": ");
      name_end = strstr (colon, " PID=");
      name = g_strndup (colon + 2, name_end - colon - 2);
      if (!(g_str_has_prefix (name, "Windows Kernel/")
            || g_str_has_prefix (name, "KernelTraceControl/"))
          || strstr (name, "/MetaData/") != NULL)
        continue;
      {
        GString *num = g_string_new (NULL);

        for (p = line + 6; p < colon; p++)
          if (*p != ',')
            g_string_append_c (num, *p);
        ms = g_ascii_strtod (num->str, NULL);
        g_string_free (num, TRUE);
      }
      cpu = (guint)atoi (strstr (line, " ProceNum=") + 10);
      data_len = (guint64)atoi (strstr (line, " DataLen=") + 9);

      k = etl_trace_lower_bound (trace, etl_trace_get_origin (trace)
                                            + (gint64)floor ((ms - TOLERANCE_MS) * 10000.0));
      for (; k < n && !found; k++)
        {
          EtlRecord r;
          double rms = etl_trace_filetime_to_ms (trace, etl_trace_get_filetime (trace, k));

          if (rms > ms + TOLERANCE_MS)
            break;
          if (used[k] || fabs (rms - ms) > TOLERANCE_MS)
            continue;
          g_assert_true (etl_trace_get_record (trace, k, &r, NULL));
          if (r.cpu == cpu && r.user_data_len == data_len)
            {
              g_autoptr (EtlDecoded) d = etl_decode_record (registry, volumes, &r);
              g_autoptr (GArray) derived
                  = with_derived ? etl_mof_derived_fields (d, &r, clock_freq, file_names) : NULL;
              const char *fields = strstr (line, " DataLen=");

              used[k] = 1;
              found = TRUE;
              fields = strchr (fields, ';');
              parts = g_strsplit (fields != NULL ? fields + 1 : "", "; ", -1);
              for (guint i = 0; parts[i] != NULL; i++)
                {
                  char *eq = strchr (parts[i], '=');
                  const EtlField *f;
                  gboolean ok;

                  g_strstrip (parts[i]);
                  eq = strchr (parts[i], '=');
                  if (eq == NULL)
                    continue;
                  *eq = '\0';
                  if (*g_strstrip (parts[i]) == '\0')
                    continue;
                  f = find_field (d, derived, parts[i]);
                  ok = f != NULL && values_equal (eq + 1, f->value);
                  fields_total++;
                  fields_ok += ok;
                  if (!ok)
                    {
                      g_autofree char *key
                          = g_strdup_printf ("%s %s", name + (name[0] == 'W' ? 15 : 0), parts[i]);
                      char *example = g_strdup_printf ("baseline %s, decoded %s", eq + 1,
                                                       f != NULL ? f->value : "(no field)");

                      DiffNote *note = g_hash_table_lookup (diffs, key);

                      if (note == NULL)
                        {
                          note = g_new0 (DiffNote, 1);
                          note->example = example;
                          g_hash_table_insert (diffs, g_strdup (key), note);
                        }
                      else
                        g_free (example);
                      note->count++;
                    }
                }
            }
          etl_record_clear (&r);
        }
      g_assert_true (found);
    }
  {
    g_autoptr (GList) keys = g_list_sort (g_hash_table_get_keys (diffs), (GCompareFunc)strcmp);

    g_test_message ("baseline fields that differ (first example each):");
    for (GList *l = keys; l != NULL; l = l->next)
      {
        DiffNote *note = g_hash_table_lookup (diffs, l->data);

        g_test_message ("  %3u× %s: %s", note->count, (char *)l->data, note->example);
      }
  }
  g_test_message ("%s: %u of %u baseline kernel fields equal (%.1f%%)",
                  with_derived ? "with derived fields" : "payload fields", fields_ok, fields_total,
                  100.0 * fields_ok / fields_total);
  g_assert_cmpuint (fields_total, >, 1000);
  return (double)fields_ok / fields_total;
}

static void
test_corpus (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autofree char *base = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) by_group = NULL;
  g_autoptr (GHashTable) failures = NULL;
  EtlVolumeMap *volumes;
  g_autoptr (EtlMofFileNames) file_names = etl_mof_file_names_new ();
  const char *paths[2] = { NULL, NULL };
  guint64 n, mof = 0, mof_ok = 0, all = 0;

  if (path == NULL)
    return;
  base = etl_test_corpus_path ("net.4.5.2.x64.baseline.txt");
  if (base == NULL)
    return;
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n = etl_trace_get_n_records (trace);
  by_group = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* The volume mapping first, as the indexer gathers it. */
  volumes = etl_volume_map_new ();
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (r.kind == ETL_RECORD_KIND_CLASSIC && r.opcode == 35)
        {
          g_autoptr (EtlDecoded) d = etl_decode_record (registry, NULL, &r);
          const EtlField *nt = etl_decoded_find (d, "NtPath");
          const EtlField *dos = etl_decoded_find (d, "DosPath");

          if (d->schema != NULL && nt != NULL && dos != NULL && dos->value[0] != '\0')
            etl_volume_map_add (volumes, nt->value, dos->value);
        }
      etl_record_clear (&r);
    }

  /* Every kernel and classic MOF record decodes complete. */
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;
      g_autofree char *group = NULL;
      g_autoptr (EtlDecoded) d = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      all++;
      if (!is_mof_kind (&r))
        {
          etl_record_clear (&r);
          continue;
        }
      group = etl_record_dup_provider_name (&r);
      d = etl_decode_record (registry, volumes, &r);
      etl_mof_file_names_add (file_names, d);
      mof++;
      mof_ok += d->complete;
      count_share (by_group, group, d->complete);
      if (!d->complete)
        {
          g_autofree char *name = etl_record_dup_event_name (&r);
          g_autofree char *key = g_strdup_printf ("%s v%u (%s)", name, r.version,
                                                  d->schema == NULL ? "no layout" : "incomplete");

          count_share (failures, key, FALSE);
        }
      etl_record_clear (&r);
    }
  print_shares ("kernel/classic MOF records decoded complete, by group:", by_group);
  if (g_hash_table_size (failures) > 0)
    print_shares ("not decoded:", failures);
  g_test_message ("MOF records: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                  " records (%.1f%%); complete: %" G_GUINT64_FORMAT " (%.3f%%)",
                  mof, all, 100.0 * mof / all, mof_ok, 100.0 * mof_ok / mof);
  g_assert_cmpfloat ((double)mof_ok / mof, >=, 0.999);

  {
    const EtlFileInfo *info = etl_trace_get_file_info (trace, 0);
    gint64 freq = info->clock_type == 2 ? 10000000 : info->perf_freq;
    double plain = compare_baseline (trace, volumes, base, FALSE, freq, NULL);
    double with = compare_baseline (trace, volumes, base, TRUE, freq, file_names);

    g_test_message ("baseline kernel fields equal: %.1f%% from the payloads, %.1f%% with the "
                    "derived fields",
                    100.0 * plain, 100.0 * with);
    g_assert_cmpfloat (plain, >=, 0.85);
    g_assert_cmpfloat (with, >=, 0.95);
  }
  etl_volume_map_free (volumes);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  registry = etl_schema_registry_new ();
  etl_mof_register_kernel (registry);

  g_test_add_func ("/etl/mof/tables", test_tables);
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      g_autofree char *p = g_strconcat ("/etl/mof/layout/", layouts[i].path, NULL);

      g_test_add_data_func (p, &layouts[i], test_layout);
    }
  g_test_add_func ("/etl/mof/derived", test_derived);
  g_test_add_func ("/etl/mof/file-names", test_file_names);
  g_test_add_func ("/etl/mof/corpus", test_corpus);

  ret = g_test_run ();
  etl_schema_registry_unref (registry);
  return ret;
}
