/// Why a connection ended before or outside its session.
enum SyncError: Error {
    case closed
    case notEnrolled
}
