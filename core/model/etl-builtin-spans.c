/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-builtin-spans
 * @title: Built-in intervals
 * @short_description: GCs and their pauses, disk and file I/O, process and thread lifetimes
 *
 * etl_builtin_spans_new() reads, in one pass in record order, the records
 * whose begin and end the kernel and the .NET runtime define, and pairs
 * them (the payload layouts are etl-span-payloads.c's):
 *
 * - GC: Microsoft-Windows-DotNETRuntime GCStart (event 1) to GCEnd (event
 *   2) of the same process and Count.  A GCStart whose process and Count
 *   are those of a GC still open is the same GC logged again: the runtime
 *   of net.4.5.2.x64.etl logs GCStart version 1 and version 2 back to back
 *   (5 µs apart, same Count, Depth, Reason and Type, seen in `dump`), and
 *   TraceEvent's baseline counts 528 GC/Start for 264 GC/Stop.  The rule
 *   keeps the first record (its time and index) and counts the others in
 *   @duplicate_gc_starts.
 * - GC pause: GCSuspendEEBegin (event 9) to GCRestartEEEnd (event 3) of the
 *   same process, as PerfView's GCStats measures a pause.  Nesting: a GC
 *   that starts while a pause of its process is open is inside it (a
 *   blocking GC: suspend, GC, restart); a pause that begins while a GC is
 *   open is inside the innermost one (a background GC's pauses).
 * - Disk I/O: a DiskIo ReadInit, WriteInit or FlushInit (12, 13, 15) to the
 *   completion (Read 10, Write 11, FlushBuffers 14) of the same Irp; without
 *   an Init the completion's HighResResponseTime (ticks of the file's clock,
 *   as TraceEvent's ElapsedTimeMSec) gives the start, flagged
 *   %ETL_BUILTIN_FROM_ELAPSED.  The process and thread are the Init's, else
 *   IssuingThreadId's (version 3), else the completion header's.
 * - File I/O: a FileIo operation (Create 64 … FSControl 75, DirEnum 72,
 *   DirNotify 77) to the OpEnd (76) of the same IrpPtr.
 * - Process: Start (1) or DCStart (3) to End (2) of the same ProcessId; a
 *   DCEnd (4) leaves it open (%ETL_BUILTIN_RUNDOWN_END).  Thread: the same
 *   opcodes by TThreadId; a thread is inside its process's open span.
 *   Thread id 0 (the Idle process's threads, one a processor, all 0 in
 *   net.4.5.2.x64.etl's rundown) is left out.
 *
 * A begin whose key is still open replaces the open span, which stays open
 * and is flagged %ETL_BUILTIN_ABANDONED (IRPs and ids are reused; a lost end
 * must not pair with a later begin).  An end without an open begin is
 * counted and listed.  Spans without an end last to the trace's last
 * record, flagged %ETL_BUILTIN_OPEN.
 *
 * Memory: one #EtlBuiltinSpan (96 bytes) a span, plus 4 bytes of links
 * while building; the open spans of each kind sit in an open-addressing
 * table of at most %ETL_BUILTIN_SPANS_MAX_PENDING entries: a trace of
 * millions of Inits or Starts that never end keeps that many open spans of
 * a kind and counts the rest in @dropped.  Every record costs O(1) expected
 * time.  etl_builtin_spans_new() (etl-builtin-spans-read.c) reads the trace
 * and feeds this file's builder in record order; it may be cancelled.  The
 * result is read-only and may be shared between threads.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-builtin-spans-private.h"

#include <stdlib.h>
#include <string.h>

#include "etl-record.h"
#include "etl-span-payloads.h"

#define NONE         ETL_BUILTIN_NONE
#define MAX_PENDING  ETL_BUILTIN_SPANS_MAX_PENDING
#define MAX_SPANS    (G_MAXUINT32 - 1)
#define STILL_ACTIVE 259
#define MAX_NAMED_GENERATION 9

/* Microsoft-Windows-DotNETRuntime's GC events (ClrEtwAll.man). */
enum
{
  CLR_GC_START = 1,
  CLR_GC_END = 2,
  CLR_GC_RESTART_EE_END = 3,
  CLR_GC_SUSPEND_EE_BEGIN = 9,
};

/* Kernel event types of Process and Thread (evntrace.h EVENT_TRACE_TYPE_*). */
enum
{
  TYPE_START = 1,
  TYPE_END = 2,
  TYPE_DC_START = 3,
  TYPE_DC_END = 4,
};


struct _EtlBuiltinSpans
{
  gatomicrefcount ref_count;
  EtlBuiltinSpansCounts counts;
  GArray *spans;      /* EtlBuiltinSpan, in start order */
  GArray *unmatched;  /* EtlBuiltinStop, in record order */
  GPtrArray *strings; /* owned */
};

/* ------------------------------------------------------------------------ */
/* u64 → span index, open addressing                                        */

typedef struct
{
  guint64 key;
  guint32 idx1; /* span index + 1, 0 = empty */
} Slot;

typedef struct
{
  Slot *slots;
  guint32 mask;
  guint32 len;
} Map;

static void
map_init (Map *m)
{
  m->mask = 63;
  m->len = 0;
  m->slots = g_new0 (Slot, m->mask + 1);
}

static inline guint32
mix64 (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xC4CEB9FE1A85EC53);
  x ^= x >> 33;
  return (guint32) x;
}

/* The slot of @key, or G_MAXUINT32. */
static guint32
map_find (const Map *m, guint64 key)
{
  for (guint32 p = mix64 (key) & m->mask;; p = (p + 1) & m->mask)
    {
      if (m->slots[p].idx1 == 0)
        return G_MAXUINT32;
      if (m->slots[p].key == key)
        return p;
    }
}

static void
map_insert (Map *m, guint64 key, guint32 idx)
{
  guint32 p;

  if (2 * (m->len + 1) > m->mask + 1)
    {
      Slot *old = m->slots;
      guint32 cap = m->mask + 1;

      m->mask = 2 * cap - 1;
      m->slots = g_new0 (Slot, (gsize) m->mask + 1);
      for (guint32 k = 0; k < cap; k++)
        if (old[k].idx1 != 0)
          {
            for (p = mix64 (old[k].key) & m->mask; m->slots[p].idx1 != 0; p = (p + 1) & m->mask)
              ;
            m->slots[p] = old[k];
          }
      g_free (old);
    }
  for (p = mix64 (key) & m->mask; m->slots[p].idx1 != 0; p = (p + 1) & m->mask)
    ;
  m->slots[p].key = key;
  m->slots[p].idx1 = idx + 1;
  m->len++;
}

/* Removes slot @p, shifting back its probe run (no tombstones). */
static void
map_remove_at (Map *m, guint32 p)
{
  guint32 hole = p;

  for (guint32 q = (p + 1) & m->mask; m->slots[q].idx1 != 0; q = (q + 1) & m->mask)
    {
      guint32 home = mix64 (m->slots[q].key) & m->mask;

      if (((q - home) & m->mask) >= ((q - hole) & m->mask))
        {
          m->slots[hole] = m->slots[q];
          hole = q;
        }
    }
  m->slots[hole].idx1 = 0;
  m->len--;
}

/* Removes @key and gives its span, or NONE. */
static guint32
map_take (Map *m, guint64 key)
{
  guint32 p = map_find (m, key), idx;

  if (p == G_MAXUINT32)
    return NONE;
  idx = m->slots[p].idx1 - 1;
  map_remove_at (m, p);
  return idx;
}

static guint32
map_get (const Map *m, guint64 key)
{
  guint32 p = map_find (m, key);

  return p == G_MAXUINT32 ? NONE : m->slots[p].idx1 - 1;
}

/* ------------------------------------------------------------------------ */
/* The builder                                                              */

enum
{
  MAP_GC,      /* pid << 32 | Count */
  MAP_PAUSE,   /* pid */
  MAP_DISK,    /* Irp */
  MAP_FILE,    /* IrpPtr */
  MAP_PROCESS, /* ProcessId */
  MAP_THREAD,  /* TThreadId */
  MAP_GC_TOP,  /* pid → the innermost open GC (links chain the older ones) */
  N_MAPS
};

struct _EtlSpansBuilder
{
  guint kinds;
  EtlBuiltinSpansCounts counts;
  GArray *spans;     /* EtlBuiltinSpan */
  GArray *links;     /* guint32: a GC's older open GC in its process */
  GArray *unmatched; /* EtlBuiltinStop */
  GHashTable *string_ids; /* string → index + 1 */
  GPtrArray *strings;
  Map maps[N_MAPS];
};

static guint32
intern (EtlSpansBuilder *b, const char *s)
{
  gpointer v = g_hash_table_lookup (b->string_ids, s);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  copy = g_strdup (s);
  g_ptr_array_add (b->strings, copy);
  g_hash_table_insert (b->string_ids, copy, GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

/*
 * etl_spans_builder_new: (private, etl-builtin-spans-private.h)
 * @kinds: the wanted kinds, bit (1 << #EtlBuiltinKind) each
 *
 * Returns: (transfer full): a builder; feed it with etl_spans_builder_add()
 */
EtlSpansBuilder *
etl_spans_builder_new (guint kinds)
{
  EtlSpansBuilder *b = g_new0 (EtlSpansBuilder, 1);

  b->kinds = kinds & ETL_BUILTIN_KINDS_ALL;
  b->spans = g_array_new (FALSE, FALSE, sizeof (EtlBuiltinSpan));
  b->links = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->unmatched = g_array_new (FALSE, FALSE, sizeof (EtlBuiltinStop));
  b->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b->strings = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < N_MAPS; k++)
    map_init (&b->maps[k]);
  return b;
}

static inline EtlBuiltinSpan *
span_at (EtlSpansBuilder *b, guint32 idx)
{
  return &g_array_index (b->spans, EtlBuiltinSpan, idx);
}

/* A new open span begun by @r, or NONE when a cap dropped it. */
static guint32
span_new (EtlSpansBuilder *b, const EtlSpanRecord *r, EtlBuiltinKind kind, guint32 name, guint32 pid, guint32 tid)
{
  EtlBuiltinSpan s;
  guint32 none = NONE;

  if (b->spans->len >= MAX_SPANS)
    {
      b->counts.dropped++;
      return NONE;
    }
  memset (&s, 0, sizeof s);
  s.start = s.stop = r->filetime;
  s.start_record = r->record;
  s.stop_record = ETL_BUILTIN_NO_RECORD;
  s.pid = pid;
  s.tid = tid;
  s.parent = NONE;
  s.name = name;
  s.kind = (guint8) kind;
  s.op = r->opcode;
  s.flags = ETL_BUILTIN_OPEN;
  g_array_append_val (b->spans, s);
  g_array_append_val (b->links, none);
  return b->spans->len - 1;
}

/* Ends span @idx at @r. */
static void
span_end (EtlSpansBuilder *b, guint32 idx, const EtlSpanRecord *r)
{
  EtlBuiltinSpan *s = span_at (b, idx);

  s->flags &= (guint16) ~ETL_BUILTIN_OPEN;
  s->stop = r->filetime;
  s->stop_record = r->record;
  if (s->stop < s->start)
    {
      s->stop = s->start;
      b->counts.out_of_order++;
    }
  b->counts.paired[s->kind]++;
}

/* Puts span @idx under @key of @map; an open span there is abandoned.
 * FALSE (and @idx dropped: its kind has too many open) past MAX_PENDING. */
static gboolean
pend (EtlSpansBuilder *b, guint map, EtlBuiltinKind kind, guint64 key, guint32 idx)
{
  guint32 old = map_take (&b->maps[map], key);

  if (old != NONE)
    {
      span_at (b, old)->flags |= ETL_BUILTIN_ABANDONED;
      b->counts.abandoned[kind]++;
    }
  if (b->maps[map].len >= MAX_PENDING)
    {
      /* The newest begin is the one dropped: it is the last in the array. */
      g_assert (idx == b->spans->len - 1);
      g_array_set_size (b->spans, idx);
      g_array_set_size (b->links, idx);
      b->counts.dropped++;
      return FALSE;
    }
  map_insert (&b->maps[map], key, idx);
  return TRUE;
}

/* TRUE (and the begin counted dropped) when @map holds MAX_PENDING open
 * spans and none of @key (which a new begin would replace): checked before
 * the span is made, so that a flood of begins costs one probe each. */
static gboolean
pending_full (EtlSpansBuilder *b, guint map, guint64 key)
{
  if (b->maps[map].len < MAX_PENDING || map_find (&b->maps[map], key) != G_MAXUINT32)
    return FALSE;
  b->counts.dropped++;
  return TRUE;
}

static void
unmatched (EtlSpansBuilder *b, const EtlSpanRecord *r, EtlBuiltinKind kind, guint32 name, guint32 pid, guint32 tid)
{
  EtlBuiltinStop s;

  b->counts.unmatched_ends[kind]++;
  if (b->unmatched->len >= MAX_PENDING)
    {
      b->counts.unmatched_listed_dropped++;
      return;
    }
  s.time = r->filetime;
  s.record = r->record;
  s.pid = pid;
  s.tid = tid;
  s.name = name;
  s.kind = kind;
  g_array_append_val (b->unmatched, s);
}

static guint32
header_pid (const EtlSpanRecord *r)
{
  return r->has_pid ? r->pid : ETL_BUILTIN_UNKNOWN;
}

static guint32
header_tid (const EtlSpanRecord *r)
{
  return r->has_pid ? r->tid : ETL_BUILTIN_UNKNOWN;
}

/* The innermost GC still open in @pid, or NONE. */
static guint32
gc_top (EtlSpansBuilder *b, guint32 pid)
{
  guint32 p = map_find (&b->maps[MAP_GC_TOP], pid), top;

  if (p == G_MAXUINT32)
    return NONE;
  top = b->maps[MAP_GC_TOP].slots[p].idx1 - 1;
  while (top != NONE && !(span_at (b, top)->flags & ETL_BUILTIN_OPEN))
    top = g_array_index (b->links, guint32, top);
  if (top == NONE)
    map_remove_at (&b->maps[MAP_GC_TOP], p);
  else
    b->maps[MAP_GC_TOP].slots[p].idx1 = top + 1;
  return top;
}

static void
set_parent (EtlSpansBuilder *b, guint32 idx, guint32 parent)
{
  EtlBuiltinSpan *s = span_at (b, idx);

  s->parent = parent;
  s->depth = parent != NONE ? span_at (b, parent)->depth + 1 : 0;
}

/* "GC gen N" for the generations a runtime collects (0–2; up to 9 kept),
 * else "GC": a hostile Depth must not make a name per value. */
static void
gc_name (char *buf, gsize size, guint32 depth)
{
  if (depth <= MAX_NAMED_GENERATION)
    g_snprintf (buf, size, "GC gen %u", depth);
  else
    g_strlcpy (buf, "GC", size);
}

static void
add_clr (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  guint32 pid = header_pid (r), tid = header_tid (r), idx;
  EtlSpanRead rd;

  switch (r->event_id)
    {
    case CLR_GC_START:
      {
        EtlGcStart g;
        char buf[32];

        b->counts.records++;
        rd = etl_gc_start_read (r->payload, r->len, r->version, &g);
        if (rd == ETL_SPAN_READ_MISSING)
          {
            b->counts.missing++;
            return;
          }
        if (map_get (&b->maps[MAP_GC], (guint64) pid << 32 | g.count) != NONE)
          {
            b->counts.duplicate_gc_starts++;
            return;
          }
        b->counts.begins[ETL_BUILTIN_GC]++;
        if (pending_full (b, MAP_GC, (guint64) pid << 32 | g.count))
          return;
        gc_name (buf, sizeof buf, g.depth);
        idx = span_new (b, r, ETL_BUILTIN_GC, intern (b, buf), pid, tid);
        if (idx == NONE)
          return;
        span_at (b, idx)->detail.gc.count = g.count;
        span_at (b, idx)->detail.gc.generation = g.depth;
        span_at (b, idx)->detail.gc.reason = g.reason;
        span_at (b, idx)->detail.gc.type = g.type;
        if (rd == ETL_SPAN_READ_TRUNCATED)
          {
            span_at (b, idx)->flags |= ETL_BUILTIN_TRUNCATED;
            b->counts.truncated++;
          }
        set_parent (b, idx, map_get (&b->maps[MAP_PAUSE], pid));
        if (!pend (b, MAP_GC, ETL_BUILTIN_GC, (guint64) pid << 32 | g.count, idx))
          return;
        {
          guint32 top = gc_top (b, pid);
          guint32 p = map_find (&b->maps[MAP_GC_TOP], pid);

          g_array_index (b->links, guint32, idx) = top;
          if (p != G_MAXUINT32)
            b->maps[MAP_GC_TOP].slots[p].idx1 = idx + 1;
          else
            map_insert (&b->maps[MAP_GC_TOP], pid, idx);
        }
        return;
      }
    case CLR_GC_END:
      {
        EtlGcEnd g;

        b->counts.records++;
        rd = etl_gc_end_read (r->payload, r->len, r->version, &g);
        if (rd == ETL_SPAN_READ_MISSING)
          {
            b->counts.missing++;
            return;
          }
        if (rd == ETL_SPAN_READ_TRUNCATED)
          b->counts.truncated++;
        b->counts.ends[ETL_BUILTIN_GC]++;
        idx = map_take (&b->maps[MAP_GC], (guint64) pid << 32 | g.count);
        if (idx == NONE)
          {
            char buf[32];

            gc_name (buf, sizeof buf, g.depth);
            unmatched (b, r, ETL_BUILTIN_GC, intern (b, buf), pid, tid);
            return;
          }
        span_end (b, idx, r);
        (void) gc_top (b, pid); /* drops it from the top of its process */
        return;
      }
    case CLR_GC_SUSPEND_EE_BEGIN:
      {
        EtlGcSuspend g;

        b->counts.records++;
        rd = etl_gc_suspend_read (r->payload, r->len, r->version, &g);
        if (rd == ETL_SPAN_READ_MISSING)
          {
            b->counts.missing++;
            return;
          }
        b->counts.begins[ETL_BUILTIN_GC_PAUSE]++;
        if (pending_full (b, MAP_PAUSE, pid))
          return;
        idx = span_new (b, r, ETL_BUILTIN_GC_PAUSE, intern (b, "GC pause"), pid, tid);
        if (idx == NONE)
          return;
        span_at (b, idx)->detail.gc.count = g.count;
        span_at (b, idx)->detail.gc.generation = ETL_BUILTIN_UNKNOWN;
        span_at (b, idx)->detail.gc.reason = g.reason;
        span_at (b, idx)->detail.gc.type = ETL_BUILTIN_UNKNOWN;
        if (rd == ETL_SPAN_READ_TRUNCATED)
          {
            span_at (b, idx)->flags |= ETL_BUILTIN_TRUNCATED;
            b->counts.truncated++;
          }
        set_parent (b, idx, gc_top (b, pid));
        pend (b, MAP_PAUSE, ETL_BUILTIN_GC_PAUSE, pid, idx);
        return;
      }
    case CLR_GC_RESTART_EE_END:
      b->counts.records++;
      b->counts.ends[ETL_BUILTIN_GC_PAUSE]++;
      idx = map_take (&b->maps[MAP_PAUSE], pid);
      if (idx == NONE)
        unmatched (b, r, ETL_BUILTIN_GC_PAUSE, intern (b, "GC pause"), pid, tid);
      else
        span_end (b, idx, r);
      return;
    default:
      return;
    }
}

static const char *
disk_name (guint8 opcode)
{
  switch (opcode)
    {
    case ETL_DISKIO_READ:
    case ETL_DISKIO_READ_INIT:
      return "Disk Read";
    case ETL_DISKIO_WRITE:
    case ETL_DISKIO_WRITE_INIT:
      return "Disk Write";
    default:
      return "Disk Flush";
    }
}

/* 100-ns units of @ticks of a @freq clock, without overflow. */
static gint64
ticks_to_filetime (guint64 ticks, gint64 freq)
{
  guint64 f;

  if (freq <= 0)
    return 0;
  f = (guint64) freq;
  if (ticks / f > (guint64) G_MAXINT64 / 20000000)
    return G_MAXINT64 / 2;
  return (gint64) ((ticks / f) * 10000000 + (ticks % f) * 10000000 / f);
}

static void
add_diskio (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  EtlDiskIo d;
  EtlSpanRead rd;
  guint32 idx;

  if (r->opcode < ETL_DISKIO_READ || r->opcode > ETL_DISKIO_FLUSH_INIT)
    return;
  b->counts.records++;
  rd = etl_diskio_read (r->payload, r->len, r->opcode, r->version, r->pointer_size, &d);
  if (rd == ETL_SPAN_READ_MISSING)
    {
      b->counts.missing++;
      return;
    }
  if (rd == ETL_SPAN_READ_TRUNCATED)
    b->counts.truncated++;
  if (r->opcode == ETL_DISKIO_READ_INIT || r->opcode == ETL_DISKIO_WRITE_INIT || r->opcode == ETL_DISKIO_FLUSH_INIT)
    {
      guint32 pid = header_pid (r), tid = header_tid (r);

      if (!r->has_pid && d.issuing_thread != ETL_BUILTIN_UNKNOWN)
        {
          tid = d.issuing_thread;
          pid = r->issuing_pid;
        }
      b->counts.begins[ETL_BUILTIN_DISK_IO]++;
      if (pending_full (b, MAP_DISK, d.irp))
        return;
      idx = span_new (b, r, ETL_BUILTIN_DISK_IO, intern (b, disk_name (r->opcode)), pid, tid);
      if (idx != NONE)
        {
          span_at (b, idx)->detail.disk.file = NONE;
          pend (b, MAP_DISK, ETL_BUILTIN_DISK_IO, d.irp, idx);
        }
      return;
    }

  /* A completion. */
  b->counts.ends[ETL_BUILTIN_DISK_IO]++;
  idx = map_take (&b->maps[MAP_DISK], d.irp);
  if (idx != NONE)
    span_end (b, idx, r);
  else
    {
      EtlBuiltinSpan *s;
      guint32 pid = header_pid (r), tid = header_tid (r);

      if (d.issuing_thread != ETL_BUILTIN_UNKNOWN)
        {
          tid = d.issuing_thread;
          pid = r->issuing_pid != ETL_BUILTIN_UNKNOWN ? r->issuing_pid : pid;
        }
      b->counts.begins[ETL_BUILTIN_DISK_IO]++;
      idx = span_new (b, r, ETL_BUILTIN_DISK_IO, intern (b, disk_name (r->opcode)), pid, tid);
      if (idx == NONE)
        return;
      s = span_at (b, idx);
      s->start = r->filetime - ticks_to_filetime (d.response_time, r->clock_freq);
      s->flags = ETL_BUILTIN_FROM_ELAPSED;
      s->stop_record = r->record;
      s->detail.disk.file = NONE;
      b->counts.paired[ETL_BUILTIN_DISK_IO]++;
    }
  {
    EtlBuiltinSpan *s = span_at (b, idx);

    s->name = intern (b, disk_name (r->opcode));
    s->detail.disk.disk_number = d.disk_number;
    s->detail.disk.bytes = d.transfer_size;
    s->detail.disk.offset = (guint64) d.byte_offset;
    s->detail.disk.file_key = d.file_key;
    if (rd == ETL_SPAN_READ_TRUNCATED)
      s->flags |= ETL_BUILTIN_TRUNCATED;
  }
}

static void
add_fileio (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  EtlFileIo f;
  EtlSpanRead rd;
  guint32 idx;
  const char *op = etl_fileio_op_name (r->opcode);

  if (op == NULL && r->opcode != ETL_FILEIO_OP_END)
    return;
  b->counts.records++;
  rd = etl_fileio_read (r->payload, r->len, r->opcode, r->version, r->pointer_size, &f);
  if (rd == ETL_SPAN_READ_MISSING)
    {
      b->counts.missing++;
      return;
    }
  if (rd == ETL_SPAN_READ_TRUNCATED)
    b->counts.truncated++;
  if (r->opcode == ETL_FILEIO_OP_END)
    {
      b->counts.ends[ETL_BUILTIN_FILE_IO]++;
      idx = map_take (&b->maps[MAP_FILE], f.irp);
      if (idx == NONE)
        unmatched (b, r, ETL_BUILTIN_FILE_IO, intern (b, "File OpEnd"), header_pid (r), header_tid (r));
      else
        {
          span_end (b, idx, r);
          span_at (b, idx)->detail.file.status = f.nt_status;
        }
      return;
    }
  b->counts.begins[ETL_BUILTIN_FILE_IO]++;
  {
    char name[32];
    EtlBuiltinSpan *s;

    if (pending_full (b, MAP_FILE, f.irp))
      {
        g_free (f.open_path);
        return;
      }
    g_snprintf (name, sizeof name, "File %s", op);
    idx = span_new (b, r, ETL_BUILTIN_FILE_IO, intern (b, name), header_pid (r), header_tid (r));
    if (idx == NONE)
      {
        g_free (f.open_path);
        return;
      }
    s = span_at (b, idx);
    s->detail.file.offset = f.offset;
    s->detail.file.bytes = f.io_size;
    s->detail.file.file_key = f.file_key;
    s->detail.file.file = f.open_path != NULL && f.open_path[0] != '\0' ? intern (b, f.open_path) : NONE;
    s->detail.file.status = ETL_BUILTIN_UNKNOWN;
    if (rd == ETL_SPAN_READ_TRUNCATED)
      s->flags |= ETL_BUILTIN_TRUNCATED;
    g_free (f.open_path);
    pend (b, MAP_FILE, ETL_BUILTIN_FILE_IO, f.irp, idx);
  }
}

static guint32
process_name (EtlSpansBuilder *b, const char *image, guint32 pid)
{
  char buf[32];

  if (image != NULL && image[0] != '\0')
    return intern (b, image);
  g_snprintf (buf, sizeof buf, "Process %u", pid);
  return intern (b, buf);
}

static void
add_process (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  guint32 idx, pid = r->process_id;

  if (r->opcode < TYPE_START || r->opcode > TYPE_DC_END)
    return;
  b->counts.records++;
  if (r->opcode == TYPE_START || r->opcode == TYPE_DC_START)
    {
      EtlBuiltinSpan *s;
      guint32 name = process_name (b, r->image, pid);

      b->counts.begins[ETL_BUILTIN_PROCESS]++;
      if (pending_full (b, MAP_PROCESS, pid))
        return;
      idx = span_new (b, r, ETL_BUILTIN_PROCESS, name, pid, 0);
      if (idx == NONE)
        return;
      s = span_at (b, idx);
      s->detail.process.image = name;
      s->detail.process.parent_pid = r->parent_id;
      s->detail.process.exit_status = STILL_ACTIVE;
      if (r->opcode == TYPE_DC_START)
        s->flags |= ETL_BUILTIN_RUNDOWN_START;
      pend (b, MAP_PROCESS, ETL_BUILTIN_PROCESS, pid, idx);
      return;
    }
  b->counts.ends[ETL_BUILTIN_PROCESS]++;
  idx = map_take (&b->maps[MAP_PROCESS], pid);
  if (idx == NONE)
    {
      unmatched (b, r, ETL_BUILTIN_PROCESS, process_name (b, r->image, pid), pid, 0);
      return;
    }
  if (r->opcode == TYPE_DC_END)
    span_at (b, idx)->flags |= ETL_BUILTIN_RUNDOWN_END; /* still running: stays open */
  else
    {
      span_end (b, idx, r);
      span_at (b, idx)->detail.process.exit_status = r->exit_status;
    }
}

static void
add_thread (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  guint32 pid, tid, idx, process;

  if (r->opcode < TYPE_START || r->opcode > TYPE_DC_END)
    return;
  b->counts.records++;
  if (etl_thread_ids_read (r->payload, r->len, r->version, &pid, &tid) != ETL_SPAN_READ_OK)
    {
      b->counts.missing++;
      return;
    }
  /* The Idle process's threads (one a processor) all have id 0: they
   * cannot be told apart by id, and are not kept. */
  if (tid == 0)
    return;
  process = map_get (&b->maps[MAP_PROCESS], pid);
  if (r->opcode == TYPE_START || r->opcode == TYPE_DC_START)
    {
      EtlBuiltinSpan *s;
      guint32 name = process != NONE ? span_at (b, process)->detail.process.image : process_name (b, NULL, pid);

      b->counts.begins[ETL_BUILTIN_THREAD]++;
      if (pending_full (b, MAP_THREAD, tid))
        return;
      idx = span_new (b, r, ETL_BUILTIN_THREAD, name, pid, tid);
      if (idx == NONE)
        return;
      s = span_at (b, idx);
      s->detail.thread.image = name;
      if (r->opcode == TYPE_DC_START)
        s->flags |= ETL_BUILTIN_RUNDOWN_START;
      set_parent (b, idx, process);
      pend (b, MAP_THREAD, ETL_BUILTIN_THREAD, tid, idx);
      return;
    }
  b->counts.ends[ETL_BUILTIN_THREAD]++;
  idx = map_take (&b->maps[MAP_THREAD], tid);
  if (idx == NONE)
    {
      guint32 name = process != NONE ? span_at (b, process)->detail.process.image : process_name (b, NULL, pid);

      unmatched (b, r, ETL_BUILTIN_THREAD, name, pid, tid);
      return;
    }
  if (r->opcode == TYPE_DC_END)
    span_at (b, idx)->flags |= ETL_BUILTIN_RUNDOWN_END;
  else
    span_end (b, idx, r);
}

/*
 * etl_spans_builder_add: (private)
 * @b: a builder
 * @r: a record of one of the classes, in record order
 *
 * Applies the section's rules to one record.
 */
void
etl_spans_builder_add (EtlSpansBuilder *b, const EtlSpanRecord *r)
{
  g_return_if_fail (b != NULL && r != NULL);
  switch (r->cls)
    {
    case ETL_SPAN_CLASS_CLR:
      if (b->kinds & (1u << ETL_BUILTIN_GC | 1u << ETL_BUILTIN_GC_PAUSE))
        add_clr (b, r);
      break;
    case ETL_SPAN_CLASS_DISKIO:
      if (b->kinds & 1u << ETL_BUILTIN_DISK_IO)
        add_diskio (b, r);
      break;
    case ETL_SPAN_CLASS_FILEIO:
      if (b->kinds & 1u << ETL_BUILTIN_FILE_IO)
        add_fileio (b, r);
      break;
    case ETL_SPAN_CLASS_PROCESS:
      /* Read for the threads' names and parents too. */
      if (b->kinds & (1u << ETL_BUILTIN_PROCESS | 1u << ETL_BUILTIN_THREAD))
        add_process (b, r);
      break;
    case ETL_SPAN_CLASS_THREAD:
      if (b->kinds & 1u << ETL_BUILTIN_THREAD)
        add_thread (b, r);
      break;
    default:
      break;
    }
}

typedef struct
{
  gint64 start;
  guint64 record;
  guint32 idx;
} Order;

static int
order_cmp (gconstpointer a, gconstpointer b)
{
  const Order *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->record != y->record)
    return x->record < y->record ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * etl_spans_builder_finish: (private)
 * @b: (transfer full): a builder
 * @last_filetime: the trace's last record's time: where open spans end
 *
 * Ends the open spans, keeps those of the wanted kinds (a process read
 * only for its threads is left out, and its threads are then at the top),
 * in the order of their starts.
 *
 * Returns: (transfer full): the spans
 */
EtlBuiltinSpans *
etl_spans_builder_finish (EtlSpansBuilder *b, gint64 last_filetime)
{
  EtlBuiltinSpans *out = g_new0 (EtlBuiltinSpans, 1);
  g_autofree Order *order = NULL;
  g_autofree guint32 *new_index = NULL;
  guint n = b->spans->len, kept = 0;
  GArray *spans;

  g_atomic_ref_count_init (&out->ref_count);
  order = g_new (Order, MAX (n, 1));
  new_index = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      EtlBuiltinSpan *s = span_at (b, i);

      new_index[i] = NONE;
      if (s->flags & ETL_BUILTIN_OPEN)
        {
          s->stop = MAX (s->start, last_filetime);
          s->stop_record = ETL_BUILTIN_NO_RECORD;
        }
      if (!(b->kinds & 1u << s->kind))
        continue;
      if (s->flags & ETL_BUILTIN_OPEN)
        b->counts.open[s->kind]++;
      order[kept].start = s->start;
      order[kept].record = s->start_record;
      order[kept].idx = i;
      kept++;
    }
  qsort (order, kept, sizeof *order, order_cmp);
  spans = g_array_sized_new (FALSE, FALSE, sizeof (EtlBuiltinSpan), kept);
  for (guint k = 0; k < kept; k++)
    new_index[order[k].idx] = k;
  for (guint k = 0; k < kept; k++)
    {
      EtlBuiltinSpan s = *span_at (b, order[k].idx);

      s.parent = s.parent != NONE ? new_index[s.parent] : NONE;
      /* A parent starts no later than its child, so it is placed before it. */
      if (s.parent != NONE && s.parent >= k)
        s.parent = NONE;
      s.depth = s.parent != NONE ? g_array_index (spans, EtlBuiltinSpan, s.parent).depth + 1 : 0;
      g_array_append_val (spans, s);
    }
  if (!(b->kinds & 1u << ETL_BUILTIN_PROCESS))
    {
      b->counts.begins[ETL_BUILTIN_PROCESS] = b->counts.ends[ETL_BUILTIN_PROCESS] = 0;
      b->counts.paired[ETL_BUILTIN_PROCESS] = b->counts.abandoned[ETL_BUILTIN_PROCESS] = 0;
      b->counts.unmatched_ends[ETL_BUILTIN_PROCESS] = 0;
    }
  {
    GArray *um = g_array_new (FALSE, FALSE, sizeof (EtlBuiltinStop));

    for (guint i = 0; i < b->unmatched->len; i++)
      {
        const EtlBuiltinStop *s = &g_array_index (b->unmatched, EtlBuiltinStop, i);

        if (b->kinds & 1u << s->kind)
          g_array_append_val (um, *s);
      }
    g_array_unref (b->unmatched);
    out->unmatched = um;
  }
  out->counts = b->counts;
  out->spans = spans;
  out->strings = b->strings;
  g_array_unref (b->spans);
  g_array_unref (b->links);
  g_hash_table_unref (b->string_ids);
  for (guint k = 0; k < N_MAPS; k++)
    g_free (b->maps[k].slots);
  g_free (b);
  return out;
}

/* Names the disk and file spans' FileKeys (the trace's FileIo name records). */
/*
 * etl_builtin_spans_name_files: (private, etl-builtin-spans-private.h)
 * @spans: spans just built, not yet shared
 * @trace: their trace
 */
void
etl_builtin_spans_name_files (EtlBuiltinSpans *spans, EtlTrace *trace)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint k = 0; k < spans->strings->len; k++)
    g_hash_table_insert (ids, g_ptr_array_index (spans->strings, k), GUINT_TO_POINTER (k + 1));
  for (guint i = 0; i < spans->spans->len; i++)
    {
      EtlBuiltinSpan *s = &g_array_index (spans->spans, EtlBuiltinSpan, i);
      guint32 *file;
      guint64 key;
      const char *name;
      gpointer v;

      if (s->kind == ETL_BUILTIN_DISK_IO)
        file = &s->detail.disk.file, key = s->detail.disk.file_key;
      else if (s->kind == ETL_BUILTIN_FILE_IO)
        file = &s->detail.file.file, key = s->detail.file.file_key;
      else
        continue;
      if (*file != NONE || key == 0 || (name = etl_trace_lookup_file_name (trace, key)) == NULL)
        continue;
      v = g_hash_table_lookup (ids, name);
      if (v == NULL)
        {
          char *copy = g_strdup (name);

          g_ptr_array_add (spans->strings, copy);
          v = GUINT_TO_POINTER (spans->strings->len);
          g_hash_table_insert (ids, copy, v);
        }
      *file = GPOINTER_TO_UINT (v) - 1;
    }
}

/**
 * etl_builtin_spans_ref:
 * @spans: spans
 *
 * Returns: (transfer full): @spans
 */
EtlBuiltinSpans *
etl_builtin_spans_ref (EtlBuiltinSpans *spans)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_atomic_ref_count_inc (&spans->ref_count);
  return spans;
}

/**
 * etl_builtin_spans_unref:
 * @spans: (transfer full) (nullable): spans
 */
void
etl_builtin_spans_unref (EtlBuiltinSpans *spans)
{
  if (spans == NULL || !g_atomic_ref_count_dec (&spans->ref_count))
    return;
  g_array_unref (spans->spans);
  g_array_unref (spans->unmatched);
  g_ptr_array_unref (spans->strings);
  g_free (spans);
}

/**
 * etl_builtin_spans_get:
 * @spans: spans
 * @n_spans: (out): how many
 *
 * Returns: (transfer none) (array length=n_spans): the spans, in the order
 *   of their starts (ties in record order)
 */
const EtlBuiltinSpan *
etl_builtin_spans_get (EtlBuiltinSpans *spans, guint *n_spans)
{
  g_return_val_if_fail (spans != NULL && n_spans != NULL, NULL);
  *n_spans = spans->spans->len;
  return (const EtlBuiltinSpan *) (gpointer) spans->spans->data;
}

/**
 * etl_builtin_spans_get_unmatched:
 * @spans: spans
 * @n_stops: (out): how many
 *
 * Returns: (transfer none) (array length=n_stops): the ends without a
 *   begin, in record order (at most %ETL_BUILTIN_SPANS_MAX_PENDING)
 */
const EtlBuiltinStop *
etl_builtin_spans_get_unmatched (EtlBuiltinSpans *spans, guint *n_stops)
{
  g_return_val_if_fail (spans != NULL && n_stops != NULL, NULL);
  *n_stops = spans->unmatched->len;
  return (const EtlBuiltinStop *) (gpointer) spans->unmatched->data;
}

/**
 * etl_builtin_spans_get_counts:
 * @spans: spans
 *
 * Returns: (transfer none): what the pass met
 */
const EtlBuiltinSpansCounts *
etl_builtin_spans_get_counts (EtlBuiltinSpans *spans)
{
  g_return_val_if_fail (spans != NULL, NULL);
  return &spans->counts;
}

/**
 * etl_builtin_spans_get_string:
 * @spans: spans
 * @string: #EtlBuiltinSpan.name or a detail's string field
 *
 * Returns: (transfer none): the string, "" for %ETL_BUILTIN_NONE or an unknown
 *   index
 */
const char *
etl_builtin_spans_get_string (EtlBuiltinSpans *spans, guint32 string)
{
  g_return_val_if_fail (spans != NULL, "");
  return string < spans->strings->len ? g_ptr_array_index (spans->strings, string) : "";
}

/**
 * etl_builtin_spans_compute_stats:
 * @spans: spans
 *
 * The statistics of each kind and name (etl_interval_stats_compute() over
 * the durations, stop − start in 100-ns units, of its closed spans), with
 * its open spans and its unmatched ends.
 *
 * Returns: (transfer full) (element-type EtlBuiltinSpanStats): one row a
 *   kind and name, in the order they first occur (spans, then unmatched ends)
 */
GArray *
etl_builtin_spans_compute_stats (EtlBuiltinSpans *spans)
{
  g_autoptr (GHashTable) rows = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GPtrArray) durations = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *out = g_array_new (FALSE, TRUE, sizeof (EtlBuiltinSpanStats));

  g_return_val_if_fail (spans != NULL, out);

  /* Keys stay where the hash table sees them: sized once. */
  g_array_set_size (keys, spans->spans->len + spans->unmatched->len);
  for (guint pass = 0; pass < 2; pass++)
    {
      guint n = pass == 0 ? spans->spans->len : spans->unmatched->len;

      for (guint i = 0; i < n; i++)
        {
          guint32 kind, name;
          gint64 *key;
          guint row;

          if (pass == 0)
            {
              const EtlBuiltinSpan *s = &g_array_index (spans->spans, EtlBuiltinSpan, i);

              kind = s->kind;
              name = s->name;
            }
          else
            {
              const EtlBuiltinStop *s = &g_array_index (spans->unmatched, EtlBuiltinStop, i);

              kind = s->kind;
              name = s->name;
            }
          key = &g_array_index (keys, gint64, out->len);
          *key = (gint64) kind << 32 | name;
          row = GPOINTER_TO_UINT (g_hash_table_lookup (rows, key));
          if (row == 0)
            {
              EtlBuiltinSpanStats st = { 0 };

              st.kind = kind;
              st.name = name;
              g_array_append_val (out, st);
              g_ptr_array_add (durations, g_array_new (FALSE, FALSE, sizeof (gint64)));
              row = out->len;
              g_hash_table_insert (rows, key, GUINT_TO_POINTER (row));
            }
          if (pass == 1)
            g_array_index (out, EtlBuiltinSpanStats, row - 1).stats.unmatched_stops++;
          else
            {
              const EtlBuiltinSpan *s = &g_array_index (spans->spans, EtlBuiltinSpan, i);

              if (s->flags & ETL_BUILTIN_OPEN)
                g_array_index (out, EtlBuiltinSpanStats, row - 1).stats.open++;
              else
                {
                  gint64 d = s->stop - s->start;

                  g_array_append_val (g_ptr_array_index (durations, row - 1), d);
                }
            }
        }
    }
  for (guint r = 0; r < out->len; r++)
    {
      EtlBuiltinSpanStats *s = &g_array_index (out, EtlBuiltinSpanStats, r);
      GArray *d = g_ptr_array_index (durations, r);
      guint64 open = s->stats.open, unmatched_stops = s->stats.unmatched_stops;

      etl_interval_stats_compute ((gint64 *) (gpointer) d->data, d->len, &s->stats);
      s->stats.open = open;
      s->stats.unmatched_stops = unmatched_stops;
      s->stats.count += open;
    }
  return out;
}

/**
 * etl_builtin_kind_name:
 * @kind: an #EtlBuiltinKind
 *
 * Returns: (transfer none): its name as `etlscope-cli regions --builtin`
 *   takes it and prints it: "gc", "gc-pause", "disk", "file", "process",
 *   "thread" ("" for another value)
 */
const char *
etl_builtin_kind_name (EtlBuiltinKind kind)
{
  static const char *const names[ETL_N_BUILTIN_KINDS] = { "gc", "gc-pause", "disk", "file", "process", "thread" };

  return (guint) kind < ETL_N_BUILTIN_KINDS ? names[kind] : "";
}

/**
 * etl_builtin_kinds_parse:
 * @list: comma-separated kind names (etl_builtin_kind_name()); "gc" takes
 *   the pauses too; "all" every kind
 * @kinds: (out): the kinds, bit (1 << #EtlBuiltinKind) each
 *
 * Returns: %FALSE (and @kinds 0) when a name is unknown
 */
gboolean
etl_builtin_kinds_parse (const char *list, guint *kinds)
{
  g_auto (GStrv) parts = NULL;

  g_return_val_if_fail (list != NULL && kinds != NULL, FALSE);
  *kinds = 0;
  parts = g_strsplit (list, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *p = g_strstrip (parts[i]);
      guint k;

      if (p[0] == '\0')
        continue;
      if (g_strcmp0 (p, "all") == 0)
        {
          *kinds |= ETL_BUILTIN_KINDS_ALL;
          continue;
        }
      for (k = 0; k < ETL_N_BUILTIN_KINDS; k++)
        if (g_strcmp0 (p, etl_builtin_kind_name (k)) == 0)
          break;
      if (k == ETL_N_BUILTIN_KINDS)
        {
          *kinds = 0;
          return FALSE;
        }
      *kinds |= 1u << k;
      if (k == ETL_BUILTIN_GC)
        *kinds |= 1u << ETL_BUILTIN_GC_PAUSE;
    }
  return *kinds != 0;
}
