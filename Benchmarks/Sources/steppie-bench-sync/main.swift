import Foundation
import SteppieBenchSupport
import SteppieTestSupport
#if canImport(Glibc)
import Glibc
#endif

// `steppie-bench-sync` (issue 27): sync's cost in `make bench`, each figure beside its baseline
// measured in the same run, against real `steppie serve` processes on loopback (a hub started with
// `--hub 127.0.0.1:0`, devices joined with `sync invite` / `sync join`, as SyncProcessTests does):
//   1. socket press → reply on a device joined to a running hub (its agent pushing), beside the
//      same device before it joined (200 presses each, as steppie-bench-service measures it);
//   2. a completion pressed on device A → visible on device B (B's socket: its subscription's
//      event lines wake the check, B's `state` is read at least every 5 ms), 200 presses;
//   3. an empty device's first copy of the 10-year fixture (no photos) from a hub, beside
//      `steppie backup create` + `steppie backup restore` of the same database;
//   4. the database's size (page_count × page_size after a WAL checkpoint and VACUUM) before it
//      becomes a hub, as the hub, and on the joined device after its first copy.
// Run under scripts/with-pulse.sh (the presses play their cues on the null sink, as the service
// bench's do). `--presses N` (default 200); `--skip-copy` leaves out 3 and 4 (minutes of fixture),
// `--only-copy` runs only them, `--only-size` only the hub's size (4 without the copy: the fixture
// before and after `serve --hub`, a few minutes).

let arguments = CommandLine.arguments
let presses = arguments.firstIndex(of: "--presses").flatMap { Int(arguments[$0 + 1]) } ?? 200
let skipCopy = arguments.contains("--skip-copy")
let onlyCopy = arguments.contains("--only-copy")
let onlySize = arguments.contains("--only-size")
let binary = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("steppie").path
let output = ProcessInfo.processInfo.environment["PULSE_SERVER"] == nil ? "null" : "pulse"

/// Waits until every node prints the same sync digest.
func converge(_ nodes: [SyncBenchNode], timeout: Double = 120) throws {
    guard waitUntil(timeout: timeout, {
        let digests = nodes.compactMap { try? $0.digest() }
        return digests.count == nodes.count && Set(digests).count == 1
    }) else { throw BenchError("the nodes did not converge within \(timeout) s") }
}

/// Figures 1 and 2: the press beside the same device not joined, and a completion seen on B.
@MainActor
func pressAndVisible(root: String, rows: inout [BenchRow], report: inout [String]) throws {
    // 1. The press, not joined, then joined (the same device and database).
    let hub = try SyncBenchNode("hub", under: root, binary: binary)
    let a = try SyncBenchNode("a", under: root, binary: binary)
    let b = try SyncBenchNode("b", under: root, binary: binary)
    defer { [a, b, hub].forEach { $0.stop() } }
    try hub.must(["init", "--child", "Hana", "--template", "morning"])
    for child in ["Mina", "Joon", "Ari"] { try a.must(["init", "--child", child]) }
    try a.start(output: output)
    progress("socket presses, not joined")
    let off = try PressBench.replies(a, presses: presses)
    a.stop()
    try hub.start(["--hub", "127.0.0.1:0"])
    let address = try hub.hubAddress()
    try a.join(hub, address: address)
    try a.start(output: output)
    try converge([hub, a])
    progress("socket presses, joined (agent pushing)")
    let on = try PressBench.replies(a, presses: presses)
    let (offMedian, onMedian) = (percentile(off, 0.5), percentile(on, 0.5))
    let (offP99, onP99) = (percentile(off, 0.99), percentile(on, 0.99))
    report.append(String(format: "socket press → reply (n=%d): not joined %.3f / %.3f ms, joined %.3f / %.3f ms (median / p99); "
                         + "ratio %.2f× median, %.2f× p99", presses, offMedian, offP99, onMedian, onP99, onMedian / offMedian, onP99 / offP99))
    rows.append(BenchRow(area: "sync", figure: "socket press → reply on a device joined to a running hub, agent pushing (\(presses) presses; p99 \(BenchRow.ratio(onP99, offP99)) of not joined)",
                         median: BenchRow.ms(onMedian), p99: BenchRow.ms(onP99), target: "≤ 1.1× not joined",
                         baseline: "the same device not joined (p99 \(BenchRow.ms(offP99)))", baselineMedian: BenchRow.ms(offMedian),
                         ratio: BenchRow.ratio(onMedian, offMedian)))

    // 2. A completion on A → visible on B.
    try b.join(hub, address: address)
    try b.start(output: "null")
    try converge([hub, a, b])
    progress("a completion on A → visible on B")
    let visible = try PressBench.visible(from: a, on: b, children: ["Mina", "Joon", "Ari"], presses: presses)
    let (visibleMedian, visibleP99) = (percentile(visible, 0.5), percentile(visible, 0.99))
    report.append(String(format: "completion on A → visible on B (n=%d): %.1f / %.1f ms (median / p99), max %.1f ms",
                         visible.count, visibleMedian, visibleP99, visible.max() ?? .nan))
    rows.append(BenchRow(area: "sync", figure: "a completion on device A → visible on device B (hub and devices on loopback, \(visible.count) presses)",
                         median: BenchRow.ms(visibleMedian), p99: BenchRow.ms(visibleP99), target: "≤ 1 s p99"))
    [a, b, hub].forEach { $0.stop() }
}

do {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-sync-\(getpid())").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    var rows: [BenchRow] = []
    var report: [String] = []

    if !onlyCopy && !onlySize {
        try pressAndVisible(root: root, rows: &rows, report: &report)
    }

    // 3 and 4. The first copy of the 10-year fixture, and the database's size.
    if onlySize {
        let (sizeRows, sizeReport) = try CopyBench.hubSize(root: root, binary: binary)
        rows += sizeRows
        report += sizeReport
    } else if !skipCopy {
        let (copyRows, copyReport) = try CopyBench.run(root: root, binary: binary)
        rows += copyRows
        report += copyReport
    }

    print("steppie-bench-sync: release build, loopback, output \(output)")
    for line in report { print(line) }
    BenchRow.publish(rows)
} catch {
    FileHandle.standardError.write(Data("steppie-bench-sync: \(error)\n".utf8))
    exit(1)
}
