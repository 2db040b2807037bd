import Foundation
import MusterControl
public import MusterCore
public import MusterRules
import MusterTime

/// `muster fleet`: every kiosk enrolled at the venue, as this kiosk knows it, heard or never heard
/// (issue 37): in session now or when it was last heard, how far its records reach here, and whether
/// it is revoked, and what it last said of itself in its signed status (``KioskStatus``): its software,
/// its printer, its free disk. A kiosk of 0.6.4 or earlier sends no status.
public struct FleetReport: Encodable {
    public struct Kiosk: Encodable, Equatable {
        public let name: String
        public let location: String
        /// The kiosk's public key, hex.
        public let key: String
        /// `kiosk` or `organizer device`.
        public let role: String
        public let thisKiosk: Bool
        public let inSession: Bool
        /// When musterd here last heard it (nil: not since musterd started, or this kiosk).
        public let lastHeardMillis: UInt64?
        /// Its records held here (its chain's head seq) and the stamp of the newest.
        public let records: UInt64
        public let lastRecordMillis: UInt64?
        /// Whether its replica's digest equals this one's (nil: not in session, or not yet told).
        public let digestEqual: Bool?
        /// The last of its records a revocation keeps, when it is revoked.
        public let revokedThrough: UInt64?
        /// What it last said of itself (nil: no status heard, from a kiosk older than 0.6.5 or not heard).
        public let status: FleetStatus?
    }

    public let kiosks: [Kiosk]
    /// musterd answered (without it, nothing is known of sessions or of who was heard).
    public let daemonRunning: Bool
    public let madeAtMillis: UInt64

    /// One kiosk per roster entry (organizer devices included), this kiosk first, then by name.
    init(
        roster: [RosterEntry],
        me: AuthorID?,
        daemon: StatusAnswer?,
        heads: [AuthorID: (seq: UInt64, newestMillis: UInt64?)],
        madeAtMillis: UInt64
    ) {
        let details = Dictionary((daemon?.peerDetails ?? []).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let inSession = Set((daemon?.peers ?? []).map { String($0.prefix { $0 != "@" }) })
        let statuses = Dictionary((daemon?.fleet ?? []).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        kiosks = roster.map { entry in
            let hex = entry.kiosk.hex
            return Kiosk(
                name: entry.name,
                location: entry.location,
                key: hex,
                role: entry.role == .organizerDevice ? "organizer device" : "kiosk",
                thisKiosk: entry.kiosk == me,
                inSession: inSession.contains(hex),
                lastHeardMillis: daemon?.heardMillis?[hex],
                records: heads[entry.kiosk]?.seq ?? 0,
                lastRecordMillis: heads[entry.kiosk]?.newestMillis,
                digestEqual: details[hex]?.digestMatches,
                revokedThrough: entry.revokedWatermark,
                status: statuses[hex]
            )
        }.sorted { ($0.thisKiosk ? 0 : 1, $0.name, $0.key) < ($1.thisKiosk ? 0 : 1, $1.name, $1.key) }
        daemonRunning = daemon != nil
        self.madeAtMillis = madeAtMillis
    }

    /// The kiosk's standing in words: this kiosk, revoked, in session, last heard, or not heard.
    func standing(_ kiosk: Kiosk) -> String {
        if kiosk.thisKiosk { return "this kiosk" }
        if let through = kiosk.revokedThrough { return "REVOKED (its records through #\(through) kept)" }
        if kiosk.inSession {
            switch kiosk.digestEqual {
            case true?: return "in session, digest equal"
            case false?: return "in session, digest differs"
            case nil: return "in session"
            }
        }
        guard daemonRunning else { return "unknown (musterd not running)" }
        guard let heard = kiosk.lastHeardMillis else { return "NOT HEARD since musterd started" }
        return "last heard \(ClockText.time(millis: Int64(clamping: heard)))"
    }

    public func lines() -> [String] {
        let kiosksOnly = kiosks.filter { $0.role == "kiosk" }
        let inSession = kiosksOnly.filter(\.inSession).count
        var lines = [
            "Fleet: \(kiosksOnly.count) enrolled kiosk(s), \(inSession) in session with this one"
                + (kiosks.count > kiosksOnly.count ? ", \(kiosks.count - kiosksOnly.count) organizer device(s)" : "")
        ]
        let width = min(40, kiosks.map { label($0).count }.max() ?? 0)
        for kiosk in kiosks {
            let name = label(kiosk).padding(toLength: max(width, label(kiosk).count), withPad: " ", startingAt: 0)
            let last = kiosk.lastRecordMillis.map { ", newest \(ClockText.time(millis: Int64(clamping: $0)))" } ?? ""
            lines.append("  \(name)  \(standing(kiosk)); \(kiosk.records) record(s) held here\(last)")
            if kiosk.role == "kiosk" { lines.append("  \(String(repeating: " ", count: width))  \(said(kiosk))") }
        }
        return lines
    }

    /// Each enrolled, unrevoked kiosk that could not read a lock using `features` (``LockPayload/features``),
    /// in words: its name and what it lacks. A kiosk with no status is taken to read what 0.6.4 did.
    public func unreadable(_ features: [String]) -> [String] {
        unreadable { KioskStatus.unreadable(features, by: $0?.lockFeatures) }
    }

    /// Each enrolled, unrevoked kiosk that could not read deltas of `kinds`, in words (a kiosk with no
    /// status is taken to read what 0.6.3 did: 0.6.4 reads kind 14 but cannot say so).
    public func unreadable(kinds: [DeltaKind]) -> [String] {
        unreadable { KioskStatus.unreadable(kinds: kinds, by: $0?.kinds) }
    }

    /// The one rule of `muster lock` and `muster badge replace`: refused while `unreadable` names a
    /// kiosk (``unreadable(_:)``, ``unreadable(kinds:)``), unless `force`, which warns instead.
    public static func require(
        readableBy unreadable: [String],
        what: String,
        otherwise consequence: String,
        force: Bool,
        warn: (String) -> Void
    ) throws(ClientError) {
        guard !unreadable.isEmpty else { return }
        let named = unreadable.joined(separator: "; ")
        guard force else {
            throw ClientError(
                .usage,
                "an enrolled kiosk cannot read \(what): \(named). Upgrade it first, or use --force (\(consequence))"
            )
        }
        warn("going ahead though an enrolled kiosk cannot read \(what) (--force): \(named)")
    }

    private func unreadable(_ lacking: (FleetStatus?) -> [String]) -> [String] {
        kiosks.filter { $0.role == "kiosk" && $0.revokedThrough == nil }.compactMap { kiosk in
            let lacking = lacking(kiosk.status)
            guard !lacking.isEmpty else { return nil }
            let software = kiosk.status.map { "muster \(TerminalText.sanitize($0.software, maxCharacters: 32))" }
            return "\(TerminalText.sanitize(label(kiosk))) (\(software ?? "no status: 0.6.4 or earlier")) "
                + "does not read \(lacking.joined(separator: ", "))"
        }
    }

    /// What the kiosk said of itself, in words: its software, printer and free disk, and when.
    func said(_ kiosk: Kiosk) -> String {
        guard let status = kiosk.status else {
            return daemonRunning ? "no status heard (0.6.4 or earlier, or not heard since musterd started)" : ""
        }
        let printer = TerminalText.sanitize(status.printer, maxCharacters: 80)
        let free = Double(status.freeDiskBytes) / 1_073_741_824
        return "muster \(TerminalText.sanitize(status.software, maxCharacters: 32)), printer \(printer), "
            + String(format: "%.1f GiB free", free)
            + " (said at \(ClockText.time(millis: Int64(clamping: status.signedMillis))))"
    }

    private func label(_ kiosk: Kiosk) -> String {
        let role = kiosk.role == "kiosk" ? "" : " [\(kiosk.role)]"
        return (kiosk.location.isEmpty ? kiosk.name : "\(kiosk.name) (\(kiosk.location))") + role
    }

    public func print() {
        for line in lines() { Output.data(line) }
    }
}
