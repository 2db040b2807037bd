/// One parser of hostile input, wrapped so the driver can feed it bytes and learn whether it kept
/// its promises.
///
/// `run` must be deterministic in its input (any randomness, such as where a stream is split, is
/// derived from the input's bytes), so that `--replay` reproduces what the fuzz run saw.
protocol FuzzTarget: AnyObject {
    /// Used on the command line, as the corpus directory and in crash file names.
    var name: String { get }
    /// Byte strings that mean something to this parser; the mutator inserts and overwrites with them.
    var dictionary: [[UInt8]] { get }
    /// Genuine inputs built with the product's own encoders, for `--write-seeds`.
    func seeds() throws -> [Seed]
    /// Sees the loaded corpus once before fuzzing (a target may learn which inputs are genuine).
    func prepare(corpus: [[UInt8]])
    /// Runs one input and returns a fingerprint of the behaviour (which error, how many records), so that
    /// inputs that make the parser do something new join the working corpus. Throws when a property fails.
    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64
}

extension FuzzTarget {
    func prepare(corpus: [[UInt8]]) {}
}

/// A named seed input, written to `Fuzz/corpus/<target>/<name>`.
struct Seed {
    let name: String
    let bytes: [UInt8]

    init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    init(_ name: String, text: String) {
        self.init(name, Array(text.utf8))
    }
}
