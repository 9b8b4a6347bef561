/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-open-private.h: the open's scan and merge, shared by
 * etl-trace-scan.c and etl-trace-merge.c (see "Parallel open" there).
 */
#pragma once

#include "etl-trace-private.h"

G_BEGIN_DECLS

/*
 * An open-addressing set of process ids, each with its index in insertion
 * order (at most MAX_PIDS; past that etl_pid_set_intern() says PID16_REREAD).
 * Own code instead of GHashTable: it is probed once per record, and a slot
 * is one 64-bit word (pid << 32 | index + 1; 0 = empty).
 */
typedef struct
{
  guint64 *slots;
  guint32 mask;
  guint32 n;
  guint32 *pids;        /* index -> pid */
  guint32 last_pid;     /* one-entry cache: records of a stream repeat PIDs */
  guint16 last_index;
  gboolean has_last;
} PidSet;

typedef struct
{
  guint buf;            /* current buffer (index into trace->buffers) */
  guint end_buf;        /* one past this stream's last buffer */
  const guint8 *data;   /* current buffer's bytes, or NULL before loading */
  gsize len;
  GBytes *hold;
  gsize pos;            /* offset of the next record to decode */
  /* the record at the head of this stream */
  gint64 filetime;
  guint32 rec_offset;
  guint32 pid;
  guint16 provider;
  guint8 header_type;
  guint8 feed;          /* feed kind of the head record (etl-trace-hooks.c), 0 = none */
  guint16 file;
  guint16 cpu;
  /* the last provider GUID this stream interned (records of a stream repeat providers) */
  gboolean has_last_guid;
  guint16 last_provider;
  EtlGuid last_guid;
} Cursor;

/* Loser tree over k streams (Knuth, TAOCP 5.4.1): tree[0] is the winner,
 * tree[1..k-1] the loser of each match; k = leaves, a power of two.  The keys
 * sit together, away from the cursors: (FILETIME, buffer << 32 | offset). */
typedef struct
{
  guint *tree;
  guint k;
  gint64 *key_time;     /* G_MAXINT64 for an exhausted or padding leaf */
  guint64 *key_pos;
} LoserTree;

typedef struct
{
  EtlTrace *trace;
  Cursor *cursors;
  guint n_cursors;
  LoserTree lt;
  EtlIndexEntry *index;
  guint64 n_index;
  guint64 cap_index;
  PidSet pids;
  guint64 bytes_total;
  guint64 bytes_done;
  EtlProgressFunc progress;
  gpointer progress_data;
  double last_fraction;
  GCancellable *cancellable;
  gboolean cancelled;
  guint64 n_loaded;
  guint32 *hook_cache;  /* HookId -> provider id + 1, | HOOK_RT_LOST; 0 = not looked up yet */
} Merge;

#define HOOK_RT_LOST 0x80000000u
#define HOOK_FEED_SHIFT 24      /* bits 24..27 of a hook_cache value: the feed kind */
#define HOOK_FEED_MASK  0x0F000000u

typedef struct
{
  gint64 ft;            /* FILETIME */
  guint64 pos;          /* buffer << 32 | record offset */
} MergeKey;

/* Where something happened in the serial walk's order (see merge_serial():
 * a stream advances right after its previous record was merged). */
enum
{
  ORDER_START,          /* before the stream's first record: key.pos = stream */
  ORDER_AFTER,          /* after the record with this key was merged */
  ORDER_SEGMENT,        /* before the segment's first record; resolved after the scan */
};

typedef struct
{
  guint8 cls;
  MergeKey key;
} OrderRef;

typedef struct
{
  EtlLoss loss;
  OrderRef ref;
} LossItem;

typedef struct
{
  GError *error;
  OrderRef ref;
} ProblemItem;

/* A run of adjacent buffers of one stream, scanned by one worker. */
typedef struct
{
  guint stream;
  guint file;
  guint first_buf;
  guint end_buf;
  /* what the scan found */
  GPtrArray *chunks;            /* EtlIndexEntry[CHUNK_ENTRIES], the last one partly filled */
  guint64 n;                    /* entries */
  MergeKey first_key;
  MergeKey last_key;
  gint64 first_nonzero;         /* first FILETIME that is not 0, or 0 */
  gboolean sorted;              /* FILETIMEs never decrease */
  guint64 n_records;
  guint64 n_skipped;
  guint64 by_type[ETL_N_HEADER_TYPES];
  gboolean tables;              /* the tables below exist */
  PidSet pids;
  GArray *providers;            /* EtlGuid by local id */
  GArray *provider_refs;        /* OrderRef of each local id's first record */
  GByteArray *provider_class;   /* hook << 5 | class by local id (etl_trace_hooks_classify_provider()) */
  GHashTable *provider_ids;     /* EtlGuid* -> local id + 1 */
  gboolean has_last_guid;
  guint16 last_provider;
  EtlGuid last_guid;
  GArray *losses;               /* LossItem */
  GArray *problems;             /* ProblemItem */
  guint64 n_problems_dropped;
  guint64 keep_bytes[ETL_TRACE_MAX_HOOK_KINDS + 1];  /* Size sum of its records of each kept list */
  /* filled after the scan */
  OrderRef start_ref;
  guint16 *pid_map;             /* local PID index -> trace PID index */
  guint16 *provider_map;        /* local provider id -> trace provider id */
} Segment;

/* One chunk of a stream's temporary entries, as the merge reads it. */
typedef struct
{
  EtlIndexEntry *data;          /* NULL once released */
  guint32 n;
  guint32 seg;
  gint remaining;               /* atomic: entries no range has read yet */
} StreamChunk;

typedef struct
{
  StreamChunk *chunks;
  guint64 *base;                /* stream index of each chunk's first entry */
  guint n_chunks;
  guint64 n;
} Stream;

typedef struct
{
  EtlTrace *trace;
  guint n_threads;
  Segment *segs;
  guint n_segs;
  Stream *streams;
  guint n_streams;
  gint next;                    /* atomic: the next segment or range to take */
  gint cancelled;               /* atomic */
  GCancellable *cancellable;
  /* progress, in units of 16 bytes (a gsize counts them atomically) */
  gsize units_total;
  gsize units_done;             /* atomic */
  gsize merge_total;            /* index entries to merge */
  gsize merge_done;             /* atomic */
  EtlProgressFunc progress;
  gpointer progress_data;
  double last_fraction;
  /* merge */
  EtlIndexEntry *index;
  guint n_ranges;
  guint64 *bounds;              /* (n_ranges + 1) × n_streams stream indexes */
  guint64 *range_out;           /* n_ranges + 1 output positions */
  GArray **range_feed;          /* per range and list (trace->n_lists): index positions (guint64) of feed records */
} Open;

#define CHUNK_BYTES (CHUNK_ENTRIES * sizeof (EtlIndexEntry))


static inline gint
compare_merge_keys (const MergeKey *x, const MergeKey *y)
{
  if (x->ft != y->ft)
    return x->ft < y->ft ? -1 : 1;
  return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

/* etl-trace-scan.c */
void etl_pid_set_init (PidSet *set);
void etl_pid_set_clear (PidSet *set);
guint16 etl_pid_set_intern (PidSet *set, guint32 pid);
gboolean etl_trace_cursor_advance (Merge *m, Cursor *c);
void etl_trace_chunk_free (EtlIndexEntry *chunk);
void etl_trace_segment_clear (Segment *sg);
void etl_trace_scan_job (Open *o, gboolean caller);
void etl_trace_open_gather (Open *o);

/* etl-trace-merge.c */
void etl_trace_open_report_progress (Open *o);

G_END_DECLS
