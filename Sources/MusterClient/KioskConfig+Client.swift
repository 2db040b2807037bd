import MusterControl

extension KioskConfig {
    /// The config file at `path` for a command, or the configuration error every command reports the same way.
    public static func read(path: String) throws(ClientError) -> KioskConfig {
        do {
            return try KioskConfig.load(path: path)
        } catch {
            throw ClientError(.config, describing: error)
        }
    }
}
