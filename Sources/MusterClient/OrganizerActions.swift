import Foundation
public import MusterAttendeeList
import MusterControl
public import MusterCore
import MusterCrypto
import MusterRules
import MusterTime

/// The organizer's writes: import, lock, unlock, undo. Each is built and signed here with the
/// organizer key and submitted to the daemon (see ``OrganizerSubmitter``).
public struct OrganizerActions {
    let client: ClientContext
    let submitter: OrganizerSubmitter
    let queries: StaffQueries

    public init(_ client: ClientContext, keyPath: String) throws(ClientError) {
        try self.init(client, signer: try OrganizerKey.signer(path: keyPath))
    }

    /// With the organizer key already loaded; `chunkSize` deltas per control request.
    init(_ client: ClientContext, organizer: SigningKeyPair, chunkSize: Int = 500) throws(ClientError) {
        try self.init(client, signer: OrganizerSigner(keyPair: organizer), chunkSize: chunkSize)
    }

    /// With the organizer key or an organizer device's key (and its certificate).
    init(_ client: ClientContext, signer: OrganizerSigner, chunkSize: Int = 500) throws(ClientError) {
        self.client = client
        var submitter = try OrganizerSubmitter(client: client, signer: signer)
        submitter.chunkSize = chunkSize
        self.submitter = submitter
        queries = StaffQueries(client)
    }

    /// Parses and validates the whole file first: a malformed file imports nothing.
    ///
    /// A list with ticket details (``AttendeeDetails``) is refused while an enrolled kiosk cannot read
    /// them, unless `force` (then `warn` hears which): such a kiosk would refuse those attendees, and
    /// with them every later delta of the organizer's chain, until it is upgraded.
    public func importFile(
        _ path: String,
        campaign name: String,
        force: Bool = false,
        warn: (String) -> Void = { _ in }
    ) throws(ClientError) -> ImportSummary {
        // Size checked before reading, rows counted while parsing (`AttendeeListLimits.standard`); the bytes are
        // released once parsed, before the deltas are built.
        let list: AttendeeListImport
        do {
            list = try AttendeeListImport.parse(try AttendeeListImport.read(contentsOfFile: path))
        } catch {
            // Each part is made safe where it is quoted (the error quotes the file's values itself).
            let shownPath = TerminalText.sanitize(path, maxCharacters: 1_000)
            if case let .unreadable(cause) = error.reason {
                throw ClientError(
                    .usage,
                    "cannot read \(shownPath): \(TerminalText.sanitize(cause, maxCharacters: 500))",
                    cause: error
                )
            }
            throw ClientError(.failed, "\(shownPath): \(error.description); nothing was imported", cause: error)
        }
        return try importList(list, from: path, campaign: name, force: force, warn: warn)
    }

    /// Imports a list already read whole (a file's, or pretix's check-in list through its API): the
    /// one path from a parsed list to the organizer's deltas. `source` names it in the summary.
    public func importList(
        _ list: AttendeeListImport,
        from source: String,
        campaign name: String,
        force: Bool = false,
        warn: (String) -> Void = { _ in }
    ) throws(ClientError) -> ImportSummary {
        let path = source
        let trimmedName = name.trimmingWhitespace()
        guard !trimmedName.isEmpty else { throw ClientError(.usage, "the campaign name is empty") }
        let existing: CampaignRecord?
        do {
            existing = try client.replica().view { try $0.campaign(named: trimmedName) }
        } catch {
            throw StaffQueries.clientError(error)
        }
        let campaignID = existing?.id ?? ImportPlan.newCampaignID()
        let detailed = list.rows.filter { $0.details != nil }.count
        if detailed > 0 {
            try FleetReport.require(
                readableBy: try queries.fleet().unreadable([AttendeeDetails.feature]),
                what: "the ticket details of \(detailed) attendee(s) (type, order, add-ons, attention, validity)",
                otherwise: "it refuses those attendees and every later change of the organizer until it is upgraded",
                force: force,
                warn: warn
            )
        }
        let bodies = try ImportPlan.checkedBodies(
            for: list,
            campaignID: campaignID,
            newCampaignName: existing == nil ? trimmedName : nil
        )
        let progress = ProgressBar(label: "Importing", total: bodies.count)
        try submitter.submit(bodies) { done, total in progress.update(done, of: total) }
        return ImportSummary(
            file: path,
            format: list.format.rawValue,
            campaign: trimmedName,
            campaignCreated: existing == nil,
            imported: list.rows.count,
            notAdmitted: list.rows.filter { !$0.admitted }.count,
            withDetails: detailed,
            types: Array(Set(list.rows.compactMap { $0.details?.ticketType })).sorted(),
            attention: list.rows.filter { $0.details?.attention == true }.count,
            merged: list.merged.map { ImportSummary.Merge(line: $0.line, intoLine: $0.intoLine, email: $0.emailKey) },
            skipped: list.skipped.map { ImportSummary.Skip(line: $0.line, reason: $0.reason) }
        )
    }

    /// Signs a lock. Each escrow zone's door list is signed into it from this replica's roster
    /// (``ZoneDoors``), and `warn` hears of every zone no kiosk stands in (its rules would apply at
    /// no door) before the lock is submitted; the lock is still signed, since a kiosk may be enrolled
    /// there later.
    public func lock(
        campaign name: String,
        status: String,
        opens: String?,
        closes: String?,
        rules requested: DoorRules? = nil,
        language: String? = nil,
        force: Bool = false,
        warn: (String) -> Void = { _ in }
    ) throws(ClientError) -> String {
        let screenLanguage = try language.map { code throws(ClientError) in try Self.screenLanguage(code) }
        let campaignID = try queries.campaignID(name)
        let opensAt = try opens.map { text throws(ClientError) in try Self.time(text, "--opens") }
        let closesAt = try closes.map { text throws(ClientError) in try Self.time(text, "--closes") }
        if let opensAt, let closesAt, closesAt <= opensAt {
            throw ClientError(.usage, "--closes must be after --opens")
        }
        let cleanStatus = status.trimmingWhitespace()
        guard !cleanStatus.isEmpty else { throw ClientError(.usage, "--status must not be empty") }
        let version = try nextLockVersion()
        var rules = requested
        if let requested {
            let doors: ZoneDoors
            do {
                doors = ZoneDoors(roster: try client.replica().roster())
            } catch {
                throw StaffQueries.clientError(error)
            }
            doors.warnings(requested).forEach(warn)
            rules = doors.signedInto(requested)
        }
        let lock = LockPayload(
            version: version,
            campaignID: campaignID,
            checkInStatus: cleanStatus,
            opensAtMillis: opensAt,
            closesAtMillis: closesAt,
            rules: rules,
            language: screenLanguage?.rawValue
        )
        try FleetReport.require(
            readableBy: try queries.fleet().unreadable(lock.features),
            what: "this lock",
            otherwise: "it then refuses the lock and keeps the one before",
            force: force,
            warn: warn
        )
        try submitter.submit([.lock(lock)])
        var message = "Locked every kiosk to '\(name)' (lock v\(version), status '\(cleanStatus)')"
        if let opensAt { message += ", opens \(ClockText.dateTime(millis: opensAt))" }
        if let closesAt { message += ", closes \(ClockText.dateTime(millis: closesAt))" }
        if let rules { message += "; " + Self.describe(rules) }
        if let screenLanguage { message += "; screens in \(screenLanguage.nativeName) (\(screenLanguage.rawValue))" }
        return message + "."
    }

    /// The language for `--language`: one the kiosk screen's catalog speaks, or a usage error naming them.
    static func screenLanguage(_ code: String) throws(ClientError) -> ScreenLanguage {
        guard let language = ScreenLanguage(typed: code) else {
            let codes = ScreenLanguage.allCases.map(\.rawValue).joined(separator: ", ")
            throw ClientError(
                .usage,
                "--language '\(TerminalText.sanitize(code))' is not a language the kiosk screen speaks (one of \(codes))"
            )
        }
        return language
    }

    /// One line for the door rules a lock carries, e.g. `zones Hall A (200), Annex (exclusive);
    /// entries once; no re-entry`.
    static func describe(_ rules: DoorRules) -> String {
        let zones = rules.zones.map { zone in
            var traits: [String] = []
            if let capacity = zone.capacity { traits.append("\(capacity)") }
            if zone.exclusive { traits.append("exclusive") }
            if zone.escrow { traits.append(zone.doors.map { "escrow over \($0.count) door(s)" } ?? "escrow") }
            if let opens = zone.opensAtMillis { traits.append("opens \(ClockText.time(millis: opens))") }
            if let closes = zone.closesAtMillis { traits.append("closes \(ClockText.time(millis: closes))") }
            if let types = zone.types { traits.append("admits " + types.joined(separator: ", ")) }
            if let addons = zone.addons { traits.append("hands out " + addons.joined(separator: ", ")) }
            return zone.name + (traits.isEmpty ? "" : " (" + traits.joined(separator: ", ") + ")")
        }
        var parts = zones.isEmpty ? [] : ["zones " + zones.joined(separator: ", ")]
        parts.append("entries \(rules.entries)")
        if !rules.reEntry { parts.append("no re-entry") }
        return parts.joined(separator: "; ")
    }

    public func unlock() throws(ClientError) -> String {
        let version = try nextLockVersion()
        try submitter.submit([.lock(LockPayload(version: version, campaignID: nil))])
        return "Unlocked (lock v\(version)): kiosks wait for the organizer."
    }

    /// Undoes every live check-in, check-out and registration check-in of one attendee.
    public func undo(query: String, campaign: String?) throws(ClientError) -> String {
        let campaignID = try queries.campaignID(campaign)
        let found: (AttendeeRecord, [PresenceRecord])?
        do {
            found = try client.replica().view { view in
                guard let record = try view.lookup(campaignID: campaignID, query: query) else { return nil }
                return (record, try view.presences(campaignID: campaignID, attendeeKey: record.key))
            }
        } catch {
            throw StaffQueries.clientError(error)
        }
        guard let (record, presences) = found else { throw ClientError(.notFound, "no attendee matches '\(query)'") }
        guard !presences.isEmpty else { throw ClientError(.refused, "\(record.displayName) is not checked in") }
        // Named by hash too, so the undo hits this delta on every replica, never another version.
        try submitter.submit(presences.map { .undo(UndoPayload(target: $0.ref, targetHash: $0.hash)) })
        return "Undid \(presences.count) check-in record(s) of \(record.displayName)."
    }

    private func nextLockVersion() throws(ClientError) -> UInt64 {
        do {
            return (try client.replica().view { try $0.lock() }?.version ?? 0) + 1
        } catch {
            throw StaffQueries.clientError(error)
        }
    }

    static func time(_ text: String, _ flag: String) throws(ClientError) -> Int64 {
        guard let millis = TimeParsing.millis(text) else {
            throw ClientError(.usage, "\(flag) '\(text)' is not a time; use HH:MM, 'YYYY-MM-DD HH:MM' or ISO 8601")
        }
        return millis
    }
}

/// What an import did.
public struct ImportSummary: Encodable {
    public struct Merge: Encodable {
        public let line: Int
        public let intoLine: Int
        public let email: String
    }

    public struct Skip: Encodable {
        public let line: Int
        public let reason: String
    }

    public let file: String
    public let format: String
    public let campaign: String
    public let campaignCreated: Bool
    public let imported: Int
    public let notAdmitted: Int
    /// Attendees whose rows carried ticket details, the ticket types among them, and how many need staff.
    public let withDetails: Int
    public let types: [String]
    public let attention: Int
    public let merged: [Merge]
    public let skipped: [Skip]

    public func print() {
        Output.data(
            "Imported \(imported) attendee(s) into '\(campaign)'\(campaignCreated ? " (new campaign)" : "") from a \(format) file."
        )
        if notAdmitted > 0 {
            Output.line("\(notAdmitted) of them are refunded or cancelled and will be sent to the staff desk.")
        }
        if withDetails > 0 {
            let shown = types.prefix(12).map { TerminalText.sanitize($0, maxCharacters: 128) }.joined(separator: ", ")
            Output.line(
                "\(withDetails) carry ticket details; types: \(shown.isEmpty ? "none" : shown)\(types.count > 12 ? ", …" : "")."
            )
        }
        if attention > 0 {
            Output.line("\(attention) need a member of staff at the door (check-in attention).")
        }
        Output.line("Merged \(merged.count) duplicate row(s); skipped \(skipped.count) row(s).")
        for merge in merged {
            Output.data("  line \(merge.line): same person as line \(merge.intoLine) (\(merge.email)), merged")
        }
        for skip in skipped { Output.data("  line \(skip.line): skipped, \(skip.reason)") }
    }
}
