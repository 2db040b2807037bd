/// Hard limits that keep hostile or broken input bounded. Shared by the encoder, the decoder and
/// the stores so that anything one side can produce the other side accepts.
public enum Limits {
    /// Longest text field (name, company, note) in bytes of UTF-8.
    public static let maxFieldBytes = 4_096
    /// Longest campaign id in bytes (the organizer's CRM id, e.g. a Salesforce campaign id).
    public static let maxCampaignIDBytes = 64
    /// Largest encoded delta body.
    public static let maxBodyBytes = 16_384
    /// Longest name, company, email, ticket or status a replica stores, in Unicode scalars: what a delta
    /// carries beyond it is cut when it is stored, so a screen cuts what it sends there too.
    public static let maxStoredFieldCharacters = 200
    /// Largest guestbook note, in characters, as typed at a kiosk.
    public static let maxNoteCharacters = 280
}
