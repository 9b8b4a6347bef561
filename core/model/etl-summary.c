/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-summary
 * @title: EtlSummary
 * @short_description: level-of-detail density summaries of a trace
 *
 * An #EtlSummary counts the records of an #EtlTrace per lane (processor,
 * provider or process) over 2^k equal time bins — the finest level — and
 * keeps every coarser level as pairwise sums, like a mip-map.  Each bin also
 * remembers a dominant provider index so that a view can colour it.
 *
 * It is built once, off the main thread (etl_summary_new_async()), from the
 * trace's in-memory index only: no record is read or decoded.  It may count
 * only the rows of an #EtlRowSet (those a filter kept), visiting the set's
 * positions in the range instead of the trace's.  Afterwards it
 * is read-only and may be shared between threads.  etl_summary_query() maps
 * a visible time range onto N pixel columns in O(lanes × columns) by picking
 * the level whose bins are just narrower than a column, so drawing never
 * visits individual events.
 *
 * An #EtlLossSummary does the same for the loss time series
 * (etl_trace_get_losses()): per file, the cumulative number of lost events and
 * lost buffers per bin, next to the totals the TRACE_LOGFILE_HEADER states.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-names.h"
#include "etl-process-resolver.h"
#include "etl-summary.h"
#include "etl-worker.h"

/* The kernel records whose header has no process id but whose payload names
 * the thread (MOF classes PerfInfo_SampledProfile: ThreadId after the
 * pointer-sized InstructionPointer; CSwitch: NewThreadId at offset 0). */
#define HOOK_SAMPLED_PROFILE 0x0F2E
#define HOOK_CSWITCH 0x0524
/* lane_starts of a lane whose process the table does not know. */
#define NO_LIFETIME G_MININT64

/* At most this many cells (lanes × finest bins) per summary: 8 Mi cells is
 * 8 Mi × (4 + 2) bytes × 2 for all levels ≈ 96 MiB in the worst case. */
#define MAX_CELLS_LOG2 23
#define MAX_BINS_LOG2 20
#define CANCEL_CHECK_MASK 0xFFFF

struct _EtlSummary
{
  gatomicrefcount ref_count;
  EtlLaneMode mode;
  guint n_lanes;
  guint *lane_ids;
  char **lane_labels;
  guint64 *lane_totals;
  /* ETL_LANE_PROCESS: each lane's process lifetime (FILETIME), 0 when
   * unknown (running at the trace's start or end, or no process). */
  gint64 *lane_starts;
  gint64 *lane_ends;
  /* ETL_LANE_PROCESS: pid → lane + 1. */
  GHashTable *lane_of_pid;
  /* ETL_LANE_PROCESS with expanded processes: which lanes are threads. */
  gboolean *lane_is_thread;
  gint64 begin;
  gint64 end;
  gint64 bin_width;
  guint n_bins;
  guint n_levels;
  guint64 n_records;
  /* Per level: n_lanes × (n_bins >> level), lane-major. */
  guint32 **counts;
  guint16 **dominant;
};

struct _EtlLossSummary
{
  gatomicrefcount ref_count;
  guint n_files;
  gint64 begin;
  gint64 end;
  gint64 bin_width;
  guint n_bins;
  guint64 max;
  guint64 *header_events;
  guint64 *header_buffers;
  /* n_files × n_bins, cumulative up to and including the bin. */
  guint64 *events_cum;
  guint64 *buffers_cum;
};

/**
 * etl_lane_mode_get_type:
 *
 * The #GEnumClass of #EtlLaneMode; the nicks are "cpu", "provider" and
 * "process" (the states of the timeline's "lane-mode" action).
 *
 * Returns: the #GType of #EtlLaneMode
 */
GType
etl_lane_mode_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    {
      static const GEnumValue values[] = {
        { ETL_LANE_CPU, "ETL_LANE_CPU", "cpu" },
        { ETL_LANE_PROVIDER, "ETL_LANE_PROVIDER", "provider" },
        { ETL_LANE_PROCESS, "ETL_LANE_PROCESS", "process" },
        { 0, NULL, NULL },
      };
      GType t = g_enum_register_static (g_intern_static_string ("EtlLaneMode"), values);

      g_once_init_leave (&type, t);
    }
  return type;
}

static void
etl_summary_free (EtlSummary *self)
{
  g_assert (self != NULL);

  if (self->counts != NULL)
    for (guint l = 0; l < self->n_levels; l++)
      g_free (self->counts[l]);
  if (self->dominant != NULL)
    for (guint l = 0; l < self->n_levels; l++)
      g_free (self->dominant[l]);
  g_free (self->counts);
  g_free (self->dominant);
  g_free (self->lane_ids);
  g_free (self->lane_totals);
  g_strfreev (self->lane_labels);
  g_free (self->lane_starts);
  g_free (self->lane_ends);
  g_clear_pointer (&self->lane_of_pid, g_hash_table_unref);
  g_free (self->lane_is_thread);
  g_free (self);
}

static char *
provider_label (EtlTrace *trace, guint provider)
{
  const EtlGuid *guid = etl_trace_get_provider (trace, provider);
  const char *name;
  char str[ETL_GUID_STRING_LEN + 1];

  if (guid == NULL)
    return g_strdup ("Other providers");
  name = etl_names_provider (guid);
  if (name != NULL)
    return g_strdup (name);
  etl_guid_to_string (guid, str);
  return g_strdup (str);
}

/* Row @k of the records to count: positions [first, last) of @rows, or of
 * the trace itself when @rows is NULL (every row). */
static inline guint64
summary_row (const EtlRowSet *rows, guint64 k)
{
  return rows != NULL ? etl_row_set_get (rows, k) : k;
}

static inline guint32
read_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The thread a PERFINFO SampledProfile (ThreadId after the pointer-sized
 * InstructionPointer) or a CSwitch record (NewThreadId at offset 0) names.
 * Returns FALSE for other records; @tid is left alone when the payload is
 * too short. */
static gboolean
payload_thread (guint16 hook_id, const guint8 *user_data, gsize user_data_len, guint8 header_type, guint32 *tid)
{
  if (hook_id == HOOK_SAMPLED_PROFILE
      && (header_type == ETL_HEADER_TYPE_PERFINFO32 || header_type == ETL_HEADER_TYPE_PERFINFO64))
    {
      gsize ptr = header_type == ETL_HEADER_TYPE_PERFINFO32 ? 4 : 8;

      if (user_data != NULL && user_data_len >= ptr + 4)
        *tid = read_u32 (user_data + ptr);
      return TRUE;
    }
  if (hook_id == HOOK_CSWITCH
      && (header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_SYSTEM64
          || header_type == ETL_HEADER_TYPE_COMPACT32 || header_type == ETL_HEADER_TYPE_COMPACT64))
    {
      if (user_data != NULL && user_data_len >= 4)
        *tid = read_u32 (user_data);
      return TRUE;
    }
  return FALSE;
}

/* The process of record @i: its header's process id, else (PERFINFO
 * SampledProfile, CSwitch and the other kernel records without one) the
 * process of the thread the payload names, through @table at the record's
 * time (etl_process_table_resolve_record()).  ETL_SUMMARY_NO_PID when
 * neither is known.  The header is read in place (etl_trace_peek_record():
 * SampledProfile is most of a sampling trace); @resolver (nullable)
 * remembers thread lookups. */
static guint32
summary_record_pid (EtlTrace *trace, EtlProcessTable *table, EtlProcessResolver *resolver, guint64 i)
{
  guint32 pid, tid = ETL_SUMMARY_NO_PID;
  EtlRecordBrief b;
  gboolean named;

  if (etl_trace_get_pid (trace, i, &pid))
    return pid;
  if (table == NULL || !etl_trace_peek_record (trace, i, &b))
    return ETL_SUMMARY_NO_PID;
  named = payload_thread (b.hook_id, b.user_data, b.user_data_len, b.header_type, &tid);
  etl_record_brief_clear (&b);
  if (!named)
    {
      g_auto (EtlRecord) rec = { 0 };

      if (!etl_trace_get_record (trace, i, &rec, NULL))
        return ETL_SUMMARY_NO_PID;
      if (resolver != NULL)
        return etl_process_resolver_resolve (resolver, &rec, &pid, NULL) ? pid : ETL_SUMMARY_NO_PID;
      return etl_process_table_resolve_record (table, &rec, NULL, &pid, NULL) ? pid : ETL_SUMMARY_NO_PID;
    }

  if (tid != ETL_SUMMARY_NO_PID)
    {
      const EtlThread *thread = resolver != NULL ? etl_process_resolver_lookup_thread (resolver, tid, b.filetime)
                                                 : etl_process_table_lookup_thread (table, tid, b.filetime);

      if (thread != NULL && thread->pid != ETL_SUMMARY_NO_PID)
        return thread->pid;
    }
  return ETL_SUMMARY_NO_PID;
}

/* The thread of record @i (read from the file): the header's thread id,
 * else the one its payload names (SampledProfile ThreadId, CSwitch
 * NewThreadId, or what etl_process_table_resolve_record() finds).
 * ETL_SUMMARY_NO_PID when unknown. */
static guint32
summary_record_tid (EtlTrace *trace, EtlProcessTable *table, guint64 i)
{
  g_auto (EtlRecord) rec = { 0 };
  guint32 pid, tid = ETL_SUMMARY_NO_PID;
  guint8 header_type;

  if (!etl_trace_get_record (trace, i, &rec, NULL))
    return ETL_SUMMARY_NO_PID;
  if (rec.has_pid && rec.tid != ETL_SUMMARY_NO_PID && rec.pid != ETL_SUMMARY_NO_PID)
    return rec.tid;
  header_type = etl_trace_get_header_type (trace, i);
  if (payload_thread (rec.hook_id, rec.user_data, rec.user_data_len, header_type, &tid))
    ;
  else if (table != NULL)
    etl_process_table_resolve_record (table, &rec, NULL, &pid, &tid);
  return tid;
}

typedef struct
{
  guint32 pid;
  guint64 count;
  gint64 first_seen;
} PidCount;

typedef struct
{
  guint32 pid;
  guint32 tid;
  guint64 count;
  gint64 first_seen;
} ThreadCount;

static gint
compare_thread_counts (gconstpointer pa, gconstpointer pb)
{
  const ThreadCount *a = pa, *b = pb;

  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static inline gpointer
thread_key (guint32 pid, guint32 tid)
{
  /* Hash keys are pointers: fold pid and tid into one value (a collision only
   * merges two threads' lanes, it cannot overrun anything). */
  return GSIZE_TO_POINTER (((gsize) pid * 2654435761u) ^ ((gsize) tid << 1) ^ 1);
}

/* Most records first, then by pid; "No process" last. */
static gint
compare_pid_counts (gconstpointer pa, gconstpointer pb)
{
  const PidCount *a = pa, *b = pb;

  if ((a->pid == ETL_SUMMARY_NO_PID) != (b->pid == ETL_SUMMARY_NO_PID))
    return a->pid == ETL_SUMMARY_NO_PID ? 1 : -1;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* Sets up lanes; returns a lookup table for ETL_LANE_PROCESS (pid → lane+1)
 * and, in that mode, fills *@row_pids with each position's process
 * (summary_record_pid()), so records are resolved once.
 * [@first, @last) are positions in @rows (or rows when @rows is NULL). */
static GHashTable *
summary_setup_lanes (EtlSummary *self, EtlTrace *trace, const EtlRowSet *rows, guint64 first, guint64 last,
                     GHashTable *expanded, guint32 **row_pids, guint32 **row_thread_lanes,
                     GCancellable *cancellable)
{
  GHashTable *pids = NULL;

  g_assert (self != NULL);

  switch (self->mode)
    {
    case ETL_LANE_CPU:
      self->n_lanes = MAX (etl_trace_get_n_cpus (trace), 1);
      self->lane_ids = g_new (guint, self->n_lanes);
      self->lane_labels = g_new0 (char *, self->n_lanes + 1);
      for (guint i = 0; i < self->n_lanes; i++)
        {
          self->lane_ids[i] = i;
          self->lane_labels[i] = g_strdup_printf ("CPU %u", i);
        }
      break;

    case ETL_LANE_PROVIDER:
      /* One more lane for records past 65535 distinct providers. */
      self->n_lanes = MIN (etl_trace_get_n_providers (trace), G_MAXUINT16) + 1;
      self->lane_ids = g_new (guint, self->n_lanes);
      self->lane_labels = g_new0 (char *, self->n_lanes + 1);
      for (guint i = 0; i < self->n_lanes; i++)
        {
          self->lane_ids[i] = i + 1 == self->n_lanes ? G_MAXUINT16 : i;
          self->lane_labels[i] = provider_label (trace, self->lane_ids[i]);
        }
      break;

    case ETL_LANE_PROCESS:
      {
        g_autoptr (GArray) counts = g_array_new (FALSE, FALSE, sizeof (PidCount));
        g_autoptr (GArray) threads = g_array_new (FALSE, FALSE, sizeof (ThreadCount));
        g_autoptr (GHashTable) thread_slots = g_hash_table_new (NULL, NULL);
        g_autofree guint32 *row_thread = NULL;
        EtlProcessTable *processes = etl_trace_get_process_table (trace);
        g_autoptr (EtlProcessResolver) resolver = processes != NULL ? etl_process_resolver_new (processes) : NULL;
        gboolean no_pid = FALSE;
        guint lane;

        pids = g_hash_table_new (NULL, NULL);
        *row_pids = g_new (guint32, MAX (last - first, 1));
        for (guint64 k = first; k < last; k++)
          {
            guint64 i = summary_row (rows, k);
            guint32 pid;
            gpointer slot;

            if ((k & CANCEL_CHECK_MASK) == 0 && g_cancellable_is_cancelled (cancellable))
              break;
            pid = summary_record_pid (trace, processes, resolver, i);
            (*row_pids)[k - first] = pid;
            /* An expanded process: the record's thread too (index+1 in
             * @threads, 0 for none). */
            if (expanded != NULL && pid != ETL_SUMMARY_NO_PID && g_hash_table_contains (expanded, GUINT_TO_POINTER (pid)))
              {
                guint32 tid = summary_record_tid (trace, processes, i);

                if (row_thread == NULL)
                  row_thread = g_new0 (guint32, MAX (last - first, 1));
                if (tid != ETL_SUMMARY_NO_PID)
                  {
                    gpointer tslot = g_hash_table_lookup (thread_slots, thread_key (pid, tid));

                    if (tslot == NULL)
                      {
                        ThreadCount tc = { pid, tid, 0, etl_trace_get_filetime (trace, i) };

                        g_array_append_val (threads, tc);
                        tslot = GUINT_TO_POINTER (threads->len);
                        g_hash_table_insert (thread_slots, thread_key (pid, tid), tslot);
                      }
                    g_array_index (threads, ThreadCount, GPOINTER_TO_UINT (tslot) - 1).count++;
                    row_thread[k - first] = GPOINTER_TO_UINT (tslot);
                  }
              }
            if (pid == ETL_SUMMARY_NO_PID)
              no_pid = TRUE;
            else if ((slot = g_hash_table_lookup (pids, GUINT_TO_POINTER (pid))) != NULL)
              g_array_index (counts, PidCount, GPOINTER_TO_UINT (slot) - 1).count++;
            else
              {
                PidCount pc = { pid, 1, etl_trace_get_filetime (trace, i) };

                g_array_append_val (counts, pc);
                g_hash_table_insert (pids, GUINT_TO_POINTER (pid), GUINT_TO_POINTER (counts->len));
              }
          }
        if (no_pid || counts->len == 0)
          {
            PidCount none = { ETL_SUMMARY_NO_PID, 0, 0 };
            g_array_append_val (counts, none);
          }
        g_array_sort (counts, compare_pid_counts);
        g_array_sort (threads, compare_thread_counts);
        g_hash_table_remove_all (pids);
        self->n_lanes = counts->len + threads->len;
        self->lane_ids = g_new (guint, self->n_lanes);
        self->lane_labels = g_new0 (char *, self->n_lanes + 1);
        self->lane_starts = g_new0 (gint64, self->n_lanes);
        self->lane_ends = g_new0 (gint64, self->n_lanes);
        self->lane_is_thread = g_new0 (gboolean, self->n_lanes);
        for (guint i = 0; i < self->n_lanes; i++)
          self->lane_starts[i] = NO_LIFETIME;
        {
          /* Thread index (in the unsorted order row_thread uses) → lane. */
          g_autofree guint *thread_lane = g_new0 (guint, threads->len + 1);
          g_autofree guint *sorted_to_slot = g_new0 (guint, threads->len + 1);

          for (guint t = 0; t < threads->len; t++)
            {
              const ThreadCount *tc = &g_array_index (threads, ThreadCount, t);

              sorted_to_slot[t] = GPOINTER_TO_UINT (g_hash_table_lookup (thread_slots, thread_key (tc->pid, tc->tid)));
            }

          lane = 0;
          for (guint i = 0; i < counts->len; i++)
            {
              const PidCount *pc = &g_array_index (counts, PidCount, i);
              guint pid = pc->pid;

              self->lane_ids[lane] = pid;
              if (pid == ETL_SUMMARY_NO_PID)
                self->lane_labels[lane] = g_strdup ("No process");
              else
                {
                  /* "Test.x64.exe (3676)": the process that held the pid
                   * when the lane's first record was logged. */
                  const EtlProcess *process =
                      processes != NULL ? etl_process_table_lookup (processes, pid, pc->first_seen) : NULL;

                  if (process != NULL && process->image_name != NULL)
                    self->lane_labels[lane] = etl_process_format_name (process, pid);
                  else
                    self->lane_labels[lane] = g_strdup_printf ("PID %u", pid);
                  if (process != NULL)
                    {
                      self->lane_starts[lane] = process->start_time;
                      self->lane_ends[lane] = process->end_time;
                    }
                  g_hash_table_insert (pids, GUINT_TO_POINTER (pid), GUINT_TO_POINTER (lane + 1));
                }
              lane++;
              /* Its threads, most records first: "name (TID n)" or "TID n". */
              for (guint t = 0; t < threads->len; t++)
                {
                  const ThreadCount *tc = &g_array_index (threads, ThreadCount, t);
                  const EtlThread *thread;

                  if (tc->pid != pid)
                    continue;
                  thread = processes != NULL ? etl_process_table_lookup_thread (processes, tc->tid, tc->first_seen) : NULL;
                  self->lane_ids[lane] = tc->tid;
                  self->lane_is_thread[lane] = TRUE;
                  if (thread != NULL && thread->name != NULL && thread->name[0] != '\0')
                    self->lane_labels[lane] = g_strdup_printf ("%s (TID %u)", thread->name, tc->tid);
                  else
                    self->lane_labels[lane] = g_strdup_printf ("TID %u", tc->tid);
                  if (thread != NULL)
                    {
                      self->lane_starts[lane] = thread->start_time;
                      self->lane_ends[lane] = thread->end_time;
                    }
                  if (sorted_to_slot[t] > 0 && sorted_to_slot[t] <= threads->len)
                    thread_lane[sorted_to_slot[t]] = lane + 1;
                  lane++;
                }
            }
          g_assert (lane == self->n_lanes);
          /* row_thread: slot → lane + 1, for the counting loop. */
          if (row_thread != NULL)
            for (guint64 k = 0; k < last - first; k++)
              row_thread[k] = row_thread[k] != 0 ? thread_lane[row_thread[k]] : 0;
          *row_thread_lanes = g_steal_pointer (&row_thread);
        }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  self->lane_totals = g_new0 (guint64, self->n_lanes);
  return pids;
}

static guint
summary_lane_of (EtlSummary *self, EtlTrace *trace, GHashTable *pids, guint64 i, guint32 pid)
{
  switch (self->mode)
    {
    case ETL_LANE_CPU:
      return MIN (etl_trace_get_cpu (trace, i), self->n_lanes - 1);

    case ETL_LANE_PROVIDER:
      return MIN (etl_trace_get_provider_index (trace, i), self->n_lanes - 1);

    case ETL_LANE_PROCESS:
      {
        gpointer lane;

        if (pid != ETL_SUMMARY_NO_PID && (lane = g_hash_table_lookup (pids, GUINT_TO_POINTER (pid))) != NULL)
          return GPOINTER_TO_UINT (lane) - 1;
        return self->n_lanes - 1;
      }

    default:
      g_assert_not_reached ();
    }
  return 0;
}

/**
 * etl_summary_new:
 * @trace: a trace
 * @rows: (nullable): the rows to count (those a filter kept, see
 *   #EtlRowSet); %NULL or a set for which etl_row_set_is_all() holds counts
 *   every record
 * @mode: how to split records into lanes
 * @begin: start of the summarised range, FILETIME (100-ns ticks), inclusive
 * @end: end of the range, FILETIME, exclusive; when @end ≤ @begin the whole
 *   trace is summarised, from its first to just past its last record
 * @bins_log2: log2 of the number of finest bins (clamped to 1…20, and lowered
 *   so that lanes × bins stays below 8 Mi cells); 16 is a good default
 * @cancellable: (nullable): checked every 65536 records
 * @error: return location for a #GError
 *
 * Counts the records of @trace (only those in @rows) whose FILETIME lies in
 * [@begin, @end) per lane and per finest bin, then builds each coarser level by pairwise sums.  Bin i
 * covers [begin + i × w, begin + (i + 1) × w) with the integer bin width
 * w = ⌈(end − begin) / 2^bins_log2⌉ ≥ 1 tick, so bin edges are exact FILETIMEs
 * and counts over whole bins equal counts over the index found with
 * etl_trace_lower_bound().  Each bin's dominant provider is the majority
 * vote (Boyer–Moore) of its records' providers; a coarser bin takes that of
 * its fuller half.
 *
 * Only the index getters of @trace are used in the CPU and provider modes;
 * this runs in O(records + cells) (records of @rows in the range, found by
 * binary search) and may be called from any thread.  In %ETL_LANE_PROCESS
 * mode the lanes are the processes of the rows counted, most records first
 * ("No process" last); a record whose header has no process id (PERFINFO
 * SampledProfile, CSwitch, …) is read and attributed through the thread its
 * payload names (the trace's process table at the record's time), so that
 * mode is meant for a worker.  In the other modes lanes do not depend on
 * @rows.
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL with
 *   %G_IO_ERROR_CANCELLED
 */
EtlSummary *
etl_summary_new (EtlTrace *trace,
                 EtlRowSet *rows,
                 EtlLaneMode mode,
                 gint64 begin,
                 gint64 end,
                 guint bins_log2,
                 GCancellable *cancellable,
                 GError **error)
{
  return etl_summary_new_expanded (trace, rows, mode, NULL, 0, begin, end, bins_log2, cancellable, error);
}

/**
 * etl_summary_new_expanded:
 * @trace: a trace
 * @rows: (nullable): as for etl_summary_new()
 * @mode: how to split records into lanes
 * @expanded: (array length=n_expanded) (nullable): in %ETL_LANE_PROCESS
 *   mode, the process ids whose threads get lanes of their own
 * @n_expanded: number of ids in @expanded
 * @begin: as for etl_summary_new()
 * @end: as for etl_summary_new()
 * @bins_log2: as for etl_summary_new()
 * @cancellable: (nullable): checked every 65536 records
 * @error: return location for a #GError
 *
 * As etl_summary_new(); in %ETL_LANE_PROCESS mode each process of @expanded
 * is followed by one lane per thread of it (etl_summary_get_lane_is_thread(),
 * the thread id as lane id, "name (TID n)" or "TID n" as label, most records
 * first).  A record of such a process counts in its process lane and in its
 * thread's lane, so lane totals then add up to more than the records.  The
 * thread of a record is its header's ThreadId, else the one its payload
 * names (SampledProfile ThreadId, CSwitch NewThreadId).
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL with
 *   %G_IO_ERROR_CANCELLED
 */
EtlSummary *
etl_summary_new_expanded (EtlTrace *trace,
                          EtlRowSet *rows,
                          EtlLaneMode mode,
                          const guint32 *expanded,
                          guint n_expanded,
                          gint64 begin,
                          gint64 end,
                          guint bins_log2,
                          GCancellable *cancellable,
                          GError **error)
{
  g_autoptr (EtlSummary) self = NULL;
  g_autoptr (GHashTable) expanded_set = NULL;
  g_autofree guint32 *row_thread_lanes = NULL;
  GHashTable *pids = NULL;
  g_autofree guint32 *votes = NULL;
  g_autofree guint32 *row_pids = NULL;
  guint64 first, last;
  guint64 span;
  gsize cells;
  const EtlRowSet *set = NULL;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (mode <= ETL_LANE_PROCESS, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (end <= begin)
    {
      begin = etl_trace_get_first_filetime (trace);
      end = etl_trace_get_last_filetime (trace) + 1;
    }

  self = g_new0 (EtlSummary, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->mode = mode;
  self->begin = begin;
  self->end = end;

  first = etl_trace_lower_bound (trace, begin);
  last = etl_trace_lower_bound (trace, end);
  if (rows != NULL && !etl_row_set_is_all (rows))
    {
      /* Positions in the set instead of rows: both ascend together. */
      set = rows;
      first = etl_row_set_find (set, first);
      last = etl_row_set_find (set, last);
    }

  if (mode == ETL_LANE_PROCESS && expanded != NULL && n_expanded > 0)
    {
      expanded_set = g_hash_table_new (NULL, NULL);
      for (guint e = 0; e < n_expanded; e++)
        g_hash_table_add (expanded_set, GUINT_TO_POINTER (expanded[e]));
    }
  pids = summary_setup_lanes (self, trace, set, first, last, expanded_set, &row_pids, &row_thread_lanes,
                              cancellable);
  self->lane_of_pid = pids; /* owned by the summary */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  bins_log2 = CLAMP (bins_log2, 1, MAX_BINS_LOG2);
  while (bins_log2 > 1 && ((guint64) self->n_lanes << bins_log2) > (G_GUINT64_CONSTANT (1) << MAX_CELLS_LOG2))
    bins_log2--;
  span = (guint64) (end - begin);
  /* No more bins than ticks: a bin is at least one 100-ns tick wide. */
  while (bins_log2 > 1 && (G_GUINT64_CONSTANT (1) << bins_log2) > span)
    bins_log2--;

  self->n_bins = 1u << bins_log2;
  self->n_levels = bins_log2 + 1;
  self->bin_width = (gint64) MAX ((span + self->n_bins - 1) / self->n_bins, 1);
  self->counts = g_new0 (guint32 *, self->n_levels);
  self->dominant = g_new0 (guint16 *, self->n_levels);

  cells = (gsize) self->n_lanes * self->n_bins;
  self->counts[0] = g_new0 (guint32, cells);
  self->dominant[0] = g_new (guint16, cells);
  votes = g_new0 (guint32, cells);
  for (gsize c = 0; c < cells; c++)
    self->dominant[0][c] = ETL_SUMMARY_NO_PROVIDER;

  for (guint64 k = first; k < last; k++)
    {
      guint64 i = summary_row (set, k);
      gint64 ft = etl_trace_get_filetime (trace, i);
      guint lane = summary_lane_of (self, trace, pids, i, row_pids != NULL ? row_pids[k - first] : 0);
      guint64 bin = (guint64) (ft - begin) / (guint64) self->bin_width;
      guint provider = MIN (etl_trace_get_provider_index (trace, i), ETL_SUMMARY_NO_PROVIDER - 1);
      gsize cell;

      if ((k & CANCEL_CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      g_assert (bin < self->n_bins);
      cell = (gsize) lane * self->n_bins + bin;
      self->counts[0][cell]++;
      self->lane_totals[lane]++;

      if (votes[cell] == 0)
        {
          self->dominant[0][cell] = provider;
          votes[cell] = 1;
        }
      else if (self->dominant[0][cell] == provider)
        votes[cell]++;
      else
        votes[cell]--;

      /* A thread of an expanded process: its lane counts the record too. */
      if (row_thread_lanes != NULL && row_thread_lanes[k - first] != 0)
        {
          guint tl = row_thread_lanes[k - first] - 1;

          cell = (gsize) tl * self->n_bins + bin;
          self->counts[0][cell]++;
          self->lane_totals[tl]++;
          if (votes[cell] == 0)
            {
              self->dominant[0][cell] = provider;
              votes[cell] = 1;
            }
          else if (self->dominant[0][cell] == provider)
            votes[cell]++;
          else
            votes[cell]--;
        }
    }
  self->n_records = last - first;

  for (guint l = 1; l < self->n_levels; l++)
    {
      guint n = self->n_bins >> l;
      const guint32 *fine = self->counts[l - 1];
      const guint16 *fine_dom = self->dominant[l - 1];

      self->counts[l] = g_new (guint32, (gsize) self->n_lanes * n);
      self->dominant[l] = g_new (guint16, (gsize) self->n_lanes * n);
      for (guint lane = 0; lane < self->n_lanes; lane++)
        {
          const guint32 *f = fine + (gsize) lane * (n * 2);
          const guint16 *fd = fine_dom + (gsize) lane * (n * 2);
          guint32 *c = self->counts[l] + (gsize) lane * n;
          guint16 *d = self->dominant[l] + (gsize) lane * n;

          for (guint b = 0; b < n; b++)
            {
              c[b] = f[2 * b] + f[2 * b + 1];
              d[b] = f[2 * b] >= f[2 * b + 1] ? fd[2 * b] : fd[2 * b + 1];
            }
        }
    }

  return g_steal_pointer (&self);
}

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  EtlLaneMode mode;
  gint64 begin;
  gint64 end;
  guint bins_log2;
  guint32 *expanded;
  guint n_expanded;
} BuildData;

static void
build_data_free (gpointer data)
{
  BuildData *bd = data;

  g_clear_pointer (&bd->trace, etl_trace_unref);
  g_clear_pointer (&bd->rows, etl_row_set_unref);
  g_free (bd->expanded);
  g_free (bd);
}

static void
summary_build_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  BuildData *bd = task_data;
  GError *error = NULL;
  EtlSummary *summary;

  summary = etl_summary_new_expanded (bd->trace, bd->rows, bd->mode, bd->expanded, bd->n_expanded, bd->begin, bd->end,
                                      bd->bins_log2, cancellable, &error);
  if (summary == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, summary, (GDestroyNotify) etl_summary_unref);
}

/**
 * etl_summary_new_async:
 * @trace: a trace
 * @rows: (nullable): the rows to count; %NULL for every row
 * @mode: how to split records into lanes
 * @begin: start of the range, FILETIME, inclusive
 * @end: end of the range, FILETIME, exclusive (≤ @begin: the whole trace)
 * @bins_log2: log2 of the number of finest bins
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context when done
 * @user_data: closure for @callback
 *
 * Runs etl_summary_new() in a worker thread.  @trace and @rows are kept
 * alive until then (both are immutable, so sharing them is safe).
 */
void
etl_summary_new_async (EtlTrace *trace,
                       EtlRowSet *rows,
                       EtlLaneMode mode,
                       gint64 begin,
                       gint64 end,
                       guint bins_log2,
                       GCancellable *cancellable,
                       GAsyncReadyCallback callback,
                       gpointer user_data)
{
  etl_summary_new_expanded_async (trace, rows, mode, NULL, 0, begin, end, bins_log2, cancellable, callback,
                                  user_data);
}

/**
 * etl_summary_new_expanded_async:
 * @trace: a trace
 * @rows: (nullable): the rows to count; %NULL for every row
 * @mode: how to split records into lanes
 * @expanded: (array length=n_expanded) (nullable): process ids whose threads
 *   get lanes (copied)
 * @n_expanded: number of ids in @expanded
 * @begin: start of the range, FILETIME, inclusive
 * @end: end of the range, FILETIME, exclusive (≤ @begin: the whole trace)
 * @bins_log2: log2 of the number of finest bins
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context when done
 * @user_data: closure for @callback
 *
 * Runs etl_summary_new_expanded() in a worker thread; finish with
 * etl_summary_new_finish().
 */
void
etl_summary_new_expanded_async (EtlTrace *trace,
                                EtlRowSet *rows,
                                EtlLaneMode mode,
                                const guint32 *expanded,
                                guint n_expanded,
                                gint64 begin,
                                gint64 end,
                                guint bins_log2,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  BuildData *bd;

  g_return_if_fail (trace != NULL);

  bd = g_new0 (BuildData, 1);
  bd->trace = etl_trace_ref (trace);
  bd->rows = rows != NULL ? etl_row_set_ref (rows) : NULL;
  bd->mode = mode;
  bd->begin = begin;
  bd->end = end;
  bd->bins_log2 = bins_log2;
  if (expanded != NULL && n_expanded > 0)
    {
      bd->expanded = g_memdup2 (expanded, n_expanded * sizeof (guint32));
      bd->n_expanded = n_expanded;
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, etl_summary_new_async);
  g_task_set_task_data (task, bd, build_data_free);
  etl_worker_run (task, summary_build_thread);
}

/**
 * etl_summary_new_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL with @error set
 */
EtlSummary *
etl_summary_new_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * etl_summary_ref:
 * @summary: a summary
 *
 * Returns: (transfer full): @summary with one more reference
 */
EtlSummary *
etl_summary_ref (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_atomic_ref_count_inc (&summary->ref_count);
  return summary;
}

/**
 * etl_summary_unref:
 * @summary: (transfer full): a summary
 *
 * Drops a reference; the last one frees the summary.
 */
void
etl_summary_unref (EtlSummary *summary)
{
  g_return_if_fail (summary != NULL);
  if (g_atomic_ref_count_dec (&summary->ref_count))
    etl_summary_free (summary);
}

/**
 * etl_summary_get_mode:
 * @summary: a summary
 *
 * Returns: how the lanes were chosen
 */
EtlLaneMode
etl_summary_get_mode (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, ETL_LANE_CPU);
  return summary->mode;
}

/**
 * etl_summary_get_n_lanes:
 * @summary: a summary
 *
 * Returns: the number of lanes (at least one)
 */
guint
etl_summary_get_n_lanes (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_lanes;
}

/**
 * etl_summary_get_lane_id:
 * @summary: a summary
 * @lane: lane index
 *
 * Returns: the processor index, provider index (G_MAXUINT16 for the overflow
 *   lane) or process id (%ETL_SUMMARY_NO_PID for records without one) of @lane
 */
guint
etl_summary_get_lane_id (EtlSummary *summary, guint lane)
{
  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (lane < summary->n_lanes, 0);
  return summary->lane_ids[lane];
}

/**
 * etl_summary_get_lane_of_row:
 * @summary: a summary
 * @trace: the trace @summary was made from
 * @row: a record index of @trace
 *
 * The lane etl_summary_new() counts record @row in: its processor, its
 * provider, or (%ETL_LANE_PROCESS) the lane of its process, attributed as
 * etl_summary_new() does (through the thread for records without a header
 * process id; this reads the record), the last lane when it has none.
 *
 * Returns: a lane index below etl_summary_get_n_lanes()
 */
guint
etl_summary_get_lane_of_row (EtlSummary *summary, EtlTrace *trace, guint64 row)
{
  guint32 pid = ETL_SUMMARY_NO_PID;

  g_return_val_if_fail (summary != NULL && trace != NULL, 0);
  g_return_val_if_fail (row < etl_trace_get_n_records (trace), summary->n_lanes - 1);
  if (summary->mode == ETL_LANE_PROCESS)
    pid = summary_record_pid (trace, etl_trace_get_process_table (trace), NULL, row);
  return summary_lane_of (summary, trace, summary->lane_of_pid, row, pid);
}

/**
 * etl_summary_get_lane_is_thread:
 * @summary: a summary
 * @lane: a lane index
 *
 * Returns: %TRUE when @lane is the lane of a thread of an expanded process
 *   (etl_summary_new_expanded()); its lane id is then the thread id
 */
gboolean
etl_summary_get_lane_is_thread (EtlSummary *summary, guint lane)
{
  g_return_val_if_fail (summary != NULL, FALSE);
  g_return_val_if_fail (lane < summary->n_lanes, FALSE);
  return summary->lane_is_thread != NULL && summary->lane_is_thread[lane];
}

/**
 * etl_summary_get_lane_lifetime:
 * @summary: a summary
 * @lane: a lane index
 * @start: (out) (optional): the process's Start time, FILETIME; 0 when it
 *   was running when the trace began (or is unknown)
 * @end: (out) (optional): its End time, FILETIME; 0 when it still ran when
 *   the trace ended (or is unknown)
 *
 * In %ETL_LANE_PROCESS mode, the lifetime of the lane's process from the
 * trace's process table (Process Start/End records, opcodes 1 and 2 of the
 * kernel's Process class).
 *
 * Returns: %TRUE when the lane is a process known to the table
 */
gboolean
etl_summary_get_lane_lifetime (EtlSummary *summary, guint lane, gint64 *start, gint64 *end)
{
  gboolean known;

  g_return_val_if_fail (summary != NULL, FALSE);
  g_return_val_if_fail (lane < summary->n_lanes, FALSE);
  known = summary->lane_starts != NULL && summary->lane_starts[lane] != NO_LIFETIME;

  if (start)
    *start = known ? summary->lane_starts[lane] : 0;
  if (end)
    *end = known ? summary->lane_ends[lane] : 0;
  return known;
}

/**
 * etl_summary_get_lane_label:
 * @summary: a summary
 * @lane: lane index
 *
 * Returns: (transfer none): a label such as "CPU 3", a provider name, or a
 *   process as "Test.x64.exe (3676)" (its image name from the trace's
 *   process table when the lane's first record was logged; "PID 4242" when
 *   the table has no name for it)
 */
const char *
etl_summary_get_lane_label (EtlSummary *summary, guint lane)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (lane < summary->n_lanes, NULL);
  return summary->lane_labels[lane];
}

/**
 * etl_summary_get_begin:
 * @summary: a summary
 *
 * Returns: start of the first finest bin, FILETIME
 */
gint64
etl_summary_get_begin (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->begin;
}

/**
 * etl_summary_get_end:
 * @summary: a summary
 *
 * Returns: end of the summarised range (exclusive), FILETIME
 */
gint64
etl_summary_get_end (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->end;
}

/**
 * etl_summary_get_bin_width:
 * @summary: a summary
 *
 * Returns: width of a finest bin in 100-ns ticks (≥ 1)
 */
gint64
etl_summary_get_bin_width (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 1);
  return summary->bin_width;
}

/**
 * etl_summary_get_n_bins:
 * @summary: a summary
 *
 * Returns: number of finest bins, a power of two
 */
guint
etl_summary_get_n_bins (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_bins;
}

/**
 * etl_summary_get_n_levels:
 * @summary: a summary
 *
 * Returns: number of levels; level l has n_bins >> l bins
 */
guint
etl_summary_get_n_levels (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_levels;
}

/**
 * etl_summary_get_bin_start:
 * @summary: a summary
 * @bin: finest bin index, 0…n_bins (n_bins gives the end of the last bin)
 *
 * Returns: the FILETIME where @bin starts
 */
gint64
etl_summary_get_bin_start (EtlSummary *summary, guint bin)
{
  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (bin <= summary->n_bins, 0);
  return summary->begin + (gint64) bin * summary->bin_width;
}

/**
 * etl_summary_get_n_records:
 * @summary: a summary
 *
 * Returns: records counted, the sum over all lanes and bins
 */
guint64
etl_summary_get_n_records (EtlSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_records;
}

/**
 * etl_summary_get_lane_total:
 * @summary: a summary
 * @lane: lane index
 *
 * Returns: records counted in @lane
 */
guint64
etl_summary_get_lane_total (EtlSummary *summary, guint lane)
{
  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (lane < summary->n_lanes, 0);
  return summary->lane_totals[lane];
}

/**
 * etl_summary_choose_level:
 * @summary: a summary
 * @t0: start of the visible range, FILETIME
 * @t1: end of the visible range, FILETIME (> @t0)
 * @n_columns: pixel columns across [@t0, @t1)
 *
 * Returns: the coarsest level whose bins are no wider than one column, or 0
 *   when even the finest bins are wider
 */
guint
etl_summary_choose_level (EtlSummary *summary, gint64 t0, gint64 t1, guint n_columns)
{
  double column;
  guint level = 0;

  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (n_columns > 0, 0);

  column = (double) (t1 - t0) / n_columns;
  while (level + 1 < summary->n_levels &&
         (double) (summary->bin_width << (level + 1)) <= column)
    level++;
  return level;
}

/**
 * etl_summary_query:
 * @summary: a summary
 * @t0: start of the visible range, FILETIME
 * @t1: end of the visible range, FILETIME (> @t0)
 * @n_columns: pixel columns across [@t0, @t1)
 * @counts: (out caller-allocates) (array): n_lanes × @n_columns counts,
 *   lane-major (lane × @n_columns + column)
 * @dominant: (out caller-allocates) (array) (nullable): n_lanes × @n_columns
 *   dominant provider indexes (%ETL_SUMMARY_NO_PROVIDER where empty): that of
 *   the fullest bin in the column
 *
 * Fills per-lane counts per pixel column from the level chosen by
 * etl_summary_choose_level().  Each bin of that level goes wholly to the
 * column that holds its centre, so column edges snap to bin edges: counts are
 * exact when @t0 and @t1 fall on bin edges of that level and each column
 * spans whole bins.  When a finest bin is wider than a column, its records
 * appear in one column and the neighbours stay empty.
 *
 * Runs in O(lanes × columns): about two bins per column are visited.
 *
 * Returns: the level used
 */
guint
etl_summary_query (EtlSummary *summary,
                   gint64 t0,
                   gint64 t1,
                   guint n_columns,
                   guint32 *counts,
                   guint16 *dominant)
{
  g_autofree guint32 *best = NULL;
  guint level, n;
  gint64 width;
  gint64 b0, b1;
  double column;

  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (counts != NULL, 0);
  g_return_val_if_fail (n_columns > 0, 0);

  memset (counts, 0, sizeof (guint32) * summary->n_lanes * n_columns);
  if (dominant != NULL)
    for (gsize c = 0; c < (gsize) summary->n_lanes * n_columns; c++)
      dominant[c] = ETL_SUMMARY_NO_PROVIDER;

  if (t1 <= t0)
    return 0;

  level = etl_summary_choose_level (summary, t0, t1, n_columns);
  n = summary->n_bins >> level;
  width = summary->bin_width << level;
  column = (double) (t1 - t0) / n_columns;

  /* Bins whose centre may lie in [t0, t1). */
  b0 = t0 <= summary->begin ? 0 : (t0 - summary->begin) / width;
  b1 = t1 <= summary->begin ? 0 : (t1 - summary->begin) / width + 1;
  b1 = MIN (b1, (gint64) n);
  if (b0 >= b1)
    return level;

  if (dominant != NULL)
    best = g_new (guint32, n_columns);

  for (guint lane = 0; lane < summary->n_lanes; lane++)
    {
      const guint32 *c = summary->counts[level] + (gsize) lane * n;
      const guint16 *d = summary->dominant[level] + (gsize) lane * n;
      guint32 *out = counts + (gsize) lane * n_columns;
      guint16 *out_dom = dominant != NULL ? dominant + (gsize) lane * n_columns : NULL;

      if (best != NULL)
        memset (best, 0, sizeof (guint32) * n_columns);

      for (gint64 b = b0; b < b1; b++)
        {
          /* Twice the centre, to stay in integers for odd widths. */
          gint64 centre2 = 2 * (summary->begin + b * width) + width;
          double x;
          guint col;

          if (c[b] == 0 || centre2 < 2 * t0 || centre2 >= 2 * t1)
            continue;
          x = ((double) (centre2 - 2 * t0) / 2.0) / column;
          col = (guint) MIN (x, (double) (n_columns - 1));
          out[col] += c[b];
          if (out_dom != NULL && c[b] > best[col])
            {
              best[col] = c[b];
              out_dom[col] = d[b];
            }
        }
    }

  return level;
}

/* Loss summary */

static void
etl_loss_summary_free (EtlLossSummary *self)
{
  g_assert (self != NULL);
  g_free (self->header_events);
  g_free (self->header_buffers);
  g_free (self->events_cum);
  g_free (self->buffers_cum);
  g_free (self);
}

/**
 * etl_loss_summary_new:
 * @trace: a trace
 * @bins_log2: log2 of the number of bins (clamped to 1…16)
 *
 * Bins the loss time series of @trace (etl_trace_get_losses()) per file over
 * the range that holds every record and every loss point, and accumulates it.
 * Lost events are buffers flagged EVENTS_LOST (one per buffer; the header
 * does not say how many events) and RTLostEvent records; lost buffers are
 * buffers flagged BUFFER_LOST, gaps in the SequenceNumber series (their
 * length) and RTLostBuffer/RTLostFile records.  The header totals
 * (TRACE_LOGFILE_HEADER.EventsLost and BuffersLost) are kept next to them,
 * since a file may state losses it has no time points for.
 *
 * Returns: (transfer full): the loss summary
 */
EtlLossSummary *
etl_loss_summary_new (EtlTrace *trace, guint bins_log2)
{
  EtlLossSummary *self;
  const EtlLoss *losses;
  guint n_losses;
  gint64 begin, end;
  guint64 span;

  g_return_val_if_fail (trace != NULL, NULL);

  losses = etl_trace_get_losses (trace, &n_losses);
  begin = etl_trace_get_first_filetime (trace);
  end = etl_trace_get_last_filetime (trace) + 1;
  for (guint i = 0; i < n_losses; i++)
    {
      begin = MIN (begin, losses[i].filetime);
      end = MAX (end, losses[i].filetime + 1);
    }

  self = g_new0 (EtlLossSummary, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->n_files = etl_trace_get_n_files (trace);
  self->begin = begin;
  self->end = end;
  bins_log2 = CLAMP (bins_log2, 1, 16);
  self->n_bins = 1u << bins_log2;
  span = (guint64) (end - begin);
  self->bin_width = (gint64) MAX ((span + self->n_bins - 1) / self->n_bins, 1);
  self->header_events = g_new0 (guint64, self->n_files);
  self->header_buffers = g_new0 (guint64, self->n_files);
  self->events_cum = g_new0 (guint64, (gsize) self->n_files * self->n_bins);
  self->buffers_cum = g_new0 (guint64, (gsize) self->n_files * self->n_bins);

  for (guint f = 0; f < self->n_files; f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, f);

      self->header_events[f] = info->events_lost;
      self->header_buffers[f] = info->buffers_lost;
    }

  for (guint i = 0; i < n_losses; i++)
    {
      const EtlLoss *loss = &losses[i];
      guint64 bin = (guint64) (loss->filetime - begin) / (guint64) self->bin_width;
      gsize cell;

      if (loss->file >= self->n_files)
        continue;
      cell = (gsize) loss->file * self->n_bins + MIN (bin, self->n_bins - 1);
      switch (loss->kind)
        {
        case ETL_LOSS_EVENTS_LOST_BUFFER:
        case ETL_LOSS_RT_LOST_EVENT:
          self->events_cum[cell] += loss->count;
          break;
        default:
          self->buffers_cum[cell] += loss->count;
          break;
        }
    }

  for (guint f = 0; f < self->n_files; f++)
    {
      guint64 *e = self->events_cum + (gsize) f * self->n_bins;
      guint64 *b = self->buffers_cum + (gsize) f * self->n_bins;

      for (guint i = 1; i < self->n_bins; i++)
        {
          e[i] += e[i - 1];
          b[i] += b[i - 1];
        }
      self->max = MAX (self->max, MAX (e[self->n_bins - 1], b[self->n_bins - 1]));
    }

  return self;
}

/**
 * etl_loss_summary_ref:
 * @summary: a loss summary
 *
 * Returns: (transfer full): @summary with one more reference
 */
EtlLossSummary *
etl_loss_summary_ref (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_atomic_ref_count_inc (&summary->ref_count);
  return summary;
}

/**
 * etl_loss_summary_unref:
 * @summary: (transfer full): a loss summary
 *
 * Drops a reference; the last one frees the summary.
 */
void
etl_loss_summary_unref (EtlLossSummary *summary)
{
  g_return_if_fail (summary != NULL);
  if (g_atomic_ref_count_dec (&summary->ref_count))
    etl_loss_summary_free (summary);
}

/**
 * etl_loss_summary_get_n_files:
 * @summary: a loss summary
 *
 * Returns: number of files
 */
guint
etl_loss_summary_get_n_files (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_files;
}

/**
 * etl_loss_summary_get_begin:
 * @summary: a loss summary
 *
 * Returns: start of the first bin, FILETIME
 */
gint64
etl_loss_summary_get_begin (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->begin;
}

/**
 * etl_loss_summary_get_end:
 * @summary: a loss summary
 *
 * Returns: end of the range, FILETIME, exclusive
 */
gint64
etl_loss_summary_get_end (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->end;
}

/**
 * etl_loss_summary_get_n_bins:
 * @summary: a loss summary
 *
 * Returns: number of bins
 */
guint
etl_loss_summary_get_n_bins (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->n_bins;
}

/**
 * etl_loss_summary_get_header_totals:
 * @summary: a loss summary
 * @file: file index
 * @events_lost: (out) (optional): TRACE_LOGFILE_HEADER.EventsLost
 * @buffers_lost: (out) (optional): TRACE_LOGFILE_HEADER.BuffersLost
 *
 * The totals the file's header states.
 */
void
etl_loss_summary_get_header_totals (EtlLossSummary *summary,
                                    guint file,
                                    guint64 *events_lost,
                                    guint64 *buffers_lost)
{
  g_return_if_fail (summary != NULL);
  g_return_if_fail (file < summary->n_files);
  if (events_lost)
    *events_lost = summary->header_events[file];
  if (buffers_lost)
    *buffers_lost = summary->header_buffers[file];
}

/**
 * etl_loss_summary_get_series_totals:
 * @summary: a loss summary
 * @file: file index
 * @events_lost: (out) (optional): lost events over the time series
 * @buffers_lost: (out) (optional): lost buffers over the time series
 *
 * The totals of the time series (the cumulative values of the last bin).
 */
void
etl_loss_summary_get_series_totals (EtlLossSummary *summary,
                                    guint file,
                                    guint64 *events_lost,
                                    guint64 *buffers_lost)
{
  gsize last;

  g_return_if_fail (summary != NULL);
  g_return_if_fail (file < summary->n_files);
  last = (gsize) file * summary->n_bins + summary->n_bins - 1;
  if (events_lost)
    *events_lost = summary->events_cum[last];
  if (buffers_lost)
    *buffers_lost = summary->buffers_cum[last];
}

/**
 * etl_loss_summary_get_max:
 * @summary: a loss summary
 *
 * Returns: the largest cumulative value of any series of any file
 */
guint64
etl_loss_summary_get_max (EtlLossSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->max;
}

/**
 * etl_loss_summary_query:
 * @summary: a loss summary
 * @file: file index
 * @t0: start of the visible range, FILETIME
 * @t1: end of the visible range, FILETIME (> @t0)
 * @n_columns: pixel columns across [@t0, @t1)
 * @events_cumulative: (out caller-allocates) (array) (nullable): @n_columns
 *   values: events lost up to the end of each column
 * @buffers_cumulative: (out caller-allocates) (array) (nullable): the same
 *   for buffers
 *
 * Samples the cumulative series at the end of each column, in O(columns).
 */
void
etl_loss_summary_query (EtlLossSummary *summary,
                        guint file,
                        gint64 t0,
                        gint64 t1,
                        guint n_columns,
                        guint64 *events_cumulative,
                        guint64 *buffers_cumulative)
{
  const guint64 *e, *b;
  double column;

  g_return_if_fail (summary != NULL);
  g_return_if_fail (file < summary->n_files);
  g_return_if_fail (n_columns > 0);

  e = summary->events_cum + (gsize) file * summary->n_bins;
  b = summary->buffers_cum + (gsize) file * summary->n_bins;
  column = (double) MAX (t1 - t0, 0) / n_columns;

  for (guint c = 0; c < n_columns; c++)
    {
      gint64 t = t0 + (gint64) ((c + 1) * column) - 1;
      guint64 ev = 0, bu = 0;

      if (t >= summary->begin)
        {
          guint64 bin = MIN ((guint64) (t - summary->begin) / (guint64) summary->bin_width,
                             (guint64) summary->n_bins - 1);
          ev = e[bin];
          bu = b[bin];
        }
      if (events_cumulative)
        events_cumulative[c] = ev;
      if (buffers_cumulative)
        buffers_cumulative[c] = bu;
    }
}
