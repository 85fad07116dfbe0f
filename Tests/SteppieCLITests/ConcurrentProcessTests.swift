import Foundation
import Testing
import SteppieCore
import SteppieStore

/// Two real `steppie` processes hammering one database file.
@Suite struct ConcurrentProcessTests {
    @Test func twoProcessesOf500CommandsLoseNothing() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let bin = CLIHarness.binary
        try #require(FileManager.default.isExecutableFile(atPath: bin), "build the steppie binary first (swift build)")
        let script = """
            for i in $(seq 500); do
              if [ $((RANDOM % 3)) -eq 0 ]; then op=undo; else op=complete; fi
              out=$("$0" --db "$1" --locale en $op 2>&1); rc=$?
              echo "$op $rc $out"
            done
            """
        let workers = try (0..<2).map { _ -> (Process, Pipe) in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            p.arguments = ["-c", script, bin, h.db]
            var env = ProcessInfo.processInfo.environment
            env["TZ"] = "Asia/Seoul"
            p.environment = env
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            return (p, pipe)
        }
        var lines: [Substring] = []
        for (p, pipe) in workers {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            lines += String(decoding: data, as: UTF8.self).split(separator: "\n")
        }
        #expect(lines.count == 1000)
        let legitimate = ["every routine of today is already complete", "nothing to undo today", "undo window", "the day has changed"]
        var completes = 0, undos = 0
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3 else { Issue.record("odd line \(line)"); continue }
            if parts[1] == "0" {
                if parts[0] == "complete" { completes += 1 } else { undos += 1 }
            } else {
                #expect(legitimate.contains { parts[2].contains($0) }, "unexpected failure: \(line)")
                #expect(!line.contains("locked") && !line.contains("busy"))
            }
        }
        let store = try Store(path: h.db, timeZone: h.zone)
        let child = try store.resolveChild("Mina")
        // Every run is in the real time zone of the processes, so look at every day they touched.
        let logs = try store.history(childId: child.id, from: LocalDay(dayNumber: 0), through: LocalDay(dayNumber: 100_000))
        let completed = logs.filter { $0.log?.status == .completed }.count
        #expect(completes > 0 && undos > 0)
        #expect(completed == completes - undos, "completes \(completes), undos \(undos), in db \(completed)")
        #expect(try store.integrityProblems().isEmpty)
    }
}
