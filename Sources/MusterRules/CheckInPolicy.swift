import MusterTime

/// The kiosk's rules for who may check in, as a pure function of the lock, the attendee and the time,
/// so they can be tested without a database.
public enum CheckInPolicy {
    public enum Decision: Equatable, Sendable {
        case allow(campaignID: String, memberStatus: String)
        case refuse(String)
    }

    /// Whether the kiosk accepts check-ins at all right now.
    public static func window(lock: LockState?, nowMillis: UInt64) -> Decision {
        guard let lock, let campaignID = lock.campaignID else {
            return .refuse("This kiosk is waiting for the organizer to pick the event.")
        }
        let now = Int64(clamping: nowMillis)
        if let opens = lock.opensAtMillis, now < opens {
            return .refuse("Check-in opens at \(ClockText.time(millis: opens)).")
        }
        if let closes = lock.closesAtMillis, now >= closes {
            return .refuse("Check-in closed at \(ClockText.time(millis: closes)).")
        }
        return .allow(campaignID: campaignID, memberStatus: lock.checkInStatus)
    }
}
