/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-session: bytes → EVENT_TRACE_PROPERTIES decoder (x64 and x86) → check
 * and re-encode; the same bytes as an INI preset (GKeyFile) → session.
 */
#include "config.h"

#include <stdint.h>

#include "etl-session.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree guint8 *copy = g_memdup2 (data, size);
  const EtlSessionArch arches[] = { ETL_SESSION_ARCH_X64, ETL_SESSION_ARCH_X86 };
  g_autoptr (GKeyFile) key_file = g_key_file_new ();

  for (guint a = 0; a < G_N_ELEMENTS (arches); a++)
    {
      EtlSession *session = etl_session_decode (copy, size, arches[a], NULL);

      if (session != NULL)
        {
          GPtrArray *diagnostics = etl_session_check (session, 8);
          GBytes *bytes = etl_session_encode (session, arches[a]);

          g_ptr_array_unref (diagnostics);
          g_bytes_unref (bytes);
          etl_session_free (session);
        }
    }

  if (g_key_file_load_from_data (key_file, (const char *) copy, size, G_KEY_FILE_NONE, NULL))
    {
      EtlSession *session = etl_session_new_from_key_file (key_file, NULL);

      if (session != NULL)
        {
          g_free (etl_session_to_ini (session));
          etl_session_free (session);
        }
    }
  return 0;
}
