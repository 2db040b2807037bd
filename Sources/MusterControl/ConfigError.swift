/// Why a config or venue file could not be used; says which file and key, and how to fix it.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let message: String

    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}
