import Foundation

/// The modes the kiosk's state must have: the state directory 0700, the replica and its SQLite
/// companions (`-wal`, `-shm`) 0600. The replica holds every attendee's name and email; a set-up
/// made by hand, or `make demo` under umask 022, left it readable by every user of the machine
/// (issue 32). `musterd` refuses to start and `muster doctor` fails on any of them that group or
/// others may access, as for key files; the kiosk key and the venue file are checked by their
/// own readers (``KeyFile``, ``VenueFile``).
public enum StatePermissions {
    /// One path whose mode lets group or others in, and the command that fixes it.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let mode: mode_t
        /// `chmod 700 PATH` or `chmod 600 PATH`.
        public let fix: String

        public var description: String {
            "\(path) has mode \(String(mode, radix: 8)), so other users may read it"
        }
    }

    /// The mode bits no state may grant (group and others).
    static let loose: mode_t = 0o077

    /// The paths that must be private, with the mode each gets: the directory, then the replica files.
    static func paths(_ config: KioskConfig) -> [(path: String, mode: String)] {
        let replica = config.replicaPath
        return [(config.stateDirectory, "700"), (replica, "600"), (replica + "-wal", "600"), (replica + "-shm", "600")]
    }

    /// Every existing path of the state that group or others may access (none: all is well).
    public static func problems(_ config: KioskConfig) -> [Problem] {
        paths(config).compactMap { entry in
            var info = stat()
            guard lstat(entry.path, &info) == 0, info.st_mode & loose != 0 else { return nil }
            return Problem(path: entry.path, mode: info.st_mode & 0o777, fix: "chmod \(entry.mode) \(entry.path)")
        }
    }

    /// Throws the problems as one actionable message, or returns when there are none.
    public static func check(_ config: KioskConfig) throws(StatePermissionsError) {
        let found = problems(config)
        guard !found.isEmpty else { return }
        throw StatePermissionsError(found)
    }
}
