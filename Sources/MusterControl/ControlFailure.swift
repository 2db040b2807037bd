/// `error`: the request could not be carried out (bad request, disk full, invalid deltas, refused to
/// this peer): the code for programs, the sentence for people.
public struct ControlFailure: Sendable, Equatable {
    /// nil from a daemon older than 0.6, and for a code this version does not know.
    public var code: ControlErrorCode?
    public var message: String
    /// With ``ControlErrorCode/rateLimited``: how many seconds until a lookup may be tried again.
    public var retryAfterSeconds: Int?

    public init(_ code: ControlErrorCode?, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The wait a rate-limited lookup was told, or nil for any other failure.
    public var retryAfter: Int? {
        code == .rateLimited ? retryAfterSeconds : nil
    }
}

extension ControlFailure: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        code = try fields.decodeIfPresent(String.self, forKey: .errorCode).flatMap(ControlErrorCode.init(rawValue:))
        message = try fields.decode(String.self, forKey: .message)
        retryAfterSeconds = try fields.decodeIfPresent(Int.self, forKey: .retryAfterSeconds)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encodeIfPresent(code, forKey: .errorCode)
        try fields.encode(message, forKey: .message)
        try fields.encodeIfPresent(retryAfterSeconds, forKey: .retryAfterSeconds)
    }
}
