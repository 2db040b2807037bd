import MusterControl

extension VenueFile {
    /// The venue file at `path` for a command: a file that cannot be read or is not a venue file is the
    /// configuration error every command reports the same way (exit code and message naming the file).
    static func read(path: String) throws(ClientError) -> VenueFile {
        do {
            return try VenueFile.load(path: path)
        } catch {
            throw ClientError(.config, describing: error)
        }
    }
}
