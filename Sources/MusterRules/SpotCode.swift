public import MusterCore

/// A spot's six-digit code (issue 36), unique among open spots venue-wide without asking anyone:
/// the first two digits are the kiosk's rank among the venue's kiosks (by key, as every kiosk's roster
/// orders them), the last four are random. Two kiosks cut off from each other draw from different
/// hundreds, and a kiosk skips the codes of the open spots it knows.
///
/// The limits: more than 100 kiosks share prefixes (rank modulo 100), and a kiosk enrolled while
/// another was cut off may rank the same as it until their rosters meet; then only the random part
/// (1 in 10,000, minus the codes taken) keeps them apart. A code is only valid in its own zone
/// (``SessionPolicy/choose(code:zone:sessions:nowMillis:)``), and attendance names the session, not the code,
/// so even a shared code never mixes two spots' attendance.
public enum SpotCode {
    /// `kiosk`'s rank among `kiosks` (every enrolled kiosk, revoked ones too, so ranks do not move when
    /// one is revoked), modulo 100.
    public static func prefix(of kiosk: AuthorID, among kiosks: [AuthorID]) -> Int {
        (Set(kiosks).union([kiosk]).sorted().firstIndex(of: kiosk) ?? 0) % 100
    }

    /// A code with `prefix` whose last four digits come from `random` (called until a code not in
    /// `taken` comes up; after 10,000 draws the last one, taken or not).
    public static func make(prefix: Int, taken: Set<String>, random: () -> UInt32) -> String {
        var code = ""
        for _ in 0..<10_000 {
            code = pad(prefix % 100, 2) + pad(Int(random() % 10_000), 4)
            if !taken.contains(code) { break }
        }
        return code
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
