import CAvahi

/// Owns an `AvahiThreadedPoll`: the thread on which all of Avahi's callbacks run.
///
/// Avahi is not thread-safe. Its own thread holds the poll's lock while it dispatches, so code on
/// any other thread must take the same lock (``withLock(_:)``) around every Avahi call, and code
/// on the poll thread (the callbacks) must not take it again.
final class AvahiThreadedPoll {
    private let poll: OpaquePointer

    init() throws(DiscoveryError) {
        poll = try Avahi.check(
            "avahi_threaded_poll_new",
            avahi_threaded_poll_new(),
            errorCode: Int32(AVAHI_ERR_NO_MEMORY)
        )
    }

    /// The poll vtable a client is created with.
    var api: UnsafePointer<AvahiPoll> { avahi_threaded_poll_get(poll) }

    /// Starts the thread.
    func start() throws(DiscoveryError) {
        try Avahi.check("avahi_threaded_poll_start", avahi_threaded_poll_start(poll))
    }

    /// Stops the thread and waits for it. Never call with the lock held or from the poll thread.
    func stop() {
        // Returns -1 only when the thread was not running, which is what is wanted.
        _ = avahi_threaded_poll_stop(poll)
    }

    /// Runs `body` holding the poll lock, so it cannot overlap any Avahi callback.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return try body()
    }

    deinit {
        // Stops the thread first if it still runs.
        avahi_threaded_poll_free(poll)
    }
}
