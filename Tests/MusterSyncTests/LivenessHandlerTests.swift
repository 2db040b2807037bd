import MusterTime
import NIOCore
import NIOEmbedded
import Testing

@testable import MusterSync

/// The daemon's liveness on the event loop, without a socket: the channel as `watch` sets it up (the
/// frame decoder, then the liveness handler), an injected clock, and the silence rule the core uses.
@Suite("LivenessHandler")
struct LivenessHandlerTests {
    static func channel(_ heard: LastHeard) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(LivenessHandler(heard: heard))
        return channel
    }

    @Test func wholeFramesCountAsLifeAndBytesTricklingInDoNot() throws {
        let clock = ManualClock()
        let heard = LastHeard(time: clock)
        let channel = try Self.channel(heard)
        let frame = ByteBuffer.frame([UInt8](repeating: 7, count: 40))

        clock.advance(by: .seconds(3))
        // All but the last byte, one at a time: nothing whole arrived, so the peer has said nothing.
        for index in 0..<(frame.readableBytes - 1) {
            try channel.writeInbound(frame.getSlice(at: index, length: 1)!)
            clock.advance(by: .milliseconds(50))
        }
        #expect(heard.silence >= .seconds(3))
        #expect(Silence.isSilent(heardAgo: heard.silence, storing: heard.isBusy, timeout: SyncLimits.silenceTimeout))

        // The last byte completes the frame: life, now, before any reader looks at it.
        try channel.writeInbound(frame.getSlice(at: frame.readableBytes - 1, length: 1)!)
        #expect(heard.silence == .zero)
        #expect(try channel.readInbound(as: ByteBuffer.self)?.readableBytes == 40)
        #expect(!Silence.isSilent(heardAgo: heard.silence, storing: heard.isBusy, timeout: SyncLimits.silenceTimeout))
        #expect(try channel.finish().isClean)
    }

    @Test func storingWhatThePeerSentIsNotItsSilence() {
        let clock = ManualClock()
        let heard = LastHeard(time: clock)
        heard.busy(true)
        clock.advance(by: SyncLimits.silenceTimeout * 3)
        #expect(!Silence.isSilent(heardAgo: heard.silence, storing: heard.isBusy, timeout: SyncLimits.silenceTimeout))
        // The store's end counts as hearing it; silence starts again from there.
        heard.busy(false)
        #expect(heard.silence == .zero)
        clock.advance(by: SyncLimits.silenceTimeout + .milliseconds(1))
        #expect(Silence.isSilent(heardAgo: heard.silence, storing: heard.isBusy, timeout: SyncLimits.silenceTimeout))
    }
}
