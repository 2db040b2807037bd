import CPangoCairo

/// Collects the bytes cairo writes for a PDF or PNG, so a badge is rendered in memory and handed
/// to CUPS or written to a file by the caller, never through a temporary file.
///
/// Reached from C through `Unmanaged` (the `closure` argument of cairo's write function), and only
/// for the duration of one render on one thread.
final class CairoByteSink {
    var bytes: [UInt8] = []

    /// The `cairo_write_func_t` that appends to the sink passed as its closure.
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<CairoByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
