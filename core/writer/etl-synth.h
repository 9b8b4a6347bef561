/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlSynthModule:
 * @file_name: the Image record's FileName (`\Device\…\app.exe`)
 * @base: ImageBase
 * @size: ImageSize, bytes
 * @has_dbgid: write a KernelTraceControl DbgID_RSDS record for it
 * @guid: with @has_dbgid, the record's GuidSig
 * @age: with @has_dbgid, its Age
 * @pdb_name: with @has_dbgid, its PdbFileName (ANSI)
 *
 * One image of the symbols trace (#EtlSynthParams.symbol_modules).
 */
typedef struct
{
  const char *file_name;
  guint64 base;
  guint64 size;
  gboolean has_dbgid;
  EtlGuid guid;
  guint32 age;
  const char *pdb_name;
} EtlSynthModule;

/**
 * EtlSynthParams:
 * @n_cpus: processors, 1 to 2048
 * @n_records: event records to write, the EventTrace header record excluded
 *   (the file holds @n_records + 1 records); processor c gets
 *   @n_records / @n_cpus, plus one when c < @n_records % @n_cpus
 * @buffer_kb: BufferSize in KiB, 4 to 16384
 * @clock: the timestamp clock (#EtlClockType)
 * @loss_rate: fraction of full buffers the session loses, 0 to 0.9: each
 *   lost buffer leaves a SequenceNumber gap, flags its processor's next buffer
 *   EVENTS_LOST and is counted in BuffersLost, its records in EventsLost
 * @seed: seed of the deterministic generator; equal parameters give
 *   byte-identical files
 * @schedule: write the CPU-schedule trace instead of the random mix (see
 *   etl_synth_write()); @n_records and @loss_rate are then ignored
 * @schedule_ms: length of the schedule in 1-ms slots, 1 to 3,600,000
 *   (default 100)
 * @sample_interval: with @schedule, the SampledProfile interval in 100-ns
 *   units, 1,000 to 1,000,000; 0 (the default) writes no
 *   SampledProfileInterval record and samples every 1 ms
 * @waits: write the waits schedule instead (CSwitch and ReadyThread records
 *   of four threads of three processes with known waits, readyings and a
 *   preemption, on processors 0 and 1; see etl-synth-waits.c); needs
 *   @n_cpus ≥ 2; @n_records, @loss_rate and the schedule fields are then
 *   ignored
 * @no_ready_thread: with @waits, leave the ReadyThread records out
 * @waits_stacks: with @waits, add Image Load records and a StackWalk record
 *   after each CSwitch (the new thread's stack) and ReadyThread (the
 *   readying thread's stack); see etl-synth-waits.c
 * @symbol_modules: (array length=n_symbol_modules) (nullable): write the
 *   symbols trace instead (see etl-synth-symbols.c): process 1000 with
 *   thread 1004, these images loaded in it (each after its DbgID_RSDS record
 *   when it has one), then one SampledProfile with its StackWalk record per
 *   stack of @symbol_stacks; @n_records, @loss_rate, @schedule and @waits
 *   are then ignored
 * @n_symbol_modules: images in @symbol_modules, up to 64
 * @symbol_stacks: (array length=n_symbol_stacks): the samples' return
 *   addresses, innermost first, each stack ended by a 0
 * @n_symbol_stacks: words in @symbol_stacks
 * @activities: write the activities trace instead (TraceLogging Start/Stop
 *   events with ActivityIds and RelatedActivityIds; see
 *   etl-synth-activities.c); @loss_rate and the schedule fields are then
 *   ignored
 * @activity_pairs: with @activities: 0 writes the exact scenario (22
 *   records, @n_records ignored); N > 0 writes @n_records records of which
 *   N Start/Stop pairs, on @n_cpus threads
 * @builtin_spans: write the built-in spans trace instead (kernel process,
 *   thread, FileIo and DiskIo records of one process with known intervals;
 *   see etl-synth-spans.c); @n_records, @loss_rate and the schedule fields
 *   are then ignored
 *
 * What etl_synth_write() generates.  Initialise with etl_synth_params_init().
 */
typedef struct
{
  guint n_cpus;
  guint64 n_records;
  guint buffer_kb;
  EtlClockType clock;
  double loss_rate;
  guint64 seed;
  gboolean schedule;
  guint schedule_ms;
  guint sample_interval;
  gboolean waits;
  gboolean no_ready_thread;
  gboolean waits_stacks;
  const EtlSynthModule *symbol_modules;
  guint n_symbol_modules;
  const guint64 *symbol_stacks;
  guint n_symbol_stacks;
  gboolean activities;
  guint64 activity_pairs;
  gboolean builtin_spans;
} EtlSynthParams;

void etl_synth_params_init (EtlSynthParams *params);
gboolean etl_synth_write (const EtlSynthParams *params, const char *path, GError **error);

G_END_DECLS
