import MusterCore

extension Checker {
    /// The lies, on every live honest kiosk:
    ///
    /// 1. no liar delta the rules refuse (a registration under another's email, a stamp outside the
    ///    certificate's window or not after the previous one) is held;
    /// 2. nothing of a liar's chain from the lowest seq at which honest stores saw it fork is held
    ///    (the fork cut);
    /// 3. the imported attendees keep their imported person fields;
    /// 4. a liar's presence counts only in the locked campaign with the lock's status, and shows the
    ///    liar's kiosk name and location from the roster, not the ones it wrote;
    /// 5. no honest kiosk stamped beyond the wall clock by more than the clock bound (a far-future
    ///    stamp did not drag its clock along).
    static func checkLies(_ lies: ByzantineHistory, kiosks: [History.Kiosk], into report: inout CheckReport) {
        for kiosk in kiosks {
            for delta in kiosk.deltas {
                if let liar = lies.liars[delta.author] {
                    if lies.refused[delta.ref]?.contains(delta) ?? false {
                        violate("\(kiosk.name) holds \(liar)'s refused lie \(delta.ref)", &report)
                    }
                    if let cut = lies.forks[delta.author], delta.seq >= cut {
                        violate("\(kiosk.name) holds \(liar)'s seq \(delta.seq), past its fork at \(cut)", &report)
                    }
                } else if delta.hlc.physicalMillis > lies.stampCeilingMillis, delta.kind != .enroll {
                    violate("\(kiosk.name) holds \(delta.ref) stamped \(delta.hlc), in the future", &report)
                }
            }
            guard let facts = lies.facts[kiosk.name] else { continue }
            for person in lies.imported where facts.attendees[person.key] != person {
                violate(
                    "\(kiosk.name) shows \(person.key) as \(String(describing: facts.attendees[person.key]))",
                    &report
                )
            }
            for presence in facts.livePresences {
                let liar = lies.liars[presence.ref.author] ?? "?"
                if presence.campaignID != SimVenue.campaign || presence.memberStatus != SimVenue.checkInStatus {
                    violate(
                        "\(kiosk.name) counts \(liar)'s \(presence.ref) in \(presence.campaignID) as \(presence.memberStatus)",
                        &report
                    )
                }
                if presence.kioskName != liar || presence.location != "Hall" {
                    violate(
                        "\(kiosk.name) shows \(liar)'s \(presence.ref) at \(presence.kioskName) (\(presence.location))",
                        &report
                    )
                }
            }
        }
    }

    private static func violate(_ problem: String, _ report: inout CheckReport) {
        report.violations += 1
        report.note(problem)
    }
}
