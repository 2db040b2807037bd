import Foundation

extension LabBench {
    /// The capacity race of issue 16 (`--only=capacity`): 10 kiosks, capacity 100, 300 attempts
    /// spread over the kiosks as fast as they come; once with a plain capacity, once with escrow.
    static func capacity(_ lab: Lab, _ report: inout BenchReport) throws {
        let kiosks = 10
        let capacity = 100
        let attempts = 300
        BenchCommand.progress("lab: \(kiosks) kiosks for the capacity race")
        try lab.up(kiosks)
        for (index, escrow) in [false, true].enumerated() {
            let zone = "Lab=\(capacity)" + (escrow ? ",escrow" : "")
            BenchCommand.progress("capacity: \(attempts) attempts over \(kiosks) kiosks, --zone \(zone)")
            let result = try CapacityRaceBench.run(
                lab: lab,
                campaign: escrow ? "Capacity escrow" : "Capacity plain",
                zone: zone,
                capacity: capacity,
                firstAttendee: index * attempts,
                attempts: attempts
            )
            let name = "capacity race: places over capacity" + (escrow ? " (escrow)" : " (plain)")
            report.lower(
                name,
                Double(result.over),
                unit: "places",
                limitName: "",
                limit: nil,
                target: "0",
                met: result.over == 0
            )
            report.note(
                "\(name): \(result.admitted) admitted, \(result.refusedFull) refused as full, "
                    + "\(result.insideAfterSync) inside after sync (capacity \(capacity)), "
                    + "\(attempts) attempts in \(String(format: "%.2f", result.seconds)) s over \(kiosks) kiosks"
            )
        }
    }
}
