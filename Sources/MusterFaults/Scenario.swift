/// One scenario of the campaign: which faults the nemesis draws from, for how long, how many at once.
struct Scenario: Sendable {
    enum Family: String, Sendable {
        case partitions, kills, pauses, network, avahi, clocks
    }

    var name: String
    var families: [Family]
    var seconds: Double
    /// Faults active at the same time (combined scenarios draw two).
    var concurrent: Int = 1
    /// How long one fault holds, in seconds (a range the nemesis draws from).
    var hold: ClosedRange<Double> = 2...5
}
