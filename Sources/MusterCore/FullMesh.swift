/// Up to how many kiosks a venue keeps a full mesh (every kiosk in session with every other: one hop, no relayed
/// copies) before the sync layer switches to a bounded overlay (HyParView sessions, Plumtree broadcast).
///
/// The default and its bound live here, below both the sync layer that applies them and the configuration file
/// and tools that accept them, so each is said once.
public enum FullMesh {
    /// 16: at 50 kiosks in the lab a burst of 10,000 check-ins converged 125 s after its last acknowledgement as a
    /// full mesh (49 sessions each, every delta sent 49 times per kiosk) and 18–23 s as an overlay (31556f2;
    /// BENCHMARKS.md, "What each optimisation gained"); venues of up to 16 kiosks keep the full mesh's one hop.
    public static let defaultThreshold = 16
    /// Two kiosks are the smallest venue that has anything to mesh.
    public static let minimumThreshold = 2

    /// Why `threshold` cannot be used, or nil when it can.
    public static func problem(with threshold: Int) -> String? {
        threshold >= minimumThreshold ? nil : "must be an integer of at least \(minimumThreshold)"
    }
}
