/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-module-id.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlStacks:
 *
 * The call stacks of a trace's events: which StackWalk records belong to
 * which event, and what the addresses in them are (modules from the Image
 * records, .NET JIT methods from the CLR method records).  See
 * etl_stacks_compute().  Opaque, reference-counted, read-only once computed
 * and safe to share between threads.
 */
typedef struct _EtlStacks EtlStacks;

/**
 * EtlStackFrameCount:
 * @name: the frame's group: a module file name ("ntoskrnl.exe"), a JIT
 *   method ("Namespace.Method") or "?" for an unknown address
 * @exclusive: samples whose leaf frame (Stack[0]) is in @name
 * @inclusive: samples with @name anywhere in their stack (counted once a
 *   sample)
 *
 * One row of etl_stacks_summarize().
 */
typedef struct
{
  char *name;
  guint64 exclusive;
  guint64 inclusive;
} EtlStackFrameCount;

/**
 * EtlStackSummary:
 * @n_samples: SampledProfile records in the range
 * @n_with_stack: those that have a stack
 * @n_frames: frames of those stacks
 * @n_resolved: frames that resolved to a module or a JIT method
 * @rows: (element-type EtlStackFrameCount): one row per frame group, by
 *   @exclusive then @inclusive, both descending
 *
 * The top frames of the samples in a time range.  Free with
 * etl_stack_summary_free().
 */
typedef struct
{
  guint64 n_samples;
  guint64 n_with_stack;
  guint64 n_frames;
  guint64 n_resolved;
  GArray *rows;
} EtlStackSummary;

/**
 * EtlStackModule:
 * @pid: ProcessId of the Image record (0 for kernel images)
 * @base: ImageBase
 * @size: ImageSize, bytes
 * @start: FILETIME it was loaded, 0 when before the trace
 * @end: FILETIME it was unloaded, G_MAXINT64 when never
 * @name: the file name ("ntdll.dll")
 * @id: (nullable): its KernelTraceControl identity (DbgID_RSDS preferred)
 *
 * One image of the module map (etl_stacks_get_module()).
 */
typedef struct
{
  guint32 pid;
  guint64 base;
  guint64 size;
  gint64 start;
  gint64 end;
  const char *name;
  const EtlModuleId *id;
} EtlStackModule;

/**
 * EtlStacksNamer:
 * @data: the closure given to etl_stacks_set_namer()
 * @module: the module's index (etl_stacks_get_module())
 * @offset: the address minus the module's ImageBase
 * @function_offset: (out) (optional): the address minus the function's start
 *
 * Returns: (transfer none) (nullable): `module!function`, valid while the
 *   namer is set, or %NULL to name the frame `module+0xOFFSET`
 */
typedef const char *(*EtlStacksNamer) (gpointer data, guint module, guint64 offset, guint32 *function_offset);

#define ETL_STACKS_MAX_FRAMES 1024

EtlStacks *etl_stacks_compute (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data,
                               GCancellable *cancellable, GError **error);
EtlStacks *etl_stacks_ref (EtlStacks *stacks);
void etl_stacks_unref (EtlStacks *stacks);

EtlTrace *etl_stacks_get_trace (EtlStacks *stacks);
guint64 etl_stacks_get_n_stack_records (EtlStacks *stacks);
guint64 etl_stacks_get_n_attached (EtlStacks *stacks);
guint etl_stacks_get_n_modules (EtlStacks *stacks);
guint etl_stacks_get_n_methods (EtlStacks *stacks);
gboolean etl_stacks_has_stack (EtlStacks *stacks, guint64 index);
GArray *etl_stacks_get_frames (EtlStacks *stacks, guint64 index, guint32 *pid);
char *etl_stacks_symbolize (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address,
                            gboolean *resolved);
char **etl_stacks_dup_symbolized (EtlStacks *stacks, guint64 index);
gint etl_stacks_find_module (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address);
gboolean etl_stacks_get_module (EtlStacks *stacks, guint index, EtlStackModule *module);
guint etl_stacks_get_n_module_ids (EtlStacks *stacks);
const EtlModuleId *etl_stacks_get_module_id (EtlStacks *stacks, guint index);
void etl_stacks_set_namer (EtlStacks *stacks, EtlStacksNamer namer, gpointer data);
void etl_stacks_set_namer_full (EtlStacks *stacks, EtlStacksNamer namer, gpointer data, GDestroyNotify destroy);

EtlStackSummary *etl_stacks_summarize (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                                       GCancellable *cancellable, GError **error);
void etl_stack_summary_free (EtlStackSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlStacks, etl_stacks_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlStackSummary, etl_stack_summary_free)

G_END_DECLS
