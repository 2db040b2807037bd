import Foundation
import MusterClient
import MusterControl
import Synchronization

/// The capacity race (issue 16): every kiosk of the lab is a door of one zone with a capacity, and
/// takes check-ins as fast as its control socket answers them (one thread and one connection per
/// kiosk, all at once), more attempts than places. Each kiosk decides from its own replica, so
/// two doors can admit the last places within one propagation window: the places admitted beyond
/// the capacity are the figure. Run once with a plain capacity and once with an escrow zone.
enum CapacityRaceBench {
    struct Result {
        let attempts: Int
        let kiosks: Int
        let capacity: Int
        /// Check-ins acknowledged as admitted.
        let admitted: Int
        /// Refused as full (zone or door share).
        let refusedFull: Int
        /// Inside the zone once every kiosk holds every delta (digests equal).
        let insideAfterSync: Int
        let seconds: Double
        var over: Int { max(0, insideAfterSync - capacity) }
    }

    /// Imports `attempts` bench attendees from `firstAttendee` into a new campaign named `campaign`
    /// and locks the lab to it with `zone` (a `--zone` value), then races.
    static func run(
        lab: Lab,
        campaign: String,
        zone: String,
        capacity: Int,
        firstAttendee: Int,
        attempts: Int
    ) throws -> Result {
        let kiosks = Array(1...lab.kiosks)
        let csv = "\(lab.directory)/capacity-\(firstAttendee).csv"
        try BenchAttendees.csv(first: firstAttendee, count: attempts).write(
            toFile: csv,
            atomically: true,
            encoding: .utf8
        )
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try lab.exec(1, ["muster", "import", csv, "--campaign", campaign, "--organizer-key", lab.organizerKey])
        try lab.exec(1, ["muster", "lock", campaign, "--zone", zone, "--organizer-key", lab.organizerKey])
        guard try lab.digestsEqual(kiosks, timeout: 300) else {
            throw BenchError(.wrongResult, "capacity: the lock did not reach every kiosk")
        }
        let admitted = Atomic<Int>(0)
        let full = Atomic<Int>(0)
        let start = Stopwatch.seconds()
        let failure = CheckInRace.run(lab: lab, count: attempts, firstAttendee: firstAttendee, stopOnRefusal: false) {
            response in
            switch response {
            case .checkedIn: admitted.add(1, ordering: .relaxed)
            case .refused(let refusal) where refusal.reason == .zoneFull: full.add(1, ordering: .relaxed)
            default: return CheckInRace.refusal(response)
            }
            return nil
        }
        let seconds = Stopwatch.seconds() - start
        if let failure { throw BenchError(.wrongResult, "capacity: \(failure)") }
        guard try lab.digestsEqual(kiosks, timeout: 120) else {
            throw BenchError(.wrongResult, "capacity: digests still differ 120 s after the race")
        }
        return Result(
            attempts: attempts,
            kiosks: kiosks.count,
            capacity: capacity,
            admitted: admitted.load(ordering: .relaxed),
            refusedFull: full.load(ordering: .relaxed),
            insideAfterSync: try inside(lab, kiosk: 1),
            seconds: seconds
        )
    }

    /// Inside anywhere for the locked campaign, as `muster occupancy --json` on `kiosk` reads it.
    static func inside(_ lab: Lab, kiosk: Int) throws -> Int {
        let output = try lab.exec(kiosk, ["muster", "occupancy", "--json"])
        guard let start = output.firstIndex(of: "{"),
            let object = try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any],
            let inside = object["inside"] as? Int
        else { throw BenchError(.wrongResult, "capacity: cannot read occupancy from: \(output.suffix(500))") }
        return inside
    }
}
