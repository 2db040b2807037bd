import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// Several cores together on an instant network: they converge, with bounded sessions and copies.
struct SyncCoreNetworkTests {
    typealias Kit = CoreTestKit

    func run(kiosks count: Int, writers: Int, deltas: Int, threshold: Int) throws -> CoreNetwork {
        let keys = try (0..<count).map { _ in try Kit.key() }
        let ids = keys.map { AuthorID($0.publicKey) }
        var network = CoreNetwork(kiosks: ids) { $0.fullMeshThreshold = threshold }
        for id in ids {
            for other in ids where other != id { network.input(id, .peerDiscovered(other)) }
        }
        network.run(until: .seconds(3))
        for writer in 0..<writers {
            let log = Kit.log(deltas, key: keys[writer])
            for delta in log { network.commit([delta], at: ids[writer]) }
            network.run(until: network.now + .milliseconds(5))
        }
        network.run(until: network.now + .seconds(10))
        return network
    }

    @Test func aFullMeshConvergesWithOneCopyPerDelta() throws {
        let network = try run(kiosks: 6, writers: 3, deltas: 20, threshold: 64)
        #expect(network.converged())
        #expect(network.maxSessions == 5)
        // 60 deltas, each received once by each of the 5 other kiosks (writers don't receive their own).
        let total = network.received.values.reduce(0, +)
        #expect(total == 60 * 5)
    }

    @Test func aPartialViewConvergesWithBoundedSessions() throws {
        let network = try run(kiosks: 30, writers: 5, deltas: 10, threshold: 8)
        #expect(network.converged())
        #expect(network.maxSessions <= 6)
        let perKiosk = Double(network.received.values.reduce(0, +)) / Double(50 * 29)
        #expect(perKiosk < 3, "copies per delta per kiosk: \(perKiosk)")
    }

    /// A kiosk that joins late catches up by pull, from one peer per range: it receives each delta once.
    @Test func aLateKioskIsRepairedWithoutDuplicates() throws {
        let keys = try (0..<5).map { _ in try Kit.key() }
        let ids = keys.map { AuthorID($0.publicKey) }
        var network = CoreNetwork(kiosks: ids)
        for id in ids.dropLast() {
            for other in ids.dropLast() where other != id { network.input(id, .peerDiscovered(other)) }
        }
        network.run(until: .seconds(3))
        for writer in 0..<4 { network.commit(Kit.log(300, key: keys[writer]), at: ids[writer]) }
        network.run(until: .seconds(5))
        let late = ids[4]
        for other in ids.dropLast() {
            network.input(late, .peerDiscovered(other))
            network.input(other, .peerDiscovered(late))
        }
        network.run(until: .seconds(15))
        #expect(network.converged())
        #expect(network.received[late] == 1_200, "each of the 1,200 deltas once")
    }

    /// Kiosks that come up one after another must still form one overlay. In a 50-kiosk lab the
    /// first 21 filled their views among themselves and refused the later ones as "view full"; the
    /// later 29 made a second overlay of their own and never received the attendee list.
    @Test(arguments: [0.1, 0.5, 1.0])
    func kiosksThatComeUpOneAfterAnotherFormOneOverlay(spacing: Double) async throws {
        // 20–45 s of CPU in a debug build, so on a thread of its own (`TestSupport.blocking`).
        let (components, delivered) = try await TestSupport.blocking { try Self.comeUp(spacing: spacing) }
        #expect(components.count == 1, "components of sizes \(components.map(\.count))")
        #expect(delivered, "a delta of the first kiosk reached every kiosk")
    }

    /// 50 kiosks come up `spacing` seconds apart; then the overlay's components, and whether five
    /// deltas written on the first kiosk reach every kiosk.
    static func comeUp(spacing: Double) throws -> (components: [Set<AuthorID>], delivered: Bool) {
        let keys = try (0..<50).map { _ in try Kit.key() }
        let ids = keys.map { AuthorID($0.publicKey) }
        var network = CoreNetwork(kiosks: ids) { $0.fullMeshThreshold = 16 }
        for (index, id) in ids.enumerated() {
            for other in ids.prefix(index) {
                network.input(id, .peerDiscovered(other))
                network.input(other, .peerDiscovered(id))
            }
            network.run(until: network.now + .seconds(spacing))
        }
        network.run(until: network.now + .seconds(60))
        let components = network.components()
        for delta in Kit.log(5, key: keys[0]) { network.commit([delta], at: ids[0]) }
        network.run(until: network.now + .seconds(10))
        return (components, network.logs.values.allSatisfy { $0[ids[0]]?.count == 5 })
    }
}
