import Foundation
public import MusterCore
import MusterCrypto
public import MusterRules

/// The last seq and hash an organizer key signed, kept beside the key (`KEY.signed`, mode 0600), so
/// the key carried to a kiosk that has not caught up does not fork the organizer's chain.
///
/// `muster` signs the organizer's deltas on the head the kiosk it talks to offers. A kiosk that has
/// not yet heard what the key signed through another kiosk offers an older head, and the new deltas
/// would be a second version of seqs already signed: a fork that every kiosk then has to settle
/// (issue 32). The record is the key's own memory of where its chain ends, independent of any kiosk.
///
/// A kiosk that offers a later head than the record is believed: the record lags when an answer was
/// lost after the daemon applied a submission, or when a copy of the key signed elsewhere.
public struct SignedHeadRecord: Sendable, Equatable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Where the record of the key at `keyPath` is kept.
    public static func path(forKey keyPath: String) -> String { keyPath + ".signed" }

    /// The head last recorded; nil before the key's first recorded signature.
    public func load() throws(ClientError) -> (seq: UInt64, hash: [UInt8])? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ClientError(.config, "\(path) cannot be read")
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        guard let seq = fields["seq"].flatMap({ UInt64($0) }), let hash = fields["hash"].flatMap(Hex.decode),
            hash.count == 32
        else { throw ClientError(.config, "\(path) is not a record of the organizer key's last signature") }
        return (seq, hash)
    }

    /// Refuses to sign on `offered` when it is older than, or differs at the same seq from, what the
    /// key last signed.
    public func check(offered: AuthorHead) throws(ClientError) {
        guard let signed = try load() else { return }
        if offered.seq > signed.seq || (offered.seq == signed.seq && offered.hash == signed.hash) { return }
        let same = offered.seq == signed.seq ? " with another hash" : ""
        throw ClientError(
            .refused,
            "this organizer key last signed seq \(signed.seq) (hash \(Hex.encode(signed.hash).prefix(12))), but this "
                + "kiosk holds the organizer's chain only to seq \(offered.seq)\(same): signing here would fork the "
                + "chain, so nothing was signed. Wait until this kiosk has synced with the kiosk the key was used on "
                + "before (`muster status` shows the organizer's head), or run the command on that kiosk. Only if "
                + "that kiosk's deltas are lost for good, delete \(path) to sign on this kiosk's head."
        )
    }

    /// Records `head` as the key's last signature (written whole, mode 0600, replacing the last).
    public func save(_ head: AuthorHead) throws(ClientError) {
        let text =
            "# The organizer key's last signature; muster refuses to sign on an older head.\n"
            + "seq = \(head.seq)\nhash = \"\(Hex.encode(head.hash))\"\n"
        do {
            try KeyFile.writeSecretFile(text, to: path, overwrite: true)
        } catch {
            throw ClientError(.config, "\(path) cannot be written: \(error.message)", cause: error)
        }
    }
}
