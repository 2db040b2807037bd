import Logging
import MusterControl
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterDaemon

@Suite("AuditFlushService")
struct AuditFlushServiceTests {
    @Test func heldNotFoundScansAreRecordedOnceTheirMinuteIsOverWithoutAnotherScan() async throws {
        let v = try DoorVenue(zones: ["Hall"])
        try v.setUp(attendees: 1, rules: DoorRules())
        for _ in 0..<5 { #expect(v.scan(0, "nobody@x.org").reason == "not_found") }
        #expect(try v.scans(on: 0).values.map(\.count) == [1], "the first at once, four held")
        let service = AuditFlushService(
            handler: v.kiosks[0].handler,
            time: v.clock,
            logger: TestSupport.quietLogger
        )
        let task = Task { try await service.run() }
        #expect(await v.clock.waitForSleepers(1))
        v.clock.advance(by: AuditFlushService.interval)
        #expect(await v.clock.waitForSleepers(1))
        #expect(try v.scans(on: 0).count == 1, "the minute is not over yet")
        for _ in 0..<6 {
            v.clock.advance(by: AuditFlushService.interval)
            #expect(await v.clock.waitForSleepers(1))
        }
        let counts = try v.scans(on: 0).values.map(\.count).sorted()
        #expect(counts == [1, 4], "the four held attempts are one record")
        task.cancel()
        try? await task.value
    }
}
