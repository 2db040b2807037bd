import MusterDaemon
import Testing

/// Which control connections the daemon takes when they are accepted.
struct ControlAdmissionTests {
    static let screen: UInt32 = 65534

    @Test func aStrangerIsRefusedAtAccept() {
        var admission = ControlAdmission(limits: .init(total: 4, perPeer: 2))
        #expect(admission.admit(uid: 1_000, role: .other) == .failure(.stranger))
        #expect(admission.admit(uid: nil, role: .other) == .failure(.stranger))
        #expect(admission.count == 0 && admission.refusals == 2)
    }

    @Test func theScreensUserHoldsAtMostItsShareAndGetsASlotBackWhenOneEnds() throws {
        var admission = ControlAdmission(limits: .init(total: 4, perPeer: 2))
        let first = try admission.admit(uid: Self.screen, role: .screen).get()
        _ = try admission.admit(uid: Self.screen, role: .screen).get()
        #expect(admission.admit(uid: Self.screen, role: .screen) == .failure(.peerFull(limit: 2)))
        admission.release(first)
        #expect((try? admission.admit(uid: Self.screen, role: .screen).get()) != nil)
    }

    @Test func staffCountOnlyInTheTotalAndGetInPastAScreenAtItsShare() throws {
        var admission = ControlAdmission(limits: .init(total: 4, perPeer: 2))
        for _ in 0..<2 { _ = try admission.admit(uid: Self.screen, role: .screen).get() }
        let staff = try admission.admit(uid: 0, role: .staff).get()
        _ = try admission.admit(uid: 0, role: .staff).get()
        #expect(admission.admit(uid: 0, role: .staff) == .failure(.full(limit: 4)))
        admission.release(staff)
        #expect(admission.count == 3)
        #expect((try? admission.admit(uid: 0, role: .staff).get()) != nil)
    }

    @Test func theStandardLimitsStayBelowTheUnitsDescriptorLimit() {
        // musterd.service: LimitNOFILE=2048, shared with 64 handshakes, 128 dial loops and the sessions.
        #expect(ControlAdmission.Limits.standard.total + 64 + 128 + 256 < 2_048)
        #expect(ControlAdmission.Limits.standard.perPeer < ControlAdmission.Limits.standard.total)
    }

    @Test func staffGetLargeLinesAndEveryoneElseSmallOnes() {
        #expect(ControlLimits.lineBytes(for: .staff) == 8 * 1024 * 1024)
        #expect(ControlLimits.lineBytes(for: .screen) == 4 * 1024)
        #expect(ControlLimits.lineBytes(for: .other) == 4 * 1024)
    }
}
