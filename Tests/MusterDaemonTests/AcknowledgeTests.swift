import MusterControl
import MusterTestSupport
import Synchronization
import Testing

@testable import MusterDaemon
@testable import MusterSync

/// `ack_copies` in the handler: an answer that says a write is done waits for the copies the
/// configuration asks for; one that wrote nothing goes at once.
struct AcknowledgeTests {
    @Test func writesWaitForTheConfiguredCopiesAndRefusalsDoNot() async throws {
        let fixture = try HandlerFixture()
        var config = fixture.handler.config
        config.ackCopies = 3
        let asked = Mutex<[Int]>([])
        let handler = ControlHandler(
            replica: fixture.replica,
            keyPair: fixture.kioskKey,
            config: config,
            clock: fixture.handler.clock,
            logger: TestSupport.quietLogger,
            awaitCopies: { copies in
                asked.withLock { $0.append(copies) }
                return .held(peers: copies - 1)
            }
        )
        #expect(await handler.acknowledge(.noted) == .noted)
        #expect(asked.withLock { $0 } == [3])
        let refusal = ControlResponse.refused(RefusalAnswer("No."))
        #expect(await handler.acknowledge(refusal) == refusal)
        #expect(
            await handler.acknowledge(.notFound(RefusalAnswer("No match."))) == .notFound(RefusalAnswer("No match."))
        )
        #expect(asked.withLock { $0 } == [3], "nothing written, nothing waited for")
    }
}
