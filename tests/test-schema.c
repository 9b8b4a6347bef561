/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-schema.c: maps, schemas, keys and the schema registry (trust order,
 * scoping, map resolution, threads).
 */
#include "config.h"

#include <string.h>

#include "etl-names.h"
#include "etl-schema.h"

static const EtlGuid clr_guid
    = { 0xe13c0d23, 0xccbc, 0x4e12, { 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 } };
static const EtlGuid other_guid = { 0x12345678, 0x1111, 0x2222, { 1, 2, 3, 4, 5, 6, 7, 8 } };

static void
test_map_value (void)
{
  g_autoptr (EtlMap) map = etl_map_new ("GCReasonMap", FALSE);
  char *s;

  etl_map_add (map, 4, "Induced");
  etl_map_add (map, 0, "  AllocSmall ");
  etl_map_add (map, 1, "Induced?");
  etl_map_add (map, 0, "Duplicate");
  g_assert_cmpuint (map->n_entries, ==, 3);
  g_assert_cmpuint (map->entries[0].value, ==, 0);
  g_assert_cmpuint (map->entries[2].value, ==, 4);
  g_assert_cmpstr (map->entries[0].name, ==, "AllocSmall");

  s = etl_map_format (map, 0);
  g_assert_cmpstr (s, ==, "AllocSmall");
  g_free (s);
  s = etl_map_format (map, 4);
  g_assert_cmpstr (s, ==, "Induced");
  g_free (s);
  s = etl_map_format (map, 7);
  g_assert_cmpstr (s, ==, "7");
  g_free (s);
}

static void
test_map_bitmap (void)
{
  g_autoptr (EtlMap) map = etl_map_new ("Flags", TRUE);
  char *s;

  etl_map_add (map, 0x4, "C");
  etl_map_add (map, 0x1, "A");
  etl_map_add (map, 0x2, "B");
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *n = g_strdup_printf ("Bit%u", i + 8);
      etl_map_add (map, G_GUINT64_CONSTANT (1) << (i + 8), n);
    }
  g_assert_cmpuint (map->n_entries, ==, 43);

  s = etl_map_format (map, 0x5);
  g_assert_cmpstr (s, ==, "A|C");
  g_free (s);
  s = etl_map_format (map, 0x30 | 0x2);
  g_assert_cmpstr (s, ==, "B|0x30");
  g_free (s);
  s = etl_map_format (map, 0);
  g_assert_cmpstr (s, ==, "0");
  g_free (s);
  s = etl_map_format (map, 0x100);
  g_assert_cmpstr (s, ==, "Bit8");
  g_free (s);

  etl_map_add (map, 0, "None");
  s = etl_map_format (map, 0);
  g_assert_cmpstr (s, ==, "None");
  g_free (s);
}

static EtlSchema *
make_schema (const EtlGuid *guid, guint16 id, guint8 version, EtlSchemaSource source,
             const char *task)
{
  EtlSchemaKey key;
  EtlSchema *schema;
  guint i;

  etl_schema_key_init_event_id (&key, guid, id, version);
  schema = etl_schema_new (&key, source);
  schema->task_name = g_strdup (task);
  schema->opcode_name = g_strdup ("Start");
  schema->opcode = 1;
  etl_schema_add_property (schema, "Count", ETL_IN_UINT32, ETL_OUT_NULL);
  i = etl_schema_add_property (schema, "Reason", ETL_IN_UINT32, ETL_OUT_NULL);
  schema->properties[i].map_name = g_strdup ("GCReasonMap");
  return schema;
}

static void
test_schema_basics (void)
{
  g_autoptr (EtlSchema) schema = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "GC");
  char *name;

  g_assert_cmpuint (schema->n_properties, ==, 2);
  g_assert_cmpuint (schema->n_top_level, ==, 2);
  g_assert_cmpuint (schema->properties[1].count, ==, 1);
  g_assert_cmpint (schema->properties[0].in_type, ==, ETL_IN_UINT32);

  name = etl_schema_dup_display_name (schema);
  g_assert_cmpstr (name, ==, "GC/Start");
  g_free (name);

  schema->opcode = 0;
  name = etl_schema_dup_display_name (schema);
  g_assert_cmpstr (name, ==, "GC");
  g_free (name);

  g_clear_pointer (&schema->task_name, g_free);
  schema->event_name = g_strdup ("GCStart_V1");
  name = etl_schema_dup_display_name (schema);
  g_assert_cmpstr (name, ==, "GCStart_V1");
  g_free (name);

  g_assert_cmpstr (etl_schema_source_name (ETL_SCHEMA_SOURCE_MOF), ==, "MOF");
  g_assert_cmpstr (etl_schema_source_name (ETL_SCHEMA_SOURCE_TRACELOGGING), ==, "TraceLogging");
}

static void
test_key_for_record (void)
{
  EtlRecord r;
  EtlSchemaKey key;
  EtlKernelEventInfo info;

  /* Kernel SYSTEM64 record: Process/Start is HookId 0x0301. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_KERNEL;
  r.header_type = ETL_HEADER_TYPE_SYSTEM64;
  r.hook_id = 0x0301;
  r.opcode = 1;
  r.version = 4;
  g_assert_true (etl_names_kernel_event (0x0301, &info));
  g_assert_true (etl_schema_key_for_record (&r, &key));
  g_assert_cmpint (key.kind, ==, ETL_SCHEMA_KEY_OPCODE);
  g_assert_cmpuint (key.id, ==, 1);
  g_assert_cmpuint (key.version, ==, 4);
  g_assert_true (etl_guid_equal (&key.guid, info.provider));

  /* Image/Load: HookId 0x030A in the Process group, opcode 10. */
  r.hook_id = 0x030A;
  r.version = 3;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  g_assert_cmpuint (key.id, ==, 10);
  g_assert_cmpuint (key.version, ==, 3);

  /* PERFINFO record. */
  r.kind = ETL_RECORD_KIND_PERFINFO;
  r.hook_id = 0x0F2E; /* SampledProfile */
  r.version = 2;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  g_assert_cmpint (key.kind, ==, ETL_SCHEMA_KEY_OPCODE);
  g_assert_cmpuint (key.id, ==, 0x2E);
  g_assert_true (etl_names_kernel_event (0x0F2E, &info));
  g_assert_true (etl_guid_equal (&key.guid, info.provider));

  /* Classic FULL_HEADER: the event class GUID and Class.Type. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_CLASSIC;
  r.provider = other_guid;
  r.opcode = 32;
  r.version = 2;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  g_assert_cmpint (key.kind, ==, ETL_SCHEMA_KEY_OPCODE);
  g_assert_cmpuint (key.id, ==, 32);
  g_assert_cmpuint (key.version, ==, 2);
  g_assert_true (etl_guid_equal (&key.guid, &other_guid));

  /* EVENT_HEADER: provider, event id, version. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.provider = clr_guid;
  r.event_id = 1;
  r.opcode = 1;
  r.version = 2;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  g_assert_cmpint (key.kind, ==, ETL_SCHEMA_KEY_EVENT_ID);
  g_assert_cmpuint (key.id, ==, 1);
  g_assert_cmpuint (key.version, ==, 2);
  g_assert_true (etl_guid_equal (&key.guid, &clr_guid));

  /* WPP has no schema. */
  r.kind = ETL_RECORD_KIND_WPP;
  g_assert_false (etl_schema_key_for_record (&r, &key));
}

static EtlRecord
clr_record (guint16 id, guint8 version, guint file, guint32 pid)
{
  EtlRecord r;

  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.provider = clr_guid;
  r.event_id = id;
  r.version = version;
  r.file = file;
  r.has_pid = 1;
  r.pid = pid;
  return r;
}

static void
test_registry_trust (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  EtlSchema *mof = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  EtlSchema *tdh = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "Tdh");
  EtlSchema *tdh2 = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "Tdh2");
  EtlSchema *v2 = make_schema (&clr_guid, 1, 2, ETL_SCHEMA_SOURCE_MOF, "V2");
  EtlRecord r = clr_record (1, 1, 0, 100);
  EtlSchema *found;

  etl_schema_registry_add (reg, mof);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_true (found == mof);
  etl_schema_unref (found);

  /* More trusted wins … */
  etl_schema_registry_add (reg, tdh);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_true (found == tdh);
  etl_schema_unref (found);

  /* … a less trusted one added later does not replace it … */
  etl_schema_registry_add (reg, mof);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_true (found == tdh);
  etl_schema_unref (found);

  /* … the same source added later does. */
  etl_schema_registry_add (reg, tdh2);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "Tdh2");
  etl_schema_unref (found);

  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_TDH), ==, 1);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);

  /* Versions are separate keys. */
  etl_schema_registry_add (reg, v2);
  r.version = 2;
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "V2");
  etl_schema_unref (found);
  r.version = 3;
  g_assert_null (etl_schema_registry_lookup_record (reg, &r));
  r.version = 1;
  r.event_id = 2;
  g_assert_null (etl_schema_registry_lookup_record (reg, &r));

  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_N_SCHEMA_SOURCES), ==, 2);

  /* A schema survives the registry when a reference is held. */
  found = etl_schema_registry_lookup_record (reg, &(EtlRecord){ .kind = ETL_RECORD_KIND_MANIFEST,
                                                                .provider = clr_guid,
                                                                .event_id = 1,
                                                                .version = 1 });
  g_clear_pointer (&reg, etl_schema_registry_unref);
  g_assert_cmpstr (found->task_name, ==, "Tdh2");
  etl_schema_unref (found);

  etl_schema_unref (mof);
  etl_schema_unref (tdh);
  etl_schema_unref (tdh2);
  etl_schema_unref (v2);
}

static void
test_registry_scoped (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) global
      = make_schema (&clr_guid, 8, 0, ETL_SCHEMA_SOURCE_MANIFEST, "Global");
  g_autoptr (EtlSchema) p100 = make_schema (&clr_guid, 8, 0, ETL_SCHEMA_SOURCE_EVENTSOURCE, "P100");
  g_autoptr (EtlSchema) p200 = make_schema (&clr_guid, 8, 0, ETL_SCHEMA_SOURCE_EVENTSOURCE, "P200");
  g_autoptr (EtlSchema) tdh = make_schema (&clr_guid, 8, 0, ETL_SCHEMA_SOURCE_TDH, "Tdh");
  EtlRecord r;
  EtlSchema *found;

  etl_schema_registry_add (reg, global);
  etl_schema_registry_add_scoped (reg, p100, 0, 100);
  etl_schema_registry_add_scoped (reg, p200, 1, 200);

  r = clr_record (8, 0, 0, 100);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "P100");
  etl_schema_unref (found);

  r = clr_record (8, 0, 1, 200);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "P200");
  etl_schema_unref (found);

  /* Same pid, other file: not in scope. */
  r = clr_record (8, 0, 1, 100);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "Global");
  etl_schema_unref (found);

  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_EVENTSOURCE), ==, 2);

  /* A more trusted unscoped source (in-trace TDH) beats a scoped EventSource manifest. */
  etl_schema_registry_add (reg, tdh);
  r = clr_record (8, 0, 0, 100);
  found = etl_schema_registry_lookup_record (reg, &r);
  g_assert_cmpstr (found->task_name, ==, "Tdh");
  etl_schema_unref (found);
}

static void
test_registry_maps (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) before = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "Before");
  g_autoptr (EtlSchema) after = make_schema (&clr_guid, 2, 1, ETL_SCHEMA_SOURCE_TDH, "After");
  g_autoptr (EtlSchema) other = make_schema (&other_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "Other");
  g_autoptr (EtlMap) map = etl_map_new ("GCReasonMap", FALSE);
  g_autoptr (EtlMap) dup = etl_map_new ("GCReasonMap", FALSE);

  etl_map_add (map, 0, "AllocSmall");
  etl_map_add (dup, 0, "Other");

  etl_schema_registry_add (reg, before);
  etl_schema_registry_add (reg, other);
  g_assert_null (before->properties[1].map);

  etl_schema_registry_add_map (reg, &clr_guid, map);
  g_assert_true (before->properties[1].map == map);
  g_assert_null (before->properties[0].map);
  /* Another provider's map of the same name is not used. */
  g_assert_null (other->properties[1].map);

  etl_schema_registry_add (reg, after);
  g_assert_true (after->properties[1].map == map);

  /* The first map registered for (provider, name) is kept. */
  etl_schema_registry_add_map (reg, &clr_guid, dup);
  g_assert_true (after->properties[1].map == map);
}

/* A registry built once (kernel MOF, the user's manifests) shared into another. */
static void
test_registry_add_all (void)
{
  g_autoptr (EtlSchemaRegistry) base = etl_schema_registry_new ();
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) shared = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_MANIFEST, "Shared");
  g_autoptr (EtlSchema) tdh = make_schema (&clr_guid, 1, 1, ETL_SCHEMA_SOURCE_TDH, "FromTrace");
  g_autoptr (EtlSchema) later = make_schema (&clr_guid, 2, 1, ETL_SCHEMA_SOURCE_TDH, "Later");
  g_autoptr (EtlMap) map = etl_map_new ("GCReasonMap", FALSE);
  EtlSchemaKey key;
  g_autoptr (EtlSchema) found = NULL;

  etl_map_add (map, 0, "AllocSmall");
  etl_schema_registry_add_map (base, &clr_guid, map);
  etl_schema_registry_add (base, shared);
  etl_schema_registry_add (reg, tdh);
  etl_schema_registry_add_all (reg, base);
  /* The trace's own, more trusted, schema stays. */
  etl_schema_key_init_event_id (&key, &clr_guid, 1, 1);
  found = etl_schema_registry_lookup (reg, &key, 0, 1);
  g_assert_true (found == tdh);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);
  /* The base's maps came along: a later schema resolves against them. */
  etl_schema_registry_add (reg, later);
  g_assert_true (later->properties[1].map == map);
  /* The base is unchanged. */
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (base, ETL_N_SCHEMA_SOURCES), ==, 1);
}

typedef struct
{
  EtlSchemaRegistry *reg;
  guint found;
} ThreadData;

static gpointer
lookup_thread (gpointer data)
{
  ThreadData *td = data;

  for (guint i = 0; i < 20000; i++)
    {
      EtlRecord r = clr_record (i % 50, 0, 0, 1);
      EtlSchema *s = etl_schema_registry_lookup_record (td->reg, &r);

      if (s != NULL)
        {
          td->found++;
          etl_schema_unref (s);
        }
    }
  return NULL;
}

static void
test_registry_threads (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  ThreadData td[2] = { { reg, 0 }, { reg, 0 } };
  GThread *t[2];

  t[0] = g_thread_new ("lookup0", lookup_thread, &td[0]);
  t[1] = g_thread_new ("lookup1", lookup_thread, &td[1]);
  for (guint i = 0; i < 50; i++)
    {
      EtlSchema *s = make_schema (&clr_guid, i, 0, ETL_SCHEMA_SOURCE_MANIFEST, "T");
      EtlSchema *s2 = make_schema (&clr_guid, i, 0, ETL_SCHEMA_SOURCE_TDH, "T2");

      etl_schema_registry_add (reg, s);
      etl_schema_registry_add (reg, s2);
      etl_schema_unref (s);
      etl_schema_unref (s2);
    }
  g_thread_join (t[0]);
  g_thread_join (t[1]);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_TDH), ==, 50);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);
  g_assert_cmpuint (td[0].found, <=, 20000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/schema/map-value", test_map_value);
  g_test_add_func ("/etl/schema/map-bitmap", test_map_bitmap);
  g_test_add_func ("/etl/schema/basics", test_schema_basics);
  g_test_add_func ("/etl/schema/key-for-record", test_key_for_record);
  g_test_add_func ("/etl/schema/registry-trust", test_registry_trust);
  g_test_add_func ("/etl/schema/registry-scoped", test_registry_scoped);
  g_test_add_func ("/etl/schema/registry-maps", test_registry_maps);
  g_test_add_func ("/etl/schema/registry-add-all", test_registry_add_all);
  g_test_add_func ("/etl/schema/registry-threads", test_registry_threads);

  return g_test_run ();
}
