/// The file a badge is rendered to: PDF for CUPS (vector, exact size), PNG for a preview on screen
/// or in docs/printing.md, ZPL for a Zebra on a raw CUPS queue.
public enum BadgeFormat: String, Sendable, Hashable, CaseIterable {
    case pdf
    case png
    /// ZPL II: the badge drawn by cairo and pango at the printer's resolution, sent as one
    /// monochrome graphic (`^GFA`), so every script prints as it does in the PDF without fonts on the
    /// printer (Zebra's resident fonts have no Chinese or Arabic). See ``ZPLGraphic``.
    case zpl

    /// The format a preview path asks for by its extension (`badge.pdf`, `badge.png`, `badge.zpl`).
    public init(path: String) throws(BadgeError) {
        let lower = path.lowercased()
        if lower.hasSuffix(".pdf") {
            self = .pdf
        } else if lower.hasSuffix(".png") {
            self = .png
        } else if lower.hasSuffix(".zpl") {
            self = .zpl
        } else {
            throw BadgeError(.badLayout, "the badge file '\(path)' must end in .pdf, .png or .zpl")
        }
    }

    /// The IPP `document-format` a print job of this format is sent as. A ZPL job is raw: the queue
    /// passes it to the printer untouched (`lpadmin -m raw`).
    public var documentFormat: String {
        switch self {
        case .pdf: "application/pdf"
        case .png: "image/png"
        case .zpl: "application/vnd.cups-raw"
        }
    }
}
