import Foundation
import Testing
import SteppieCore
import SteppieStore

/// The real `steppie child` in a real terminal (tmux), driven with send-keys and read with
/// capture-pane, on a real SQLite file.
@Suite(.serialized) struct ChildModeTmuxTests {
    final class Tmux: @unchecked Sendable {
        let socket = "steppie-test-\(UUID().uuidString.prefix(8))"

        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-tmux-\(UUID().uuidString).txt")

        /// Runs a tmux client command. The first command forks the tmux server, which would inherit
        /// Foundation's internal descriptors and keep `waitUntilExit` waiting forever, so tmux is
        /// started through Python's subprocess, which closes every other descriptor.
        @discardableResult
        func run(_ args: [String], output: Bool = false) -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // The test process's threads block signals, and a child inherits the mask: unblocked
            // here, or the panes never see the SIGHUP of `kill-server` and outlive the server.
            let launcher = "import signal, subprocess, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "out = open(sys.argv[1], 'w') if sys.argv[1] else subprocess.DEVNULL; "
                + "sys.exit(subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, close_fds=True))"
            p.arguments = ["python3", "-c", launcher, output ? capture.path : "", "tmux", "-L", socket] + args
            p.standardInput = FileHandle.nullDevice
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            do { try p.run() } catch { return "" }
            p.waitUntilExit()
            return output ? ((try? String(contentsOf: capture, encoding: .utf8)) ?? "") : ""
        }

        func screen() -> String { run(["capture-pane", "-p", "-t", "child"], output: true) }

        func keys(_ k: String...) { run(["send-keys", "-t", "child"] + k) }

        /// Polls the screen until `text` shows (deadline, not a fixed sleep).
        @discardableResult
        func waitFor(_ text: String, timeout: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if screen().contains(text) { return true }
                usleep(30_000)
            }
            return false
        }

        /// Ends the server and everything in its panes. Called by `deinit`, and by the tests with
        /// `defer` (a `deinit` is not a promise: a server left behind kept `steppie child` waiting
        /// for input an hour after the test run). The server's pid is asked first, so a server
        /// that ignores `kill-server` is killed outright.
        func stop() {
            guard !stopped else { return }
            stopped = true
            let pid = Int32(run(["display-message", "-p", "#{pid}"], output: true).trimmingCharacters(in: .whitespacesAndNewlines))
            // Each pane's program leads its own process group: ended with it, whatever it ignores.
            let panes = run(["list-panes", "-a", "-F", "#{pane_pid}"], output: true).split(separator: "\n").compactMap { Int32($0) }
            for pane in panes where pane > 0 { kill(-pane, SIGKILL) }
            run(["kill-server"])
            if let pid, pid > 0 {
                let deadline = Date().addingTimeInterval(3)
                while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
                if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
            }
            try? FileManager.default.removeItem(at: capture)
        }
        private var stopped = false

        deinit { stop() }
    }

    @Test func completeTheMorningUndoOnceSeeUndoRefusedReachAllDone() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let t = Tmux()
        defer { t.stop() }
        let command = "TZ=Asia/Seoul NO_COLOR=1 \(CLIHarness.binary) child --db \(h.db) --locale en --output null; echo EXITED $?; sleep 30"
        t.run(["new-session", "-d", "-s", "child", "-x", "100", "-y", "40", command])
        #expect(t.waitFor("W a k e   u p"), "first screen: \(t.screen())")
        #expect(t.screen().contains("0 / 6"))
        #expect(t.screen().contains("[Alarm clock]"))

        t.keys("Space")
        #expect(t.waitFor("You can undo for"), "undo countdown: \(t.screen())")
        #expect(t.screen().contains("✓ W a k e   u p") && t.screen().contains("1 / 6"))
        t.keys("u")
        #expect(t.waitFor("0 / 6"), "after undo: \(t.screen())")
        #expect(!t.screen().contains("You can undo for"))

        t.keys("Enter")
        #expect(t.waitFor("1 / 6"))
        t.keys("n")
        #expect(t.waitFor("W a s h   f a c e"), "next: \(t.screen())")
        t.keys("u")
        #expect(t.waitFor("This can no longer be undone"), "undo refused: \(t.screen())")
        #expect(t.screen().contains("1 / 6"))

        for (n, title) in [(2, "B r u s h   t e e t h"), (3, "G e t   d r e s s e d"), (4, "Eat breakfast"), (5, "P a c k   b a g")] {
            t.keys("Space")
            #expect(t.waitFor("\(n) / 6"), "\(n): \(t.screen())")
            t.keys("n")
            #expect(t.waitFor(title), "\(title): \(t.screen())")
        }
        t.keys("Space")
        #expect(t.waitFor("6 / 6"))
        #expect(t.waitFor("A l l   d o n e !"), "all done: \(t.screen())")

        // Q alone does not leave; holding G for 3 s opens the gate, then Q leaves.
        t.keys("q")
        #expect(!t.waitFor("EXITED", timeout: 0.5))
        // Key repeat, as a held key produces it, until the gate opens (at least 3 s; a loaded
        // machine may stretch a gap between two sends past the repeat delay and restart the hold).
        let until = Date().addingTimeInterval(12)
        var sent = 0
        while Date() < until {
            t.keys("g")
            sent += 1
            usleep(40_000)
            if sent % 15 == 0, t.screen().contains("Guardian mode") { break }
        }
        #expect(t.waitFor("Guardian mode"), "gate: \(t.screen())")
        t.keys("q")
        #expect(t.waitFor("EXITED 0"), "exit: \(t.screen())")

        let store = try Store(path: h.db, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        let child = try store.resolveChild("Mina")
        let plan = try store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone))
        #expect(plan.isAllDone && plan.completedCount == 6)
        #expect(try store.integrityProblems().isEmpty)
    }
}
