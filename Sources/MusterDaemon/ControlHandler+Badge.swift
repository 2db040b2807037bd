import MusterControl
import MusterCore
import MusterRules

extension ControlHandler {
    /// Appends this kiosk's signed badge delta (kind 11) and publishes it to its peers, committed
    /// before it returns like every other local write. (The answer is the badge desk's; this write's
    /// own is not used.)
    func recordBadge(_ payload: BadgePayload) throws(ReplicaError) {
        _ = try append { _ in .append(.badge(payload), answer: .noted) }
    }
}
