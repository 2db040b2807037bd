import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

#if canImport(Glibc)
import Glibc
#endif

/// The replica holds every attendee's name and email: only the daemon's user may read it, however
/// loose the umask it is started under (issue 32: `make demo` under umask 022 left it 0644).
@Suite("Replica file modes")
struct ReplicaFileModeTests {
    @Test func aNewReplicaAndItsWalAndShmAre0600UnderUmask022() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let directory = try TemporaryDirectory("muster-modes")
        defer { directory.remove() }
        let organizer = try SigningKeyPair.generate()
        let path = directory.file("replica.sqlite")
        let replica = try Replica.open(
            path: path,
            policy: VenuePolicy(venue: VenueID.random(), organizer: AuthorID(organizer.publicKey))
        )
        _ = try replica.epoch()
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) exists while the replica is open")
            #expect(try FilePermissions.mode(of: file) == 0o600, "\(file)")
        }
        try replica.close()
    }
}
