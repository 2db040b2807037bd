/// The English sentences of a session door (issue 36), beside ``DoorText``; the screen's catalog
/// says them in its six languages, by ``DoorReason``.
public enum SessionText {
    public static let noSessionNow = "No session is open in this room now."
    public static let notRegistered = "This session is for registered attendees only. Please see the staff desk."
    public static let wrongZone = "This code is for a session in another room."
    public static let spotClosed = "Check-in for this session is closed."
    public static let wrongCode = "No open session has this code."
    public static let sessionFull = "This session is full."
}
