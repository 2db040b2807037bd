import Foundation
import MusterTime

/// The three things `muster-fuzz` does: fuzz, write the seed corpus, replay one input.
enum FuzzCommand {
    static func run(arguments: [String]) -> Int32 {
        let options: FuzzOptions
        do {
            options = try FuzzOptions(arguments: arguments)
        } catch {
            let message =
                error.description.isEmpty ? FuzzOptions.usage : "muster-fuzz: \(error)\n\n\(FuzzOptions.usage)"
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return error.description.isEmpty ? 0 : 2
        }
        do {
            switch options.mode {
            case .fuzz: return try fuzz(options)
            case .writeSeeds(let directory): return try writeSeeds(to: directory, options: options)
            case .replay(let file): return try replay(file, options: options)
            }
        } catch {
            FileHandle.standardError.write(Data("muster-fuzz: \(error)\n".utf8))
            return 2
        }
    }

    private static func selected(_ options: FuzzOptions) throws -> [any FuzzTarget] {
        let all = try FuzzTargets.make()
        return options.targets.isEmpty ? all : all.filter { options.targets.contains($0.name) }
    }

    private static func fuzz(_ options: FuzzOptions) throws -> Int32 {
        let seed = options.seed ?? SystemTime().wallMillis
        say(
            "muster-fuzz: seed \(seed) (repeat with --seed \(seed)); "
                + (options.runs.map { "\($0) runs" } ?? "\(options.seconds) s") + " per target"
        )
        try FileManager.default.createDirectory(atPath: options.crashes, withIntermediateDirectories: true)
        CrashGuard.install()
        let corpus = CorpusDirectory(root: options.corpus)
        var driver = FuzzDriver(options: options)
        var failed = false
        var details: [String] = []
        for target in try selected(options) {
            let seeds = try corpus.load(target: target.name).map(\.bytes)
            if seeds.isEmpty {
                FileHandle.standardError.write(
                    Data("muster-fuzz: no seeds in \(corpus.path(for: target.name)); run --write-seeds\n".utf8)
                )
            }
            let report = driver.run(target, seeds: seeds, seed: seed)
            say(report.line)
            details.append(report.detail)
            failed = failed || report.failures > 0
        }
        if options.verbose {
            for detail in details { say(detail) }
        }
        let peak = ProcessUsage.peakRSSMiB
        if peak > options.maxRSSMiB {
            say("muster-fuzz: peak RSS \(Int(peak)) MiB exceeds --max-rss-mib \(Int(options.maxRSSMiB))")
            failed = true
        }
        return failed ? 1 : 0
    }

    private static func writeSeeds(to directory: String, options: FuzzOptions) throws -> Int32 {
        let corpus = CorpusDirectory(root: directory)
        for target in try selected(options) {
            let seeds = try target.seeds()
            try corpus.write(target: target.name, seeds: seeds)
            let bytes = seeds.reduce(0) { $0 + $1.bytes.count }
            say("\(target.name): \(seeds.count) seeds, \(bytes) bytes in \(corpus.path(for: target.name))")
        }
        return 0
    }

    /// Unbuffered, so CI logs show each target's line as soon as it is done.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Runs one input without the crash handlers, so a trap shows Swift's own backtrace.
    private static func replay(_ file: String, options: FuzzOptions) throws -> Int32 {
        guard let target = try selected(options).first else { return 2 }
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        target.prepare(corpus: try CorpusDirectory(root: options.corpus).load(target: target.name).map(\.bytes))
        do throws(PropertyFailure) {
            let behaviour = try target.run(input)
            say("\(target.name): \(input.count) bytes, all properties hold (behaviour \(String(behaviour, radix: 16)))")
            return 0
        } catch {
            say("\(target.name): \(input.count) bytes, property failed: \(error)")
            return 1
        }
    }
}
