import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// Who may send what over the control socket (issue 14): the policy as a table, and the roles the
/// kernel's peer credentials map to.
@Suite("Control socket policy")
struct ControlAccessPolicyTests {
    /// One request of every operation (the badge a staff reprint).
    static let every: [ControlRequest] = [
        .checkIn(query: "MUS-0001"), .checkOut(query: "MUS-0001"),
        .register(WalkInRegistration(firstName: "Walk", lastName: "In", email: "walk@in.org")),
        .note(attendeeKey: "ada@example.com", text: "Hi"),
        .head(author: AuthorID(bytes: [UInt8](repeating: 1, count: 32))!),
        .submit(OrganizerSubmission(deltas: [])), .status, .ping,
        .badge(BadgeOrder(attendee: .query("MUS-0001"), reason: .reprint)), .lookup(query: "MUS-0001"), .screen,
        .replaceBadge(query: "MUS-0001", restore: false), .confirmCheckIn(query: "MUS-0001", staff: "Grace"),
        .redeem(addon: "T-shirt", query: "MUS-0001"), .checkInParty(query: "ABC12"),
        .attend(query: "MUS-0001", code: "031234"), .openSpot(name: "Lab meeting", seconds: 600),
    ]
    /// Exactly what `KioskSession` sends (`redeem` as an add-on desk).
    static let screens: Set<ControlRequest.Operation> = [
        .screen, .lookup, .checkIn, .register, .note, .badge, .redeem, .checkInParty, .attend,
    ]

    @Test func everyOperationIsInTheTable() {
        #expect(Set(Self.every.map(\.operation)) == Set(ControlRequest.Operation.allCases))
    }

    @Test func staffMaySendEverythingAndStrangersNothing() {
        for request in Self.every {
            #expect(ControlAccessPolicy.allows(request, role: .staff), "\(request)")
            #expect(!ControlAccessPolicy.allows(request, role: .other), "\(request)")
        }
    }

    @Test func theScreenMaySendOnlyWhatTheScreenSends() {
        for var request in Self.every {
            if case .badge = request { request = .badge(BadgeOrder(attendee: .key("ada@example.com"))) }
            #expect(
                ControlAccessPolicy.allows(request, role: .screen) == Self.screens.contains(request.operation),
                "\(request)"
            )
        }
    }

    @Test func theScreenPrintsOnlyTheSelfServiceBadge() throws {
        for reason in BadgePayload.Reason.allCases {
            let badge = ControlRequest.badge(BadgeOrder(attendee: .key("ada@example.com"), reason: reason))
            #expect(ControlAccessPolicy.allows(badge, role: .screen) == (reason == .selfService), "\(reason)")
        }
        // A line whose reason the daemon does not know is not the self-service badge either.
        let unknown = try #require(
            Self.incomplete(#"{"op":"badge","attendeeKey":"ada@example.com","badgeReason":"x"}"#)
        )
        #expect(!ControlAccessPolicy.allows(incomplete: unknown, role: .screen))
        #expect(ControlAccessPolicy.allows(incomplete: unknown, role: .staff))
        let nobody = try #require(Self.incomplete(#"{"op":"badge","badgeReason":"self-service"}"#))
        #expect(ControlAccessPolicy.allows(incomplete: nobody, role: .screen), "refused by the binding instead")
        let checkOut = try #require(Self.incomplete(#"{"op":"checkout"}"#))
        #expect(!ControlAccessPolicy.allows(incomplete: checkOut, role: .screen))
    }

    static func incomplete(_ line: String) -> ControlRequestError? {
        do {
            _ = try ControlRequest.read(Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func refusalsSayWhoMayAndNothingOfTheRequest() {
        let screen = ControlAccessPolicy.refusal(.checkOut, role: .screen)
        #expect(screen.contains("'checkout'") && screen.contains("user muster"))
        #expect(!screen.contains("ada@"))
        #expect(ControlAccessPolicy.refusal(.checkOut, role: .other).contains("may not use musterd's control socket"))
    }

    @Test func rolesFromPeerCredentials() {
        let roles = ControlPeerRoles(staffUIDs: [0, 104], staffGID: 110, screenUID: 105) { uid, group in
            uid == 1000 && group == 110
        }
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 0, gid: 0)) == .staff)
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 104, gid: 110)) == .staff, "the daemon's own user")
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 1000, gid: 1000)) == .staff, "an account in the group")
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 105, gid: 110)) == .screen, "the screen stays the screen")
        #expect(
            roles.role(of: ControlPeer(pid: 1, uid: 65534, gid: 110)) == .other,
            "the process's group is not enough"
        )
        let withoutScreen = ControlPeerRoles(staffUIDs: [0], staffGID: nil, screenUID: nil)
        #expect(withoutScreen.role(of: ControlPeer(pid: 1, uid: 105, gid: 105)) == .other)
    }

    @Test func theSystemsRolesComeFromTheUserDatabase() {
        let roles = ControlPeerRoles.system(screenUser: "nobody")
        #expect(roles.screenUID == 65534)
        #expect(roles.staffUIDs.contains(0))
        #expect(ControlPeerRoles.system(screenUser: "no-such-user-here").screenUID == nil)
        #expect(ControlPeerRoles.accountIsMember(uid: 0, group: 0), "root's primary group")
        #expect(!ControlPeerRoles.accountIsMember(uid: 65534, group: 0))
        #expect(!ControlPeerRoles.accountIsMember(uid: 4_000_000_000, group: 0), "no such account")
    }

    @Test func theScreensUserAsAPrivateUserNamespaceSeesIt() {
        let identity = "         0          0 4294967295\n"
        #expect(ControlPeerRoles.inNamespace(998, uidMap: identity, overflow: 65534) == 998)
        // systemd's PrivateUsers=yes: root and the unit's user (here 104) map to themselves, no one else.
        let privateUsers = "         0          0          1\n       104        104          1\n"
        #expect(ControlPeerRoles.inNamespace(104, uidMap: privateUsers, overflow: 65534) == 104)
        #expect(ControlPeerRoles.inNamespace(0, uidMap: privateUsers, overflow: 65534) == 0)
        #expect(ControlPeerRoles.inNamespace(998, uidMap: privateUsers, overflow: 65534) == 65534)
        #expect(ControlPeerRoles.inNamespace(1_000_005, uidMap: "0 1000000 65536", overflow: 65534) == 5)
        #expect(ControlPeerRoles.inNamespace(7, uidMap: "garbage\n", overflow: 65534) == 65534)
        // So the screen's user, seen as the overflow id, keeps the screen's rights and no more.
        let roles = ControlPeerRoles(
            staffUIDs: [0, 104],
            staffGID: 104,
            screenUID: ControlPeerRoles.inNamespace(998, uidMap: privateUsers, overflow: 65534)
        )
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 65534, gid: 65534)) == .screen)
        #expect(roles.role(of: ControlPeer(pid: 1, uid: 104, gid: 104)) == .staff)
    }

    @Test func peerCredentialsHaveTheKernelsLayout() {
        // struct ucred: pid_t, uid_t, gid_t.
        #expect(MemoryLayout<ControlPeer.Credentials>.size == 12)
        #expect(MemoryLayout<ControlPeer.Credentials>.offset(of: \.uid) == 4)
        #expect(MemoryLayout<ControlPeer.Credentials>.offset(of: \.gid) == 8)
    }
}
