/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-stack-tree.h"

G_BEGIN_DECLS

/* Building a tree from weighted paths (etl-stack-tree.c): new, add paths
 * (outermost frame first, names copied and interned), then finish (links
 * the children by name) before handing it out. */
typedef struct _EtlStackTreeBuilder EtlStackTreeBuilder;

EtlStackTreeBuilder *etl_stack_tree_builder_new (EtlStackTreeUnit unit);
const char *etl_stack_tree_builder_intern (EtlStackTreeBuilder *builder, const char *name);
void etl_stack_tree_builder_add (EtlStackTreeBuilder *builder, const char *const *path, guint n_frames,
                                 guint64 weight);
EtlStackTree *etl_stack_tree_builder_finish (EtlStackTreeBuilder *builder);
void etl_stack_tree_builder_free (EtlStackTreeBuilder *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlStackTreeBuilder, etl_stack_tree_builder_free)

/* Which samples count for a set of threads' times (etl-stack-tree.c):
 * etl_stack_tree_new_for_threads() uses the three; etl_thread_rows_new()
 * reads a sample's thread and merges the spans with the first two, so that
 * "Summary of these" counts the samples the Regions view's flame graph
 * counts. */
gboolean etl_stack_tree_sample_thread (guint8 header_type, guint16 hook_id, const guint8 *user_data,
                                       gsize user_data_len, guint32 *tid);
guint etl_stack_tree_merge_spans (EtlStackTreeSpan *spans, guint n_spans, gint64 *from, gint64 *to);
gboolean etl_stack_tree_spans_contain (const EtlStackTreeSpan *spans, guint n_spans, guint32 tid, gint64 t);

/* What etl_stack_tree_walk_samples() calls for each sample: @frame for
 * each of its frames, outermost first (@name valid during the call: each
 * name is made, passed and freed in turn), then @sample with its FILETIME. */
typedef struct
{
  void (*frame) (gpointer data, const char *name);
  void (*sample) (gpointer data, gint64 filetime);
} EtlStackWalkFuncs;

/* The walk under etl_stack_tree_new() (and _for_threads()) and
 * etl_call_samples_new_cpu(): each PerfInfo SampledProfile record of
 * [@from_filetime, @to_filetime) that has a stack (and, with @spans, sorted
 * by tid then start and merged, ran on a span's thread within it) is passed
 * to @funcs with its frames (at most ETL_STACKS_MAX_FRAMES) named by
 * etl_stacks_symbolize() without the offset ("module!function" when a
 * namer knows it, "module" without symbols, a JIT method as it is, "?" for
 * an address no image or method holds).  @cancellable is checked every 4096
 * records.  Returns FALSE when cancelled (@error: G_IO_ERROR_CANCELLED). */
gboolean etl_stack_tree_walk_samples (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                                      const EtlStackTreeSpan *spans, guint n_spans,
                                      const EtlStackWalkFuncs *funcs, gpointer data, GCancellable *cancellable,
                                      GError **error);

G_END_DECLS
