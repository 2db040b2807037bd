import MusterControl
import MusterCore
import MusterStore

extension ControlHandler {
    /// Appends this kiosk's signed badge delta (kind 11) and publishes it to its peers, committed
    /// before it returns like every other local write.
    func recordBadge(_ payload: BadgePayload) throws(ReplicaError) {
        _ = try append { _ in
            LocalWrite<ControlResponse>.append(.badge(payload), answer: ControlResponse(outcome: .badgePrinted))
        }
    }
}
