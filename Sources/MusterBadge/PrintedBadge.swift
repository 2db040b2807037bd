/// A badge job that came out of the printer: CUPS reported it `completed`.
public struct PrintedBadge: Sendable, Equatable {
    public let queue: String
    public let jobID: Int32
    /// From handing the PDF to CUPS to the job's completion.
    public let elapsed: Duration
}
