import Foundation
import Testing

/// Child mode in a real terminal (tmux) ended by every catchable signal: the terminal mode and the
/// main screen come back, and a fatal signal says one line instead of a Swift backtrace that would
/// draw over the child's screen or wait for a key.
@Suite(.serialized) struct ChildModeSignalTests {
    /// (signal, number, fatal)
    static let signals: [(String, Int32, Bool)] = [
        ("TERM", SIGTERM, false), ("INT", SIGINT, false), ("HUP", SIGHUP, false), ("QUIT", SIGQUIT, false),
        ("USR1", SIGUSR1, false), ("USR2", SIGUSR2, false), ("ALRM", SIGALRM, false),
        ("SEGV", SIGSEGV, true), ("ABRT", SIGABRT, true), ("ILL", SIGILL, true), ("TRAP", SIGTRAP, true),
    ]

    @Test(arguments: signals.map(\.0))
    func everySignalRestoresTheTerminal(name: String) throws {
        let (_, number, fatal) = try #require(Self.signals.first { $0.0 == name })
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        let t = ChildModeTmuxTests.Tmux()
        defer { t.stop() }
        let pidFile = h.directory + "/child.pid"
        // The shell reports the status and the terminal's modes after child mode ends.
        let command = "sh -c 'echo $$ > \(pidFile); exec env TZ=Asia/Seoul NO_COLOR=1 \(CLIHarness.binary) child --db \(h.db) --locale en --output null'; "
            + "echo EXITED $?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '; echo MODES; sleep 30"
        t.run(["new-session", "-d", "-s", "child", "-x", "100", "-y", "40", command])
        #expect(t.waitFor("W a k e   u p"), "first screen: \(t.screen())")
        let pid = try #require(Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        #expect(kill(pid, number) == 0)
        #expect(t.waitFor("MODES", timeout: 5), "\(name): did not end: \(t.screen())")
        let screen = t.screen()
        #expect(screen.contains("icanon echo isig") || screen.contains("isig icanon") || (screen.contains(" icanon") && screen.contains(" echo ")),
                "\(name): terminal left raw: \(screen)")
        #expect(!screen.contains("-icanon") && !screen.contains("-echo "), "\(name): \(screen)")
        // The child's screen is gone (the alternate screen was left).
        #expect(!screen.contains("W a k e   u p"), "\(name): still on the child's screen: \(screen)")
        if fatal {
            #expect(screen.contains("EXITED \(128 + number)"), "\(name): \(screen)")
            #expect(screen.contains("child mode stopped unexpectedly"), "\(name): \(screen)")
            // The shell may name the signal; the Swift backtracer's own words must not appear.
            for marker in ["Backtrace", "Program crashed", "Fatal error", "Press space", "Thread 0"] {
                #expect(!screen.contains(marker), "\(name): \(screen)")
            }
        } else {
            #expect(screen.contains("EXITED 0"), "\(name): \(screen)")
        }
    }
}
