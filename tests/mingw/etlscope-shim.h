/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-shim.h: a portable stand-in for the parts of <windows.h> and
 * <evntrace.h> that etlscope's generated C code uses, so that the same code
 * can be compiled and *run* on Linux and its bytes compared with the
 * encoder's.  Define ETLSCOPE_SHIM_X64 for the 64-bit layout (HANDLE = 8
 * bytes), nothing for the 32-bit one (HANDLE = 4 bytes).
 *
 * The layout here is checked by the same generated static asserts
 * (layout-asserts.h) as mingw-w64's real headers, so mingw-w64 ==
 * etlscope's table == this shim, field by field.  The constants come from
 * the generated etlscope-shim-constants.h (etlscope's table), which the
 * same asserts check against mingw-w64.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef uint8_t BYTE;
typedef uint16_t WCHAR;
typedef uint32_t ULONG;
typedef int32_t LONG;
typedef int64_t LONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t TRACEHANDLE;
#ifdef ETLSCOPE_SHIM_X64
typedef uint64_t ULONG_PTR;
#else
typedef uint32_t ULONG_PTR;
#endif
/* An integer of pointer size: the generated code only stores into it. */
typedef ULONG_PTR HANDLE;

typedef struct
{
  uint32_t Data1;
  uint16_t Data2;
  uint16_t Data3;
  uint8_t Data4[8];
} GUID;

typedef union
{
  struct
  {
    ULONG LowPart;
    LONG HighPart;
  };
  LONGLONG QuadPart;
} LARGE_INTEGER;

typedef struct _WNODE_HEADER
{
  ULONG BufferSize;
  ULONG ProviderId;
  union
  {
    ULONG64 HistoricalContext;
    struct
    {
      ULONG Version;
      ULONG Linkage;
    };
  };
  union
  {
    ULONG CountLost;
    HANDLE KernelHandle;
    LARGE_INTEGER TimeStamp;
  };
  GUID Guid;
  ULONG ClientContext;
  ULONG Flags;
} WNODE_HEADER;

typedef struct _EVENT_TRACE_PROPERTIES
{
  WNODE_HEADER Wnode;
  ULONG BufferSize;
  ULONG MinimumBuffers;
  ULONG MaximumBuffers;
  ULONG MaximumFileSize;
  ULONG LogFileMode;
  ULONG FlushTimer;
  ULONG EnableFlags;
  LONG AgeLimit;
  ULONG NumberOfBuffers;
  ULONG FreeBuffers;
  ULONG EventsLost;
  ULONG BuffersWritten;
  ULONG LogBuffersLost;
  ULONG RealTimeBuffersLost;
  HANDLE LoggerThreadId;
  ULONG LogFileNameOffset;
  ULONG LoggerNameOffset;
} EVENT_TRACE_PROPERTIES;

#include "etlscope-shim-constants.h"
