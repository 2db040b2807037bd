import MusterSync
import Testing

/// The one silence rule that both the core and the daemon's watchdog apply.
@Suite struct SilenceTests {
    @Test func aPeerIsSilentOnlyPastTheTimeoutAndNotWhileWeStoreWhatItSent() {
        let timeout = Duration.milliseconds(4_500)
        #expect(!Silence.isSilent(heardAgo: .milliseconds(4_500), storing: false, timeout: timeout))
        #expect(Silence.isSilent(heardAgo: .milliseconds(4_501), storing: false, timeout: timeout))
        #expect(!Silence.isSilent(heardAgo: .seconds(60), storing: true, timeout: timeout))
        #expect(!Silence.isSilent(heardAgo: .zero, storing: false, timeout: timeout))
    }
}
