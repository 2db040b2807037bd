import Testing

@testable import MusterDiscovery

@Suite("ServiceName")
struct ServiceNameTests {
    @Test func collisionsCountUpTheWayAvahiDoes() throws {
        let second = try ServiceName.alternative(to: "muster-3f2a-91c0-5b7e-0d14")
        #expect(second == "muster-3f2a-91c0-5b7e-0d14 #2")
        #expect(try ServiceName.alternative(to: second) == "muster-3f2a-91c0-5b7e-0d14 #3")
    }

    @Test func renamedNamesStayValidLabels() throws {
        var name = String(repeating: "m", count: 63)
        for _ in 0..<12 {
            name = try ServiceName.alternative(to: name)
            #expect(name.utf8.count <= 63)
            #expect(ServiceName.isValid(name))
        }
        #expect(name.hasSuffix(" #13"))
    }

    @Test func validity() {
        #expect(ServiceName.isValid("muster-abcd"))
        #expect(ServiceName.isValid("Kiosk Hall A · Entrance"))
        #expect(!ServiceName.isValid(""))
        #expect(!ServiceName.isValid(String(repeating: "x", count: 64)))
    }
}
