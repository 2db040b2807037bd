import MusterControl
import MusterCore
import MusterStore
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// Who may send what over the control socket (issue 14): the policy as a table, and the roles the
/// kernel's peer credentials map to.
@Suite("Control socket policy")
struct ControlAccessPolicyTests {
    static let every: [ControlRequest.Operation] = [
        .checkIn, .checkOut, .register, .note, .head, .submit, .status, .ping, .badge, .lookup, .screen,
    ]
    /// Exactly what `KioskSession` sends.
    static let screens: Set<ControlRequest.Operation> = [.screen, .lookup, .checkIn, .register, .note, .badge]

    @Test func staffMaySendEverythingAndStrangersNothing() {
        for op in Self.every {
            var request = ControlRequest(op: op)
            request.badgeReason = op == .badge ? "reprint" : nil
            #expect(ControlAccessPolicy.allows(request, role: .staff), "\(op)")
            #expect(!ControlAccessPolicy.allows(request, role: .other), "\(op)")
        }
    }

    @Test func theScreenMaySendOnlyWhatTheScreenSends() {
        for op in Self.every {
            #expect(
                ControlAccessPolicy.allows(ControlRequest(op: op), role: .screen) == Self.screens.contains(op),
                "\(op)"
            )
        }
    }

    @Test func theScreenPrintsOnlyTheSelfServiceBadge() {
        var badge = ControlRequest(op: .badge)
        #expect(ControlAccessPolicy.allows(badge, role: .screen), "no reason is self-service")
        for (reason, allowed) in [("self-service", true), ("reprint", false), ("print-only", false), ("x", false)] {
            badge.badgeReason = reason
            #expect(ControlAccessPolicy.allows(badge, role: .screen) == allowed, "\(reason)")
        }
    }

    @Test func refusalsSayWhoMayAndNothingOfTheRequest() {
        var request = ControlRequest(op: .checkOut)
        request.query = "ada@example.com"
        let screen = ControlAccessPolicy.refusal(request, role: .screen)
        #expect(screen.contains("'checkout'") && screen.contains("user muster"))
        #expect(!screen.contains("ada@"))
        #expect(ControlAccessPolicy.refusal(request, role: .other).contains("may not use musterd's control socket"))
    }

    @Test func theScreenIsToldOnlyWhatTheScreenShows() {
        var response = ControlResponse(outcome: .alreadyCheckedIn)
        response.attendee = .sample(campaign: "c")
        response.checkIn = PresenceSummary(atMillis: 9, kioskName: "Hall B", location: "VIP door")
        response.ticket = "MUS-0001"
        #expect(ControlAccessPolicy.shape(response, for: .staff) == response)
        let shaped = ControlAccessPolicy.shape(response, for: .screen)
        #expect(shaped.attendee?.firstName == "Ada" && shaped.attendee?.lastName == "L")
        #expect(shaped.attendee?.company == "" && shaped.attendee?.ticket == nil)
        #expect(shaped.attendee?.key == "ada@example.com", "the note and badge name the attendee by it")
        #expect(shaped.checkIn == PresenceSummary(atMillis: 9, kioskName: "", location: ""))
        #expect(shaped.ticket == nil)
        #expect(MaskedName.of(firstName: "Ada", lastName: shaped.attendee?.lastName ?? "") == "Ada L.")
        var walkIn = ControlResponse(outcome: .registered)
        walkIn.ticket = "W-ABCD1234"
        #expect(ControlAccessPolicy.shape(walkIn, for: .screen).ticket == "W-ABCD1234", "a walk-in's own new ticket")
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
