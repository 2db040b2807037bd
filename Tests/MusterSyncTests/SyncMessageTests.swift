import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// The sync protocol's messages: round trips and bounded decoding.
struct SyncMessageTests {

    @Test func messagesRoundTrip() throws {
        let a = try SigningKeyPair.generate()
        let logA = CoreTestKit.log(3, key: a)
        for message: SyncMessage in [
            .hello(epoch: "abc", heads: [CoreTestKit.head(logA)]), .heads([]), .deltas(logA), .ping, .pong,
            .sessions([]), .sessions([logA[0].author, AuthorID(try SigningKeyPair.generate().publicKey)]),
            .rekey([]), .rekey(logA), .roster(logA),
        ] {
            #expect(try SyncMessage.decode(message.encode()) == message)
        }
    }

    @Test func malformedMessagesAreRejected() throws {
        let a = try SigningKeyPair.generate()
        let encoded = SyncMessage.deltas(CoreTestKit.log(2, key: a)).encode()
        #expect(throws: DecodeError.self) { try SyncMessage.decode([]) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode([99]) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode(Array(encoded.dropLast())) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode(encoded + [0]) }
        var huge = ByteWriter()
        huge.write(UInt8(3))
        huge.writeVarint(UInt64(SyncMessage.maxDeltas + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(huge.bytes) }
        var crowd = ByteWriter()
        crowd.write(UInt8(10))
        crowd.writeVarint(UInt64(SyncMessage.maxSessions + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(crowd.bytes) }
        let sessions = SyncMessage.sessions([AuthorID(a.publicKey)]).encode()
        #expect(throws: DecodeError.self) { try SyncMessage.decode(Array(sessions.dropLast())) }
    }
}
