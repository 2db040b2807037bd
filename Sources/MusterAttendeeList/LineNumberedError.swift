/// An import error that points at a line of the file, described as `line N: ` followed by what to
/// change, so every import error reads alike.
public protocol LineNumberedError: Error, CustomStringConvertible {
    /// 1-based physical line; 0 when the problem is the file as a whole, which has no line.
    var line: Int { get }
    /// What is wrong and what to change, without the line.
    var explanation: String { get }
}

extension LineNumberedError {
    public var description: String { line > 0 ? "line \(line): " + explanation : explanation }
}
