/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-stack-tree.h"
#include "etl-stacks.h"

G_BEGIN_DECLS

/**
 * EtlCallStack:
 * @offset: where its frames start in the samples' frame array
 *   (etl_call_samples_get_stack())
 * @n_frames: its frames, outermost first (0: a sample without frames)
 * @weight: the summed weight of its samples, in the samples' unit
 * @count: how many samples had this stack
 * @first: FILETIME of its earliest sample
 * @last: FILETIME of its latest sample
 *
 * One distinct stack of an #EtlCallSamples and what its samples add up to.
 */
typedef struct
{
  guint32 offset;
  guint32 n_frames;
  guint64 weight;
  guint64 count;
  gint64 first;
  gint64 last;
} EtlCallStack;

typedef struct _EtlCallSamples EtlCallSamples;

EtlCallSamples *etl_call_samples_new (EtlStackTreeUnit unit);
EtlCallSamples *etl_call_samples_ref (EtlCallSamples *samples);
void etl_call_samples_unref (EtlCallSamples *samples);
guint32 etl_call_samples_intern (EtlCallSamples *samples, const char *name);
const char *etl_call_samples_get_name (EtlCallSamples *samples, guint32 id);
guint etl_call_samples_get_n_names (EtlCallSamples *samples);
void etl_call_samples_add (EtlCallSamples *samples, const guint32 *frames, guint n_frames, guint64 weight,
                           gint64 filetime);
void etl_call_samples_add_stack (EtlCallSamples *samples, const guint32 *frames, guint n_frames,
                                 const EtlCallStack *from);
guint etl_call_samples_get_n_stacks (EtlCallSamples *samples);
const EtlCallStack *etl_call_samples_get_stack (EtlCallSamples *samples, guint index, const guint32 **frames);
guint64 etl_call_samples_get_total (EtlCallSamples *samples);
guint64 etl_call_samples_get_n_samples (EtlCallSamples *samples);
EtlStackTreeUnit etl_call_samples_get_unit (EtlCallSamples *samples);

EtlCallSamples *etl_call_samples_new_cpu (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                                          GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCallSamples, etl_call_samples_unref)

G_END_DECLS
