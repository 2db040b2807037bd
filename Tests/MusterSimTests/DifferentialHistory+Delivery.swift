import MusterCore
import MusterSim
import MusterTestSupport

/// How what was signed reaches the stores: every shape of batch a sync session or a submission makes.
extension DifferentialHistory {
    /// A batch at the history's clock (a minute after its newest honest stamp).
    mutating func batch(_ deltas: [SignedDelta], submitted: Bool = false) {
        guard !deltas.isEmpty else { return }
        record(.batch(deltas, submitted: submitted, nowMillis: TestTime.start + clock + 60_000))
    }

    mutating func deliver() {
        switch random.int(in: 0...19) {
        case 0..<7: deliverPage()
        case 7..<13: deliverMixture()
        case 13..<15: replay()
        case 15..<17: submit()
        case 17..<19: deliverBothBranches()
        default: batch(universe.shuffled(using: &random))
        }
    }

    /// A contiguous range of one branch, in order (a peer's page); half of them from its start.
    private mutating func deliverPage() {
        let author = pickAuthor()
        let line = branches[author]![random.int(in: 0...(branches[author]!.count - 1))].deltas
        guard !line.isEmpty else { return }
        let start = random.chance(0.5) ? 0 : random.int(in: 0...(line.count - 1))
        let end = random.int(in: (start + 1)...line.count)
        batch(Array(line[start..<end]))
    }

    /// Up to ten of everything signed, with copies, in random order.
    private mutating func deliverMixture() {
        guard !universe.isEmpty else { return }
        let picks = (0..<random.int(in: 1...10)).map { _ in universe[random.int(in: 0...(universe.count - 1))] }
        batch(picks)
    }

    /// A batch delivered before, again.
    private mutating func replay() {
        let batches = events.compactMap { event -> [SignedDelta]? in
            if case .batch(let deltas, false, _) = event { return deltas }
            return nil
        }
        guard !batches.isEmpty else { return }
        batch(batches[random.int(in: 0...(batches.count - 1))])
    }

    /// The organizer's `muster` submits a range of one of its branches: all or nothing.
    private mutating func submit() {
        let lines = branches[venue.organizer]!.map(\.deltas).filter { !$0.isEmpty }
        guard !lines.isEmpty else { return }
        let line = lines[random.int(in: 0...(lines.count - 1))]
        let start = random.int(in: 0...(line.count - 1))
        batch(Array(line[start...]), submitted: true)
    }

    /// Two branches of one author in one batch, in order or shuffled: a fork met within a batch.
    private mutating func deliverBothBranches() {
        let forked = venue.authors.filter { branches[$0]!.count >= 2 }
        guard !forked.isEmpty else { return }
        let author = forked[random.int(in: 0...(forked.count - 1))]
        let lines = branches[author]!.shuffled(using: &random).prefix(2).map(\.deltas)
        let both = lines[0] + lines[1]
        batch(random.chance(0.5) ? both : both.shuffled(using: &random))
    }
}
