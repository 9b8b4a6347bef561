/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-session-win32.h: the only Win32 ETW controller calls (StartTraceW,
 * ControlTraceW) behind a small plain-C interface: no GLib, no windows.h,
 * so it cross-compiles with mingw-w64 alone (tests/mingw) and the rest of
 * core stays portable.  Compiled only on Windows.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

unsigned long etl_session_win32_start (const unsigned char *properties, size_t size, uint64_t *handle);
unsigned long etl_session_win32_control (uint64_t handle, const char *logger_name_utf8, unsigned long code,
                                         unsigned char **properties_out, size_t *size_out);
void etl_session_win32_free (void *properties);

#ifdef __cplusplus
}
#endif
