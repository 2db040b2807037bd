import MusterCore
import Testing

@testable import MusterSync

/// `[badge] fallback`: the bookkeeping of badges relayed between kiosks, apart from sessions and clocks.
struct PrintRelaysTests {
    @Test func aReplyCountsOnlyFromThePeerAsked() throws {
        let desk = try CoreTestKit.id()
        let other = try CoreTestKit.id()
        var relays = PrintRelays<String>()
        let id = relays.ask(desk, "grace")
        let byOther = relays.replied(id, by: other)
        #expect(byOther == nil, "another kiosk cannot answer for the one asked")
        let unknown = relays.replied(id + 1, by: desk)
        #expect(unknown == nil, "nor an id nobody waits for")
        #expect(relays.pending == 1)
        let answered = relays.replied(id, by: desk)
        #expect(answered == "grace")
        let twice = relays.replied(id, by: desk)
        #expect(twice == nil, "answered once")
        #expect(relays.pending == 0)
    }

    @Test func eachRequestHasItsOwnIDAndGivesUpAlone() throws {
        let desk = try CoreTestKit.id()
        var relays = PrintRelays<String>()
        let first = relays.ask(desk, "ada")
        let second = relays.ask(desk, "alan")
        #expect(first != second)
        let gaveUp = relays.giveUp(first)
        let again = relays.giveUp(first)
        let answered = relays.replied(second, by: desk)
        #expect(gaveUp == "ada" && again == nil && answered == "alan")
    }

    @Test func aSessionEndingAnswersOnlyItsOwnRequests() throws {
        let desk = try CoreTestKit.id()
        let other = try CoreTestKit.id()
        var relays = PrintRelays<String>()
        _ = relays.ask(desk, "ada")
        let kept = relays.ask(other, "alan")
        _ = relays.ask(desk, "grace")
        let ended = relays.ended(desk)
        let endedAgain = relays.ended(desk)
        let answered = relays.replied(kept, by: other)
        #expect(Set(ended) == ["ada", "grace"])
        #expect(endedAgain.isEmpty)
        #expect(answered == "alan")
    }

    /// One badge at a time per peer: a second request while the first prints is refused, so a hostile
    /// key cannot queue the neighbour's printer; another peer is served meanwhile.
    @Test func aPeerIsServedOneBadgeAtATime() throws {
        let desk = try CoreTestKit.id()
        let other = try CoreTestKit.id()
        var relays = PrintRelays<String>()
        let first = relays.serve(desk)
        let second = relays.serve(desk)
        let another = relays.serve(other)
        #expect(first && !second && another)
        relays.served(desk)
        let afterwards = relays.serve(desk)
        #expect(afterwards)
    }
}
