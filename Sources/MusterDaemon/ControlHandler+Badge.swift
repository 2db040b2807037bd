import MusterControl
import MusterCore
import MusterRules
import MusterStore

extension ControlHandler {
    /// Appends this kiosk's signed badge delta (kind 11) and publishes it to its peers, committed
    /// before it returns like every other local write. (The answer is the badge desk's; this write's
    /// own is not used.)
    func recordBadge(_ payload: BadgePayload) throws(ReplicaError) {
        _ = try append { _ in .append(.badge(payload), answer: .noted) }
    }
}

extension ControlHandler {
    /// Staff replace the badge code of the attendee `query` names (email, valid or dead code): a new
    /// random `R-` code no attendee of the campaign holds, or with `restore` the list's code back.
    /// Signed and committed before the answer, like every write; every kiosk that hears of it refuses
    /// the attendee's other codes (``BadgeCodes``). The new badge is printed by a `badge` reprint.
    func replaceBadge(query: String, restore: Bool) throws(ReplicaError) -> ControlResponse {
        try append { view in
            guard let campaign = try view.lock()?.campaignID else { return .answer(Self.waitingForLock) }
            guard let record = try view.lookup(campaignID: campaign, query: query) else {
                return .answer(.notFound(Self.noMatch))
            }
            let replacements = try view.codeReplacements(campaignID: campaign, attendeeKey: record.key)
            if restore, BadgeCodes.newest(replacements)?.code == nil {
                return .answer(
                    .refused(RefusalAnswer("This badge's code was never replaced.", attendee: record.summary))
                )
            }
            let code = restore ? nil : try Self.unusedCode(view, campaignID: campaign)
            let body = DeltaBody.badgeCode(BadgeCodePayload(campaignID: campaign, attendeeKey: record.key, code: code))
            return .append(body, answer: .badgeReplaced(record.summary, code: code ?? record.badgeCode))
        }
    }

    /// A replacement code that names nobody in the campaign yet (40 random bits; drawn again on the
    /// rare clash).
    private static func unusedCode(_ view: ReplicaView, campaignID: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let code = TicketCode.replacement(using: &generator)
            if try view.lookup(campaignID: campaignID, query: code) == nil { return code }
        }
    }
}
