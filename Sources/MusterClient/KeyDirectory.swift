import Foundation
import MusterCrypto

/// The directory `muster venue create` and `muster venue add-device` write a new key into, with the
/// files that go with it (venue file, certificate).
///
/// Both refuse before asking for a passphrase when one of their files is already there, since a key
/// file may be the only copy of its key; both create the directory owner-only (0700) and report a
/// failure while writing as ``ClientError/Code/failed``, a key-file error with its own message.
enum KeyDirectory {
    /// Throws `.usage` when any of `paths` exists; `what` names what writing over it would lose.
    static func refuseExisting(_ paths: [String], overwriting what: String) throws(ClientError) {
        for path in paths where FileManager.default.fileExists(atPath: path) {
            throw ClientError(.usage, "\(path) already exists; refusing to overwrite \(what)")
        }
    }

    /// Creates `directory` (0700, with its parents) and runs `write`; `task` says what failed in
    /// the message of any other error ("cannot \(task) in DIR: …").
    static func write(in directory: String, task: String, _ write: () throws -> Void) throws(ClientError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            try write()
        } catch let error as MusterCryptoError {
            throw ClientError(.failed, error.message, cause: error)
        } catch {
            throw ClientError(.failed, "cannot \(task) in \(directory): \(error)", cause: error)
        }
    }
}
