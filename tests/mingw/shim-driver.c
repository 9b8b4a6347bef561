/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shim-driver.c: runs etlscope's generated C code (ETLSCOPE_CASE) on Linux
 * through etlscope-shim.h and compares the allocation it builds, byte for
 * byte, with etl_session_encode()'s (ETLSCOPE_EXPECTED).  Exit 0 if equal.
 */
#define ETLSCOPE_PORTABLE_SHIM 1

#include "layout-asserts.h"
#include ETLSCOPE_CASE
#include ETLSCOPE_EXPECTED

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (void)
{
  ULONG size = 0;
  EVENT_TRACE_PROPERTIES *props = etlscope_session_properties (&size);
#ifdef ETLSCOPE_SHIM_X64
  const unsigned char *expected = etlscope_expected_x64;
  size_t expected_len = sizeof etlscope_expected_x64;
#else
  const unsigned char *expected = etlscope_expected_x86;
  size_t expected_len = sizeof etlscope_expected_x86;
#endif
  const unsigned char *got = (const unsigned char *) props;

  if (props == NULL)
    return 1;
  if (size != expected_len)
    {
      fprintf (stderr, "%s: size %lu, encoder %lu\n", ETLSCOPE_CASE, (unsigned long) size, (unsigned long) expected_len);
      return 1;
    }
  for (size_t i = 0; i < expected_len; i++)
    if (got[i] != expected[i])
      {
        fprintf (stderr, "%s: byte %lu is 0x%02x, encoder 0x%02x\n", ETLSCOPE_CASE, (unsigned long) i, got[i],
                 expected[i]);
        return 1;
      }
  printf ("%s: %lu bytes equal\n", ETLSCOPE_CASE, (unsigned long) size);
  free (props);
  return 0;
}
