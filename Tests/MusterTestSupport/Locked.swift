import Foundation

/// A value shared between tasks and the plain threads of ``TestSupport/blocking(_:)``.
///
/// `@unchecked Sendable`: `value` is read and written only under `lock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func get() -> Value { lock.withLock { value } }
    public func set(_ newValue: Value) { lock.withLock { value = newValue } }

    /// Changes the value in place, atomically.
    public func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
}
