/// Who is on the other end of a control connection, as far as the control socket's policy cares.
///
/// The socket (mode 0660, group `muster`, in a 0750 directory) already keeps out every process
/// without that group; the role decides what a process that got in may ask. See
/// ``ControlAccessPolicy`` for what each role may send.
public enum ControlPeerRole: String, Sendable, Equatable, CaseIterable {
    /// root, the daemon's own user (`muster`), and the users whose account is in the daemon's group:
    /// staff and organizer commands, everything the socket offers.
    case staff
    /// The public kiosk screen's user (`muster-screen`): only what the screen sends.
    case screen
    /// Anyone else who reached the socket (a process given the group by hand, or a socket whose
    /// permissions were widened). Refused everything: the safe default for a stranger.
    case other
}
