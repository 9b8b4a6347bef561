/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-names.c: kernel HookId names, provider table, TraceLogging metadata.
 */
#include "config.h"

#include <string.h>

#include "etl-kernel-groups.h"
#include "etl-names.h"

/*
 * Extended data items of the first TraceLogging event in four corpus files
 * (../shared/etl-corpus/), copied byte for byte: PROV_TRAITS (ExtType 12)
 * and EVENT_SCHEMA_TL (ExtType 11).  primitive-types.etl is the file whose
 * TraceEvent baseline prints "solar_system/PrimitiveTypesTest".
 */
static const guint8 primitive_traits[] = {
  0x0f, 0x00, 0x73, 0x6f, 0x6c, 0x61, 0x72, 0x5f, 0x73, 0x79, 0x73, 0x74, 0x65, 0x6d, 0x00,
};

static const guint8 primitive_schema[] = {
  0xb6, 0x00, 0x00, 0x50, 0x72, 0x69, 0x6d, 0x69, 0x74, 0x69, 0x76, 0x65, 0x54, 0x79, 0x70, 0x65,
  0x73, 0x54, 0x65, 0x73, 0x74, 0x00, 0x73, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x5f, 0x74, 0x79, 0x70,
  0x65, 0x00, 0x02, 0x62, 0x6f, 0x6f, 0x6c, 0x65, 0x61, 0x6e, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00,
  0x84, 0x03, 0x63, 0x68, 0x61, 0x72, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00, 0x84, 0x02, 0x69, 0x6e,
  0x74, 0x31, 0x36, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00, 0x05, 0x69, 0x6e, 0x74, 0x33, 0x32, 0x5f,
  0x74, 0x79, 0x70, 0x65, 0x00, 0x07, 0x75, 0x69, 0x6e, 0x74, 0x31, 0x36, 0x5f, 0x74, 0x79, 0x70,
  0x65, 0x00, 0x06, 0x75, 0x69, 0x6e, 0x74, 0x33, 0x32, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00, 0x08,
  0x69, 0x6e, 0x74, 0x36, 0x34, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00, 0x0a, 0x75, 0x69, 0x6e, 0x74,
  0x36, 0x34, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x00, 0x0a, 0x67, 0x75, 0x69, 0x64, 0x5f, 0x74, 0x79,
  0x70, 0x65, 0x00, 0x0f, 0x66, 0x69, 0x6c, 0x65, 0x5f, 0x74, 0x69, 0x6d, 0x65, 0x5f, 0x74, 0x79,
  0x70, 0x65, 0x00, 0x11, 0x73, 0x79, 0x73, 0x74, 0x65, 0x6d, 0x5f, 0x74, 0x69, 0x6d, 0x65, 0x5f,
  0x74, 0x79, 0x70, 0x65, 0x00, 0x12,
};

static const guint8 lxcore_traits[] = {
  0x38, 0x00, 0x4d, 0x69, 0x63, 0x72, 0x6f, 0x73, 0x6f, 0x66, 0x74, 0x2e, 0x57, 0x69,
  0x6e, 0x64, 0x6f, 0x77, 0x73, 0x2e, 0x53, 0x75, 0x62, 0x73, 0x79, 0x73, 0x74, 0x65,
  0x6d, 0x2e, 0x4c, 0x78, 0x43, 0x6f, 0x72, 0x65, 0x00, 0x13, 0x00, 0x01, 0x1a, 0x73,
  0x50, 0x4f, 0xcf, 0x89, 0x82, 0x47, 0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba,
};

static const guint8 lxcore_schema[] = {
  0x64, 0x00, 0x80, 0x00, 0x42, 0x72, 0x65, 0x61, 0x6b, 0x50, 0x6f, 0x69, 0x6e, 0x74, 0x00,
  0x45, 0x72, 0x72, 0x6f, 0x72, 0x4c, 0x65, 0x76, 0x65, 0x6c, 0x00, 0x04, 0x69, 0x6e, 0x73,
  0x74, 0x61, 0x6e, 0x63, 0x65, 0x49, 0x64, 0x00, 0x0f, 0x4c, 0x78, 0x50, 0x69, 0x64, 0x00,
  0x07, 0x4c, 0x78, 0x54, 0x69, 0x64, 0x00, 0x07, 0x4c, 0x78, 0x4e, 0x73, 0x00, 0x07, 0x45,
  0x78, 0x65, 0x63, 0x75, 0x74, 0x61, 0x62, 0x6c, 0x65, 0x50, 0x61, 0x74, 0x68, 0x00, 0x17,
  0x46, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x00, 0x02, 0x4c, 0x69, 0x6e, 0x65, 0x00,
  0x08, 0x4d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x00, 0x02,
};

static const guint8 selfdesc_traits[] = {
  0x0b, 0x00, 0x4d, 0x79, 0x53, 0x6f, 0x75, 0x72, 0x63, 0x65, 0x00,
};

static const guint8 selfdesc_schema[] = {
  0x17, 0x00, 0x00, 0x54, 0x65, 0x73, 0x74, 0x45, 0x76, 0x65, 0x6e, 0x74,
  0x00, 0x61, 0x00, 0x98, 0x02, 0x62, 0x00, 0x01, 0x63, 0x00, 0x01,
};

static const guint8 amsi_traits[] = {
  0x0c, 0x00, 0x41, 0x6d, 0x73, 0x69, 0x54, 0x72, 0x61, 0x63, 0x65, 0x00,
};

static const guint8 amsi_schema[] = {
  0x2b, 0x00, 0x00, 0x41, 0x6d, 0x73, 0x69, 0x53, 0x63, 0x72, 0x69, 0x70, 0x74, 0x00, 0x45,
  0x6e, 0x67, 0x69, 0x6e, 0x65, 0x00, 0x01, 0x53, 0x63, 0x72, 0x69, 0x70, 0x74, 0x00, 0x01,
  0x52, 0x61, 0x77, 0x20, 0x53, 0x63, 0x72, 0x69, 0x70, 0x74, 0x00, 0xc6, 0x02,
};

typedef struct
{
  const char *what;
  const guint8 *data;
  gsize len;
} Blob;

static const Blob all_blobs[] = {
  { "primitive traits", primitive_traits, sizeof primitive_traits },
  { "primitive schema", primitive_schema, sizeof primitive_schema },
  { "lxcore traits", lxcore_traits, sizeof lxcore_traits },
  { "lxcore schema", lxcore_schema, sizeof lxcore_schema },
  { "selfdesc traits", selfdesc_traits, sizeof selfdesc_traits },
  { "selfdesc schema", selfdesc_schema, sizeof selfdesc_schema },
  { "amsi traits", amsi_traits, sizeof amsi_traits },
  { "amsi schema", amsi_schema, sizeof amsi_schema },
};

static void
assert_guid (const EtlGuid *guid, const char *expected)
{
  char buf[ETL_GUID_STRING_LEN + 1];

  g_assert_nonnull (guid);
  etl_guid_to_string (guid, buf);
  g_assert_cmpstr (buf, ==, expected);
}

static void
assert_hook (guint16 hook_id, const char *group, const char *guid, const char *opcode)
{
  EtlKernelEventInfo info;

  g_assert_true (etl_names_kernel_event (hook_id, &info));
  g_assert_cmpstr (info.group_name, ==, group);
  assert_guid (info.provider, guid);
  g_assert_cmpstr (info.opcode_name, ==, opcode);
}

static void
test_kernel_hookid (void)
{
  assert_hook (0x0000, "EventTrace", "68fdd900-4a3e-11d1-84f4-0000f80464e3", "Header");
  assert_hook (0x0005, "EventTrace", "68fdd900-4a3e-11d1-84f4-0000f80464e3", "Extension");
  assert_hook (0x0020, "EventTrace", "68fdd900-4a3e-11d1-84f4-0000f80464e3", "EndExtension");
  assert_hook (0x0301, "Process", "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Start");
  assert_hook (0x0303, "Process", "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "DCStart");
  assert_hook (0x0327, "Process", "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Defunct");
  /* An image load is logged in the PROCESS group but belongs to Image. */
  assert_hook (0x030a, "Image", "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", "Load");
  assert_hook (0x1404, "Image", "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", "DCStop");
  assert_hook (0x0502, "Thread", "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "Stop");
  assert_hook (0x0524, "Thread", "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "CSwitch");
  assert_hook (0x0532, "Dispatcher", "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "ReadyThread");
  assert_hook (0x010a, "DiskIO", "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", "Read");
  assert_hook (0x010e, "DiskIO", "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", "FlushBuffers");
  assert_hook (0x0220, "Memory", "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "HardFault");
  assert_hook (0x0262, "VirtualMem", "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "Alloc");
  assert_hook (0x0400, "FileIO", "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "Name");
  assert_hook (0x0424, "FileIO", "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "FileRundown");
  assert_hook (0x0440, "FileIO", "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "Create");
  assert_hook (0x061a, "TcpIp", "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", "SendIPV6");
  assert_hook (0x080b, "UdpIp", "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", "Recv");
  assert_hook (0x0b0a, "SystemConfig", "01853a65-418f-4f36-aefc-dc0f1d2fd235", "CPU");
  assert_hook (0x0b19, "SystemConfig", "01853a65-418f-4f36-aefc-dc0f1d2fd235", "Platform");
  assert_hook (0x0f2e, "PerfInfo", "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "Sample");
  assert_hook (0x0f33, "PerfInfo", "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "SysClEnter");
  assert_hook (0x0f49, "PerfInfo", "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "CollectionStart");
  assert_hook (0x1820, "StackWalk", "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", "Stack");
  assert_hook (0x1826, "StackWalk", "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", "StackKeyUser");
  assert_hook (0x1a21, "ALPC", "45d8cccd-539f-4b72-a8b7-5c683142609a", "SendMessage");
  assert_hook (0x1c20, "ThreadPool", "c861d0e2-a2c1-4d36-9f9c-970bab943a12", "CBEnqueue");

  g_assert_cmpuint (etl_names_kernel_table_size (), >=, 250);
}

/* The reader files a kernel record under etl_kernel_hook_class(); the names
 * must report the same class for every HookId (0x030A, an image load in the
 * PROCESS group, included). */
static void
test_kernel_class_reader (void)
{
  guint n_known = 0;

  for (guint h = 0; h <= G_MAXUINT16; h++)
    {
      EtlKernelEventInfo info;
      const EtlGuid *cls = etl_kernel_hook_class ((guint16) h);
      gboolean known = etl_names_kernel_event ((guint16) h, &info);

      g_assert_cmpint (known, ==, cls != NULL);
      if (!known)
        continue;
      n_known++;
      g_assert_nonnull (info.provider);
      g_assert_true (etl_guid_equal (info.provider, cls));
    }
  g_assert_cmpuint (n_known, ==, ETL_KERNEL_N_GROUPS * 256);
  assert_guid (etl_kernel_hook_class (0x030a), "2cb15d1d-5fc1-11d2-abe1-00a0c911f518");
  assert_guid (etl_kernel_hook_class (0x0301), "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
  g_assert_null (etl_kernel_group_class (ETL_KERNEL_N_GROUPS));
}

static void
test_kernel_unknown (void)
{
  EtlKernelEventInfo info;

  /* Known group, unnamed type: the group's class and no opcode name. */
  g_assert_true (etl_names_kernel_event (0x03ff, &info));
  g_assert_cmpstr (info.group_name, ==, "Process");
  assert_guid (info.provider, "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
  g_assert_null (info.opcode_name);

  g_assert_true (etl_names_kernel_event (0x1e00, &info));
  g_assert_cmpstr (info.group_name, ==, "HypervisorX");

  /* Groups past EVENT_TRACE_GROUP_HYPERVISORX are unknown. */
  g_assert_false (etl_names_kernel_event (0x1f00, &info));
  g_assert_null (info.group_name);
  g_assert_null (info.provider);
  g_assert_false (etl_names_kernel_event (0xff2e, &info));
  g_assert_false (etl_names_kernel_event (0x2001, NULL));
  g_assert_true (etl_names_kernel_event (0x0301, NULL));

  /* Every HookId: found exactly for groups 0x00-0x1E, always with a GUID. */
  for (guint h = 0; h <= 0xffff; h++)
    {
      gboolean found = etl_names_kernel_event ((guint16)h, &info);

      g_assert_cmpint (found, ==, (h >> 8) < 0x1f);
      if (found)
        {
          g_assert_nonnull (info.group_name);
          g_assert_nonnull (info.provider);
          g_assert_cmpstr (etl_names_provider (info.provider), !=, NULL);
        }
    }
}

static void
test_classic_opcode_level (void)
{
  g_assert_cmpstr (etl_names_classic_opcode (0), ==, "Info");
  g_assert_cmpstr (etl_names_classic_opcode (1), ==, "Start");
  g_assert_cmpstr (etl_names_classic_opcode (2), ==, "Stop");
  g_assert_cmpstr (etl_names_classic_opcode (3), ==, "DCStart");
  g_assert_cmpstr (etl_names_classic_opcode (4), ==, "DCStop");
  g_assert_cmpstr (etl_names_classic_opcode (8), ==, "Checkpoint");
  g_assert_null (etl_names_classic_opcode (9));
  g_assert_null (etl_names_classic_opcode (240));

  g_assert_cmpstr (etl_names_level (0), ==, "LogAlways");
  g_assert_cmpstr (etl_names_level (1), ==, "Critical");
  g_assert_cmpstr (etl_names_level (4), ==, "Informational");
  g_assert_cmpstr (etl_names_level (5), ==, "Verbose");
  g_assert_null (etl_names_level (6));
}

static void
assert_provider (const char *guid_str, const char *name)
{
  EtlGuid guid, found;

  g_assert_true (etl_guid_parse (guid_str, &guid));
  g_assert_cmpstr (etl_names_provider (&guid), ==, name);
  g_assert_true (etl_names_provider_lookup (name, &found));
  g_assert_true (etl_guid_equal (&guid, &found));
}

static void
test_provider_table (void)
{
  EtlGuid guid;
  char *upper;

  assert_provider ("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime");
  assert_provider ("a669021c-c450-4609-a035-5af59af4df18",
                   "Microsoft-Windows-DotNETRuntimeRundown");
  assert_provider ("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716", "Microsoft-Windows-Kernel-Process");
  assert_provider ("edd08927-9cc4-4e65-b970-c2560fb5c289", "Microsoft-Windows-Kernel-File");
  assert_provider ("b675ec37-bdb6-4648-bc92-f3fdc74d3ca2", "Microsoft-Windows-Kernel-EventTracing");
  assert_provider ("2a576b87-09a7-520e-c21a-4942f0271d67", "Microsoft-Antimalware-Scan-Interface");
  assert_provider ("a8a71ac1-040f-54a2-07ca-00a89b5ab761", "PerfView");
  assert_provider ("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Process");
  assert_provider ("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "PerfInfo");
  assert_provider ("9b79ee91-b5fd-41c0-a243-4248e266e9d0", "SysConfig");
  assert_provider ("9e814aad-3204-11d2-9a82-006008a86939", "Windows Kernel");

  /* Case-insensitive, and aliases resolve to the same GUID. */
  g_assert_true (etl_names_provider_lookup ("microsoft-windows-dotnetruntime", &guid));
  assert_guid (&guid, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
  g_assert_true (etl_names_provider_lookup ("Microsoft-Windows-AMSI", &guid));
  assert_guid (&guid, "2a576b87-09a7-520e-c21a-4942f0271d67");
  g_assert_true (etl_names_provider_lookup ("msnt_systemtrace", &guid));
  assert_guid (&guid, "9e814aad-3204-11d2-9a82-006008a86939");
  g_assert_true (etl_names_provider_lookup ("STACKWALK", NULL));

  g_assert_false (etl_names_provider_lookup ("No-Such-Provider", &guid));
  g_assert_false (etl_names_provider_lookup ("", &guid));
  g_assert_true (etl_guid_parse ("01234567-89ab-cdef-0123-456789abcdef", &guid));
  g_assert_null (etl_names_provider (&guid));

  /* Every display name round-trips; so does its upper-case spelling. */
  g_assert_cmpuint (etl_names_provider_table_size (), >=, 60);
  for (guint h = 0; h < 0x1f00; h += 0x100)
    {
      EtlKernelEventInfo info;
      const char *name;
      EtlGuid back;

      g_assert_true (etl_names_kernel_event ((guint16)h, &info));
      name = etl_names_provider (info.provider);
      g_assert_nonnull (name);
      upper = g_ascii_strup (name, -1);
      g_assert_true (etl_names_provider_lookup (upper, &back));
      g_assert_true (etl_guid_equal (&back, info.provider));
      g_free (upper);
    }
}

static void
assert_strv (char **got, const char *const *expected)
{
  g_assert_nonnull (got);
  g_assert_cmpuint (g_strv_length (got), ==, g_strv_length ((char **)expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (got[i], ==, expected[i]);
}

static void
test_tracelogging_primitive (void)
{
  static const char *const fields[] = {
    "string_type",    "boolean_type",     "char_type",  "int16_type",  "int32_type",
    "uint16_type",    "uint32_type",      "int64_type", "uint64_type", "guid_type",
    "file_time_type", "system_time_type", NULL,
  };
  g_autofree char *provider
      = etl_tracelogging_provider_name (primitive_traits, sizeof primitive_traits);
  g_autofree char *event = etl_tracelogging_event_name (primitive_schema, sizeof primitive_schema);
  g_auto (GStrv) names = etl_tracelogging_field_names (primitive_schema, sizeof primitive_schema);

  g_assert_cmpstr (provider, ==, "solar_system");
  g_assert_cmpstr (event, ==, "PrimitiveTypesTest");
  assert_strv (names, fields);
}

static void
test_tracelogging_other (void)
{
  static const char *const lxcore_fields[] = {
    "ErrorLevel",     "instanceId", "LxPid", "LxTid",   "LxNs",
    "ExecutablePath", "Function",   "Line",  "Message", NULL,
  };
  static const char *const selfdesc_fields[] = { "a", "b", "c", NULL };
  static const char *const amsi_fields[] = { "Engine", "Script", "Raw Script", NULL };
  char *s;
  char **v;

  /* Traits followed by a provider-group trait; an event tag of two bytes. */
  s = etl_tracelogging_provider_name (lxcore_traits, sizeof lxcore_traits);
  g_assert_cmpstr (s, ==, "Microsoft.Windows.Subsystem.LxCore");
  g_free (s);
  s = etl_tracelogging_event_name (lxcore_schema, sizeof lxcore_schema);
  g_assert_cmpstr (s, ==, "BreakPoint");
  g_free (s);
  v = etl_tracelogging_field_names (lxcore_schema, sizeof lxcore_schema);
  assert_strv (v, lxcore_fields);
  g_strfreev (v);

  /* A struct field (InType 0x98, two members). */
  s = etl_tracelogging_provider_name (selfdesc_traits, sizeof selfdesc_traits);
  g_assert_cmpstr (s, ==, "MySource");
  g_free (s);
  s = etl_tracelogging_event_name (selfdesc_schema, sizeof selfdesc_schema);
  g_assert_cmpstr (s, ==, "TestEvent");
  g_free (s);
  v = etl_tracelogging_field_names (selfdesc_schema, sizeof selfdesc_schema);
  assert_strv (v, selfdesc_fields);
  g_strfreev (v);

  /* A variable-count array with an OutType (InType 0xC6). */
  s = etl_tracelogging_provider_name (amsi_traits, sizeof amsi_traits);
  g_assert_cmpstr (s, ==, "AmsiTrace");
  g_free (s);
  s = etl_tracelogging_event_name (amsi_schema, sizeof amsi_schema);
  g_assert_cmpstr (s, ==, "AmsiScript");
  g_free (s);
  v = etl_tracelogging_field_names (amsi_schema, sizeof amsi_schema);
  assert_strv (v, amsi_fields);
  g_strfreev (v);
}

/* Copies @len bytes into an allocation of exactly that size, so a read past
 * the end is caught by valgrind or ASan. */
static guint8 *
exact_copy (const guint8 *data, gsize len)
{
  guint8 *copy;

  if (len == 0)
    return NULL;
  copy = g_malloc (len);
  memcpy (copy, data, len);
  return copy;
}

static void
test_tracelogging_truncated (void)
{
  for (guint b = 0; b < G_N_ELEMENTS (all_blobs); b++)
    for (gsize len = 0; len < all_blobs[b].len; len++)
      {
        g_autofree guint8 *copy = exact_copy (all_blobs[b].data, len);

        /* The declared size no longer fits: every parser refuses. */
        g_assert_null (etl_tracelogging_provider_name (copy, len));
        g_assert_null (etl_tracelogging_event_name (copy, len));
        g_assert_null (etl_tracelogging_field_names (copy, len));
      }

  g_assert_null (etl_tracelogging_provider_name (NULL, 0));
  g_assert_null (etl_tracelogging_event_name (NULL, 10));
  g_assert_null (etl_tracelogging_field_names (NULL, 10));
}

static void
test_tracelogging_malformed (void)
{
  /* Declared sizes below 2, or larger than the blob. */
  static const guint8 size0[] = { 0x00, 0x00, 'a', 0 };
  static const guint8 size1[] = { 0x01, 0x00, 'a', 0 };
  static const guint8 too_big[] = { 0x05, 0x01, 'a', 0, 0 };
  /* No NUL before the declared end (the NUL after it must not be used). */
  static const guint8 no_nul[] = { 0x04, 0x00, 'a', 'b', 0 };
  static const guint8 schema_no_nul[] = { 0x05, 0x00, 0x00, 'e', 'v', 0 };
  /* Empty names. */
  static const guint8 empty_name[] = { 0x03, 0x00, 0 };
  static const guint8 schema_empty_name[] = { 0x04, 0x00, 0x00, 0 };
  /* The event tag chain never ends. */
  static const guint8 endless_tag[] = { 0x05, 0x00, 0x80, 0x80, 0x80 };
  /* A field name without its InType byte. */
  static const guint8 no_intype[] = { 0x07, 0x00, 0x00, 'e', 0, 'f', 0 };
  /* InType chained to an OutType that is missing. */
  static const guint8 no_outtype[] = { 0x08, 0x00, 0x00, 'e', 0, 'f', 0, 0x84 };
  /* Field tag of five chained bytes (at most four are allowed). */
  static const guint8 long_tag[] = {
    0x0e, 0x00, 0x00, 'e', 0, 'f', 0, 0x84, 0x83, 0x81, 0x81, 0x81, 0x81, 0x01,
  };
  /* Constant-count array without its u16 count. */
  static const guint8 no_ccount[] = { 0x09, 0x00, 0x00, 'e', 0, 'f', 0, 0x27, 0x01 };
  /* Custom field whose type-info size runs past the end. */
  static const guint8 custom_overrun[] = {
    0x0b, 0x00, 0x00, 'e', 0, 'f', 0, 0x6e, 0x10, 0x00, 0xaa,
  };
  /* Valid counterparts of the last ones. */
  static const guint8 tag4[] = {
    0x0d, 0x00, 0x00, 'e', 0, 'f', 0, 0x84, 0x83, 0x81, 0x81, 0x81, 0x01,
  };
  static const guint8 ccount[] = { 0x0a, 0x00, 0x00, 'e', 0, 'f', 0, 0x27, 0x03, 0x00 };
  static const guint8 custom[] = {
    0x0c, 0x00, 0x00, 'e', 0, 'f', 0, 0x6e, 0x02, 0x00, 0xaa, 0xbb, 'x', 0, 1,
  };
  static const guint8 no_fields[] = { 0x06, 0x00, 0x00, 'e', 'v', 0 };
  static const char *const just_f[] = { "f", NULL };
  static const char *const none[] = { NULL };
  char **v;
  char *s;

  g_assert_null (etl_tracelogging_provider_name (size0, sizeof size0));
  g_assert_null (etl_tracelogging_provider_name (size1, sizeof size1));
  g_assert_null (etl_tracelogging_provider_name (too_big, sizeof too_big));
  g_assert_null (etl_tracelogging_provider_name (no_nul, sizeof no_nul));
  g_assert_null (etl_tracelogging_provider_name (empty_name, sizeof empty_name));
  g_assert_null (etl_tracelogging_event_name (size1, sizeof size1));
  g_assert_null (etl_tracelogging_event_name (schema_no_nul, sizeof schema_no_nul));
  g_assert_null (etl_tracelogging_event_name (schema_empty_name, sizeof schema_empty_name));
  g_assert_null (etl_tracelogging_event_name (endless_tag, sizeof endless_tag));
  g_assert_null (etl_tracelogging_field_names (endless_tag, sizeof endless_tag));

  /* The event name is fine even where the fields are not. */
  s = etl_tracelogging_event_name (no_intype, sizeof no_intype);
  g_assert_cmpstr (s, ==, "e");
  g_free (s);
  s = etl_tracelogging_event_name (long_tag, sizeof long_tag);
  g_assert_cmpstr (s, ==, "e");
  g_free (s);
  g_assert_null (etl_tracelogging_field_names (no_intype, sizeof no_intype));
  g_assert_null (etl_tracelogging_field_names (no_outtype, sizeof no_outtype));
  g_assert_null (etl_tracelogging_field_names (long_tag, sizeof long_tag));
  g_assert_null (etl_tracelogging_field_names (no_ccount, sizeof no_ccount));
  g_assert_null (etl_tracelogging_field_names (custom_overrun, sizeof custom_overrun));

  v = etl_tracelogging_field_names (tag4, sizeof tag4);
  assert_strv (v, just_f);
  g_strfreev (v);
  v = etl_tracelogging_field_names (ccount, sizeof ccount);
  assert_strv (v, just_f);
  g_strfreev (v);
  /* The declared size (12) stops parsing before the trailing "x" field. */
  v = etl_tracelogging_field_names (custom, sizeof custom);
  assert_strv (v, just_f);
  g_strfreev (v);
  v = etl_tracelogging_field_names (no_fields, sizeof no_fields);
  assert_strv (v, none);
  g_strfreev (v);

  /* Invalid UTF-8 comes back valid. */
  {
    static const guint8 bad_utf8[] = { 0x05, 0x00, 'a', 0xff, 0 };

    s = etl_tracelogging_provider_name (bad_utf8, sizeof bad_utf8);
    g_assert_nonnull (s);
    g_assert_true (g_utf8_validate (s, -1, NULL));
    g_free (s);
  }
}

static void
test_tracelogging_random (void)
{
  /* Random and bit-flipped blobs: the parsers must only return or refuse. */
  for (guint round = 0; round < 20000; round++)
    {
      const Blob *b = &all_blobs[round % G_N_ELEMENTS (all_blobs)];
      gsize len = b->len;
      g_autofree guint8 *copy = exact_copy (b->data, len);
      char *s;
      char **v;

      for (guint flips = g_test_rand_int_range (1, 6); flips > 0; flips--)
        copy[g_test_rand_int_range (0, (gint32)len)] = (guint8)g_test_rand_int_range (0, 256);

      s = etl_tracelogging_provider_name (copy, len);
      g_free (s);
      s = etl_tracelogging_event_name (copy, len);
      g_free (s);
      v = etl_tracelogging_field_names (copy, len);
      g_strfreev (v);
    }
}

/* Builds an EVENT_HEADER extended item list: {u16 item size, u16 type,
 * u16 linkage, u16 data size} then the data, 8-aligned. */
static GByteArray *
ext_items (guint16 type1, const guint8 *d1, gsize l1, guint16 type2, const guint8 *d2, gsize l2)
{
  GByteArray *a = g_byte_array_new ();
  const guint16 types[2] = { type1, type2 };
  const guint8 *datas[2] = { d1, d2 };
  const gsize lens[2] = { l1, l2 };
  guint n = d2 != NULL ? 2 : 1;

  for (guint i = 0; i < n; i++)
    {
      gsize item = (8 + lens[i] + 7) & ~(gsize)7;
      guint8 hdr[8] = {
        item & 0xff,       item >> 8, types[i] & 0xff, types[i] >> 8,
        i + 1 < n ? 1 : 0, 0,         lens[i] & 0xff,  lens[i] >> 8,
      };
      static const guint8 zeros[8] = { 0 };

      g_byte_array_append (a, hdr, sizeof hdr);
      g_byte_array_append (a, datas[i], (guint)lens[i]);
      g_byte_array_append (a, zeros, (guint)(item - 8 - lens[i]));
    }
  return a;
}

static void
check_record (const EtlRecord *r, const char *provider, const char *event)
{
  g_autofree char *p = etl_record_dup_provider_name (r);
  g_autofree char *e = etl_record_dup_event_name (r);

  g_assert_cmpstr (p, ==, provider);
  g_assert_cmpstr (e, ==, event);
}

static void
test_record_names (void)
{
  EtlRecord r;
  EtlKernelEventInfo info;
  g_autoptr (GByteArray) ext = NULL;

  /* Kernel records, provider set from the HookId as the reader does. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_KERNEL;
  r.hook_id = 0x0303;
  g_assert_true (etl_names_kernel_event (r.hook_id, &info));
  r.provider = *info.provider;
  check_record (&r, "Process", "Process/DCStart");

  r.hook_id = 0x0000;
  etl_names_kernel_event (r.hook_id, &info);
  r.provider = *info.provider;
  check_record (&r, "EventTrace", "EventTrace/Header");

  r.kind = ETL_RECORD_KIND_PERFINFO;
  r.hook_id = 0x0f2e;
  etl_names_kernel_event (r.hook_id, &info);
  r.provider = *info.provider;
  check_record (&r, "PerfInfo", "PerfInfo/Sample");

  r.hook_id = 0x0f99;
  check_record (&r, "PerfInfo", "PerfInfo/Opcode(153)");

  /* Unknown group: no GUID to name, so the zero GUID string. */
  memset (&r.provider, 0, sizeof r.provider);
  r.hook_id = 0x2501;
  check_record (&r, "00000000-0000-0000-0000-000000000000", "HookId(0x2501)");

  /* Manifest records. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_MANIFEST;
  etl_guid_parse ("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", &r.provider);
  r.event_id = 1;
  r.opcode = 1;
  check_record (&r, "Microsoft-Windows-DotNETRuntime", "Event(1)/Start");
  r.event_id = 10;
  r.opcode = 0;
  check_record (&r, "Microsoft-Windows-DotNETRuntime", "Event(10)");
  r.opcode = 35;
  check_record (&r, "Microsoft-Windows-DotNETRuntime", "Event(10)");
  etl_guid_parse ("01234567-89ab-cdef-0123-456789abcdef", &r.provider);
  check_record (&r, "01234567-89ab-cdef-0123-456789abcdef", "Event(10)");

  /* TraceLogging: names from the extended items. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_TRACELOGGING;
  r.flags = ETL_EVENT_HEADER_FLAG_EXTENDED_INFO;
  etl_guid_parse ("d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615", &r.provider);
  ext = ext_items (ETL_EXT_TYPE_PROV_TRAITS, lxcore_traits, sizeof lxcore_traits,
                   ETL_EXT_TYPE_EVENT_SCHEMA_TL, primitive_schema, sizeof primitive_schema);
  r.ext = ext->data;
  r.ext_len = ext->len;
  /* PROV_TRAITS wins over the table. */
  check_record (&r, "Microsoft.Windows.Subsystem.LxCore", "PrimitiveTypesTest");
  /* Without items: the table, then Event(ID). */
  r.ext = NULL;
  r.ext_len = 0;
  r.event_id = 3;
  check_record (&r, "solar_system", "Event(3)");

  /* Classic records. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_CLASSIC;
  etl_guid_parse ("9b79ee91-b5fd-41c0-a243-4248e266e9d0", &r.provider);
  r.opcode = 35;
  check_record (&r, "SysConfig", "SysConfig/VolumeMapping");
  r.opcode = 37;
  check_record (&r, "SysConfig", "SysConfig/OSVersion");
  r.opcode = 38;
  check_record (&r, "SysConfig", "SysConfig/Opcode(38)");
  etl_guid_parse ("b3e675d7-2554-4f18-830b-2762732560de", &r.provider);
  r.opcode = 0;
  check_record (&r, "KernelTraceControl", "ImageID");
  r.opcode = 36;
  check_record (&r, "KernelTraceControl", "ImageID/DbgID_RSDS");
  r.opcode = 34;
  check_record (&r, "KernelTraceControl", "ImageID/DbgID_DBG");
  r.opcode = 40;
  check_record (&r, "KernelTraceControl", "ImageID/DbgDeterm");
  etl_guid_parse ("6a399ae0-4bc6-4de9-870b-3657f8947e7e", &r.provider);
  r.opcode = 33;
  check_record (&r, "LostEvent", "LostEvent/RTLostBuffer");
  etl_guid_parse ("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", &r.provider);
  r.opcode = 36;
  check_record (&r, "Thread", "Thread/CSwitch");
  etl_guid_parse ("01234567-89ab-cdef-0123-456789abcdef", &r.provider);
  r.opcode = 2;
  check_record (&r, "01234567-89ab-cdef-0123-456789abcdef", "Stop");
  r.opcode = 40;
  check_record (&r, "01234567-89ab-cdef-0123-456789abcdef", "Opcode(40)");

  /* WPP. */
  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_WPP;
  r.event_id = 7;
  {
    g_autofree char *e = etl_record_dup_event_name (&r);

    g_assert_cmpstr (e, ==, "Message(7)");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/names/kernel-hookid", test_kernel_hookid);
  g_test_add_func ("/etl/names/kernel-unknown", test_kernel_unknown);
  g_test_add_func ("/etl/names/kernel-class-reader", test_kernel_class_reader);
  g_test_add_func ("/etl/names/classic-opcode-level", test_classic_opcode_level);
  g_test_add_func ("/etl/names/provider-table", test_provider_table);
  g_test_add_func ("/etl/names/tracelogging/primitive-types", test_tracelogging_primitive);
  g_test_add_func ("/etl/names/tracelogging/other-corpus", test_tracelogging_other);
  g_test_add_func ("/etl/names/tracelogging/truncated", test_tracelogging_truncated);
  g_test_add_func ("/etl/names/tracelogging/malformed", test_tracelogging_malformed);
  g_test_add_func ("/etl/names/tracelogging/random", test_tracelogging_random);
  g_test_add_func ("/etl/names/record", test_record_names);

  return g_test_run ();
}
