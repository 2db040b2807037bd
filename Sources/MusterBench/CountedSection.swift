/// The part of a ``CountedWorkload`` that callgrind counts.
///
/// `scripts/instruction-guard` runs callgrind with `--toggle-collect='*CountedSection*'`: collection
/// starts when this function is entered and stops when it returns, so key generation, signing and
/// opening the replica are not counted. It must stay one function that is never inlined, and nothing
/// it calls may have `CountedSection` in its symbol (entering a second one would toggle collection
/// off): the body is a closure written in the caller, so its symbol is the caller's.
enum CountedSection {
    @inline(never)
    static func run(_ body: () throws -> Int) rethrows -> Int {
        try body()
    }
}
