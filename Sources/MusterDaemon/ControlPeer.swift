import Glibc

/// The kernel's word on who opened a control connection: `SO_PEERCRED` on the accepted Unix socket,
/// taken when the peer called `connect(2)`, so the peer cannot change it afterwards or lie about it.
public struct ControlPeer: Sendable, Equatable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        (self.pid, self.uid, self.gid) = (pid, uid, gid)
    }

    /// For the log: ids only, never a name or anything the peer sent.
    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// `struct ucred` as `getsockopt(SO_PEERCRED)` fills it (Glibc keeps the C type behind
    /// `_GNU_SOURCE`, so it is spelled out here: three 32-bit fields, 12 bytes, as in `<bits/socket.h>`).
    struct Credentials: Sendable {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    init(_ credentials: Credentials) {
        self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}
