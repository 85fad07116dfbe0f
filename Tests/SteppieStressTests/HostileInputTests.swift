import Foundation
import Testing
import SteppieBackup
import SteppieCore
import SteppieLocalization
import SteppieStore
@testable import SteppieCLI

/// What a batch of hostile cases ended in, filled on the worker thread.
final class FuzzTally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var problems: [String] = []
    private var slowest = 0.0

    func count(_ outcome: String) { lock.withLock { counts[outcome, default: 0] += 1 } }
    func problem(_ text: String) { lock.withLock { if problems.count < 20 { problems.append(text) } } }
    func timed<T>(_ body: () -> T) -> T {
        let start = Date()
        let result = body()
        let t = Date().timeIntervalSince(start)
        lock.withLock { slowest = max(slowest, t) }
        return result
    }
    var summary: (counts: [String: Int], problems: [String], slowest: Double) { lock.withLock { (counts, problems, slowest) } }
}

/// Random and malformed input for the parser, the catalog loader, the settings validator and the
/// backup reader: every case ends in a typed error or a correct result, in bounded time.
@Suite struct HostileInputTests {
    static let cases = ProcessInfo.processInfo.environment["STEPPIE_FUZZ_CASES"].flatMap(Int.init) ?? 4000
    static let vocabulary = ["child", "routine", "add", "edit", "move", "delete", "restore", "children", "profile", "set",
                             "backup", "create", "verify", "say", "feedback", "preview", "l10n", "render", "history", "init",
                             "complete", "undo", "today", "--tts-rate", "--undo", "--pitch", "--title-en", "--title-ko",
                             "--child", "--db", "--locale", "--json", "--help", "--output", "--events", "--keys-from",
                             "--lead-times", "--quiet-hours", "--position", "--time", "--", "en", "ko", "qps"]

    func report(_ name: String, _ tally: FuzzTally, finished: Bool, bound: Double) {
        let s = tally.summary
        print("hostile input, \(name): \(s.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
              + "slowest case \(String(format: "%.3f", s.slowest)) s")
        #expect(finished, "\(name): the batch did not finish in time (a hang)")
        #expect(s.problems.isEmpty, "\(name): \(s.problems)")
        #expect(s.slowest < bound, "\(name): one case took \(s.slowest) s")
    }

    @Test func commandLineParser() {
        let tally = FuzzTally()
        let finished = finishes(within: 60) {
            var g = HostileValues(seed: stressSeed)
            for _ in 0..<Self.cases * 2 {
                let args = (0..<g.int(12)).map { _ in g.chance(60) ? g.pick(Self.vocabulary) : g.string() }
                tally.timed {
                    do {
                        let invocation = try CommandTree.parser.parse(args)
                        tally.count(invocation.path.isEmpty ? "accepted (no command)" : "accepted")
                    } catch {
                        // Typed throws: only a UsageError can arrive here; it must say something.
                        if "\(error)".isEmpty { tally.problem("empty usage error for \(args.map(\.debugDescription))") }
                        tally.count("usage error")
                    }
                }
            }
        }
        report("parser", tally, finished: finished, bound: 2)
    }

    @Test func catalogLoader() throws {
        let real = try ["child", "cli", "tts", "feedback"].map { name in
            [UInt8](try Data(contentsOf: Repo.root.appendingPathComponent("Localization/en/\(name).json")))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-fuzz-cat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tally = FuzzTally()
        let finished = finishes(within: 60) {
            var g = HostileValues(seed: stressSeed &+ 1)
            for i in 0..<Self.cases {
                let bytes = g.chance(20) ? g.bytes(g.int(512)) : g.mutate(g.pick(real))
                tally.timed {
                    do {
                        let entries = try CatalogSet.parse(Data(bytes), file: "en/fuzz.json")
                        if entries.contains(where: { $0.0.isEmpty }) { tally.problem("an empty key was accepted") }
                        tally.count("parsed")
                    } catch { tally.count("CatalogLoadError") }
                }
                // Now and then through the directory loader, as the program meets the files.
                if i % 40 == 0 {
                    let en = dir.appendingPathComponent("en")
                    try? FileManager.default.createDirectory(at: en, withIntermediateDirectories: true)
                    try? Data(bytes).write(to: en.appendingPathComponent("fuzz.json"))
                    tally.timed {
                        do { _ = try CatalogSet.load(directory: dir); tally.count("directory loaded") } catch { tally.count("directory refused") }
                    }
                }
            }
        }
        report("catalogs", tally, finished: finished, bound: 2)
    }

    @Test func settingsValidator() {
        let tally = FuzzTally()
        let finished = finishes(within: 60) {
            var g = HostileValues(seed: stressSeed &+ 2)
            for _ in 0..<Self.cases {
                var p = FeedbackProfile()
                p.ttsRate = g.chance(50) ? g.double() : p.ttsRate
                p.ttsVolume = g.chance(30) ? g.double() : p.ttsVolume
                p.volumeCap = g.chance(30) ? g.double() : p.volumeCap
                p.pitch = g.chance(30) ? g.integer() : p.pitch
                p.undoDurationSeconds = g.chance(30) ? g.integer() : p.undoDurationSeconds
                p.notificationLeadTimes = g.chance(30) ? (0..<g.int(8)).map { _ in g.integer() } : p.notificationLeadTimes
                p.locale = g.chance(20) ? g.string() : p.locale
                p.voiceVariant = g.chance(20) ? g.string() : p.voiceVariant
                tally.timed {
                    do {
                        try Validator.profile(p)
                        let ok = Validator.ttsRateRange.contains(p.ttsRate) && Validator.ttsVolumeRange.contains(p.ttsVolume)
                            && Validator.volumeCapRange.contains(p.volumeCap) && Validator.pitchRange.contains(p.pitch)
                            && Validator.undoDurations.contains(p.undoDurationSeconds)
                            && p.notificationLeadTimes.count <= Validator.maxLeadTimes
                            && p.notificationLeadTimes.allSatisfy(Validator.leadTimeRange.contains)
                        if !ok { tally.problem("accepted an out-of-range profile: \(p)") }
                        tally.count("profile accepted")
                    } catch { tally.count("profile refused") }
                }
                var values: [String: String] = [:]
                for _ in 0..<(1 + g.int(3)) { values[g.chance(70) ? g.pick(["ko", "en"]) : g.string()] = g.string() }
                let title = LocalizedText(values)
                tally.timed {
                    do {
                        try Validator.title(title)
                        let bad = title.values.values.contains { v in
                            v.count > Validator.maxTitleLength || v.unicodeScalars.contains { $0.properties.generalCategory == .control }
                        }
                        if bad { tally.problem("accepted a title with control characters or too long: \(title.values.debugDescription.prefix(200))") }
                        tally.count("title accepted")
                    } catch { tally.count("title refused") }
                }
            }
        }
        report("validator", tally, finished: finished, bound: 2)
    }

    @Test func backupReader() throws {
        let h = StressHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let archive = h.path("real.zip")
        let made = h.run(["backup", "create", "--out", archive])
        try #require(made.status == 0, "\(made.err)")
        let real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive)))
        let now = h.clock.now()
        #expect(throws: Never.self) { _ = try BackupVerifier().verify(archive: URL(fileURLWithPath: archive), at: now) }
        let tally = FuzzTally()
        let count = max(100, Self.cases / 10)
        let dir = h.directory
        let finished = finishes(within: 90) {
            var g = HostileValues(seed: stressSeed &+ 3)
            for i in 0..<count {
                let bytes: [UInt8]
                switch i % 4 {
                case 0: bytes = Array(real[..<g.int(real.count)])          // truncated
                case 1: bytes = g.bytes(g.int(4096))                        // noise
                default: bytes = g.mutate(real)
                }
                let path = dir.appendingPathComponent("fuzz-\(i % 8).zip").path
                do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch { tally.problem("cannot write \(path)"); continue }
                tally.timed {
                    do {
                        _ = try BackupVerifier().verify(archive: URL(fileURLWithPath: path), at: now)
                        tally.count("verified")
                    } catch let error as BackupError {
                        if "\(error)".isEmpty { tally.problem("empty backup error") }
                        tally.count("BackupError")
                    } catch {
                        tally.problem("untyped error \(type(of: error)): \(error)")
                    }
                }
            }
        }
        report("backup reader", tally, finished: finished, bound: 5)
    }
}
