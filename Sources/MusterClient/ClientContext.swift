import Foundation
public import MusterControl
import MusterRules
public import MusterStore
public import MusterTime

/// Everything a `muster` command needs, found from the config: the daemon's control socket, the
/// replica (read-only, for lookups) and the venue.
public final class ClientContext {
    public let configPath: String
    public let config: KioskConfig
    public let venue: VenueFile
    public let control: ControlClient
    /// Where "now" comes from (the time a delta is signed, a report is made).
    public let time: any TimeSource
    private var openedReplica: Replica?

    public init(
        configPath explicit: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        time: any TimeSource = SystemTime()
    )
        throws(ClientError)
    {
        self.time = time
        configPath = KioskConfig.resolvePath(explicit, environment: environment)
        config = try KioskConfig.read(path: configPath)
        venue = try VenueFile.read(path: config.venue)
        control = ControlClient(path: config.controlSocket)
    }

    /// The replica, opened read-only on first use.
    public func replica() throws(ClientError) -> Replica {
        if let openedReplica { return openedReplica }
        do {
            let replica = try Replica.openReadOnly(path: config.replicaPath, policy: venue.policy)
            openedReplica = replica
            return replica
        } catch {
            throw ClientError(.config, describing: error)
        }
    }

    /// Sends a request and returns whatever the daemon answered (an `error` outcome included).
    public func exchange(_ request: ControlRequest) throws(ClientError) -> ControlResponse {
        do {
            return try control.send(request)
        } catch {
            throw ClientError(error)
        }
    }

    /// Sends a request and turns an `error` outcome into a thrown ``ClientError``.
    public func send(_ request: ControlRequest) throws(ClientError) -> ControlResponse {
        let response = try exchange(request)
        if case .error(let failure) = response { throw ClientError(.failed, failure.message) }
        return response
    }
}
