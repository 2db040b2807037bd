import Foundation
import GRDB
import MusterCore
public import MusterRules

extension SignedDelta {
    /// A stored delta (or certificate, or revocation evidence) read back from a row with
    /// `envelope` and `signature` columns.
    init(row: Row) throws {
        let envelope: Data = row["envelope"]
        let signature: Data = row["signature"]
        try self.init(envelope: Array(envelope), signature: Array(signature))
    }
}
