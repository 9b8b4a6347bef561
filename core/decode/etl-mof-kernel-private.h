/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-mof-kernel-private.h: the row and class shapes of the kernel MOF
 * tables (etl-mof-kernel.c, etl-mof-io.c, etl-mof-config.c), shared with
 * tests/test-mof.c.
 */
#pragma once

#include <glib.h>

#include "etl-schema.h"

G_BEGIN_DECLS

/* EtlMofField.flags */
enum
{
  ETL_MOF_TO_END = 1 << 0, /* array to the end of the user data (ETL_PROPERTY_TO_END) */
};

/**
 * EtlMofField:
 * @name: the property name: the MOF class's, or TraceEvent's where
 *   TraceEvent prints another word (the row's comment gives the MOF name)
 * @in_type: an #EtlInType
 * @out_type: an #EtlOutType (%ETL_OUT_NULL: the in-type's default)
 * @length: the fixed length of a string (in characters, as TDH counts:
 *   char16 X[256] is 256) or of binary (in bytes), else 0
 * @flags: ETL_MOF_* flags
 * @map: (nullable): the name of a value map or bitmap (etl-mof-kernel.c)
 * @count_from: (nullable): name of an earlier field that holds this
 *   array's element count
 *
 * One field of a MOF class, one row of a table.
 */
typedef struct
{
  const char *name;
  guint16 in_type;
  guint16 out_type;
  guint16 length;
  guint16 flags;
  const char *map;
  const char *count_from;
} EtlMofField;

#define ETL_MOF_MAX_OPCODES 24

/**
 * EtlMofClass:
 * @class_name: the documentation's class name ("Process_V4_TypeGroup1")
 * @group: the kernel HookId group (EVENT_TRACE_GROUP_* >> 8) whose class
 *   GUID keys the schemas, or -1 for a classic class named by @guid
 * @guid: (nullable): the event class GUID when @group is -1
 * @version: the event version the layout belongs to
 * @n_opcodes: number of @opcodes
 * @opcodes: the event types (opcodes) that share the layout
 * @fields: (array length=n_fields): the payload, in order
 * @n_fields: number of @fields
 *
 * One MOF class (one layout) and the (opcode, version) keys it serves.
 */
typedef struct
{
  const char *class_name;
  gint16 group;
  const char *guid;
  guint8 version;
  guint8 n_opcodes;
  guint8 opcodes[ETL_MOF_MAX_OPCODES];
  const EtlMofField *fields;
  guint n_fields;
} EtlMofClass;

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* Row and class constructors, so that tables read as the documentation. */
#define ETL_MOF_F(n, in, out) { (n), ETL_IN_##in, ETL_OUT_##out, 0, 0, NULL, NULL }
#define ETL_MOF_FIXED(n, in, out, len) { (n), ETL_IN_##in, ETL_OUT_##out, (len), 0, NULL, NULL }
#define ETL_MOF_MAP(n, in, map) { (n), ETL_IN_##in, ETL_OUT_NULL, 0, 0, (map), NULL }
#define ETL_MOF_TO_END_ARRAY(n, in, out) { (n), ETL_IN_##in, ETL_OUT_##out, 0, ETL_MOF_TO_END, NULL, NULL }
#define ETL_MOF_COUNTED(n, in, out, from) { (n), ETL_IN_##in, ETL_OUT_##out, 0, 0, NULL, (from) }

#define ETL_MOF_CLASS(cname, grp, ver, fields, ...)                                                 \
  {                                                                                                \
    (cname), (grp), NULL, (ver), sizeof ((const guint8[]){ __VA_ARGS__ }), { __VA_ARGS__ },        \
        (fields), G_N_ELEMENTS (fields)                                                            \
  }
#define ETL_MOF_CLASSIC(cname, guid, ver, fields, ...)                                              \
  {                                                                                                \
    (cname), -1, (guid), (ver), sizeof ((const guint8[]){ __VA_ARGS__ }), { __VA_ARGS__ },         \
        (fields), G_N_ELEMENTS (fields)                                                            \
  }

/* clang-format on */

/* HookId groups (EVENT_TRACE_GROUP_* in ntwmi.h, high byte). */
enum
{
  ETL_MOF_GROUP_EVENTTRACE = 0x00,
  ETL_MOF_GROUP_DISKIO = 0x01,
  ETL_MOF_GROUP_MEMORY = 0x02,
  ETL_MOF_GROUP_PROCESS = 0x03,
  ETL_MOF_GROUP_FILEIO = 0x04,
  ETL_MOF_GROUP_THREAD = 0x05,
  ETL_MOF_GROUP_TCPIP = 0x06,
  ETL_MOF_GROUP_UDPIP = 0x08,
  ETL_MOF_GROUP_REGISTRY = 0x09,
  ETL_MOF_GROUP_CONFIG = 0x0B,
  ETL_MOF_GROUP_PERFINFO = 0x0F,
  ETL_MOF_GROUP_IMAGE = 0x14,
  ETL_MOF_GROUP_STACKWALK = 0x18,
  ETL_MOF_GROUP_ALPC = 0x1A,
};

/* Classic classes that are not HookId groups (etl-names.c's class table). */
#define ETL_MOF_GUID_SYSCONFIG_EX "9b79ee91-b5fd-41c0-a243-4248e266e9d0"
#define ETL_MOF_GUID_KTC_IMAGEID "b3e675d7-2554-4f18-830b-2762732560de"

extern const EtlMofClass etl_mof_core_classes[];
extern const guint etl_mof_n_core_classes;
extern const EtlMofClass etl_mof_io_classes[];
extern const guint etl_mof_n_io_classes;
extern const EtlMofClass etl_mof_config_classes[];
extern const guint etl_mof_n_config_classes;

G_END_DECLS
