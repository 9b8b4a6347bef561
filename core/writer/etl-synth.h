/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-trace.h"

G_BEGIN_DECLS

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
} EtlSynthParams;

void etl_synth_params_init (EtlSynthParams *params);
gboolean etl_synth_write (const EtlSynthParams *params, const char *path, GError **error);

G_END_DECLS
