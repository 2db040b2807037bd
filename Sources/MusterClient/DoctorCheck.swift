/// One finding of `muster doctor`: what was checked, how it stands, and what to do about it.
public struct DoctorCheck: Sendable, Equatable, Encodable {
    public enum Verdict: String, Sendable, Encodable {
        case ok, warning, failed
    }

    public let name: String
    public let verdict: Verdict
    public let detail: String
    /// What a venue technician should do; empty when nothing.
    public let advice: String

    public static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .ok, detail: detail, advice: "")
    }

    public static func warning(_ name: String, _ detail: String, advice: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .warning, detail: detail, advice: advice)
    }

    public static func failed(_ name: String, _ detail: String, advice: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .failed, detail: detail, advice: advice)
    }
}
