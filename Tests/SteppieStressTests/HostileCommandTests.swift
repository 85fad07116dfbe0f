import Foundation
import Testing
import SteppieCore
import SteppieStore

/// Hostile values through real command lines (in-process) against a database: a refused command
/// leaves the database exactly as it was; an accepted one stores a valid value.
@Suite struct HostileCommandTests {
    static let cases = ProcessInfo.processInfo.environment["STEPPIE_FUZZ_COMMANDS"].flatMap(Int.init) ?? 400

    @Test func refusedInputLeavesTheDatabaseUnchanged() throws {
        let h = StressHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let store = try Store(path: h.db, timeZone: h.zone)
        var g = HostileValues(seed: stressSeed &+ 4)
        var refused = 0, accepted = 0, statuses: [Int32: Int] = [:]
        let started = Date()
        for i in 0..<Self.cases {
            let value = g.string()
            let number = g.chance(50) ? g.pick(HostileValues.specials) : g.string()
            let args: [String]
            switch i % 9 {
            case 0: args = ["routine", "add", "--title-en", value]
            case 1: args = ["routine", "add", "--title-ko", value, "--title-en", g.string()]
            case 2: args = ["children", "add", value]
            case 3: args = ["profile", "set", "--tts-rate", number]
            case 4: args = ["profile", "set", "--undo", number]
            case 5: args = ["profile", "set", "--pitch", number, "--tts-volume", g.pick(HostileValues.specials)]
            case 6: args = ["profile", "set", "--lead-times", number]
            case 7: args = ["profile", "set", "--quiet-hours", value]
            default: args = ["routine", "add", "--title-en", "ok", "--time", number, "--position", g.pick(HostileValues.specials)]
            }
            let before = try store.dump()
            let caseStart = Date()
            let result = h.run(args)
            #expect(Date().timeIntervalSince(caseStart) < 5, "case \(i) took too long: \(args.map(\.debugDescription))")
            statuses[result.status, default: 0] += 1
            if result.status == 0 {
                accepted += 1
                // Whatever was accepted must still pass the data contract when read back.
                let child = try store.resolveChild("Mina")
                #expect((try? Validator.profile(child.profile)) != nil, "case \(i) stored an invalid profile")
            } else {
                refused += 1
                #expect(try store.dump() == before, "case \(i) changed the database although refused: \(args.map(\.debugDescription))")
                #expect(!result.err.isEmpty, "case \(i) refused without a message")
                #expect(result.status != 70 || !result.err.contains("Fatal"), "case \(i): internal error \(result.err)")
            }
        }
        #expect(try store.integrityProblems().isEmpty)
        print("hostile commands: \(Self.cases) cases, \(accepted) accepted, \(refused) refused (exit statuses \(statuses.sorted { $0.key < $1.key })), "
              + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(refused > 0 && accepted > 0)
    }
}
