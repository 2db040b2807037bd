import Foundation

/// The committed seed corpus: `Fuzz/corpus/<target>/`, one input per file.
///
/// Files are read in name order so a run with the same `--seed` feeds the same inputs in the same order.
struct CorpusDirectory {
    let root: String

    func path(for target: String) -> String { root + "/" + target }

    /// Every regular file of the target's directory; an empty list when the directory does not exist.
    func load(target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = path(for: target)
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return [] }
        return try manager.contentsOfDirectory(atPath: directory).sorted().compactMap { name in
            let file = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard !name.hasPrefix("."), manager.fileExists(atPath: file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return nil }
            return (name, Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        }
    }

    /// Replaces the target's directory with `seeds` (stale seeds of an older format go away).
    func write(target: String, seeds: [Seed]) throws {
        let directory = path(for: target)
        let manager = FileManager.default
        if manager.fileExists(atPath: directory) { try manager.removeItem(atPath: directory) }
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for seed in seeds {
            try Data(seed.bytes).write(to: URL(fileURLWithPath: directory + "/" + seed.name))
        }
    }
}
