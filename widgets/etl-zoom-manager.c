/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-zoom-manager
 * @title: EtlZoomManager
 * @short_description: the visible time range shared by the trace widgets
 *
 * The time ruler, the timeline and the loss plot all draw the same visible
 * range [begin, end) of FILETIMEs (100-ns ticks) over the same pixel columns.
 * #EtlZoomManager holds that range, clamps it to the trace's bounds (with a
 * small margin) and a minimum span, and exposes it as a #GActionGroup with
 * "zoom-in", "zoom-out" and "zoom-fit" whose enabled state follows the
 * #EtlZoomManager:can-zoom-in and #EtlZoomManager:can-zoom-out properties, in
 * the manner of sysprof's SysprofZoomManager.  Insert it in a window with
 * gtk_widget_insert_action_group (window, "zoom", G_ACTION_GROUP (manager)).
 *
 * #EtlZoomManager::changed is emitted once per change of the range, after
 * the properties were updated.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-zoom-manager.h"

/* Smallest span: 1 µs. */
#define DEFAULT_MIN_SPAN 10
/* Margin each side of the bounds, as a fraction of their span. */
#define MARGIN_FRACTION 0.01

struct _EtlZoomManager
{
  GObject parent_instance;

  GSimpleActionGroup *actions;

  gint64 bounds_begin;
  gint64 bounds_end;
  gint64 begin;
  gint64 end;
  gint64 min_span;
  gint64 focus;    /* FILETIME zoom-in/zoom-out centre on; G_MININT64: none */

  guint can_zoom_in : 1;
  guint can_zoom_out : 1;
};

enum {
  PROP_0,
  PROP_BEGIN,
  PROP_END,
  PROP_BOUNDS_BEGIN,
  PROP_BOUNDS_END,
  PROP_MIN_SPAN,
  PROP_CAN_ZOOM_IN,
  PROP_CAN_ZOOM_OUT,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static void action_group_iface_init (GActionGroupInterface *iface);

G_DEFINE_TYPE_WITH_CODE (EtlZoomManager, etl_zoom_manager, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_ACTION_GROUP, action_group_iface_init))

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
limits (EtlZoomManager *self, gint64 *lo, gint64 *hi)
{
  gint64 span = self->bounds_end - self->bounds_begin;
  gint64 margin = (gint64) (span * MARGIN_FRACTION);

  *lo = self->bounds_begin - margin;
  *hi = self->bounds_end + margin;
}

static void
update_can_zoom (EtlZoomManager *self)
{
  gint64 lo, hi;
  gboolean can_in, can_out;

  limits (self, &lo, &hi);
  can_in = self->end - self->begin > self->min_span;
  can_out = self->end - self->begin < hi - lo;

  if (can_in != self->can_zoom_in)
    {
      self->can_zoom_in = can_in;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_ZOOM_IN]);
    }
  if (can_out != self->can_zoom_out)
    {
      self->can_zoom_out = can_out;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_ZOOM_OUT]);
    }
}

static void
zoom_in_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_zoom_manager_zoom_in (ETL_ZOOM_MANAGER (user_data));
}

static void
zoom_out_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_zoom_manager_zoom_out (ETL_ZOOM_MANAGER (user_data));
}

static void
zoom_fit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_zoom_manager_zoom_fit (ETL_ZOOM_MANAGER (user_data));
}

/* Forward the inner group's signals so that actionable widgets follow. */
static void
on_action_enabled_changed (GActionGroup *group, const char *name, gboolean enabled, gpointer user_data)
{
  g_action_group_action_enabled_changed (G_ACTION_GROUP (user_data), name, enabled);
}

static void
on_action_state_changed (GActionGroup *group, const char *name, GVariant *state, gpointer user_data)
{
  g_action_group_action_state_changed (G_ACTION_GROUP (user_data), name, state);
}

static void
etl_zoom_manager_finalize (GObject *object)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (object);

  g_clear_object (&self->actions);

  G_OBJECT_CLASS (etl_zoom_manager_parent_class)->finalize (object);
}

static void
etl_zoom_manager_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (object);

  switch (prop_id)
    {
    case PROP_BEGIN:
      g_value_set_int64 (value, self->begin);
      break;

    case PROP_END:
      g_value_set_int64 (value, self->end);
      break;

    case PROP_BOUNDS_BEGIN:
      g_value_set_int64 (value, self->bounds_begin);
      break;

    case PROP_BOUNDS_END:
      g_value_set_int64 (value, self->bounds_end);
      break;

    case PROP_MIN_SPAN:
      g_value_set_int64 (value, self->min_span);
      break;

    case PROP_CAN_ZOOM_IN:
      g_value_set_boolean (value, self->can_zoom_in);
      break;

    case PROP_CAN_ZOOM_OUT:
      g_value_set_boolean (value, self->can_zoom_out);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_zoom_manager_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (object);

  switch (prop_id)
    {
    case PROP_BEGIN:
      etl_zoom_manager_set_visible (self, g_value_get_int64 (value), self->end);
      break;

    case PROP_END:
      etl_zoom_manager_set_visible (self, self->begin, g_value_get_int64 (value));
      break;

    case PROP_MIN_SPAN:
      etl_zoom_manager_set_min_span (self, g_value_get_int64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_zoom_manager_class_init (EtlZoomManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = etl_zoom_manager_finalize;
  object_class->get_property = etl_zoom_manager_get_property;
  object_class->set_property = etl_zoom_manager_set_property;

  /**
   * EtlZoomManager:begin:
   *
   * Start of the visible range, FILETIME (100-ns ticks since 1601, UTC).
   */
  properties[PROP_BEGIN] =
    g_param_spec_int64 ("begin", "Begin", "Start of the visible range, FILETIME",
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:end:
   *
   * End of the visible range, FILETIME, exclusive.
   */
  properties[PROP_END] =
    g_param_spec_int64 ("end", "End", "End of the visible range, FILETIME",
                        G_MININT64, G_MAXINT64, DEFAULT_MIN_SPAN,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:bounds-begin:
   *
   * Start of the whole trace, FILETIME; see etl_zoom_manager_set_bounds().
   */
  properties[PROP_BOUNDS_BEGIN] =
    g_param_spec_int64 ("bounds-begin", "Bounds begin", "Start of the trace, FILETIME",
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:bounds-end:
   *
   * End of the whole trace, FILETIME.
   */
  properties[PROP_BOUNDS_END] =
    g_param_spec_int64 ("bounds-end", "Bounds end", "End of the trace, FILETIME",
                        G_MININT64, G_MAXINT64, DEFAULT_MIN_SPAN,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:min-span:
   *
   * The narrowest visible range, in 100-ns ticks.
   */
  properties[PROP_MIN_SPAN] =
    g_param_spec_int64 ("min-span", "Minimum span", "Narrowest visible range, 100-ns ticks",
                        1, G_MAXINT64, DEFAULT_MIN_SPAN,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:can-zoom-in:
   *
   * Whether the visible range is wider than #EtlZoomManager:min-span.
   */
  properties[PROP_CAN_ZOOM_IN] =
    g_param_spec_boolean ("can-zoom-in", "Can zoom in", "Can zoom in",
                          FALSE, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlZoomManager:can-zoom-out:
   *
   * Whether the visible range is narrower than the bounds and their margin.
   */
  properties[PROP_CAN_ZOOM_OUT] =
    g_param_spec_boolean ("can-zoom-out", "Can zoom out", "Can zoom out",
                          FALSE, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EtlZoomManager::changed:
   * @self: the zoom manager
   *
   * The visible range or the bounds changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
etl_zoom_manager_init (EtlZoomManager *self)
{
  static const GActionEntry entries[] = {
    { "zoom-in", zoom_in_action },
    { "zoom-out", zoom_out_action },
    { "zoom-fit", zoom_fit_action },
  };
  GAction *action;

  self->min_span = DEFAULT_MIN_SPAN;
  self->focus = G_MININT64;
  self->bounds_end = DEFAULT_MIN_SPAN;
  self->end = DEFAULT_MIN_SPAN;

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  g_signal_connect_object (self->actions, "action-enabled-changed",
                           G_CALLBACK (on_action_enabled_changed), self, 0);
  g_signal_connect_object (self->actions, "action-state-changed",
                           G_CALLBACK (on_action_state_changed), self, 0);

  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "zoom-in");
  g_object_bind_property (self, "can-zoom-in", action, "enabled", G_BINDING_SYNC_CREATE);
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "zoom-out");
  g_object_bind_property (self, "can-zoom-out", action, "enabled", G_BINDING_SYNC_CREATE);
}

/**
 * etl_zoom_manager_new:
 *
 * Returns: (transfer full): a zoom manager with empty bounds
 */
EtlZoomManager *
etl_zoom_manager_new (void)
{
  return g_object_new (ETL_TYPE_ZOOM_MANAGER, NULL);
}

static void
set_range (EtlZoomManager *self, gint64 begin, gint64 end)
{
  gboolean changed = FALSE;

  g_assert (ETL_IS_ZOOM_MANAGER (self));

  if (begin != self->begin)
    {
      self->begin = begin;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BEGIN]);
      changed = TRUE;
    }
  if (end != self->end)
    {
      self->end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END]);
      changed = TRUE;
    }
  update_can_zoom (self);
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * etl_zoom_manager_set_bounds:
 * @self: a zoom manager
 * @begin: FILETIME of the trace's first record
 * @end: FILETIME just past its last record (raised to @begin + 1 ms when
 *   the trace is shorter)
 *
 * Sets the range the view may show (plus a 1 % margin each side) and zooms
 * to fit it.
 */
void
etl_zoom_manager_set_bounds (EtlZoomManager *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  end = MAX (end, begin + 10000);
  self->bounds_begin = begin;
  self->bounds_end = end;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOUNDS_BEGIN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOUNDS_END]);
  etl_zoom_manager_zoom_fit (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * etl_zoom_manager_get_bounds:
 * @self: a zoom manager
 * @begin: (out) (optional): FILETIME of the trace's first record
 * @end: (out) (optional): FILETIME just past its last record
 */
void
etl_zoom_manager_get_bounds (EtlZoomManager *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));
  if (begin)
    *begin = self->bounds_begin;
  if (end)
    *end = self->bounds_end;
}

/**
 * etl_zoom_manager_set_visible:
 * @self: a zoom manager
 * @begin: start of the range, FILETIME
 * @end: end of the range, FILETIME, exclusive
 *
 * Shows [@begin, @end), widened to #EtlZoomManager:min-span around its centre,
 * narrowed to the bounds and their margin, and shifted inside them.
 */
void
etl_zoom_manager_set_visible (EtlZoomManager *self, gint64 begin, gint64 end)
{
  gint64 lo, hi, span;

  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  limits (self, &lo, &hi);
  if (end < begin)
    {
      gint64 t = begin;
      begin = end;
      end = t;
    }
  span = end - begin;
  if (span < self->min_span)
    {
      gint64 center = begin + span / 2;
      span = self->min_span;
      begin = center - span / 2;
    }
  span = MIN (span, hi - lo);
  begin = CLAMP (begin, lo, hi - span);
  set_range (self, begin, begin + span);
}

/**
 * etl_zoom_manager_get_visible:
 * @self: a zoom manager
 * @begin: (out) (optional): start of the visible range, FILETIME
 * @end: (out) (optional): end of the visible range, FILETIME, exclusive
 */
void
etl_zoom_manager_get_visible (EtlZoomManager *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));
  if (begin)
    *begin = self->begin;
  if (end)
    *end = self->end;
}

/**
 * etl_zoom_manager_get_begin:
 * @self: a zoom manager
 *
 * Returns: start of the visible range, FILETIME
 */
gint64
etl_zoom_manager_get_begin (EtlZoomManager *self)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), 0);
  return self->begin;
}

/**
 * etl_zoom_manager_get_end:
 * @self: a zoom manager
 *
 * Returns: end of the visible range, FILETIME, exclusive
 */
gint64
etl_zoom_manager_get_end (EtlZoomManager *self)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), 0);
  return self->end;
}

/**
 * etl_zoom_manager_get_min_span:
 * @self: a zoom manager
 *
 * Returns: the narrowest visible range, 100-ns ticks
 */
gint64
etl_zoom_manager_get_min_span (EtlZoomManager *self)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), 1);
  return self->min_span;
}

/**
 * etl_zoom_manager_set_min_span:
 * @self: a zoom manager
 * @min_span: the narrowest visible range, 100-ns ticks (≥ 1)
 */
void
etl_zoom_manager_set_min_span (EtlZoomManager *self, gint64 min_span)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  min_span = MAX (min_span, 1);
  if (min_span != self->min_span)
    {
      self->min_span = min_span;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIN_SPAN]);
      etl_zoom_manager_set_visible (self, self->begin, self->end);
    }
}

/**
 * etl_zoom_manager_get_can_zoom_in:
 * @self: a zoom manager
 *
 * Returns: whether the visible range can get narrower
 */
gboolean
etl_zoom_manager_get_can_zoom_in (EtlZoomManager *self)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), FALSE);
  return self->can_zoom_in;
}

/**
 * etl_zoom_manager_get_can_zoom_out:
 * @self: a zoom manager
 *
 * Returns: whether the visible range can get wider
 */
gboolean
etl_zoom_manager_get_can_zoom_out (EtlZoomManager *self)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), FALSE);
  return self->can_zoom_out;
}

/**
 * etl_zoom_manager_set_focus:
 * @self: a zoom manager
 * @filetime: the FILETIME of the selected event, or %G_MININT64 for none
 *
 * With a focus, zoom-in and zoom-out (the keyboard's and the buttons')
 * centre the new range on it instead of on the range shown.
 */
void
etl_zoom_manager_set_focus (EtlZoomManager *self, gint64 filetime)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));
  self->focus = filetime;
}

/**
 * etl_zoom_manager_zoom_around:
 * @self: a zoom manager
 * @center: FILETIME that stays at the same relative position
 * @factor: new span ÷ old span; below 1 zooms in
 *
 * Scales the visible range about @center, as Ctrl+scroll does about the
 * pointer.
 */
void
etl_zoom_manager_zoom_around (EtlZoomManager *self, gint64 center, double factor)
{
  gint64 before, after;

  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));
  g_return_if_fail (factor > 0.0);

  /* Offsets, not FILETIMEs, go through doubles: a FILETIME (~2^57) would
   * lose its last 4 bits. */
  before = (gint64) llround ((double) (center - self->begin) * factor);
  after = (gint64) llround ((double) (self->end - center) * factor);
  etl_zoom_manager_set_visible (self, center - before, center + after);
}

/**
 * etl_zoom_manager_zoom_in:
 * @self: a zoom manager
 *
 * Halves the visible range about its centre.
 */
void
etl_zoom_manager_zoom_in (EtlZoomManager *self)
{
  gint64 span, new_span;

  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  span = self->end - self->begin;
  new_span = span / 2;
  if (self->focus != G_MININT64 && self->focus >= self->bounds_begin && self->focus <= self->bounds_end)
    {
      etl_zoom_manager_set_visible (self, self->focus - new_span / 2, self->focus - new_span / 2 + new_span);
      return;
    }
  etl_zoom_manager_set_visible (self, self->begin + (span - new_span) / 2,
                                self->begin + (span - new_span) / 2 + new_span);
}

/**
 * etl_zoom_manager_zoom_out:
 * @self: a zoom manager
 *
 * Doubles the visible range about its centre (within the bounds).
 */
void
etl_zoom_manager_zoom_out (EtlZoomManager *self)
{
  gint64 span;

  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  span = self->end - self->begin;
  if (self->focus != G_MININT64 && self->focus >= self->bounds_begin && self->focus <= self->bounds_end)
    {
      etl_zoom_manager_set_visible (self, self->focus - span, self->focus + span);
      return;
    }
  etl_zoom_manager_set_visible (self, self->begin - span / 2, self->begin - span / 2 + 2 * span);
}

/**
 * etl_zoom_manager_zoom_fit:
 * @self: a zoom manager
 *
 * Shows the whole trace with its margin.
 */
void
etl_zoom_manager_zoom_fit (EtlZoomManager *self)
{
  gint64 lo, hi;

  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));

  limits (self, &lo, &hi);
  set_range (self, lo, hi);
}

/**
 * etl_zoom_manager_pan:
 * @self: a zoom manager
 * @delta: ticks to move the range by; negative moves towards earlier times
 *
 * Moves the visible range without changing its span, stopping at the bounds.
 */
void
etl_zoom_manager_pan (EtlZoomManager *self, gint64 delta)
{
  g_return_if_fail (ETL_IS_ZOOM_MANAGER (self));
  etl_zoom_manager_set_visible (self, self->begin + delta, self->end + delta);
}

/**
 * etl_zoom_manager_time_to_x:
 * @self: a zoom manager
 * @filetime: a FILETIME
 * @width: pixels across the visible range
 *
 * Returns: the x offset of @filetime from the start of the axis, in pixels
 */
double
etl_zoom_manager_time_to_x (EtlZoomManager *self, gint64 filetime, int width)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), 0.0);
  return (double) (filetime - self->begin) * width / (double) (self->end - self->begin);
}

/**
 * etl_zoom_manager_x_to_time:
 * @self: a zoom manager
 * @x: pixels from the start of the axis
 * @width: pixels across the visible range
 *
 * Returns: the FILETIME at @x
 */
gint64
etl_zoom_manager_x_to_time (EtlZoomManager *self, double x, int width)
{
  g_return_val_if_fail (ETL_IS_ZOOM_MANAGER (self), 0);
  if (width <= 0)
    return self->begin;
  return self->begin + (gint64) llround (x * (double) (self->end - self->begin) / width);
}

static char **
etl_zoom_manager_list_actions (GActionGroup *group)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (group);

  return g_action_group_list_actions (G_ACTION_GROUP (self->actions));
}

static gboolean
etl_zoom_manager_query_action (GActionGroup *group,
                               const char *name,
                               gboolean *enabled,
                               const GVariantType **parameter_type,
                               const GVariantType **state_type,
                               GVariant **state_hint,
                               GVariant **state)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (group);

  return g_action_group_query_action (G_ACTION_GROUP (self->actions), name, enabled,
                                      parameter_type, state_type, state_hint, state);
}

static void
etl_zoom_manager_change_action_state (GActionGroup *group, const char *name, GVariant *value)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (group);

  g_action_group_change_action_state (G_ACTION_GROUP (self->actions), name, value);
}

static void
etl_zoom_manager_activate_action (GActionGroup *group, const char *name, GVariant *parameter)
{
  EtlZoomManager *self = ETL_ZOOM_MANAGER (group);

  g_action_group_activate_action (G_ACTION_GROUP (self->actions), name, parameter);
}

static void
action_group_iface_init (GActionGroupInterface *iface)
{
  iface->list_actions = etl_zoom_manager_list_actions;
  iface->query_action = etl_zoom_manager_query_action;
  iface->change_action_state = etl_zoom_manager_change_action_state;
  iface->activate_action = etl_zoom_manager_activate_action;
}

/**
 * etl_zoom_manager_follow:
 * @widget: a widget that draws the visible range (ruler, timeline, loss plot)
 * @slot: (inout): the widget's zoom manager field (a strong reference)
 * @handler: (inout): the widget's "changed" handler id in @slot
 * @zoom_manager: (nullable): the new zoom manager
 * @on_changed: called, swapped, with @widget on "changed"
 *
 * Makes @widget follow @zoom_manager instead of *@slot: disconnects from
 * the old one, connects @on_changed to the new one's "changed" (tied to
 * @widget's lifetime) and queues a redraw.  The one piece of plumbing every
 * view on the shared visible range needs.
 *
 * Returns: %TRUE if the zoom manager changed (the caller notifies its
 *   property), %FALSE if it was already @zoom_manager
 */
gboolean
etl_zoom_manager_follow (GtkWidget *widget, EtlZoomManager **slot, gulong *handler,
                         EtlZoomManager *zoom_manager, GCallback on_changed)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (zoom_manager == NULL || ETL_IS_ZOOM_MANAGER (zoom_manager), FALSE);

  if (*slot == zoom_manager)
    return FALSE;
  if (*slot != NULL)
    g_clear_signal_handler (handler, *slot);
  g_set_object (slot, zoom_manager);
  if (zoom_manager != NULL)
    *handler = g_signal_connect_object (zoom_manager, "changed", on_changed, widget, G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (widget);
  return TRUE;
}
