import Testing

@testable import MusterCore

@Suite("HostPort")
struct HostPortTests {
    @Test func hostAndPort() throws {
        let value = try #require(HostPort("kiosk-b.local:7420"))
        #expect(value.host == "kiosk-b.local")
        #expect(value.port == 7420)
        #expect(value.description == "kiosk-b.local:7420")
    }

    @Test func ipv4AndSurroundingWhitespace() throws {
        #expect(HostPort("  10.0.0.5:1 ") == HostPort(host: "10.0.0.5", port: 1))
        #expect(HostPort("0.0.0.0:0") == HostPort(host: "0.0.0.0", port: 0))
        #expect(HostPort("h:65535")?.port == 65_535)
    }

    @Test func bracketedIPv6() throws {
        let value = try #require(HostPort("[::1]:7420"))
        #expect(value.host == "::1")
        #expect(value.port == 7420)
        #expect(value.description == "[::1]:7420")
        #expect(HostPort("[fe80::1%eth0]:9")?.host == "fe80::1%eth0")
    }

    @Test func descriptionRoundTrips() {
        for text in ["a:1", "[::]:7420", "192.168.1.20:7420", "[2001:db8::5]:80"] {
            #expect(HostPort(text)?.description == text)
            #expect(HostPort(HostPort(text)!.description) == HostPort(text))
        }
    }

    @Test(arguments: [
        "", "host", "host:", ":7420", "host:port", "host:-1", "host:65536", "host:99999999999999999999",
        "::1:7420", "::1", "[::1]", "[::1]:", "[::1]7420", "[]:7420", "[::1:7420", "host: 7420x",
    ])
    func invalidForms(text: String) {
        #expect(HostPort(text) == nil, "'\(text)' should not parse")
    }
}
