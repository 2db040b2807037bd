import CPangoCairo
import MusterQR

/// Draws a badge with cairo and pango: a PDF for CUPS, a PNG for a preview.
///
/// The text fields are stacked top to bottom in the layout's order, each centred and fitted by
/// ``PangoTextBlock`` (shrink, then wrap, then a reported ellipsis); the QR code of the ticket sits
/// at the bottom. Everything is measured in PDF points, so the PDF is the label's exact size and
/// the PNG is the same drawing scaled to `dotsPerInch`.
///
/// ```swift
/// let rendering = try BadgeRenderer(layout: .standard).render(content, as: .pdf)
/// try Data(rendering.bytes).write(to: url)
/// ```
///
/// Rendering is synchronous and takes a few milliseconds; pango's font map is per thread, so the
/// first badge drawn on a thread also pays for loading the fonts.
public struct BadgeRenderer: Sendable {
    public let layout: BadgeLayout
    /// Resolution of PNG previews; 300 dpi is what label printers print at.
    public var dotsPerInch: Double
    /// Resolution of a ZPL badge: the Zebra's own (203 dpi for most desktop models, 300 or 600 for
    /// the high-resolution ones), so one bitmap dot is one printed dot.
    public var zplDotsPerInch: Double

    public init(layout: BadgeLayout, dotsPerInch: Double = 300, zplDotsPerInch: Double = 203) {
        self.layout = layout
        self.dotsPerInch = dotsPerInch
        self.zplDotsPerInch = zplDotsPerInch
    }

    public func render(_ content: BadgeContent, as format: BadgeFormat) throws(BadgeError) -> BadgeRendering {
        let sink = CairoByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let width = layout.size.widthPoints
        let height = layout.size.heightPoints
        let scale = (format == .zpl ? zplDotsPerInch : dotsPerInch) / 72
        let surface: OpaquePointer? =
            switch format {
            case .pdf:
                cairo_pdf_surface_create_for_stream(CairoByteSink.write, closure, width, height)
            case .png, .zpl:
                cairo_image_surface_create(
                    CAIRO_FORMAT_RGB24,
                    Int32((width * scale).rounded()),
                    Int32((height * scale).rounded())
                )
            }
        guard let surface else { throw BadgeError(.renderFailed, "cairo could not create a \(format) surface") }
        defer { cairo_surface_destroy(surface) }
        try Self.check(cairo_surface_status(surface), "creating the \(format) surface")
        if format == .pdf {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Badge")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Muster")
        }
        guard let cairo = cairo_create(surface) else { throw BadgeError(.renderFailed, "cairo_create failed") }
        defer { cairo_destroy(cairo) }
        if format != .pdf { cairo_scale(cairo, scale, scale) }
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        let report = try draw(content, on: cairo)
        try Self.check(cairo_status(cairo), "drawing the badge")
        switch format {
        case .pdf: cairo_surface_finish(surface)
        case .png: try Self.check(cairo_surface_write_to_png_stream(surface, CairoByteSink.write, closure), "PNG")
        case .zpl: sink.bytes = try Self.zpl(of: surface).zpl
        }
        try Self.check(cairo_surface_status(surface), "finishing the \(format)")
        return withExtendedLifetime(sink) {
            BadgeRendering(
                format: format,
                bytes: sink.bytes,
                shortened: report.shortened,
                missingGlyphs: report.missingGlyphs
            )
        }
    }

    /// Lays out and draws every field; returns the fields that were shortened or miss glyphs.
    private func draw(
        _ content: BadgeContent,
        on cairo: OpaquePointer
    ) throws(BadgeError) -> (shortened: [BadgeField], missingGlyphs: [BadgeField]) {
        let size = layout.size
        let millimetre = BadgeSize.pointsPerMillimetre
        let margin = 4 * millimetre
        let available = size.widthPoints - 2 * margin
        let grow = min(max(size.widthMillimetres / 62, 0.8), 2)
        let gap = 2 * millimetre * grow
        let fields = layout.fields(for: content.ticketType)
        let qrSide =
            fields.contains(.qr) && !content.code.isEmpty
            ? min(available * 0.6, (size.heightPoints - 2 * margin) * 0.32) : 0
        let textBottom = size.heightPoints - margin - (qrSide > 0 ? qrSide + gap : 0)
        let space = textBottom - margin

        guard let context = pango_cairo_create_context(cairo) else {
            throw BadgeError(.renderFailed, "pango could not create a context for cairo")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        // Unhinted metrics: the PNG preview breaks lines exactly where the PDF does.
        if let options = cairo_font_options_create() {
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
        }

        var blocks: [(field: BadgeField, block: PangoTextBlock)] = []
        for field in fields {
            guard let text = content.text(of: field), !text.isEmpty else { continue }
            blocks.append((field, try PangoTextBlock(context: context, text: text)))
        }
        // Fit every field; if together they are too tall, shrink them all and fit again.
        var factor = 1.0
        var total = 0.0
        while true {
            for (field, block) in blocks {
                let style = BadgeTextStyle.of(field)
                block.fit(style: style, nominal: style.nominalPoints * grow * factor, available: available)
            }
            total = blocks.map(\.block.height).reduce(0, +) + gap * Double(max(blocks.count - 1, 0))
            if total <= space || factor < 0.5 { break }
            factor *= 0.9
        }
        guard total <= space else {
            throw BadgeError(
                .badLayout,
                "the fields \(blocks.map(\.field.rawValue).joined(separator: ", ")) do not fit on a \(size) badge; "
                    + "use a larger size or fewer fields"
            )
        }
        var y = margin + (space - total) / 2
        for (field, block) in blocks {
            let x = block.wrapped ? margin : margin + (available - block.width) / 2
            if field == .type {
                // The band: the full width, the word in white on black.
                cairo_save(cairo)
                cairo_rectangle(cairo, 0, y - gap / 2, size.widthPoints, block.height + gap)
                cairo_fill(cairo)
                cairo_set_source_rgb(cairo, 1, 1, 1)
                cairo_move_to(cairo, x, y)
                pango_cairo_show_layout(cairo, block.layout)
                cairo_restore(cairo)
            } else {
                cairo_move_to(cairo, x, y)
                pango_cairo_show_layout(cairo, block.layout)
            }
            y += block.height + gap
        }
        if qrSide > 0 {
            try drawCode(content.code, side: qrSide, bottom: size.heightPoints - margin, on: cairo)
        }
        return (
            blocks.filter { $0.block.shortened }.map(\.field),
            blocks.filter { $0.block.missingGlyphs }.map(\.field)
        )
    }

    /// The ticket code as a QR code, centred above the bottom margin, each dark module a filled
    /// square (no antialiasing, so the PNG has crisp edges as well as the PDF).
    private func drawCode(_ code: String, side: Double, bottom: Double, on cairo: OpaquePointer) throws(BadgeError) {
        let symbol: QRCode
        do {
            symbol = try QRCode(text: code, errorCorrection: .medium)
        } catch {
            throw BadgeError(.renderFailed, "the ticket code cannot be drawn as a QR code", cause: error.description)
        }
        let quiet = 2
        let module = side / Double(symbol.size + 2 * quiet)
        let left = (layout.size.widthPoints - side) / 2 + Double(quiet) * module
        let top = bottom - side + Double(quiet) * module
        cairo_save(cairo)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        for y in 0..<symbol.size {
            for x in 0..<symbol.size where symbol[x, y] {
                cairo_rectangle(cairo, left + Double(x) * module, top + Double(y) * module, module, module)
            }
        }
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// The pixels of a finished RGB24 image surface as a ZPL graphic.
    static func zpl(of surface: OpaquePointer) throws(BadgeError) -> ZPLGraphic {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface), width > 0, height > 0 else {
            throw BadgeError(.renderFailed, "cairo gave no pixels for the ZPL badge")
        }
        return ZPLGraphic(
            rgb24: UnsafeRawBufferPointer(start: data, count: stride * height),
            width: width,
            height: height,
            stride: stride
        )
    }

    /// Turns a cairo status into a typed error naming what was being done.
    static func check(_ status: cairo_status_t, _ doing: String) throws(BadgeError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let reason = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        throw BadgeError(.renderFailed, "cairo failed \(doing)", cause: reason)
    }
}
