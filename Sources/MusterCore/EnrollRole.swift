/// What an enrollment certificate makes its key: a kiosk, or one of the organizer's devices.
///
/// An organizer device (a second laptop, the registration desk's machine) signs organizer deltas
/// (import, lock, unlock, undo, revocations of kiosks) on its own chain, under its own key, which
/// the organizer key certified. Two devices on either side of a partition therefore never sign
/// the same (author, seq): nothing forks, and when the sides heal their deltas merge like any two
/// kiosks' (docs/organizer.md, "Organizer devices"). A device takes no part in sessions and writes no
/// kiosk kinds.
public enum EnrollRole: UInt8, ByteEnum, Sendable {
    case kiosk = 0
    case organizerDevice = 1

    public static let wireName = "enrollment role"
}
