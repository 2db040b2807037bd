import Testing

@testable import MusterClient

@Suite("LeadingConfigOption")
struct LeadingConfigOptionTests {
    @Test func aConfigBeforeTheSubcommandIsLiftedOut() {
        #expect(LeadingConfigOption.split(["--config", "k.toml", "status"]) == ("k.toml", ["status"]))
        #expect(
            LeadingConfigOption.split(["--config=k.toml", "badge", "print", "x"]) == (
                "k.toml", ["badge", "print", "x"]
            )
        )
    }

    @Test func anythingElseIsLeftForTheParser() {
        // After the subcommand it is the subcommand's own option.
        #expect(
            LeadingConfigOption.split(["status", "--config", "k.toml"]) == (nil, ["status", "--config", "k.toml"])
        )
        // No value: the parser reports it.
        #expect(LeadingConfigOption.split(["--config"]) == (nil, ["--config"]))
        #expect(LeadingConfigOption.split([]) == (nil, []))
        // A value that happens to say --config is the next argument, not an option.
        #expect(LeadingConfigOption.split(["--configure"]) == (nil, ["--configure"]))
    }
}
