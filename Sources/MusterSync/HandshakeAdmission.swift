/// Which incoming connections may sit in the handshake: at most ``Limits/global`` at once, and at
/// most ``Limits/perAddress`` from one address.
///
/// A connection is *unauthenticated* from accept until the peer's credentials check out (or the
/// connection ends). Before that, anyone on the LAN can open one without a key, so their number is
/// what a stranger controls: each holds a socket, buffers and a task. A pure state machine: the
/// caller reports accepts and releases and carries out the decision (close the newcomer, or close
/// the evicted connection and keep the newcomer).
///
/// When the global cap is reached, a newcomer takes the slot of the oldest connection of the address
/// holding the most slots, if that address holds more than the newcomer's would: one address cannot
/// keep the others out. An attacker with as many addresses as there are slots still can (the
/// sessions already established are not affected; SECURITY.md says so).
public struct HandshakeAdmission: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Unauthenticated connections at once, from anyone.
        public var global: Int
        /// Unauthenticated connections at once from one address. An honest kiosk dials each address
        /// once at a time, so a few cover several kiosks behind one NAT or on one test host.
        public var perAddress: Int

        public init(global: Int, perAddress: Int) {
            self.global = global
            self.perAddress = perAddress
        }

        /// 64 handshakes at once (a whole venue restarting together), 8 from one address.
        public static let standard = Limits(global: 64, perAddress: 8)
    }

    /// What to do with a newly accepted connection.
    public enum Decision: Equatable, Sendable {
        /// Keep it; it holds a slot until ``release(_:)``.
        case admit
        /// Keep it and close this older one (its slot is the newcomer's now).
        case admitEvicting(UInt64)
        /// Close it at once: the cap is reached.
        case refuse(Refusal)
    }

    public enum Refusal: Equatable, Sendable, CustomStringConvertible {
        case addressFull(limit: Int)
        case globalFull(limit: Int)

        public var description: String {
            switch self {
            case .addressFull(let limit): "\(limit) unauthenticated connections from this address already"
            case .globalFull(let limit): "\(limit) unauthenticated connections already"
            }
        }
    }

    public let limits: Limits
    /// Connection id → address, in arrival order (ids only grow).
    private var holders: [UInt64: String] = [:]
    private var perAddress: [String: Int] = [:]

    public init(limits: Limits = .standard) {
        precondition(limits.global > 0 && limits.perAddress > 0, "admission limits must be positive")
        self.limits = limits
    }

    /// Unauthenticated connections holding a slot.
    public var count: Int { holders.count }

    /// Slots held by one address.
    public func count(from address: String) -> Int { perAddress[address, default: 0] }

    /// A connection was accepted from `address`; `id` is unique and larger than every earlier one.
    public mutating func accepted(_ id: UInt64, from address: String) -> Decision {
        let mine = count(from: address)
        guard mine < limits.perAddress else { return .refuse(.addressFull(limit: limits.perAddress)) }
        guard holders.count >= limits.global else {
            take(id, address)
            return .admit
        }
        // Full: the address with the most slots gives up its oldest, if that is fairer.
        guard
            let (crowded, held) = perAddress.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }),
            held > mine + 1,
            let victim = holders.filter({ $0.value == crowded }).keys.min()
        else { return .refuse(.globalFull(limit: limits.global)) }
        release(victim)
        take(id, address)
        return .admitEvicting(victim)
    }

    /// The connection authenticated or ended: its slot is free. Unknown ids are ignored, so a
    /// connection may be released both when it authenticates and when it closes.
    public mutating func release(_ id: UInt64) {
        guard let address = holders.removeValue(forKey: id) else { return }
        let left = perAddress[address, default: 1] - 1
        perAddress[address] = left > 0 ? left : nil
    }

    /// Every connection holding a slot (to close them all at shutdown).
    public var held: [UInt64] { holders.keys.sorted() }

    private mutating func take(_ id: UInt64, _ address: String) {
        holders[id] = address
        perAddress[address, default: 0] += 1
    }
}
