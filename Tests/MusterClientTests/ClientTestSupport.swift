import Foundation
import Logging
import MusterControl
import MusterCore
import MusterCrypto
import MusterDaemon
import MusterRules
import MusterTestSupport
import MusterTime
import ServiceLifecycle
import Testing

@testable import MusterClient

extension RawSocket {
    /// The next line as a control response.
    func readResponse() throws -> ControlResponse { try readJSON() }
}

extension ClientError {
    /// The error a ping to the control socket at `path` ends with, as `muster` reports it; nil when
    /// it is answered.
    static func ofPing(to path: String, timeout: Duration? = nil) async throws -> ClientError? {
        try await TestSupport.blocking {
            let client = ControlClient(path: path)
            if let timeout { client.timeout = timeout }
            do {
                _ = try client.send(ControlRequest.ping)
                return nil
            } catch let error as ControlClientError {
                return ClientError(error)
            }
        }
    }
}

/// Runs the kiosk screen loop against a live in-process daemon: typed lines in, printed text out. Like
/// `muster kiosk`, it reads only the config file and talks only to the control socket.
func runKiosk(
    configPath: String,
    lines: [String],
    marker: String? = nil,
    atMarker: @escaping @Sendable (ControlClient, inout String) -> String? = { _, _ in nil }
) async throws -> String {
    try await runKiosk(config: try KioskConfig.load(path: configPath), lines: lines, marker: marker, atMarker: atMarker)
}

/// ``runKiosk(configPath:lines:)`` with the config already loaded, and optionally a clock and a
/// marker line: when the script reaches `marker`, `atMarker` runs instead (with the session's
/// control client and the output so far) and returns the line the screen reads (nil: the next one).
func runKiosk(
    config: KioskConfig,
    lines: [String],
    clock: any TimeSource = SystemTime(),
    marker: String? = nil,
    atMarker: @escaping @Sendable (ControlClient, inout String) -> String? = { _, _ in nil }
) async throws -> String {
    try await TestSupport.blocking {
        let control = ControlClient(path: config.controlSocket)
        var input = lines
        var output = ""
        KioskSession(
            config: config,
            control: control,
            clock: clock,
            readLine: {
                guard !input.isEmpty else { return nil }
                let line = input.removeFirst()
                guard line == marker else { return line }
                return atMarker(control, &output) ?? (input.isEmpty ? nil : input.removeFirst())
            },
            write: { output += $0 }
        ).run()
        return output
    }
}
