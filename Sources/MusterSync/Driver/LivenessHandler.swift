import NIOCore

/// Notes every read on the socket as life, on the event loop, before frames wait for the reader.
final class LivenessHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let heard: LastHeard

    init(heard: LastHeard) { self.heard = heard }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heard.now()
        context.fireChannelRead(data)
    }
}
