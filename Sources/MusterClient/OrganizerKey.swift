import Foundation
import MusterCore
public import MusterCrypto

/// Loads the organizer's signing key for `import`, `lock`, `unlock` and `undo`.
///
/// A sealed key asks for its passphrase from `MUSTER_PASSPHRASE` (for scripts) or, on a terminal,
/// without echo. The passphrase is never logged or kept.
public enum OrganizerKey {
    /// The key at `path`, its record of its last signature (`KEY.signed`) and, when it is an organizer
    /// device's, its certificate (`KEY.certificate`).
    public static func signer(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> OrganizerSigner {
        let keyPair = try load(path: path, environment: environment)
        let record = SignedHeadRecord(path: SignedHeadRecord.path(forKey: path))
        let certificatePath = OrganizerSigner.certificatePath(forKey: path)
        guard FileManager.default.fileExists(atPath: certificatePath) else {
            return OrganizerSigner(keyPair: keyPair, record: record)
        }
        guard let text = try? String(contentsOfFile: certificatePath, encoding: .utf8),
            let certificate = OrganizerDevice.certificate(from: text)
        else { throw ClientError(.config, "\(certificatePath) is not an organizer device certificate") }
        return OrganizerSigner(keyPair: keyPair, certificate: certificate, record: record)
    }

    public static func load(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(ClientError) -> SigningKeyPair
    {
        do {
            return try KeyFile.read(from: path) {
                if let passphrase = environment["MUSTER_PASSPHRASE"] { return passphrase }
                return Passphrase.prompt("Passphrase for \(path): ")
            }
        } catch {
            throw ClientError(.config, "organizer key \(path): \(error.message)", cause: error)
        }
    }
}

/// Reads a passphrase from the controlling terminal with echo off.
public enum Passphrase {
    public static func prompt(_ text: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }
}
