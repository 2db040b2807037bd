public import MusterControl

/// A value a test builds by changing a few fields of its default: `ScreenOptions().with(\.bell, true)`.
public protocol Adjustable {}

extension Adjustable {
    /// This value with the field at `path` set to `value`.
    public func with<Value>(_ path: WritableKeyPath<Self, Value>, _ value: Value) -> Self {
        var copy = self
        copy[keyPath: path] = value
        return copy
    }
}

extension ScreenOptions: Adjustable {}

extension ScreenOptions {
    /// The default options with the brake against guessing set: `freeMisses` misses free, then a
    /// back-off from `first` doubling up to `max`.
    public static func brake(freeMisses: Int, first: Duration, max: Duration) -> ScreenOptions {
        ScreenOptions().with(\.freeMisses, freeMisses).with(\.firstBackoff, first).with(\.maxBackoff, max)
    }
}
