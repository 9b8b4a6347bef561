/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-module-id: bytes → etl_module_id_read (KernelTraceControl
 * DbgID_RSDS, DbgID_ILRSDS, DbgPPDB, DbgDeterm).  Input: a mode byte, then
 * the payload.  Mode bits 0–1 pick the opcode (36 RSDS, 37 ILRSDS, 38
 * DbgPPDB, 40 DbgDeterm), bit 2 takes the next byte as the opcode instead,
 * bit 3 gives the record a 32-bit header (4-byte ImageBase), bit 4 another
 * provider.  The payload is copied into an exactly-sized buffer so any
 * overread is caught.  Checks: a refused record leaves no name; an
 * accepted one has the kind of its opcode, and for RSDS / ILRSDS a
 * PdbFileName of 1…ETL_MODULE_ID_MAX_PDB_NAME bytes that is the payload's
 * bytes after ImageBase, ProcessId, GuidSig and Age, NUL-terminated there.
 * The whole input then goes through etl_record_decode() and, when it is a
 * record, through etl_module_id_read() too.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-module-id.h"
#include "etl-record-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static const guint8 opcodes[4] = { 36, 37, 38, 40 };

static void
check (const EtlRecord *r)
{
  EtlModuleId id;
  char *name = (char *)"not set";
  gboolean ok = etl_module_id_read (r, &id, &name);
  EtlModuleId id2;

  /* Without a name out parameter: the same answer. */
  g_assert_cmpint (etl_module_id_read (r, &id2, NULL), ==, ok);
  if (!ok)
    {
      g_assert_null (name);
      return;
    }
  g_assert_null (id.pdb_name);
  g_assert_cmpuint (r->kind, ==, ETL_RECORD_KIND_CLASSIC);
  switch (r->opcode)
    {
    case 36:
    case 37:
      {
        gsize ptr = etl_record_get_pointer_size (r);
        gsize n;

        g_assert_cmpint (id.kind, ==, r->opcode == 36 ? ETL_MODULE_ID_RSDS : ETL_MODULE_ID_ILRSDS);
        g_assert_nonnull (name);
        n = strlen (name);
        g_assert_cmpuint (n, >=, 1);
        g_assert_cmpuint (n, <=, ETL_MODULE_ID_MAX_PDB_NAME);
        g_assert_cmpuint (ptr + 4 + 20 + n + 1, <=, r->user_data_len);
        g_assert_true (memcmp (r->user_data + ptr + 24, name, n) == 0);
        g_assert_cmpuint (r->user_data[ptr + 24 + n], ==, 0);
        g_assert_cmpuint (id2.age, ==, id.age);
        g_assert_true (etl_guid_equal (&id2.guid, &id.guid));
        break;
      }
    case 38:
    case 40:
      g_assert_cmpint (id.kind, ==, r->opcode == 38 ? ETL_MODULE_ID_PPDB : ETL_MODULE_ID_DETERM);
      g_assert_null (name);
      g_assert_true (etl_guid_is_zero (&id.guid));
      break;
    default:
      g_assert_not_reached ();
    }
  g_assert_cmpuint (id2.image_base, ==, id.image_base);
  g_assert_cmpuint (id2.process_id, ==, id.process_id);
  g_free (name);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  EtlRecord r = { 0 };
  guint8 mode;
  gsize at = 1;
  g_autofree guint8 *payload = NULL;
  g_autofree guint8 *whole = NULL;

  if (size < 1)
    return 0;
  mode = data[0];
  r.kind = ETL_RECORD_KIND_CLASSIC;
  r.header_type = (mode & 8) ? ETL_HEADER_TYPE_FULL_HEADER32 : ETL_HEADER_TYPE_FULL_HEADER64;
  if (mode & 4)
    {
      if (size < 2)
        return 0;
      r.opcode = data[1];
      at = 2;
    }
  else
    r.opcode = opcodes[mode & 3];
  etl_guid_parse ((mode & 16) ? "b3e675d7-2554-4f18-830b-2762732560df" : ETL_MODULE_ID_PROVIDER, &r.provider);
  payload = g_memdup2 (data + at, size - at);
  r.user_data = size > at ? payload : NULL;
  r.user_data_len = size - at;
  check (&r);

  whole = g_memdup2 (data, size);
  {
    g_auto (EtlRecord) d = { 0 };

    if (etl_record_decode (whole, size, &d, NULL))
      {
        g_assert_cmpuint (d.size, <=, size);
        check (&d);
      }
  }
  return 0;
}
