import Foundation
import MusterCrypto
import MusterTestSupport
import Testing

/// Helpers shared by the MusterCrypto tests.
enum CryptoTestKit {
    static func contents(of path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Lowercase hex of a secret, for tests that check it never leaks.
    static func hex(of secret: SecureBytes) -> String {
        secret.withUnsafeBytes { hex(Array($0)) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// Decodes test-vector hex (well-formed by construction).
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    /// The `E` that `body` throws, or nil if it succeeds; an error of another type is a recorded
    /// issue. (Where the API's typed throws are checked by the compiler, `thrownError` does this.)
    static func error<E: Error, T>(_ type: E.Type, _ body: () throws -> T) -> E? {
        do {
            _ = try body()
            return nil
        } catch let error as E {
            return error
        } catch {
            Issue.record("Expected a \(E.self), got \(error)")
            return nil
        }
    }
}
