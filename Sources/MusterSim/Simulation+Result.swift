import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

extension Simulation {
    /// Reads every kiosk's store: the history the checker judges.
    func history() throws(SimError) -> History {
        var finals: [History.Kiosk] = []
        for kiosk in kiosks {
            do {
                finals.append(
                    History.Kiosk(
                        name: "k\(kiosk.index + 1)",
                        live: kiosk.up,
                        deltas: try kiosk.store.allDeltas(),
                        digest: try kiosk.store.digest(),
                        networkKey: Self.fingerprint(of: kiosk.keyRing)
                    )
                )
            } catch {
                throw SimError("cannot read k\(kiosk.index + 1)'s store", cause: error)
            }
        }
        var history = History(
            written: written,
            acknowledged: acknowledged,
            kiosks: finals,
            byzantine: try byzantineHistory()
        )
        if let conflicts = try conflictReports() {
            history.doors = History.Doors(
                admissions: admissions,
                admittedAfterHearing: admittedAfterHearing,
                conflicts: conflicts
            )
        }
        if let revoked = byzantine?.revocation {
            history.revoked = "k\(revoked.kiosk + 1)"
            history.setAside = Set(written.keys.filter { $0.author == revoked.author && $0.seq > revoked.watermark })
        }
        return history
    }

    /// The ring's current key as the checker compares it: generation and a hash of the key.
    static func fingerprint(of ring: NetworkKeyRing) -> String {
        let hash = ring.entries[0].key.withUnsafeBytes { Blake2b.hash256($0) }
        return "\(ring.generation):" + hash.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads every kiosk's store, runs the checker and gathers the figures.
    func result(wall: Duration) throws(SimError) -> SimResult {
        let history = try history()
        let check = Checker.check(history)
        let needed = Double(max(1, written.count)) * Double(options.kiosks - 1)
        let frames = kiosks.reduce(0) { $0 + $1.framesReceived }
        let copies = kiosks.reduce(0) { $0 + $1.copiesReceived }
        return SimResult(
            kiosks: options.kiosks,
            checkIns: options.checkIns,
            seed: options.seed,
            store: options.store.rawValue,
            byzantine: options.byzantine,
            forksSeen: history.byzantine?.forks.count ?? 0,
            organizerForked: options.organizerFork ? byzantine?.organizerBranches.isEmpty == false : nil,
            revocation: byzantine?.revocation.map { revoked in
                SimResult.Revocation(
                    kiosk: "k\(revoked.kiosk + 1)",
                    watermark: revoked.watermark,
                    stopped: kiosks[revoked.kiosk].revoked,
                    setAside: history.setAside.count,
                    acknowledgedSetAside: acknowledged.filter(history.setAside.contains).count,
                    keyGeneration: kiosks.filter(\.up).map(\.keyRing.generation).max() ?? 0,
                    rekeySessions: rekeySessions
                )
            },
            doors: history.doors.map { doors in
                SimResult.Doors(
                    admitted: doors.admissions.values.reduce(0) { $0 + $1.count },
                    admittedTwice: doors.admissions.values.filter { $0.count > 1 }.count,
                    conflicts: doors.conflicts.values.first?.count ?? 0
                )
            },
            faults: options.faults.names,
            protocolName: "core",
            acknowledged: acknowledged.count,
            refused: refusedCheckIns,
            unacknowledgedLost: lostUnacknowledged,
            written: written.count,
            converged: convergedAt != nil,
            convergeAfterLastAck: convergedAt.map { .nanoseconds(max(0, $0 - lastAckTime)) },
            convergeAfterHeal: convergedAt.map { .nanoseconds(max(0, $0 - max(lastHealTime, lastAckTime))) },
            virtualTime: .nanoseconds(now),
            wallTime: wall,
            events: log.count,
            framesPerDeltaPerKiosk: Double(frames) / needed,
            copiesPerDeltaPerKiosk: Double(copies) / needed,
            maxSessions: kiosks.map(\.peakSessions).max() ?? 0,
            framesLost: framesLost,
            sendsWithoutSession: sendsWithoutSession,
            sessionsReplaced: sessionsReplaced,
            check: check,
            eventLogHash: log.hashHex
        )
    }
}
