import ArgumentParser
import Foundation
import MusterCore
import MusterRules
import MusterStore
import MusterTime

/// `muster-faults`: the fault campaign on a lab of real kiosks (RELIABILITY.md).
@main
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster-faults",
        abstract: "Jepsen-style fault campaign: workload, nemesis, checker and crash points on a lab of real kiosks."
    )

    @Flag(help: "The 3-minute campaign (make test).") var short = false
    @Option(help: "Length of the full campaign in minutes.") var minutes: Double = 20
    @Option(help: "Kiosks in the lab.") var kiosks = 5
    @Option(help: "Attendees imported.") var attendees = 2000
    @Option(help: "Milliseconds between two operations of one kiosk's client.") var interval: UInt32 = 60
    @Option(help: "Seed of the nemesis and the workload (default: the time).") var seed: UInt64?
    @Option(help: "The checkout (scripts/lab lives there).") var root: String?
    @Option(help: "Lab directory (MUSTER_LAB_DIR; default <root>/.lab-faults).") var labDir: String?
    @Option(help: "Namespace prefix (MUSTER_LAB_PREFIX).") var prefix = "mflt"
    @Option(help: "Where musterd and muster are (MUSTER_BIN; default: this binary's directory).") var bin: String?
    @Option(help: "Run only these scenarios (comma-separated names, e.g. disk-full,crash-points).") var only: String?
    @Flag(help: "Leave the lab up at the end (scripts/lab down with the same prefix removes it).") var keep = false

    func run() throws {
        guard getuid() == 0 else { throw FaultsError("needs root (network namespaces, avahi-daemon per kiosk)") }
        guard CrashPoint.isCompiledIn else {
            throw FaultsError("crash points are not compiled in: use the debug build")
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let root = self.root ?? FileManager.default.currentDirectoryPath
        let lab = LabControl(
            root: root,
            directory: labDir ?? root + "/.lab-faults",
            prefix: prefix,
            binaries: bin ?? executable.deletingLastPathComponent().path,
            kiosks: kiosks
        )
        try FileManager.default.createDirectory(atPath: lab.directory, withIntermediateDirectories: true)
        let seed = self.seed ?? SystemTime().wallMillis / 1000
        FileHandle.standardOutput.write(
            Data(
                "faults: seed \(seed), \(short ? "short" : "\(minutes)-minute") campaign, lab \(lab.directory) (prefix \(prefix))\n"
                    .utf8
            )
        )
        let campaign = Campaign(
            lab: lab,
            schedule: short ? .short : .full(minutes: minutes),
            seed: seed,
            attendees: attendees,
            intervalMillis: interval,
            only: only.map { Set($0.split(separator: ",").map(String.init)) }
        )
        let reports: [CheckerReport]
        do {
            reports = try campaign.run()
        } catch {
            if !keep { lab.run(["down"]) }
            throw error
        }
        if !keep { lab.run(["down"]) }
        guard reports.allSatisfy(\.passed) else { throw ExitCode(1) }
    }
}
