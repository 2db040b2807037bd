import MusterControl

extension ScreenHandles {
    /// Handles from a fixed secret, so a test can say which handle an answer carries.
    public static let test = ScreenHandles(secret: [UInt8](repeating: 7, count: 32))
}
