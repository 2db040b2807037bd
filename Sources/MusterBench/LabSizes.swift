/// Sizes of the lab figures: the (full) or a smoke run's (`--quick`, 3 kiosks).
struct LabSizes {
    let propagationKiosks: Int
    let propagationCheckIns: Int
    /// Time between two check-ins of the propagation run (a busy entrance, not a burst).
    let propagationPacingMillis: Double
    let screenCheckIns: Int
    let discoveryDeltas: Int
    let footprintAttendees: Int
    let idleSeconds: Double
    let burstKiosks: Int
    let burstCheckIns: Int
    let burstTimeoutSeconds: Double

    static let full = LabSizes(
        propagationKiosks: 10,
        propagationCheckIns: 1_000,
        propagationPacingMillis: 10,
        screenCheckIns: 200,
        discoveryDeltas: 50_000,
        footprintAttendees: 100_000,
        idleSeconds: 30,
        burstKiosks: 50,
        burstCheckIns: 10_000,
        burstTimeoutSeconds: 600
    )
    static let quick = LabSizes(
        propagationKiosks: 3,
        propagationCheckIns: 30,
        propagationPacingMillis: 10,
        screenCheckIns: 10,
        discoveryDeltas: 1_000,
        footprintAttendees: 2_000,
        idleSeconds: 3,
        burstKiosks: 3,
        burstCheckIns: 60,
        burstTimeoutSeconds: 60
    )
}
