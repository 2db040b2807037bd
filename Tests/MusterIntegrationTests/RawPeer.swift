import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// A hand-driven peer for attack tests: a blocking TCP socket that speaks the real handshake and
/// secretstream with whatever network key and kiosk key the test gives it, then sends exactly the
/// messages the test wants (including ones an honest kiosk never would).
final class RawPeer {
    struct Closed: Error {}
    let fd: Int32
    let sender: SecretStreamSender
    let receiver: SecretStreamReceiver

    /// - Parameter source: the loopback address to connect from (any of 127.0.0.0/8), so one test can
    ///   play several attackers' addresses; nil lets the kernel choose.
    init(port: Int, source: String? = nil, networkKey: SecureBytes, keyPair: SigningKeyPair) throws {
        fd = try Self.connect(port: port, source: source)
        do {
            let client = try ClientHandshake(networkKey: networkKey, keyPair: keyPair, authorize: { _ in true })
            try Self.writeFrame(fd, client.hello())
            try Self.writeFrame(fd, try client.receiveHello(try Self.readFrame(fd)))
            let result = try client.receiveAccept(try Self.readFrame(fd))
            sender = try SecretStreamSender(key: result.sendKey)
            try Self.writeFrame(fd, sender.header)
            receiver = try SecretStreamReceiver(key: result.receiveKey, header: try Self.readFrame(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    func send(_ message: SyncMessage) throws { try sendSealed(message.encode()) }

    /// Seals arbitrary plaintext (for random "messages" inside an authenticated session).
    func sendSealed(_ plaintext: [UInt8]) throws { try Self.writeFrame(fd, try sender.seal(plaintext)) }

    /// The next message, or nil once the other side closed the connection (or stayed silent).
    func receive() -> SyncMessage? {
        guard let frame = try? Self.readFrame(fd), let (plaintext, _) = try? receiver.open(frame) else { return nil }
        return try? SyncMessage.decode(plaintext)
    }

    /// Every message until the daemon closes the connection.
    func receiveUntilClosed() -> [SyncMessage] {
        var messages: [SyncMessage] = []
        while let message = receive() { messages.append(message) }
        return messages
    }

    /// Pings once a second, as a live kiosk's heartbeat would, and reads whatever comes, until the
    /// other side closes the connection or `limit` passes. Returns whether it closed, and what it sent.
    func pingUntilClosed(within limit: Duration) -> (closed: Bool, messages: [SyncMessage]) {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var messages: [SyncMessage] = []
        var nextPing = clock.now
        while clock.now < deadline {
            if clock.now >= nextPing {
                guard (try? send(.ping)) != nil else { return (true, messages) }
                nextPing = clock.now + .seconds(1)
            }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else { continue }
            // A frame arrives whole or the connection ends: a read that fails is the close.
            guard let frame = try? Self.readFrame(fd) else { return (true, messages) }
            if let (plaintext, _) = try? receiver.open(frame), let message = try? SyncMessage.decode(plaintext) {
                messages.append(message)
            }
        }
        return (false, messages)
    }

    static func connect(port: Int, source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw KioskHarness.HarnessError(description: "cannot bind to \(source)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw KioskHarness.HarnessError(description: "cannot connect to port \(port)")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func writeFrame(_ fd: Int32, _ payload: [UInt8]) throws {
        let length = UInt32(payload.count)
        let bytes =
            [UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff), UInt8(length & 0xff)]
            + payload
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Closed() }
            offset += sent
        }
    }

    static func readFrame(_ fd: Int32) throws -> [UInt8] {
        let header = try readExactly(fd, 4)
        let length = header.reduce(0) { ($0 << 8) | Int($1) }
        guard length <= 8 * 1024 * 1024 else { throw Closed() }
        return try readExactly(fd, length)
    }

    static func readExactly(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = out[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { throw Closed() }
            offset += got
        }
        return out
    }
}

/// The venue facts a test reads from a kiosk's joined venue file.
struct JoinedVenue {
    let venue: VenueID
    let organizer: AuthorID
    let networkKey: SecureBytes

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func value(_ key: String) throws -> String {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + " = ") }) else {
                throw KioskHarness.HarnessError(description: "\(key) missing in \(path)")
            }
            return String(line.dropFirst(key.count + 3)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        guard let venue = VenueID(hex: try value("venue_id")), let organizer = AuthorID(hex: try value("organizer")),
            let key = Hex.decode(try value("network_key"))
        else { throw KioskHarness.HarnessError(description: "bad venue file \(path)") }
        self.venue = venue
        self.organizer = organizer
        networkKey = try SecureBytes(copying: key)
    }

    var policy: VenuePolicy { VenuePolicy(venue: venue, organizer: organizer) }
}
