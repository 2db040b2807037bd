public import MusterCore

/// ``RunJudge``'s verdict on one author's run: the steps a store carries out, in order.
public struct RunPlan: Sendable, Equatable {
    public var steps: [RunStep] = []
    /// The organizer's chain from a version that just won a fork (after
    /// ``RunStep/dropOrganizerBranch(from:)``): the store judges it next, against its record as the
    /// steps left it, in place of the rest of the run. A loop in the store, not recursion: each turn
    /// stores at least the winning version.
    public var resume: [SignedDelta]?

    public init() {}

    mutating func reject(_ rejection: DeltaRejection) { steps.append(.reject(rejection)) }
}
