/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-test-util.h"

G_BEGIN_DECLS

typedef struct
{
  guint n_paints;
  guint want;
} EtlTestPaints;

static inline void
etl_test_on_after_paint (GdkFrameClock *clock, gpointer data)
{
  ((EtlTestPaints *) data)->n_paints++;
}

static inline gboolean
etl_test_painted (gpointer data)
{
  const EtlTestPaints *p = data;

  return p->n_paints >= p->want;
}

/* Redraws @widget (shown, in a realized window) and runs the main loop until
 * its frame clock has painted, twice: the layout that a size, page or zoom
 * change asks for, then a paint of it.  The condition, not a fixed wait;
 * fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_paint (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  EtlTestPaints paints = { 0, 0 };
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (etl_test_on_after_paint), &paints);
  for (paints.want = 1; paints.want <= 2; paints.want++)
    {
      gtk_widget_queue_draw (widget);
      etl_test_wait_for (etl_test_painted, &paints, "a paint of the window");
    }
  g_signal_handler_disconnect (clock, id);
}

static void
etl_test_find_running_stack (GtkWidget *widget, gpointer data)
{
  gboolean *running = data;

  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    *running = TRUE;
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), etl_test_find_running_stack, data);
}

static inline gboolean
etl_test_no_stack_transition (gpointer data)
{
  gboolean running = FALSE;

  etl_test_find_running_stack (GTK_WIDGET (data), &running);
  return !running;
}

/* Runs the main loop until no #GtkStack inside @widget is in a transition
 * (a crossfade caught half-way would show two pages in a screenshot), then
 * until a paint.  Fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_transitions (GtkWidget *widget)
{
  etl_test_wait_for (etl_test_no_stack_transition, widget, "the end of the stack transitions");
  etl_test_wait_paint (widget);
}

/* The reference count of @object (a window: the source object of its jobs). */
static inline guint
etl_test_ref_count (gpointer object)
{
  return (guint) g_atomic_int_get ((gint *) &G_OBJECT (object)->ref_count);
}

typedef struct
{
  GObject *object;
  guint ref_count;
} EtlTestRefs;

static inline gboolean
etl_test_refs_back (gpointer data)
{
  const EtlTestRefs *r = data;

  return etl_test_ref_count (r->object) <= r->ref_count;
}

/* A job's GTask holds a reference to its source object (the window) until
 * its worker has returned and its result has been handled in the main loop.
 * Runs the main loop until @object's reference count is back to @ref_count
 * (taken before the job started): the job, even a cancelled one, has
 * stopped and reported.  Fails after ETL_TEST_WAIT_SECONDS. */
static inline void
etl_test_wait_jobs_done (gpointer object, guint ref_count, const char *what)
{
  EtlTestRefs refs = { G_OBJECT (object), ref_count };

  etl_test_wait_for (etl_test_refs_back, &refs, what);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

G_END_DECLS
