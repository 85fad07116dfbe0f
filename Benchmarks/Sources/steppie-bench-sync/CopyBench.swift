import Foundation
import SteppieBenchSupport

/// An empty device's first copy of the 10-year fixture from a hub, beside `steppie backup create`
/// + `steppie backup restore` of the same database; and the database's size before it became a
/// hub, as the hub, and on the device after its copy.
enum CopyBench {
    /// The hub's size only (`--only-size`): the fixture before and after `serve --hub`, with no
    /// backup, restore or copy (a few minutes instead of ~20).
    static func hubSize(root: String, binary: String) throws -> ([BenchRow], [String]) {
        let hub = try SyncBenchNode("fixture-hub", under: root, binary: binary)
        defer { hub.stop() }
        progress("building the 10-year fixture (no photos)")
        let built = try TenYearFixture.build(path: hub.db, zone: TimeZone(identifier: "Asia/Seoul") ?? .current)
        let plain = try hub.size()
        progress("becoming a hub")
        let t = now()
        try hub.start(["--hub", "127.0.0.1:0"], timeout: 3600)
        _ = try hub.hubAddress(timeout: 3600)
        let becoming = Double(now() - t) / 1e9
        hub.stop()
        let hubSize = try hub.size()
        var report = ["fixture: \(built.rows) daily logs, \(TenYearFixture.children) children, no photos; \(mib(plain.bytes))"]
        report.append(String(format: "becoming a hub (`serve --hub` until it answers): %.1f s", becoming))
        report.append("size: plain \(mib(plain.bytes)), hub \(mib(hubSize.bytes)) (\(BenchRow.ratio(Double(hubSize.bytes), Double(plain.bytes))))")
        for (label, size) in [("plain", plain), ("hub", hubSize)] {
            report.append("  dbstat \(label): " + size.byName.prefix(12).map { "\($0.0) \(mib($0.1))" }.joined(separator: ", "))
        }
        return ([BenchRow(area: "sync", figure: "database size with the sync metadata: the hub (registers, events, feed), after VACUUM",
                          median: mib(hubSize.bytes), target: "≤ 1.15×", baseline: "the same database before `serve --hub`",
                          baselineMedian: mib(plain.bytes), ratio: BenchRow.ratio(Double(hubSize.bytes), Double(plain.bytes)))], report)
    }

    static func run(root: String, binary: String) throws -> ([BenchRow], [String]) {
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let hub = try SyncBenchNode("fixture-hub", under: root, binary: binary)
        let restored = try SyncBenchNode("restored", under: root, binary: binary)
        let device = try SyncBenchNode("new-device", under: root, binary: binary)
        defer { hub.stop() }
        progress("building the 10-year fixture (no photos)")
        let built = try TenYearFixture.build(path: hub.db, zone: zone)
        let plain = try hub.size()
        var report = ["fixture: \(built.rows) daily logs, \(TenYearFixture.children) children, no photos; \(mib(plain.bytes)) (page_count × page_size after VACUUM)"]

        // The baseline: a backup of the same database, restored on an empty device.
        progress("backup create + restore")
        let archive = root + "/fixture-backup.zip"
        var t = now()
        try hub.must(["backup", "create", "--out", archive], timeout: 3600)
        let create = Double(now() - t) / 1e9
        t = now()
        try restored.must(["backup", "restore", archive], timeout: 3600)
        let restore = Double(now() - t) / 1e9
        let baseline = create + restore

        // The hub: `serve --hub` makes every row a register and every completion an event.
        progress("becoming a hub")
        t = now()
        try hub.start(["--hub", "127.0.0.1:0"], timeout: 3600)
        let address = try hub.hubAddress(timeout: 3600)
        let becoming = Double(now() - t) / 1e9
        progress("the first copy")
        var copy = try device.join(hub, address: address)
        t = now()
        var digests = (try hub.digest(), try device.digest())
        let digestTime = Double(now() - t) / 1e9
        var rounds = 0
        while digests.0 != digests.1, rounds < 20 {
            // Not all there after the join: more rounds, counted in the copy's time.
            let r0 = now()
            try device.must(["sync", "now"], timeout: 3600)
            copy += Double(now() - r0) / 1e9
            digests = (try hub.digest(), try device.digest())
            rounds += 1
        }
        guard digests.0 == digests.1 else { throw BenchError("the new device's digest differs from the hub's after its copy") }
        hub.stop()
        let hubSize = try hub.size(), deviceSize = try device.size()

        report.append(String(format: "first copy: `sync join` %.1f s (%d more `sync now` rounds; digests then equal, read in %.1f s); "
                             + "backup create %.1f s + restore %.1f s = %.1f s; ratio %.2f×", copy, rounds, digestTime, create, restore,
                             baseline, copy / baseline))
        report.append(String(format: "becoming a hub (`serve --hub` until it answers): %.1f s", becoming))
        report.append("size: plain \(mib(plain.bytes)), hub \(mib(hubSize.bytes)) (\(BenchRow.ratio(Double(hubSize.bytes), Double(plain.bytes)))), "
                      + "device after its copy \(mib(deviceSize.bytes)) (\(BenchRow.ratio(Double(deviceSize.bytes), Double(plain.bytes))))")
        for (label, size) in [("plain", plain), ("hub", hubSize), ("device", deviceSize)] {
            report.append("  dbstat \(label): " + size.byName.prefix(12).map { "\($0.0) \(mib($0.1))" }.joined(separator: ", "))
        }

        let rows = [
            BenchRow(area: "sync", figure: "an empty device's first copy of the 10-year fixture (\(built.rows) logs, no photos): `sync join` → digest equal to the hub's",
                     median: seconds(copy), target: "≤ 1.0×", baseline: "`steppie backup create` + `backup restore` of the same database",
                     baselineMedian: seconds(baseline), ratio: BenchRow.ratio(copy, baseline)),
            BenchRow(area: "sync", figure: "database size with the sync metadata: the hub (registers, events, feed), after VACUUM",
                     median: mib(hubSize.bytes), target: "≤ 1.15×", baseline: "the same database before `serve --hub`",
                     baselineMedian: mib(plain.bytes), ratio: BenchRow.ratio(Double(hubSize.bytes), Double(plain.bytes))),
            BenchRow(area: "sync", figure: "database size with the sync metadata: a joined device after its first copy, after VACUUM",
                     median: mib(deviceSize.bytes), target: "≤ 1.15×", baseline: "the hub's database before `serve --hub`",
                     baselineMedian: mib(plain.bytes), ratio: BenchRow.ratio(Double(deviceSize.bytes), Double(plain.bytes))),
        ]
        return (rows, report)
    }
}
