import Foundation
import Glibc
import SteppieBenchSupport

// `steppie-bench-centre` (issue 28): the centre's hub in `make bench`, on the private PostgreSQL
// of scripts/with-postgres.sh, the release `steppie`:
//   500 simulated devices (protocol clients in this process, driven by a pool of worker threads
//   and one thread watching every held pull), each joined with a code from `steppie hub invite
//   --json` and bringing two children (their registers pushed as a device's join makes them), each
//   child then granted to a second device (`steppie hub grant`), so every device holds four; then a
//   school morning compressed into `--seconds` (six presses a child, one in ten undone, two profile
//   edits per ten children), pushed in the devices' batches (each device looks every 250 ms) while
//   every device holds a pull. Run once through ONE `steppie hub`, then through TWO on one database
//   (the devices split between them): applied changes per second, push p50/p99, a press → the
//   other device's pull returning it (p50/p99), each hub's RSS (/proc VmHWM, VmRSS), PostgreSQL
//   sessions at the peak. Baseline: the registers and events of the first run written again into
//   the same tables by one `psql -f` session (`INSERT … ON CONFLICT`, 500 rows a statement), three
//   times (after the first morning, and twice after the morning at once), the median kept.
//   Then the same morning offered at once (every entry due at the start) through one hub, three
//   times over on one set-up (the round of the median rate reported, all three rates listed): its
//   ceiling beside the baseline's.
// Options: --devices N (500), --workers N (32), --seconds S (20); --only-burst runs the morning at
// once alone (for a profile; no baseline, no ratio); --statements prints the database's statements
// of the morning at once (pg_stat_statements preloaded: STEPPIE_POSTGRES_CONF, scripts/with-postgres.sh).

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int { arguments.firstIndex(of: name).flatMap { Int(arguments[$0 + 1]) } ?? fallback }
let deviceCount = option("--devices", 500)
let workers = option("--workers", 32)
let seconds = Double(option("--seconds", 20))
let binary = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("steppie").path

func perPush(_ seconds: Double, _ r: CentreRun.Result) -> Double { r.push.isEmpty ? .nan : seconds * 1000 / Double(r.push.count) }
let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))

/// The highest rate the run could have had with the hub and the database costing nothing: the
/// simulated devices' own CPU spread over every core.
func devicesCeiling(_ r: CentreRun.Result) -> Double { r.cpu.devices > 0 ? Double(r.applied) * Double(cores) / r.cpu.devices : .nan }

/// The other bound: the rate with the simulated devices elsewhere, the hub and PostgreSQL alone
/// on every core at the CPU a push cost them in the run.
func hubCeiling(_ r: CentreRun.Result) -> Double {
    r.cpu.hub + r.cpu.database > 0 ? Double(r.applied) * Double(cores) / (r.cpu.hub + r.cpu.database) : .nan
}

func line(_ r: CentreRun.Result) -> String {
    let memory = r.memory.enumerated().map { String(format: "hub %d peak %.1f MiB (now %.1f)", $0.offset + 1, Double($0.element.peak) / 1024,
                                                    Double($0.element.now) / 1024) }.joined(separator: ", ")
    let rounds = r.roundRates.count > 1 ? " of rounds at " + r.roundRates.map { String(format: "%.0f/s", $0) }.joined(separator: ", ") : ""
    return String(format: "%d hub%@: joins %d entries in %.1f s (%.0f/s); first copies of every device in %.2f s; morning %d entries applied in %.1f s (%.0f/s%@, offered %.0f/s); "
                  + "push p50 %.1f ms p99 %.1f ms (n=%d); propagation p50 %.1f ms p99 %.1f ms (%d of %d presses and undos); %@; "
                  + "PostgreSQL sessions at the peak %d; failures in the morning %@ (in the set-up before it %@); "
                  + "CPU in the morning %.2f s: hub %.2f, PostgreSQL %.2f, simulated devices %.2f (%.2f / %.2f / %.2f ms a push)",
                  r.hubs, r.hubs == 1 ? "" : "s", r.joinEntries, r.joinSeconds, r.joinPerSecond, r.copySeconds, r.applied, r.seconds, r.appliedPerSecond, rounds, r.offered,
                  percentile(r.push, 0.5), percentile(r.push, 0.99), r.push.count, percentile(r.propagation, 0.5), percentile(r.propagation, 0.99),
                  r.propagation.count, r.events, memory, r.connections, r.failures.isEmpty ? "none" : "\(r.failures)",
                  r.setupFailures.isEmpty ? "none" : "\(r.setupFailures)",
                  r.cpu.total, r.cpu.hub, r.cpu.database, r.cpu.devices, perPush(r.cpu.hub, r), perPush(r.cpu.database, r), perPush(r.cpu.devices, r))
}

do {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-centre-\(getpid())").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    // Readable by the cluster's user (psql -f runs as this process; the server never reads it).
    defer { try? FileManager.default.removeItem(atPath: root) }
    let centre = try Centre(root: root, binary: binary)
    let runner = CentreRun(centre: centre, devices: deviceCount, workers: workers, seconds: seconds)
    // Every entry due at the start (a thousandth of a second: the morning's times are spread over it).
    var burstRunner = CentreRun(centre: centre, devices: deviceCount, workers: workers, seconds: 0.001)
    // Each lasts about 2 s, and one alone moved by 15 % from run to run: three, the median kept.
    burstRunner.rounds = 3
    burstRunner.statements = arguments.contains("--statements")
    if arguments.contains("--only-burst") {
        let burst = try burstRunner.run(database: "bench_burst", hubCount: 1)
        print("the morning at once, " + line(burst))
        print(String(format: "the simulated devices' own CPU in it alone bounds its rate on these %d cores at %.0f/s", cores, devicesCeiling(burst)))
        print(String(format: "the hub's and PostgreSQL's CPU in it alone bound it at %.0f/s", hubCeiling(burst)))
        exit(0)
    }
    if arguments.contains("--only-paced") {
        print(line(try runner.run(database: "bench_one_hub", hubCount: 1)))
        exit(0)
    }
    let one = try runner.run(database: "bench_one_hub", hubCount: 1)
    progress("baseline")
    // The baseline three times, one after the first morning and two after the morning at once
    // (the machine's speed moves within minutes: one run alone measured 54,554 to 67,368 rows a
    // second in a session), the median kept.
    var baselines = [try Baseline.run(centre, from: "bench_one_hub", into: "bench_baseline")]
    let two = try runner.run(database: "bench_two_hubs", hubCount: 2)
    // The same morning offered all at once: what one hub takes when nothing holds it back, the
    // figure the baseline's rate is a ceiling for.
    progress("the morning at once")
    let burst = try burstRunner.run(database: "bench_burst", hubCount: 1)
    progress("baseline again")
    for _ in 0..<2 { baselines.append(try Baseline.run(centre, from: "bench_one_hub", into: "bench_baseline")) }
    let baseRates = baselines.map { Double($0.rows) / $0.seconds }
    let baseRate = baseRates.sorted()[1]
    let baseline = baselines[baseRates.firstIndex(of: baseRate) ?? 0]

    print("steppie-bench-centre: release build, \(deviceCount) devices × 4 children held (2 own), \(workers) workers, a morning in \(Int(seconds)) s")
    print(line(one))
    print(line(two))
    print("the morning at once, " + line(burst))
    let threeRates = baseRates.map { String(format: "%.0f", $0) }.joined(separator: ", ")
    print(String(format: "baseline: one psql session, %d rows (registers and events of the first run) in %.2f s: %.0f rows/s ",
                 baseline.rows, baseline.seconds, baseRate)
          + "(the median of three runs: \(threeRates))"
          + String(format: "; ratio one hub %.2f×, two hubs %.2f× (joins: %.2f×, %.2f×)",
                   one.appliedPerSecond / baseRate, two.appliedPerSecond / baseRate, one.joinPerSecond / baseRate, two.joinPerSecond / baseRate))
    print(String(format: "the morning at once through one hub: %.0f/s, %.2f× the baseline", burst.appliedPerSecond, burst.appliedPerSecond / baseRate))
    let ceiling = devicesCeiling(burst)
    print(String(format: "the simulated devices' own CPU in it (%.2f s) alone bounds its rate on these %d cores at %.0f/s, %.2f× the baseline",
                 burst.cpu.devices, cores, ceiling, ceiling / baseRate))
    let hubBound = hubCeiling(burst)
    print(String(format: "the hub's and PostgreSQL's CPU in it (%.2f s) alone bound it at %.0f/s, %.2f× the baseline (the simulated devices elsewhere)",
                 burst.cpu.hub + burst.cpu.database, hubBound, hubBound / baseRate))

    var rows: [BenchRow] = []
    for r in [one, two] {
        let label = r.hubs == 1 ? "one `steppie hub`" : "two `steppie hub` processes, one database"
        rows.append(BenchRow(area: "centre", figure: "\(deviceCount) devices, a morning through \(label): applied changes per second (\(r.applied) entries; offered \(Int(r.offered))/s)",
                             median: String(format: "%.0f/s", r.appliedPerSecond), target: "≥ 0.5× baseline",
                             baseline: "the same rows by one `psql` session, `INSERT … ON CONFLICT` in batches of 500",
                             baselineMedian: String(format: "%.0f rows/s", baseRate), ratio: BenchRow.ratio(r.appliedPerSecond, baseRate)))
        rows.append(BenchRow(area: "centre", figure: "push → acknowledged, \(label) (\(r.push.count) pushes)",
                             median: BenchRow.ms(percentile(r.push, 0.5)), p99: BenchRow.ms(percentile(r.push, 0.99))))
        rows.append(BenchRow(area: "centre", figure: "a press pushed on one device → another device's held pull returns it, \(label) (\(r.propagation.count) of \(r.events))",
                             median: BenchRow.ms(percentile(r.propagation, 0.5)), p99: BenchRow.ms(percentile(r.propagation, 0.99)), target: "≤ 2 s p99"))
        rows.append(BenchRow(area: "centre", figure: "\(deviceCount) devices each granted a second device's children at once → every device's fresh copy whole, \(label)",
                             median: String(format: "%.2f s", r.copySeconds)))
        let peaks = r.memory.map { String(format: "%.1f MiB", Double($0.peak) / 1024) }.joined(separator: " + ")
        rows.append(BenchRow(area: "centre", figure: "hub RSS peak (VmHWM), \(label); PostgreSQL sessions at the peak: \(r.connections)", median: peaks))
    }
    rows.append(BenchRow(area: "centre", figure: "\(deviceCount) devices, the morning offered at once through one `steppie hub`: applied changes per second (\(burst.applied) entries)",
                         median: String(format: "%.0f/s", burst.appliedPerSecond), target: "≥ 0.5× baseline",
                         baseline: "the same rows by one `psql` session, `INSERT … ON CONFLICT` in batches of 500",
                         baselineMedian: String(format: "%.0f rows/s", baseRate), ratio: BenchRow.ratio(burst.appliedPerSecond, baseRate)))
    rows.append(BenchRow(area: "centre", figure: String(format: "the morning at once: CPU by party, hub / PostgreSQL / simulated devices, a push (%.2f / %.2f / %.2f CPU-seconds in all); the devices alone bound the rate at %.0f/s on %d cores",
                                                         burst.cpu.hub, burst.cpu.database, burst.cpu.devices, ceiling, cores),
                         median: String(format: "%.2f / %.2f / %.2f ms", perPush(burst.cpu.hub, burst), perPush(burst.cpu.database, burst),
                                        perPush(burst.cpu.devices, burst)),
                         baseline: "the same rows by one `psql` session", baselineMedian: String(format: "%.0f rows/s", baseRate),
                         ratio: BenchRow.ratio(ceiling, baseRate)))
    rows.append(BenchRow(area: "centre", figure: String(format: "the morning at once: the rate the hub's and PostgreSQL's CPU alone allow on %d cores (the simulated devices elsewhere)", cores),
                         median: String(format: "%.0f/s", hubBound), target: "≥ 0.5× baseline",
                         baseline: "the same rows by one `psql` session", baselineMedian: String(format: "%.0f rows/s", baseRate),
                         ratio: BenchRow.ratio(hubBound, baseRate)))
    BenchRow.publish(rows)
} catch {
    FileHandle.standardError.write(Data("steppie-bench-centre: \(error)\n".utf8))
    exit(1)
}
