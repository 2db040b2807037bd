import Foundation
import MusterControl
import MusterCore
import MusterDaemon
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The control socket's per-peer policy against real processes with real user ids (issue 14): the
/// daemon reads `SO_PEERCRED` from each connection, so a client run as another user by `setpriv` is
/// who the kernel says it is. The tests run as root (they must, to change user); elsewhere they skip.
@Suite("Control socket policy (live socket, real uids)", .enabled(if: geteuid() == 0))
struct ControlPeerPolicyLiveTests {
    /// `nobody`: stands in for `muster-screen` or for a stranger, as each test's roles say.
    static let nobody: UInt32 = 65534

    /// Plain Python, so the process that connects is exactly the user `setpriv` made it.
    static let client = TestSupport.controlLineClient

    /// Lets `nobody` reach the socket the way the kiosk unit lets `muster-screen` reach it: through the
    /// socket's group (here nogroup) on the directory and the socket, never by widening the mode.
    static func openToNobody(_ daemon: LiveDaemon) throws {
        let socket = daemon.socketPath
        let directory = (socket as NSString).deletingLastPathComponent
        for path in [directory, socket] {
            guard chown(path, 0, nobody) == 0 else { throw TestFailure("chown \(path): errno \(errno)") }
        }
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        #expect(try FilePermissions.mode(of: socket) == 0o660)
    }

    /// Sends `requests` over one connection as user `nobody` and returns the answers.
    static func asNobody(_ daemon: LiveDaemon, _ requests: [ControlRequest]) async throws -> [ControlResponse] {
        let lines = try requests.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let path = daemon.socketPath
        let run = try await TestSupport.blocking {
            try ToolRun.run(
                "setpriv",
                ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/usr/bin/python3", "-c", client, path]
                    + lines
            )
        }
        guard run.status == 0 else { throw TestFailure("client as nobody failed: \(run.errorOutput)") }
        return try run.output.split(separator: "\n").map {
            try JSONDecoder().decode(ControlResponse.self, from: Data($0.utf8))
        }
    }

    static func request(
        _ op: ControlRequest.Operation,
        query: String = "",
        badgeReason: BadgePayload.Reason = .selfService
    ) -> ControlRequest {
        switch op {
        case .checkIn: .checkIn(query: query)
        case .checkOut: .checkOut(query: query)
        case .lookup: .lookup(query: query)
        case .badge: .badge(BadgeOrder(attendee: .query(query), reason: badgeReason))
        case .status: .status
        case .ping: .ping
        case .screen: .screen
        case .submit: .submit(OrganizerSubmission(deltas: []))
        default: preconditionFailure("\(op) is not one these tests send")
        }
    }

    static func gate(screenUID: UInt32?, clock: ManualClock = ManualClock()) -> ControlGate {
        ControlGate(
            roles: ControlPeerRoles(staffUIDs: [0], staffGID: 0, screenUID: screenUID),
            throttle: LookupThrottle.Settings(
                freeMisses: 2,
                firstBackoff: .seconds(4),
                maxBackoff: .seconds(60),
                forgiveEvery: .seconds(600)
            ),
            time: clock
        )
    }

    @Test func aStrangerIsClosedAtAcceptWithNothingAnswered() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screenUID: nil))
        try await daemon.importAndLock()
        try Self.openToNobody(daemon)
        let lines = try [
            Self.request(.checkOut, query: "ada@example.com"), Self.request(.ping),
            Self.request(.checkIn, query: "MUS-0001"),
        ].map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let (path, nobody, client) = (daemon.socketPath, Self.nobody, Self.client)
        let run = try await TestSupport.blocking {
            try ToolRun.run(
                "setpriv",
                ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/usr/bin/python3", "-c", client, path]
                    + lines
            )
        }
        #expect(run.output.isEmpty, "a stranger was answered: \(run.output)")
        #expect(try await daemon.send(Self.request(.lookup, query: "MUS-0001")).checkIn == nil, "nothing was done")
        // Root, through the same socket, is staff.
        let pong = try await daemon.send(ControlRequest.ping)
        #expect(pong.outcome == .pong)
    }

    @Test func theScreensUserMaySendOnlyTheScreensRequests() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screenUID: Self.nobody))
        try await daemon.importAndLock()
        try Self.openToNobody(daemon)
        let answers = try await Self.asNobody(
            daemon,
            [
                Self.request(.screen), Self.request(.lookup, query: "MUS-0001"),
                Self.request(.checkOut, query: "ada@example.com"), Self.request(.status),
                Self.request(.badge, query: "MUS-0001", badgeReason: .reprint), Self.request(.submit),
                Self.request(.checkIn, query: "MUS-0002"),
            ]
        )
        #expect(answers.map(\.outcome) == [.status, .found, .error, .error, .error, .error, .checkedIn])
        #expect(answers[0].campaignName == "DevConf 2026")
        #expect(answers[1].maskedName == "Ada L.")
        // The check-in went through, and the screen's user was told only what the screen shows.
        #expect(answers[6].attendee?.firstName == "Grace" && answers[6].attendee?.lastName == "H")
        #expect(answers[6].attendee?.company == "" && answers[6].attendee?.ticket == nil)
        for refused in answers[2...5] {
            #expect(refused.errorCode == .forbidden)
            #expect(refused.message?.contains("the kiosk screen's user may not send") == true)
        }
    }

    @Test func theDaemonBrakesTheScreensUsersLookups() async throws {
        let clock = ManualClock()
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screenUID: Self.nobody, clock: clock))
        try await daemon.importAndLock()
        try Self.openToNobody(daemon)
        let guesses = (1...4).map { Self.request(.lookup, query: "MUS-99\($0)") }
        let answers = try await Self.asNobody(daemon, guesses + [Self.request(.checkIn, query: "MUS-0001")])
        #expect(answers.map(\.outcome) == [.notFound, .notFound, .notFound, .error, .error])
        #expect(answers[3].errorCode == .rateLimited && answers[3].retryAfterSeconds == 4)
        #expect(answers[4].errorCode == .rateLimited, "a check-in by ticket is braked too")
        // Staff are never braked, even now.
        let staff = try await daemon.send(Self.request(.lookup, query: "MUS-0001"))
        #expect(staff.outcome == .found)
        // On a new connection too: the brake is the user's, not the connection's.
        #expect(
            try await Self.asNobody(daemon, [Self.request(.lookup, query: "MUS-0001")]).first?.errorCode == .rateLimited
        )
        clock.advance(by: .seconds(4))
        #expect(try await Self.asNobody(daemon, [Self.request(.lookup, query: "MUS-0001")]).first?.outcome == .found)
    }
}
