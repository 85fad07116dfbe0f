import SteppieBenchSupport
import SteppieTestSupport
import Foundation

/// Runs the measurements and prints the table.
enum Bench {
    struct Measured {
        var seconds: Double
        var peakMiB: Double
        /// User + system CPU time of the process tree.
        var cpuSeconds: Double
        var output: String
    }

    static func run() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-backup-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("src/steppie.db").path
        let assets = dir.appendingPathComponent("src/assets")
        let start = ContinuousClock.now
        let rows = try TenYearFixture.build(path: db, zone: zone, assets: assets, photos: 60).rows
        print("fixture: \(rows) daily logs, 60 photos of 1 MiB, built in \(ContinuousClock.now - start); db \(mib(db)) MiB")

        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let archive = dir.appendingPathComponent("steppie-backup.zip").path
        let backup = try measure([me, "child-backup", db, assets.path, archive])
        let restore = try measure([me, "child-restore", archive, dir.appendingPathComponent("dst/steppie.db").path,
                                   dir.appendingPathComponent("dst/assets").path])
        print("ours: backup → \(backup.output); restore → \(restore.output); archive \(mib(archive)) MiB")
        print(String(format: "CPU (user + system): backup %.2f s, restore %.2f s", backup.cpuSeconds, restore.cpuSeconds))

        // Baselines on the same data: a text dump of the database zipped with the photo folder, and back.
        let base = dir.appendingPathComponent("base").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let baseBackup = try measure(["sh", "-c", "sqlite3 '\(db)' .dump > '\(base)/dump.sql' && cd '\(dir.path)/src' && zip -qr '\(base)/base.zip' assets && cd '\(base)' && zip -q base.zip dump.sql && rm dump.sql"])
        let baseRestore = try measure(["sh", "-c", "cd '\(base)' && unzip -qo base.zip -d out && sqlite3 out/new.db < out/dump.sql"])
        let copy = try measure(["sh", "-c", "cp '\(db)' '\(base)/copy.db' && cp -r '\(assets.path)' '\(base)/copy-assets'"])

        print("\n## Backup and restore of the 10-year database (\(rows) logs, 60 × 1 MiB photos)\n")
        print("| operation | wall time | peak RSS | baseline (same run) | baseline time | baseline peak RSS | time ratio |")
        print("|---|---|---|---|---|---|---|")
        row("backup create", backup, "sqlite3 .dump + zip -r", baseBackup)
        row("backup restore (validate + replace)", restore, "unzip + sqlite3 < dump", baseRestore)
        row("backup create", backup, "cp of db file + photo folder", copy)
        BenchRow.publish([
            BenchRow(area: "backup", figure: "backup create, 1.1 M logs + 60 MiB photos (peak \(Int(backup.peakMiB)) MiB)",
                     median: String(format: "%.1f s", backup.seconds), baseline: "sqlite3 .dump + zip -r",
                     baselineMedian: String(format: "%.1f s", baseBackup.seconds), ratio: BenchRow.ratio(backup.seconds, baseBackup.seconds)),
            BenchRow(area: "backup", figure: "backup restore (peak \(Int(restore.peakMiB)) MiB)",
                     median: String(format: "%.1f s", restore.seconds), baseline: "unzip + sqlite3 < dump",
                     baselineMedian: String(format: "%.1f s", baseRestore.seconds), ratio: BenchRow.ratio(restore.seconds, baseRestore.seconds)),
        ])
    }

    static func row(_ name: String, _ ours: Measured, _ baseName: String, _ base: Measured) {
        print(String(format: "| %@ | %.2f s | %.0f MiB | %@ | %.2f s | %.0f MiB | %.2f× |", name, ours.seconds, ours.peakMiB,
                     baseName, base.seconds, base.peakMiB, ours.seconds / max(base.seconds, 1e-6)))
    }

    /// Runs a command under `/usr/bin/time`: wall seconds, the peak RSS of its process tree and
    /// its CPU time. Not `wait4` on a direct child: posix_spawn's child runs in this process's
    /// memory until it execs, and Linux carries that memory's peak (the fixture's 600 MiB) into the
    /// child's `ru_maxrss`; `time` forks the command from its own small process.
    static func measure(_ command: [String]) throws -> Measured {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-backup-\(getpid())-stderr.txt").path
        try? FileManager.default.removeItem(atPath: errors)
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let p = try SpawnedProcess("/usr/bin/time", ["-f", "TIME %e %M %U %S"] + command, stdoutPipe: true, stderrPath: errors)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(p.stdoutFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        p.waitForExit()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        guard p.exitStatus == 0, let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("TIME ") }) else {
            throw BenchFailure.command(command.joined(separator: " "), stderr)
        }
        let parts = line.split(separator: " ").map { Double($0) ?? .nan }
        guard parts.count == 5 else { throw BenchFailure.command(command.joined(separator: " "), stderr) }
        return Measured(seconds: parts[1], peakMiB: parts[2] / 1024, cpuSeconds: parts[3] + parts[4],
                        output: String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func mib(_ path: String) -> String {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.doubleValue ?? 0
        return String(format: "%.1f", size / 1_048_576)
    }
}

enum BenchFailure: Error { case command(String, String) }
