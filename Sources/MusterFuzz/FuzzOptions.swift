import Foundation

/// The command line of `muster-fuzz`.
struct FuzzOptions {
    enum Mode {
        case fuzz
        case writeSeeds(directory: String)
        case replay(file: String)
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    var mode = Mode.fuzz
    var targets: [String] = []
    var seconds = 10.0
    var runs: Int?
    var seed: UInt64?
    var corpus = "Fuzz/corpus"
    var crashes = "Fuzz/crashes"
    var maxLength = 1 << 16
    /// A single input running longer than this is a hang.
    var hangSeconds: UInt32 = 20
    /// Peak RSS above this fails the run: the parsers must not buffer what a peer announces.
    var maxRSSMiB = 1024.0
    var verbose = false

    static let usage = """
        usage: muster-fuzz [--target T[,T...]] [--seconds N | --runs N] [--seed S] [--corpus DIR] [--crashes DIR]
                           [--max-len BYTES] [--max-rss-mib N] [--verbose]
               muster-fuzz --write-seeds DIR
               muster-fuzz --replay FILE --target T

        Targets: \(FuzzTargets.names.joined(separator: ", ")) (default: all).
        Fuzzes each target for --seconds (default 10) or --runs executions, whichever ends first, from the seed
        corpus in --corpus (default Fuzz/corpus/<target>/). Inputs that crash, hang or break a property are saved
        in --crashes (default Fuzz/crashes/). Exit status: 0 clean, 1 property failures, 2 usage,
        70 crash, 71 hang.
        """

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return value
        }
        func number<T: LosslessStringConvertible>(_ flag: String, as: T.Type) throws(UsageError) -> T {
            let text = try value(flag)
            guard let number = T(text) else { throw UsageError(description: "\(flag): not a number: \(text)") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--target", "--targets":
                targets += try value(flag).split(separator: ",").map(String.init)
            case "--seconds": seconds = try number(flag, as: Double.self)
            case "--runs": runs = try number(flag, as: Int.self)
            case "--seed": seed = try number(flag, as: UInt64.self)
            case "--corpus": corpus = try value(flag)
            case "--crashes": crashes = try value(flag)
            case "--max-len": maxLength = try number(flag, as: Int.self)
            case "--max-rss-mib": maxRSSMiB = try number(flag, as: Double.self)
            case "--hang-seconds": hangSeconds = try number(flag, as: UInt32.self)
            case "--write-seeds": mode = .writeSeeds(directory: try value(flag))
            case "--replay": mode = .replay(file: try value(flag))
            case "--verbose", "-v": verbose = true
            case "--help", "-h": throw UsageError(description: "")
            default: throw UsageError(description: "unknown argument \(flag)")
            }
        }
        for target in targets where !FuzzTargets.names.contains(target) {
            throw UsageError(
                description: "unknown target \(target); targets: \(FuzzTargets.names.joined(separator: ", "))"
            )
        }
        if case .replay = mode, targets.count != 1 {
            throw UsageError(description: "--replay needs exactly one --target")
        }
        guard seconds > 0, maxLength > 0, (runs ?? 1) > 0 else {
            throw UsageError(description: "--seconds, --runs and --max-len must be positive")
        }
    }
}
