import CPangoCairo

/// One field's text shaped by pango and fitted into a width: first by shrinking on one line, then
/// by wrapping at word (else character) boundaries, and only as a last resort by an ellipsis that
/// the rendering reports. Pango does the shaping (HarfBuzz), bidirectional ordering and the
/// per-character font fallback, so Polish accents, Chinese and Arabic names come out right.
///
/// Owns its `PangoLayout`; not `Sendable`, lives for one render on one thread.
final class PangoTextBlock {
    let layout: OpaquePointer
    /// Width and height in points, as laid out.
    private(set) var width = 0.0
    private(set) var height = 0.0
    private(set) var shortened = false
    private(set) var missingGlyphs = false
    /// Whether the layout has a fixed width (wrapped), so it is drawn at the left margin and
    /// centred by pango, rather than centred by its own width.
    private(set) var wrapped = false

    init(context: OpaquePointer, text: String) throws(BadgeError) {
        guard let layout = pango_layout_new(context) else {
            throw BadgeError(.renderFailed, "pango could not create a text layout")
        }
        self.layout = layout
        // A name never holds a line break the badge should honour: an import's stray newline
        // becomes a space instead of an unasked-for second line.
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        pango_layout_set_text(layout, flat, -1)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    }

    deinit { muster_pango_layout_free(layout) }

    /// Sets the text at the largest size from `nominal` down that fits `available` points wide.
    func fit(style: BadgeTextStyle, nominal: Double, available: Double) {
        var size = nominal
        // One line, shrinking in 5 % steps.
        pango_layout_set_width(layout, -1)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        while size >= nominal * BadgeTextStyle.smallestSingleLine {
            setFont(size: size, bold: style.bold)
            measure()
            if width <= available {
                wrapped = false
                return
            }
            size -= nominal * 0.05
        }
        // Wrapped within the width, still shrinking, up to the field's line count.
        wrapped = true
        pango_layout_set_width(layout, Int32(available * Double(muster_pango_scale())))
        size = nominal * BadgeTextStyle.smallestSingleLine
        while size >= nominal * BadgeTextStyle.smallestWrapped {
            setFont(size: size, bold: style.bold)
            measure()
            if Int(pango_layout_get_line_count(layout)) <= style.maximumLines {
                return
            }
            size -= nominal * 0.05
        }
        // The last resort: an ellipsis at the end of the last allowed line, reported to the caller.
        setFont(size: nominal * BadgeTextStyle.smallestWrapped, bold: style.bold)
        pango_layout_set_height(layout, -Int32(style.maximumLines))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        measure()
        shortened = pango_layout_is_ellipsized(layout) != 0
    }

    private func setFont(size: Double, bold: Bool) {
        guard let description = pango_font_description_from_string(BadgeTextStyle.families) else { return }
        defer { pango_font_description_free(description) }
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(description, size * Double(muster_pango_scale()))
        pango_layout_set_font_description(layout, description)
    }

    private func measure() {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(muster_pango_scale())
        width = Double(logical.width) / scale
        height = Double(logical.height) / scale
        missingGlyphs = pango_layout_get_unknown_glyphs_count(layout) > 0
    }
}
