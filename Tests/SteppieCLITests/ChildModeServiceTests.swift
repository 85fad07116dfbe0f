import Foundation
import SteppieTestSupport
import Testing

/// `steppie child` in a real terminal attached to a running service: it shows the service's
/// runtime, so a `steppie complete` from another process appears on it, and a key press on it
/// is saved by the service.
@Suite(.serialized) struct ChildModeServiceTests {
    @Test func theTerminalScreenShowsTheServicesRuntime() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        let socket = h.directory + "/run/control.sock"
        let env = ["STEPPIE_SOCKET": socket]
        // Started by posix_spawn (a clean signal mask, no inherited Foundation descriptors).
        var environment = ProcessInfo.processInfo.environment
        environment["STEPPIE_SOCKET"] = socket
        environment["STEPPIE_DB"] = h.db
        environment["STEPPIE_NOW"] = nil
        let service = try SpawnedProcess(CLIHarness.binary, ["serve", "--output", "null", "--http", "none"], environment: environment,
                                         stdoutPath: h.directory + "/serve.log", stderrPath: h.directory + "/serve.log")
        let pid = service.pid
        defer { service.stop(SIGKILL) }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, h.sh("$S service status", env: env).status != 0 { usleep(50_000) }
        #expect(h.sh("$S service status", env: env).status == 0)

        let t = ChildModeTmuxTests.Tmux()
        defer { t.stop() }
        let command = "STEPPIE_SOCKET=\(socket) STEPPIE_DB=\(h.db) TZ=Asia/Seoul NO_COLOR=1 \(CLIHarness.binary) child --locale en; echo EXITED $?; sleep 30"
        t.run(["new-session", "-d", "-s", "child", "-x", "100", "-y", "40", command])
        #expect(t.waitFor("0 / 6"), "first screen: \(t.screen())")
        // Another process completes through the service: the attached screen shows it.
        #expect(h.sh("$S complete", env: env).status == 0)
        #expect(t.waitFor("1 / 6", timeout: 3), "after complete: \(t.screen())")
        // A key on the screen goes to the service, which saves it.
        t.keys("n")
        t.keys("Space")
        #expect(t.waitFor("2 / 6", timeout: 3), "after Space: \(t.screen())")
        #expect(h.query("SELECT count(*) FROM daily_logs WHERE status = 'completed'") == "2")
        // The service stops: the screen ends instead of showing stale state.
        kill(pid, SIGTERM)
        #expect(t.waitFor("EXITED", timeout: 5), "after the service stopped: \(t.screen())")
    }
}
