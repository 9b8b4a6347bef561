/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-activities-read.c: etl_activities_new(), the pass over a trace that
 * feeds its Start and Stop events to the pairing of etl-activities.c.
 *
 * Reader threads (one fewer than processors, at least one, at most
 * MAX_READERS) take blocks of
 * BLOCK_RECORDS consecutive records in turn: the index gives each record's
 * header type without touching the file, of EVENT_HEADER records the
 * opcode byte is read (etl_trace_get_opcode()), and the Starts and Stops
 * are read whole and kept as items (their header fields,
 * the RelatedActivityId item, and for a Start its task name and first string
 * field, etl-activity-names.c) in the block's slot, their names in the
 * block's text.  The calling thread takes the blocks in record order and
 * feeds the items to the builder, a few items ahead prefetching the
 * ActivityId table slot each will look at; while the block it needs is not
 * yet read, it reads the next free one itself, so the pairing and the
 * reading share the processors without a thread more than they have.
 * 2 × (readers + 1) + 1 slots are in
 * flight, so the memory the pass holds besides its result is bounded
 * (about 1.5 MiB a slot).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-activities-private.h"
#include "etl-activity-names-private.h"

#include <string.h>

#include "etl-record.h"

#define OPCODE_START  1
#define OPCODE_STOP   2
#define BLOCK_RECORDS 8192 /* records a reader reads at a time (and the most items a block holds) */
#define MAX_READERS   4
#define CANCEL_BLOCKS 8
#define PREFETCH_AHEAD 6   /* items */
#define NO_TEXT       G_MAXUINT32

typedef struct
{
  guint64 record;
  gint64 filetime;
  guint32 pid, tid;
  guint32 task_name;    /* offset in the block's text, NO_TEXT when none */
  guint32 first_string; /* likewise */
  EtlGuid provider;
  EtlGuid activity_id;
  EtlGuid related;
  guint16 task;
  guint16 event_id;
  guint8 version;
  guint8 opcode;
  guint8 related_state;
} Item;

typedef struct
{
  guint n;
  gboolean filled;
  GString *text; /* the items' names, NUL-separated */
  Item items[BLOCK_RECORDS];
} Block;

typedef struct
{
  EtlTrace *trace;
  GCancellable *cancellable;
  guint64 n_records;
  guint64 n_blocks;
  Block *slots;
  guint n_slots;
  GMutex lock;
  GCond cond;
  guint64 next_block; /* the next block a reader takes */
  guint64 consumed;   /* blocks the builder has taken */
  gboolean stop;
} Pass;

static guint32
add_text (GString *text, const char *s)
{
  guint32 at;

  if (s[0] == '\0')
    return NO_TEXT;
  at = (guint32) text->len;
  g_string_append_len (text, s, (gssize) strlen (s) + 1);
  return at;
}

/* Fills @it from record @i, a Start or Stop by its opcode byte; FALSE when
 * the record cannot be read after all. */
static gboolean
read_start_stop (EtlTrace *trace, EtlActivityNames *names, GString *text, guint64 i, Item *it)
{
  g_auto (EtlRecord) r = { 0 };
  const guint8 *related;
  gsize related_len;

  if (!etl_trace_get_record (trace, i, &r, NULL) || (r.opcode != OPCODE_START && r.opcode != OPCODE_STOP)
      || !r.has_pid)
    return FALSE;
  it->record = i;
  it->filetime = r.filetime;
  it->pid = r.pid;
  it->tid = r.tid;
  it->provider = r.provider;
  it->task = r.task;
  it->event_id = r.event_id;
  it->version = r.version;
  it->opcode = r.opcode;
  it->activity_id = r.activity_id;
  it->related_state = 0;
  memset (&it->related, 0, sizeof it->related);
  /* EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID: a GUID (evntcons.h); the item
   * walk bounds-checked its size against the record. */
  if (etl_record_find_ext_item (&r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &related, &related_len))
    {
      if (related_len == 16)
        {
          etl_guid_read (&it->related, related);
          it->related_state = 1;
        }
      else
        it->related_state = 2;
    }
  it->task_name = it->first_string = NO_TEXT;
  if (r.opcode == OPCODE_START)
    {
      char task_name[ETL_ACTIVITY_TASK_NAME_MAX], first[ETL_ACTIVITY_FIRST_STRING_MAX];

      /* Stops are named only when unmatched (etl_activities_name_stops()). */
      etl_activity_names_read (names, &r, task_name, first);
      it->task_name = add_text (text, task_name);
      it->first_string = add_text (text, first);
    }
  return TRUE;
}

/* Fills @it from record @i when it is a Start or Stop; FALSE when not. */
static inline gboolean
read_item (EtlTrace *trace, EtlActivityNames *names, GString *text, guint64 i, Item *it)
{
  guint8 header_type = etl_trace_get_header_type (trace, i), opcode;

  /* The index says the header type, one byte the opcode; only the Starts
   * and Stops of EVENT_HEADER records are read whole. */
  if ((header_type != ETL_HEADER_TYPE_EVENT_HEADER32 && header_type != ETL_HEADER_TYPE_EVENT_HEADER64)
      || !etl_trace_get_opcode (trace, i, &opcode) || (opcode != OPCODE_START && opcode != OPCODE_STOP))
    return FALSE;
  return read_start_stop (trace, names, text, i, it);
}

/* Reads block @j into its slot and marks it filled; FALSE (and the pass
 * stopped) when the pass is cancelled. */
static gboolean
read_block (Pass *pass, EtlActivityNames *names, guint64 j)
{
  Block *block = &pass->slots[j % pass->n_slots];
  guint64 end;

  block->n = 0;
  g_string_truncate (block->text, 0);
  if (j % CANCEL_BLOCKS == 0 && g_cancellable_is_cancelled (pass->cancellable))
    {
      g_mutex_lock (&pass->lock);
      pass->stop = TRUE;
      g_cond_broadcast (&pass->cond);
      g_mutex_unlock (&pass->lock);
      return FALSE;
    }
  end = MIN ((j + 1) * BLOCK_RECORDS, pass->n_records);
  for (guint64 i = j * BLOCK_RECORDS; i < end; i++)
    if (read_item (pass->trace, names, block->text, i, &block->items[block->n]))
      block->n++;
  g_mutex_lock (&pass->lock);
  block->filled = TRUE;
  g_cond_broadcast (&pass->cond);
  g_mutex_unlock (&pass->lock);
  return TRUE;
}

/* Whether a reader may take the next block: one is left and its slot is
 * free.  Called with the lock held. */
static gboolean
can_take (const Pass *pass)
{
  return pass->next_block < pass->n_blocks && pass->next_block < pass->consumed + pass->n_slots;
}

static gpointer
reader_run (gpointer data)
{
  Pass *pass = data;
  EtlActivityNames *names = etl_activity_names_new (pass->trace);

  for (;;)
    {
      guint64 j;

      g_mutex_lock (&pass->lock);
      while (!pass->stop && pass->next_block < pass->n_blocks && !can_take (pass))
        g_cond_wait (&pass->cond, &pass->lock);
      if (pass->stop || pass->next_block >= pass->n_blocks)
        {
          g_mutex_unlock (&pass->lock);
          break;
        }
      j = pass->next_block++;
      g_mutex_unlock (&pass->lock);
      if (!read_block (pass, names, j))
        break;
    }
  etl_activity_names_free (names);
  return NULL;
}

static void
item_event (const Block *block, const Item *it, EtlActivityEvent *e)
{
  e->record = it->record;
  e->filetime = it->filetime;
  e->pid = it->pid;
  e->tid = it->tid;
  e->provider = it->provider;
  e->task = it->task;
  e->event_id = it->event_id;
  e->version = it->version;
  e->opcode = it->opcode;
  e->related_state = it->related_state;
  e->activity_id = it->activity_id;
  e->related = it->related;
  e->task_name = it->task_name != NO_TEXT ? block->text->str + it->task_name : NULL;
  e->first_string = it->first_string != NO_TEXT ? block->text->str + it->first_string : NULL;
}

static void
feed_block (EtlActivitiesBuilder *b, const Block *block)
{
  EtlActivityEvent e;

  for (guint k = 0; k < block->n; k++)
    {
      if (k + PREFETCH_AHEAD < block->n && !etl_guid_is_zero (&block->items[k + PREFETCH_AHEAD].activity_id))
        {
          item_event (block, &block->items[k + PREFETCH_AHEAD], &e);
          etl_activities_builder_prefetch (b, &e);
        }
      item_event (block, &block->items[k], &e);
      etl_activities_builder_add (b, &e);
    }
}

/**
 * etl_activities_new:
 * @trace: a trace
 * @cancellable: (nullable): checked every few blocks of 8,192 records
 * @error: return location for a #GError
 *
 * Pairs the Start and Stop events of @trace into activities (see
 * etl-activities.c's section overview for the rules: TraceEvent's
 * StartStopActivityComputer, evntcons.h's EVENT_HEADER.ActivityId and
 * RELATEDACTIVITYID item).  Runs in the calling thread (meant for a worker)
 * plus reader threads of its own, joined before it returns.
 *
 * Returns: (transfer full) (nullable): the activities (none when the trace
 *   has no Start or Stop), or %NULL with %G_IO_ERROR_CANCELLED
 */
EtlActivities *
etl_activities_new (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  EtlActivitiesBuilder *b;
  EtlActivities *acts;
  Pass pass = { 0 };
  GThread *readers[MAX_READERS];
  guint n_readers;
  EtlActivityNames *own_names;
  gboolean cancelled = FALSE;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  b = etl_activities_builder_new ();
  pass.trace = trace;
  pass.cancellable = cancellable;
  pass.n_records = etl_trace_get_n_records (trace);
  pass.n_blocks = (pass.n_records + BLOCK_RECORDS - 1) / BLOCK_RECORDS;
  /* This thread reads too while it waits (below): one reader fewer than
   * processors keeps them all busy without a thread more than they run. */
  n_readers = CLAMP (g_get_num_processors () - 1, 1, MAX_READERS);
  n_readers = (guint) MIN ((guint64) n_readers, MAX (pass.n_blocks, 1));
  pass.n_slots = 2 * (n_readers + 1) + 1;
  pass.slots = g_new (Block, pass.n_slots);
  for (guint k = 0; k < pass.n_slots; k++)
    {
      pass.slots[k].filled = FALSE;
      pass.slots[k].n = 0;
      pass.slots[k].text = g_string_sized_new (64 * 1024);
    }
  g_mutex_init (&pass.lock);
  g_cond_init (&pass.cond);
  for (guint k = 0; k < n_readers; k++)
    readers[k] = g_thread_new ("etl-activities-reader", reader_run, &pass);

  own_names = etl_activity_names_new (trace);
  for (guint64 j = 0; j < pass.n_blocks && !cancelled; j++)
    {
      Block *block = &pass.slots[j % pass.n_slots];

      g_mutex_lock (&pass.lock);
      while (!block->filled && !pass.stop)
        {
          /* Waiting for block j: read the next free one meanwhile, so that
           * this thread and the readers together keep every processor busy. */
          if (can_take (&pass))
            {
              guint64 k = pass.next_block++;

              g_mutex_unlock (&pass.lock);
              read_block (&pass, own_names, k);
              g_mutex_lock (&pass.lock);
            }
          else
            g_cond_wait (&pass.cond, &pass.lock);
        }
      cancelled = pass.stop;
      g_mutex_unlock (&pass.lock);
      if (cancelled)
        break;
      feed_block (b, block);
      g_mutex_lock (&pass.lock);
      block->filled = FALSE;
      pass.consumed = j + 1;
      g_cond_broadcast (&pass.cond);
      g_mutex_unlock (&pass.lock);
      if (j % CANCEL_BLOCKS == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_mutex_lock (&pass.lock);
          pass.stop = cancelled = TRUE;
          g_cond_broadcast (&pass.cond);
          g_mutex_unlock (&pass.lock);
        }
    }
  for (guint k = 0; k < n_readers; k++)
    g_thread_join (readers[k]);
  etl_activity_names_free (own_names);
  g_mutex_clear (&pass.lock);
  g_cond_clear (&pass.cond);
  for (guint k = 0; k < pass.n_slots; k++)
    g_string_free (pass.slots[k].text, TRUE);
  g_free (pass.slots);

  acts = etl_activities_builder_finish (b, etl_trace_get_last_filetime (trace));
  if (cancelled)
    {
      etl_activities_unref (acts);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  etl_activities_name_stops (acts, trace);
  return acts;
}
