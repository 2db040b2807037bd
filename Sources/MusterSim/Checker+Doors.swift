import MusterCore
import MusterRules

extension Checker {
    /// Doors runs: the door rule held and the conflicts report tells the truth.
    ///
    /// 1. No door admitted an attendee whose earlier admission it held (`--entries once` refuses it).
    /// 2. Every live kiosk's report is the same list (a function of the replicated state).
    /// 3. The report lists exactly the doubles written: for each attendee admitted n times, n − 1
    ///    `entered_twice` conflicts, each made of two of that attendee's admissions, no second
    ///    admission twice; and nothing for anyone admitted once.
    static func checkDoors(_ doors: History.Doors, into report: inout CheckReport) {
        if doors.admittedAfterHearing > 0 {
            report.violations += doors.admittedAfterHearing
            report.note("\(doors.admittedAfterHearing) admissions by a door that held the attendee's earlier one")
        }
        let reports = doors.conflicts.sorted { $0.key < $1.key }
        guard let (first, expected) = reports.first else { return }
        for (kiosk, conflicts) in reports.dropFirst() where conflicts != expected {
            report.violations += 1
            report.note("\(kiosk) reports \(conflicts.count) conflicts, \(first) \(expected.count): not the same list")
        }
        let byAttendee = Dictionary(grouping: expected, by: \.attendeeKey)
        for (key, refs) in doors.admissions {
            let found = byAttendee[key] ?? []
            let admitted = Set(refs)
            let seconds = Set(found.map(\.second.ref))
            let made =
                found.allSatisfy {
                    $0.kind == .enteredTwice && $0.first.map { admitted.contains($0.ref) } == true
                        && admitted.contains($0.second.ref)
                }
            guard found.count != refs.count - 1 || seconds.count != found.count || !made else { continue }
            report.violations += 1
            report.note("\(key): admitted \(refs.count) times, \(found.count) conflicts reported")
        }
        for key in byAttendee.keys where doors.admissions[key] == nil {
            report.violations += 1
            report.note("\(key): a conflict reported for someone never admitted")
        }
    }
}
