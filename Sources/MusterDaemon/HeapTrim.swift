#if canImport(Glibc)
import Glibc
#endif

/// Gives the C heap's free memory back to the system. glibc keeps what a busy moment freed (a
/// catch-up of thousands of deltas, an organizer import in hex JSON) in its arenas for reuse, so an
/// idle kiosk would otherwise keep the resident size of its busiest minute.
///
/// `mallopt` and `malloc_trim` are in `<malloc.h>`, which the Glibc module does not export; they
/// are looked up by name in the C library (and simply not called where it has no such symbol).
enum HeapTrim {
    /// `M_ARENA_MAX` from `<malloc.h>`.
    static let arenaMaxOption: Int32 = -8

    /// Few arenas: each thread that mallocs may otherwise get its own (up to 8 per core), and
    /// every arena keeps its own free memory. Call once at start, before the threads exist.
    static func limitArenas() {
        #if canImport(Glibc)
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallOpt.self)(arenaMaxOption, 2)
        #endif
    }

    /// Returns free heap memory to the system (a few milliseconds; call when idle, not per request).
    static func trim() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
