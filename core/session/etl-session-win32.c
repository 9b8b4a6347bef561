/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-session-win32.c: StartTraceW and ControlTraceW (evntrace.h).
 *
 * Everything here is plain C against the Windows headers so that it builds
 * with `x86_64-w64-mingw32-gcc -c` and `i686-w64-mingw32-gcc -c` without
 * GLib (tests/mingw/check-mingw.sh).  Return values are Win32 error codes
 * (ERROR_SUCCESS = 0).
 */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef UNICODE
#define UNICODE
#endif

#include <windows.h>
#include <evntrace.h>
#include <stdlib.h>
#include <string.h>

#include "etl-session-win32.h"

/* Room for both names when ETW writes them back (1024 characters each, NUL included). */
#define NAME_CHARS 1025

/**
 * etl_session_win32_start:
 * @properties: an EVENT_TRACE_PROPERTIES allocation in this process's
 *   layout (etl_session_encode()); it is copied, StartTraceW writes into the copy
 * @size: its size in bytes (= Wnode.BufferSize)
 * @handle: (out): the TRACEHANDLE
 *
 * Calls StartTraceW with the session name found at LoggerNameOffset.
 *
 * Returns: ERROR_SUCCESS, ERROR_INVALID_PARAMETER for a malformed
 *   allocation, ERROR_NOT_ENOUGH_MEMORY, or StartTraceW's error
 *   (ERROR_ALREADY_EXISTS, ERROR_ACCESS_DENIED, ERROR_BAD_LENGTH, …)
 */
unsigned long
etl_session_win32_start (const unsigned char *properties, size_t size, uint64_t *handle)
{
  EVENT_TRACE_PROPERTIES *props;
  TRACEHANDLE h = 0;
  ULONG rc;
  const WCHAR *name;

  if (properties == NULL || handle == NULL || size < sizeof (EVENT_TRACE_PROPERTIES) + sizeof (WCHAR))
    return ERROR_INVALID_PARAMETER;
  props = (EVENT_TRACE_PROPERTIES *) calloc (1, size);
  if (props == NULL)
    return ERROR_NOT_ENOUGH_MEMORY;
  memcpy (props, properties, size);
  if (props->Wnode.BufferSize != size || props->LoggerNameOffset < sizeof (EVENT_TRACE_PROPERTIES)
      || props->LoggerNameOffset + sizeof (WCHAR) > size)
    {
      free (props);
      return ERROR_INVALID_PARAMETER;
    }
  name = (const WCHAR *) ((const BYTE *) props + props->LoggerNameOffset);
  rc = StartTraceW (&h, name, props);
  free (props);
  if (rc == ERROR_SUCCESS)
    *handle = (uint64_t) h;
  return rc;
}

/**
 * etl_session_win32_control:
 * @handle: the session's TRACEHANDLE, or 0 to use @logger_name_utf8
 * @logger_name_utf8: (nullable): the session name in UTF-8
 * @code: EVENT_TRACE_CONTROL_QUERY, _STOP, _FLUSH or _UPDATE
 * @properties_out: (out): the properties ETW returned (counters, names);
 *   free with etl_session_win32_free()
 * @size_out: (out): their size in bytes
 *
 * Calls ControlTraceW with a zeroed allocation that has room for both names.
 *
 * Returns: ERROR_SUCCESS or ControlTraceW's error (ERROR_WMI_INSTANCE_NOT_FOUND, …)
 */
unsigned long
etl_session_win32_control (uint64_t handle, const char *logger_name_utf8, unsigned long code,
                           unsigned char **properties_out, size_t *size_out)
{
  size_t size = sizeof (EVENT_TRACE_PROPERTIES) + 2 * NAME_CHARS * sizeof (WCHAR);
  EVENT_TRACE_PROPERTIES *props;
  WCHAR *wname = NULL;
  ULONG rc;

  if (properties_out == NULL || size_out == NULL)
    return ERROR_INVALID_PARAMETER;
  *properties_out = NULL;
  *size_out = 0;
  props = (EVENT_TRACE_PROPERTIES *) calloc (1, size);
  if (props == NULL)
    return ERROR_NOT_ENOUGH_MEMORY;
  props->Wnode.BufferSize = (ULONG) size;
  props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  props->LoggerNameOffset = sizeof (EVENT_TRACE_PROPERTIES);
  props->LogFileNameOffset = sizeof (EVENT_TRACE_PROPERTIES) + NAME_CHARS * sizeof (WCHAR);

  if (logger_name_utf8 != NULL && logger_name_utf8[0] != '\0')
    {
      int n = MultiByteToWideChar (CP_UTF8, MB_ERR_INVALID_CHARS, logger_name_utf8, -1, NULL, 0);

      if (n <= 0 || n > NAME_CHARS)
        {
          free (props);
          return ERROR_INVALID_PARAMETER;
        }
      wname = (WCHAR *) calloc ((size_t) n, sizeof (WCHAR));
      if (wname == NULL)
        {
          free (props);
          return ERROR_NOT_ENOUGH_MEMORY;
        }
      MultiByteToWideChar (CP_UTF8, 0, logger_name_utf8, -1, wname, n);
    }

  rc = ControlTraceW ((TRACEHANDLE) handle, wname, props, (ULONG) code);
  free (wname);
  if (rc != ERROR_SUCCESS)
    {
      free (props);
      return rc;
    }
  *properties_out = (unsigned char *) props;
  *size_out = size;
  return ERROR_SUCCESS;
}

/**
 * etl_session_win32_free:
 * @properties: (nullable): from etl_session_win32_control()
 */
void
etl_session_win32_free (void *properties)
{
  free (properties);
}
