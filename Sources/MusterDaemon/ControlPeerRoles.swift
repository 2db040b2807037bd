import Foundation

/// Maps a control connection's peer to its ``ControlPeerRole``: who counts as staff, and which user
/// is the public screen.
///
/// Staff are root, the daemon's own user, and any user whose account belongs to the daemon's group
/// (`muster`, the socket's group), so staff and organizer commands keep the access they had. The
/// screen's user is looked up by name once, at start; it is the screen even if someone also put it in
/// the group, since the kiosk unit gives it the group only to reach the socket. Everyone else is
/// ``ControlPeerRole/other``.
public struct ControlPeerRoles: Sendable {
    /// Users who are staff by id alone (root and the daemon's own user).
    public var staffUIDs: Set<UInt32>
    /// The group whose members are staff (the daemon's group); nil: none by group.
    public var staffGID: UInt32?
    /// The public screen's user; nil when it does not exist on this machine.
    public var screenUID: UInt32?
    /// Whether the account `uid` belongs to `group`, read from the user and group databases when asked,
    /// so a user added to the group later needs no restart.
    let isMember: @Sendable (_ uid: UInt32, _ group: UInt32) -> Bool

    public init(
        staffUIDs: Set<UInt32>,
        staffGID: UInt32?,
        screenUID: UInt32?,
        isMember: @escaping @Sendable (_ uid: UInt32, _ group: UInt32) -> Bool = { _, _ in false }
    ) {
        self.staffUIDs = staffUIDs
        self.staffGID = staffGID
        self.screenUID = screenUID
        self.isMember = isMember
    }

    public func role(of peer: ControlPeer) -> ControlPeerRole {
        if peer.uid == screenUID { return .screen }
        if staffUIDs.contains(peer.uid) { return .staff }
        if let staffGID, isMember(peer.uid, staffGID) { return .staff }
        return .other
    }

    /// The roles on this machine: root and the daemon's effective user are staff, members of its
    /// effective group too, and `screenUser` (`[screen] user`, default `muster-screen`) is the screen.
    ///
    /// musterd.service runs with `PrivateUsers=yes`: its user namespace maps only root and `muster`,
    /// and the kernel reports every other peer as the overflow user (`nobody`, 65534). The screen's
    /// user is then that overflow id, so every peer that is neither root nor `muster` but holds the
    /// socket's group (the screen, or a person in group `muster`) gets the screen's rights, the least
    /// any peer that can connect gets; staff run `muster` as user `muster`, as docs/kiosk-install.md
    /// says.
    public static func system(screenUser: String) -> ControlPeerRoles {
        let map = (try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8)) ?? "0 0 4294967295"
        let overflow =
            (try? String(contentsOfFile: "/proc/sys/kernel/overflowuid", encoding: .utf8))
            .flatMap { UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 65534
        return ControlPeerRoles(
            staffUIDs: [0, geteuid()],
            staffGID: getegid(),
            screenUID: uid(of: screenUser).map { inNamespace($0, uidMap: map, overflow: overflow) },
            isMember: accountIsMember
        )
    }

    /// The id under which this process's user namespace sees the (initial namespace's) user id `uid`:
    /// mapped by `uidMap` (the text of `/proc/self/uid_map`: "inside outside count" per line), or
    /// `overflow` when no line maps it, as the kernel then reports it in `SO_PEERCRED`.
    static func inNamespace(_ uid: UInt32, uidMap: String, overflow: UInt32) -> UInt32 {
        for line in uidMap.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).compactMap { UInt64($0) }
            guard fields.count == 3 else { continue }
            let (inside, outside, count) = (fields[0], fields[1], fields[2])
            if UInt64(uid) >= outside, UInt64(uid) - outside < count {
                return UInt32(truncatingIfNeeded: inside + (UInt64(uid) - outside))
            }
        }
        return overflow
    }

    /// The user id of `name`, or nil when there is no such user.
    static func uid(of name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// Whether the account of `uid` has `group` as its primary group or is listed in it (`/etc/group`).
    /// Only the account counts, not the process (whose groups `SO_PEERCRED` does not even give): the
    /// screen's unit hands its process the group to reach the socket, which must not make it staff.
    static func accountIsMember(uid: UInt32, group: UInt32) -> Bool {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name
        else { return false }
        if entry.pw_gid == group { return true }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, entry.pw_gid, &groups, &count) < 0 {
            // Too small: `count` now says how many there are.
            groups = [gid_t](repeating: 0, count: Int(max(count, 1)))
            guard getgrouplist(name, entry.pw_gid, &groups, &count) >= 0 else { return false }
        }
        return groups.prefix(Int(count)).contains(group)
    }
}
