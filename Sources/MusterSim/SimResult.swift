import Foundation

/// What one run measured and what the checker said, printed as one line or one JSON object.
public struct SimResult: Sendable {
    public var kiosks: Int
    public var checkIns: Int
    public var seed: UInt64
    public var store: String
    /// Lying kiosks, and how many of them honest stores saw fork (every honest replica must cut those).
    public var byzantine = 0
    public var forksSeen = 0
    /// Whether the organizer key signed on both sides of the partition (``SimOptions/organizerFork``);
    /// nil when the run did not ask for it.
    public var organizerForked: Bool?
    /// What the organizer's revocation across the partition did (``SimOptions/revoke``); nil when
    /// the run did not ask for it or the partition found no kiosk to revoke.
    public var revocation: Revocation?
    /// What the doors did in a doors run (``SimOptions/doors``); nil otherwise.
    public var doors: Doors?

    /// Admissions written, attendees admitted more than once, and the conflicts every live kiosk
    /// reported (the checker holds them equal, and equal to the doubles).
    public struct Doors: Sendable, Equatable {
        public var admitted: Int
        public var admittedTwice: Int
        public var conflicts: Int
    }

    /// The revoked kiosk, whether it stopped, and what of it every replica set aside.
    public struct Revocation: Sendable, Equatable {
        public var kiosk: String
        public var watermark: UInt64
        /// The kiosk heard of its revocation and stopped (a kiosk down to the end may not have).
        public var stopped: Bool
        /// Its deltas past the watermark, and of them the check-ins it had acknowledged.
        public var setAside: Int
        public var acknowledgedSetAside: Int
        /// The network key generation the live kiosks end on (the revocation rotates it), and the
        /// connections that only handed newer keys to a kiosk on a retired one.
        public var keyGeneration: UInt64
        public var rekeySessions: Int
    }
    public var faults: [String]
    public var protocolName: String
    /// Check-ins committed and acknowledged; refused (kiosk down); lost unacknowledged in a crash.
    public var acknowledged: Int
    public var refused: Int
    public var unacknowledgedLost: Int
    public var written: Int
    public var converged: Bool
    /// Virtual time from the last acknowledgement, and from the last fault's end, to convergence.
    public var convergeAfterLastAck: Duration?
    public var convergeAfterHeal: Duration?
    /// Virtual time the run covered.
    public var virtualTime: Duration
    public var wallTime: Duration
    public var events: Int
    /// Frames and delta copies received, per delta written, per kiosk that needed it (N − 1):
    /// 1 copy is the ideal of a broadcast in which every kiosk receives every delta once.
    public var framesPerDeltaPerKiosk: Double
    public var copiesPerDeltaPerKiosk: Double
    public var maxSessions: Int
    public var framesLost: Int
    public var sendsWithoutSession: Int
    /// Sessions replaced in place by a crossed dial (the lower key's connection wins, as in the daemon).
    public var sessionsReplaced: Int
    public var check: CheckReport
    public var eventLogHash: String

    /// Converged and passed the checker.
    public var passed: Bool { converged && check.passed }

    /// How many times faster than real time the run went.
    public var speedup: Double {
        let wall = wallTime.seconds
        return wall > 0 ? virtualTime.seconds / wall : 0
    }

    public var line: String {
        let converge = convergeAfterLastAck.map { "\($0.millisText) ms after last ack" } ?? "NOT converged"
        let heal = convergeAfterHeal.map { ", \($0.millisText) ms after heal" } ?? ""
        return
            "\(passed ? "ok" : "FAIL") kiosks=\(kiosks) checkins=\(checkIns) seed=\(seed) store=\(store) "
            + "faults=\(faults.isEmpty ? "none" : faults.joined(separator: ",")) protocol=\(protocolName): "
            + "converged \(converge)\(heal); frames/delta/kiosk=\(format(framesPerDeltaPerKiosk)) "
            + "copies/delta/kiosk=\(format(copiesPerDeltaPerKiosk)) max sessions=\(maxSessions) "
            + "acked=\(acknowledged) refused=\(refused) unacked-lost=\(unacknowledgedLost) "
            + "lost=\(check.lost) phantom=\(check.phantoms) digests-equal=\(check.digestsEqual) "
            + (byzantine > 0 ? "liars=\(byzantine) forks-seen=\(forksSeen) violations=\(check.violations) " : "")
            + (organizerForked.map { "organizer-forked=\($0) " } ?? "")
            + (doors.map {
                "admitted=\($0.admitted) admitted-twice=\($0.admittedTwice) conflicts=\($0.conflicts) "
                    + "violations=\(check.violations) "
            } ?? "")
            + (revocation.map {
                "revoked=\($0.kiosk) watermark=\($0.watermark) stopped=\($0.stopped) set-aside=\($0.setAside) "
                    + "acked-set-aside=\($0.acknowledgedSetAside) key-generation=\($0.keyGeneration) "
                    + "rekey-sessions=\($0.rekeySessions) violations=\(check.violations) "
            } ?? "")
            + "virtual=\(format(virtualTime.seconds)) s wall=\(format(wallTime.seconds)) s (\(Int(speedup))x) "
            + "events=\(events) log=\(eventLogHash.prefix(16))"
    }

    public var json: String {
        var object: [String: Any] = [
            "kiosks": kiosks, "checkins": checkIns, "seed": seed, "store": store, "faults": faults,
            "protocol": protocolName, "acknowledged": acknowledged, "refused": refused,
            "unacknowledged_lost_in_crash": unacknowledgedLost, "written": written, "converged": converged,
            "virtual_seconds": virtualTime.seconds, "wall_seconds": wallTime.seconds, "speedup": speedup,
            "events": events, "frames_per_delta_per_kiosk": framesPerDeltaPerKiosk,
            "copies_per_delta_per_kiosk": copiesPerDeltaPerKiosk, "max_sessions": maxSessions,
            "frames_lost": framesLost, "sends_without_session": sendsWithoutSession,
            "sessions_replaced": sessionsReplaced, "lost": check.lost,
            "lost_checkins": check.lostCheckIns.count, "phantom": check.phantoms, "digests_equal": check.digestsEqual,
            "problems": check.problems, "event_log_hash": eventLogHash, "passed": passed,
        ]
        if byzantine > 0 {
            object["byzantine"] = byzantine
            object["forks_seen"] = forksSeen
            object["byzantine_violations"] = check.violations
        }
        if let organizerForked { object["organizer_forked"] = organizerForked }
        if let doors {
            object["admitted"] = doors.admitted
            object["admitted_twice"] = doors.admittedTwice
            object["conflicts"] = doors.conflicts
            object["violations"] = check.violations
        }
        if let revocation {
            object["revoked"] = revocation.kiosk
            object["revoked_watermark"] = revocation.watermark
            object["revoked_stopped"] = revocation.stopped
            object["set_aside"] = revocation.setAside
            object["acknowledged_set_aside"] = revocation.acknowledgedSetAside
            object["key_generation"] = revocation.keyGeneration
            object["rekey_sessions"] = revocation.rekeySessions
            object["violations"] = check.violations
        }
        object["converge_ms_after_last_ack"] = convergeAfterLastAck.map { $0.seconds * 1_000 } ?? NSNull()
        object["converge_ms_after_heal"] = convergeAfterHeal.map { $0.seconds * 1_000 } ?? NSNull()
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    var millisText: String { String(format: "%.3f", seconds * 1_000) }
}
