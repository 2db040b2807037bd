import MusterCore
import Testing

@testable import MusterSim

/// Byzantine runs, small enough for `make test`: liars fork, and the checker catches an honest
/// replica that diverges, loses a check-in or holds a lie.
@Suite struct ByzantineTests {
    static func options(seed: UInt64, kiosks: Int = 4, checkIns: Int = 40) -> SimOptions {
        var options = SimOptions(kiosks: kiosks, checkIns: checkIns, seed: seed)
        options.store = .sqlite
        options.byzantine = 1
        options.patience = .seconds(20)
        return options
    }

    /// Seed 5 at 4 kiosks: the liar lies but is never seen to fork, and the honest kiosks settle.
    @Test func honestKiosksSettleAroundALiar() async throws {
        let first = try await SimulationTests.simulate(Self.options(seed: 5))
        let again = try await SimulationTests.simulate(Self.options(seed: 5))
        #expect(first.passed, "\(first.line) \(first.check.problems)")
        #expect(first.eventLogHash == again.eventLogHash)
    }

    @Test func byzantineModeNeedsTheRealReplica() {
        var options = Self.options(seed: 1)
        options.store = .memory
        #expect(throws: SimError.self) { try Simulation(options: options) }
    }

    /// A settled run, then one honest replica broken three ways: each is reported.
    @Test func checkerCatchesACorruptedHonestReplica() throws {
        let simulation = try Simulation(options: Self.options(seed: 5))
        let result = try simulation.run()
        #expect(result.passed, "\(result.line) \(result.check.problems)")
        let liars = try #require(simulation.byzantine?.liars)
        let honest = try #require(simulation.kiosks.first { liars[$0.index] == nil })
        let liar = try #require(liars.values.first)

        // A check-in nobody else has, committed on the real replica: it diverges.
        _ = try honest.store.appendLocal(
            SimVenue.checkInBody(index: 999, kiosk: honest.index),
            keyPair: honest.key,
            nowMillis: SimVenue.startMillis + 60_000
        ) { _ in HLC(physicalMillis: SimVenue.startMillis + 60_000, logical: 0) }
        var history = try simulation.history()
        var report = Checker.check(history)
        #expect(!report.digestsEqual)
        #expect(report.phantoms == 1)

        // An acknowledged check-in gone from it: lost.
        let name = "k\(honest.index + 1)"
        let position = try #require(history.kiosks.firstIndex { $0.name == name })
        let dropped = try #require(history.acknowledged.first)
        history.kiosks[position].deltas.removeAll { $0.ref == dropped }
        report = Checker.check(history)
        #expect(report.lost == 1 && report.lostCheckIns == [dropped])

        // A lie the rules refuse, held: a violation.
        if let lie = liar.refused.first {
            history.kiosks[position].deltas.append(lie)
            report = Checker.check(history)
            #expect(report.violations >= 1)
        }
        // A rewritten attendee shown: a violation.
        var facts = try #require(history.byzantine?.facts[name])
        facts.attendees[SimVenue.attendee(0).key]?.firstName = "Eve"
        history.byzantine?.facts[name] = facts
        #expect(Checker.check(history).violations >= 1)
    }

    /// Seed 1 at 4 kiosks: the liar shows version A of its seq 2 to some kiosks and B to the others,
    /// directly, and extends both. Each honest store holds one branch. Heads of one seq with two
    /// hashes, or a run that breaks the chain, make a kiosk send its version of that seq to the peer
    /// (`SyncCore.probeForks`), whose store proves the fork and cuts it; the evidence reaches every
    /// kiosk, the cut moves down to seq 2 the same way, and all honest replicas end equal.
    @Test func forkShownToDifferentKiosksIsCutEverywhere() async throws {
        let result = try await SimulationTests.simulate(Self.options(seed: 1))
        #expect(result.forksSeen == 1)
        #expect(result.passed, "\(result.line) \(result.check.problems)")
    }
}
