import CAvahi

/// The C callbacks handed to libavahi. Each recovers the driver from `userdata` (an unretained
/// `Unmanaged` reference; see ``AvahiDriver``), copies every C string and the TXT list into Swift
/// values while Avahi still owns them, and hands over. They run on the poll thread, lock held.
extension AvahiDriver {
    /// The driver behind a callback's `userdata`: unretained, as ``AvahiDriver`` handed it over.
    private static func driver(_ userdata: UnsafeMutableRawPointer) -> AvahiDriver {
        Unmanaged<AvahiDriver>.fromOpaque(userdata).takeUnretainedValue()
    }

    static let clientCallback: AvahiClientCallback = { client, state, userdata in
        guard let client, let userdata else { return }
        driver(userdata).clientChanged(client, state)
    }

    static let connectCallback: AvahiTimeoutCallback = { _, userdata in
        guard let userdata else { return }
        driver(userdata).connectTimerFired()
    }

    static let groupCallback: AvahiEntryGroupCallback = { group, state, userdata in
        guard let group, let userdata else { return }
        driver(userdata).groupChanged(group, state)
    }

    static let browserCallback: AvahiServiceBrowserCallback = {
        _,
        interface,
        proto,
        event,
        name,
        type,
        domain,
        _,
        userdata in
        guard let userdata else { return }
        var instance: ServiceInstance?
        if let name, let type, let domain {
            instance = ServiceInstance(
                interface: interface,
                protocol: proto,
                name: String(cString: name),
                type: String(cString: type),
                domain: String(cString: domain)
            )
        }
        driver(userdata).browsed(event, instance)
    }

    static let resolverCallback: AvahiServiceResolverCallback = {
        resolver,
        interface,
        _,
        event,
        _,
        _,
        _,
        _,
        address,
        port,
        txt,
        _,
        userdata in
        guard let resolver, let userdata else { return }
        let driver = AvahiDriver.driver(userdata)
        guard event == AVAHI_RESOLVER_FOUND, let address else {
            driver.resolveFailed(resolver)
            return
        }
        driver.resolved(
            resolver,
            host: AvahiAddressText.host(address, interface: interface),
            isIPv4: AvahiAddressText.isIPv4(address),
            port: Int(port),
            txt: AvahiStringList.entries(of: txt)
        )
    }
}
