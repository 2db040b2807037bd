import MusterSync

/// One thing that happens at a virtual instant. Kiosks are named by their index; events that
/// belong to one life of a kiosk carry its incarnation and are dropped if it crashed since.
enum SimEvent {
    /// A check-in is made at this kiosk (workload item `index`).
    case checkIn(kiosk: Int, index: Int)
    /// A frame arrives over session `session`.
    case deliver(from: Int, to: Int, session: UInt64, message: SyncMessage)
    /// A dial from `from` to `to` completes its handshake, or fails.
    case connect(from: Int, to: Int, incarnation: UInt64)
    /// The transport tells `kiosk` that its session with `peer` ended (FIN, silence, failed dial).
    case sessionLost(kiosk: Int, peer: Int, session: UInt64)
    /// A timer the kiosk's sync core set.
    case timer(kiosk: Int, incarnation: UInt64, timer: SyncTimer, generation: UInt64)
    /// The kiosk's store finished job `job`.
    case storeDone(kiosk: Int, incarnation: UInt64, job: UInt64)
    case crash(kiosk: Int)
    case restart(kiosk: Int)
    /// A kiosk of a staggered start comes up for the first time (``SimOptions/stagger``).
    case boot(kiosk: Int)
    /// The kiosks in `side` are cut off from the others.
    case partition(side: [Int])
    case heal
    /// A Byzantine run's probe for agreement among the honest kiosks (``Simulation/settle()``).
    case settle

    /// A small number naming the kind, for the event log.
    var tag: UInt8 {
        switch self {
        case .checkIn: 1
        case .deliver: 2
        case .connect: 3
        case .sessionLost: 4
        case .timer: 5
        case .storeDone: 6
        case .crash: 7
        case .restart: 8
        case .partition: 9
        case .heal: 10
        case .settle: 11
        case .boot: 12
        }
    }
}
