public import MusterRules

/// One kiosk's signed status (``KioskStatus``) as the daemon passes it to `muster fleet` and
/// `muster lock` over the control socket.
public struct FleetStatus: Codable, Sendable, Equatable {
    /// The kiosk's public key, hex.
    public var key: String
    public var software: String
    public var kinds: [UInt8]
    public var lockFeatures: [String]
    public var printer: String
    public var freeDiskBytes: UInt64
    public var signedMillis: UInt64

    public init(_ status: KioskStatus) {
        key = status.kiosk.hex
        software = status.software
        kinds = status.kinds
        lockFeatures = status.lockFeatures
        printer = status.printer
        freeDiskBytes = status.freeDiskBytes
        signedMillis = status.signedMillis
    }
}
