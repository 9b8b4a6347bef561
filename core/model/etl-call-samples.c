/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-call-samples
 * @title: EtlCallSamples
 * @short_description: weighted, timed stacks of named frames: the input of the call-tree views
 *
 * The samples a call tree (etl-call-tree.c) is computed from: each sample a
 * stack of frame names, outermost first, a weight (1 for a CPU sample,
 * 100-ns ticks for thread time, as #EtlStackTreeUnit says) and a FILETIME.
 * Frame names are interned to ids once; equal stacks are stored once, with
 * their summed weight, their sample count and the time of their first and
 * last sample, so that the views cost one pass over the distinct stacks,
 * whatever the number of samples (a real trace repeats its stacks a lot).
 *
 * Memory: the distinct stacks' frame ids (4 bytes a frame), one
 * #EtlCallStack each, the names once.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-call-samples.h"
#include "etl-stack-tree-private.h"
#include "etl-trace.h"

struct _EtlCallSamples
{
  gint ref_count;
  EtlStackTreeUnit unit;
  GStringChunk *chunk;
  GPtrArray *names;   /* id → interned name */
  GHashTable *ids;    /* interned name → id + 1 */
  GArray *frames;     /* guint32 ids of every distinct stack, back to back */
  GArray *stacks;     /* EtlCallStack */
  GArray *hashes;     /* guint32 per stack */
  guint32 *table;     /* open addressing: stack index + 1, 0 when free */
  guint table_size;   /* a power of two */
  guint64 total;
  guint64 n_samples;
};

/**
 * etl_call_samples_new:
 * @unit: what the weights count
 *
 * Returns: (transfer full): an empty set of samples (reference-counted:
 *   etl_call_samples_ref())
 */
EtlCallSamples *
etl_call_samples_new (EtlStackTreeUnit unit)
{
  EtlCallSamples *s = g_new0 (EtlCallSamples, 1);

  s->ref_count = 1;
  s->unit = unit;
  s->chunk = g_string_chunk_new (8192);
  s->names = g_ptr_array_new ();
  s->ids = g_hash_table_new (g_str_hash, g_str_equal);
  s->frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->stacks = g_array_new (FALSE, FALSE, sizeof (EtlCallStack));
  s->hashes = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->table_size = 1024;
  s->table = g_new0 (guint32, s->table_size);
  return s;
}

/**
 * etl_call_samples_ref:
 * @samples: samples
 *
 * Samples are read-only once handed to a view: a worker keeps its own
 * reference while it computes.
 *
 * Returns: (transfer full): @samples
 */
EtlCallSamples *
etl_call_samples_ref (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, NULL);
  g_atomic_int_inc (&samples->ref_count);
  return samples;
}

/**
 * etl_call_samples_unref:
 * @samples: (transfer full) (nullable): samples
 *
 * Drops a reference; the last frees the samples.
 */
void
etl_call_samples_unref (EtlCallSamples *samples)
{
  if (samples == NULL || !g_atomic_int_dec_and_test (&samples->ref_count))
    return;
  g_string_chunk_free (samples->chunk);
  g_ptr_array_unref (samples->names);
  g_hash_table_unref (samples->ids);
  g_array_unref (samples->frames);
  g_array_unref (samples->stacks);
  g_array_unref (samples->hashes);
  g_free (samples->table);
  g_free (samples);
}

/**
 * etl_call_samples_intern:
 * @samples: samples
 * @name: a frame name
 *
 * Returns: the id of @name in @samples (the same id for equal names; ids
 *   count from 0 in the order names were first interned)
 */
guint32
etl_call_samples_intern (EtlCallSamples *samples, const char *name)
{
  gpointer found;
  const char *copy;

  g_return_val_if_fail (samples != NULL && name != NULL, 0);
  found = g_hash_table_lookup (samples->ids, name);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  copy = g_string_chunk_insert_const (samples->chunk, name);
  g_ptr_array_add (samples->names, (gpointer) copy);
  g_hash_table_insert (samples->ids, (gpointer) copy, GUINT_TO_POINTER (samples->names->len));
  return samples->names->len - 1;
}

/**
 * etl_call_samples_get_name:
 * @samples: samples
 * @id: a name id from etl_call_samples_intern()
 *
 * Returns: (transfer none): the name, valid as long as @samples
 */
const char *
etl_call_samples_get_name (EtlCallSamples *samples, guint32 id)
{
  g_return_val_if_fail (samples != NULL && id < samples->names->len, NULL);
  return g_ptr_array_index (samples->names, id);
}

/**
 * etl_call_samples_get_n_names:
 * @samples: samples
 *
 * Returns: the number of distinct frame names (the ids are 0 to this − 1)
 */
guint
etl_call_samples_get_n_names (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, 0);
  return samples->names->len;
}

static guint32
hash_frames (const guint32 *frames, guint n)
{
  guint32 h = 2166136261u ^ n;

  for (guint k = 0; k < n; k++)
    h = (h ^ frames[k]) * 16777619u;
  return h ^ (h >> 15);
}

static void
grow_table (EtlCallSamples *s)
{
  guint size = s->table_size * 2;
  guint32 *table = g_new0 (guint32, size);

  for (guint i = 0; i < s->stacks->len; i++)
    {
      guint slot = g_array_index (s->hashes, guint32, i) & (size - 1);

      while (table[slot] != 0)
        slot = (slot + 1) & (size - 1);
      table[slot] = i + 1;
    }
  g_free (s->table);
  s->table = table;
  s->table_size = size;
}

/* The stack equal to @frames, made (with zero weight) when missing. */
static EtlCallStack *
find_stack (EtlCallSamples *s, const guint32 *frames, guint n)
{
  guint32 h = hash_frames (frames, n);
  guint slot = h & (s->table_size - 1);
  EtlCallStack stack = { 0 };

  for (; s->table[slot] != 0; slot = (slot + 1) & (s->table_size - 1))
    {
      guint i = s->table[slot] - 1;
      EtlCallStack *st = &g_array_index (s->stacks, EtlCallStack, i);

      if (g_array_index (s->hashes, guint32, i) == h && st->n_frames == n
          && (n == 0 || memcmp (&g_array_index (s->frames, guint32, st->offset), frames, n * sizeof (guint32)) == 0))
        return st;
    }
  stack.offset = s->frames->len;
  stack.n_frames = n;
  stack.first = G_MAXINT64;
  stack.last = G_MININT64;
  if (n > 0)
    g_array_append_vals (s->frames, frames, n);
  g_array_append_val (s->stacks, stack);
  g_array_append_val (s->hashes, h);
  s->table[slot] = s->stacks->len;
  if (s->stacks->len * 2 > s->table_size)
    grow_table (s);
  return &g_array_index (s->stacks, EtlCallStack, s->stacks->len - 1);
}

/**
 * etl_call_samples_add:
 * @samples: samples
 * @frames: (array length=n_frames): name ids (etl_call_samples_intern()),
 *   outermost first
 * @n_frames: the number of @frames; 0 for a sample without a stack
 * @weight: the sample's weight, in the samples' unit
 * @filetime: the sample's FILETIME
 *
 * Adds one sample.
 */
void
etl_call_samples_add (EtlCallSamples *samples, const guint32 *frames, guint n_frames, guint64 weight,
                      gint64 filetime)
{
  EtlCallStack from = { 0, n_frames, weight, 1, filetime, filetime };

  etl_call_samples_add_stack (samples, frames, n_frames, &from);
}

/**
 * etl_call_samples_add_stack:
 * @samples: samples
 * @frames: (array length=n_frames): name ids of @samples, outermost first
 * @n_frames: the number of @frames
 * @from: the weight, count, first and last time to add (its @offset and
 *   @n_frames are ignored)
 *
 * Adds the samples of a stack at once (a view's transformed copy of another
 * set's stack).
 */
void
etl_call_samples_add_stack (EtlCallSamples *samples, const guint32 *frames, guint n_frames, const EtlCallStack *from)
{
  EtlCallStack *st;

  g_return_if_fail (samples != NULL && (frames != NULL || n_frames == 0) && from != NULL);
  st = find_stack (samples, frames, n_frames);
  st->weight += from->weight;
  st->count += from->count;
  st->first = MIN (st->first, from->first);
  st->last = MAX (st->last, from->last);
  samples->total += from->weight;
  samples->n_samples += from->count;
}

/**
 * etl_call_samples_get_n_stacks:
 * @samples: samples
 *
 * Returns: the number of distinct stacks
 */
guint
etl_call_samples_get_n_stacks (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, 0);
  return samples->stacks->len;
}

/**
 * etl_call_samples_get_stack:
 * @samples: samples
 * @index: 0 to etl_call_samples_get_n_stacks() − 1, in the order stacks
 *   were first seen
 * @frames: (out) (transfer none) (array): its name ids, outermost first,
 *   valid until the next add
 *
 * Returns: (transfer none): the stack
 */
const EtlCallStack *
etl_call_samples_get_stack (EtlCallSamples *samples, guint index, const guint32 **frames)
{
  const EtlCallStack *st;

  g_return_val_if_fail (samples != NULL && index < samples->stacks->len && frames != NULL, NULL);
  st = &g_array_index (samples->stacks, EtlCallStack, index);
  *frames = (const guint32 *) samples->frames->data + st->offset;
  return st;
}

/**
 * etl_call_samples_get_total:
 * @samples: samples
 *
 * Returns: the summed weight of every sample
 */
guint64
etl_call_samples_get_total (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, 0);
  return samples->total;
}

/**
 * etl_call_samples_get_n_samples:
 * @samples: samples
 *
 * Returns: how many samples were added
 */
guint64
etl_call_samples_get_n_samples (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, 0);
  return samples->n_samples;
}

/**
 * etl_call_samples_get_unit:
 * @samples: samples
 *
 * Returns: what the weights count
 */
EtlStackTreeUnit
etl_call_samples_get_unit (EtlCallSamples *samples)
{
  g_return_val_if_fail (samples != NULL, ETL_STACK_TREE_UNIT_SAMPLES);
  return samples->unit;
}

typedef struct
{
  EtlCallSamples *samples;
  GArray *path; /* guint32 name ids */
} CpuWalk;

/* Consecutive frames of one module without symbols (no '!') are one frame;
 * those of one function stay apart. */
static void
add_cpu_frame (gpointer data, const char *name)
{
  CpuWalk *w = data;
  guint32 id = etl_call_samples_intern (w->samples, name);

  if (w->path->len > 0 && g_array_index (w->path, guint32, w->path->len - 1) == id && strchr (name, '!') == NULL)
    return;
  g_array_append_val (w->path, id);
}

static void
add_cpu_sample (gpointer data, gint64 filetime)
{
  CpuWalk *w = data;

  etl_call_samples_add (w->samples, (const guint32 *) w->path->data, w->path->len, 1, filetime);
  g_array_set_size (w->path, 0);
}

/**
 * etl_call_samples_new_cpu:
 * @stacks: the trace's stacks; the names follow its namer
 *   (etl_stacks_set_namer()) at the time of the call
 * @from_filetime: start of the range, FILETIME, inclusive
 * @to_filetime: end of the range, FILETIME, exclusive
 * @cancellable: (nullable): checked every 4096 records
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * The PerfInfo SampledProfile records of the range that have a stack, each
 * a sample of weight 1 at its time, its frames named as the section
 * description says (StackWalk_Event's Stack[] is innermost first; the
 * samples are outermost first).  Consecutive frames of one module without
 * symbols are one frame, as in etl_stack_tree_new(); consecutive frames of
 * one function stay apart (recursion is what the butterfly view shows).
 * Runs in the calling thread (meant for a worker).
 *
 * Returns: (transfer full) (nullable): the samples, in
 *   %ETL_STACK_TREE_UNIT_SAMPLES; %NULL when cancelled
 */
EtlCallSamples *
etl_call_samples_new_cpu (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime, GCancellable *cancellable,
                          GError **error)
{
  g_autoptr (EtlCallSamples) s = NULL;
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  const EtlStackWalkFuncs funcs = { add_cpu_frame, add_cpu_sample };
  CpuWalk walk;

  g_return_val_if_fail (stacks != NULL, NULL);

  s = etl_call_samples_new (ETL_STACK_TREE_UNIT_SAMPLES);
  walk = (CpuWalk){ s, path };
  if (!etl_stack_tree_walk_samples (stacks, from_filetime, to_filetime, NULL, 0, &funcs, &walk, cancellable, error))
    return NULL;
  return g_steal_pointer (&s);
}
