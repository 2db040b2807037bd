import Testing

@testable import MusterSync

/// The caps on connections still in their handshake: per address, global, and fair eviction.
struct HandshakeAdmissionTests {
    @Test func oneAddressGetsAtMostItsShare() {
        var admission = HandshakeAdmission(limits: .init(global: 64, perAddress: 8))
        let decisions = (1...300).map { admission.accepted(UInt64($0), from: "127.0.0.2") }
        #expect(decisions.prefix(8).allSatisfy { $0 == .admit })
        #expect(decisions.dropFirst(8).allSatisfy { $0 == .refuse(.addressFull(limit: 8)) })
        #expect(admission.count == 8)
        // Another address is not affected.
        #expect(admission.accepted(301, from: "127.0.0.1") == .admit)
    }

    @Test func releasingFreesTheSlotOnce() {
        var admission = HandshakeAdmission(limits: .init(global: 4, perAddress: 2))
        #expect(admission.accepted(1, from: "a") == .admit)
        #expect(admission.accepted(2, from: "a") == .admit)
        #expect(admission.accepted(3, from: "a") == .refuse(.addressFull(limit: 2)))
        admission.release(1)
        admission.release(1)  // authenticated, then closed: released twice
        #expect(admission.count(from: "a") == 1)
        #expect(admission.accepted(4, from: "a") == .admit)
        #expect(admission.count == 2)
    }

    @Test func whenFullTheMostCrowdedAddressGivesUpItsOldest() {
        var admission = HandshakeAdmission(limits: .init(global: 4, perAddress: 4))
        for id in 1...4 { #expect(admission.accepted(UInt64(id), from: "attacker") == .admit) }
        // An honest kiosk arrives while the attacker holds every slot: the attacker's oldest goes.
        #expect(admission.accepted(5, from: "honest") == .admitEvicting(1))
        #expect(admission.count(from: "attacker") == 3)
        #expect(admission.accepted(6, from: "honest2") == .admitEvicting(2))
        #expect(admission.accepted(7, from: "honest3") == .admitEvicting(3))
        // One slot each: evicting would not be fairer.
        #expect(admission.accepted(8, from: "honest4") == .refuse(.globalFull(limit: 4)))
        #expect(admission.held == [4, 5, 6, 7])
    }

    @Test func manyAddressesFillTheGlobalCap() {
        var admission = HandshakeAdmission(limits: .init(global: 64, perAddress: 8))
        for id in 1...64 { #expect(admission.accepted(UInt64(id), from: "10.0.0.\(id)") == .admit) }
        #expect(admission.accepted(65, from: "10.0.1.1") == .refuse(.globalFull(limit: 64)))
        admission.release(10)
        #expect(admission.accepted(66, from: "10.0.1.1") == .admit)
        #expect(admission.count == 64)
    }
}
