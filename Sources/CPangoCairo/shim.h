#ifndef MUSTER_CPANGOCAIRO_SHIM_H
#define MUSTER_CPANGOCAIRO_SHIM_H
// cairo (PDF and PNG surfaces) and pango (text shaping through HarfBuzz, font fallback through
// fontconfig) render the name badge. Only MusterBadge imports this module.
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

// PANGO_SCALE is a macro Swift does not import as a constant of the right type.
static inline int muster_pango_scale(void) {
    return PANGO_SCALE;
}

// g_object_unref takes a gpointer; this names the one use (layouts, font maps) without a cast in Swift.
static inline void muster_pango_layout_free(PangoLayout *layout) {
    g_object_unref(layout);
}

#endif /* MUSTER_CPANGOCAIRO_SHIM_H */
