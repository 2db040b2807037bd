public import MusterCore

/// Why the kiosk's key or enrollment certificate could not be read or written; the message names
/// the file and what to do, the cause is the error underneath.
public typealias KioskIdentityError = CodedError<KioskIdentityErrorCode>

/// What kind of failure a ``KioskIdentityError`` is.
public enum KioskIdentityErrorCode: Sendable, Equatable {
    /// The kiosk key could not be read or created.
    case kioskKey
    /// The enrollment certificate is there but not valid.
    case certificate
    /// The state directory could not be written.
    case stateDirectory
    /// The config's `location` is not the one the enrollment certificate names.
    case location
}
