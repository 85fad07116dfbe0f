import Foundation
import Testing
import SteppieCore
import SteppieStore

/// Hostile titles and names through the real `steppie` binary: a refused command exits 1 with one
/// line naming the field and leaves the database dump exactly as it was.
@Suite struct HostileTextProcessTests {
    struct Run {
        let status: Int32
        let err: String
    }

    /// Runs the built binary once against `db` (English messages, Seoul time).
    static func steppie(_ args: [String], db: String) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        p.arguments = args + ["--db", db, "--locale", "en"]
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "Asia/Seoul"
        env["STEPPIE_NOW"] = "2026-03-02T07:00:00+09:00"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes before waiting, so a full pipe cannot stall the child.
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        _ = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, err: String(decoding: errData, as: UTF8.self))
    }

    static let bomb = "e" + String(repeating: "\u{301}", count: 50_000)   // 100,001 bytes: fits in one argument
    static let blanks = ["\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}", "\u{2800}", "\u{200B}\u{FEFF}", " \u{3000}\u{2002}", "\u{E0041}\u{FE0F}"]

    /// (arguments, the field or text the one error line names)
    static var refused: [([String], String)] {
        var cases: [([String], String)] = [
            (["children", "add", bomb], "child.name cannot be (100001 bytes)"),
            (["children", "rename", "Mina", bomb], "child.name cannot be (100001 bytes)"),
            (["routine", "add", "--title-en", bomb], "title cannot be (100001 bytes)"),
            (["routine", "add", "--title-ko", bomb, "--title-en", "Water"], "title cannot be (100001 bytes)"),
            (["set", "create", "--name-en", bomb], "routineSet.name cannot be (100001 bytes)"),
            (["children", "add", "émile"], "a child named émile already exists"),
            (["children", "add", "E\u{301}MILE"], "a child named E\u{301}MILE already exists"),
            (["children", "rename", "Mina", "Emile"], "a child named Emile already exists"),
        ]
        for b in blanks {
            cases += [
                (["children", "add", b], "child.name cannot be"),
                (["children", "rename", "Mina", b], "child.name cannot be"),
                (["routine", "add", "--title-en", b], "title cannot be"),
                (["routine", "add", "--title-ko", b, "--title-en", "Water"], "title cannot be"),
                (["set", "create", "--name-en", b], "routineSet.name cannot be"),
                (["set", "create", "--name-ko", b, "--name-en", "Evening"], "routineSet.name cannot be"),
            ]
        }
        return cases
    }

    @Test func refusedTextLeavesTheDumpIdenticalAndSaysOneLine() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary), "build the steppie binary first (swift build)")
        let h = CLIHarness()
        #expect(try Self.steppie(["init", "--child", "Mina"], db: h.db).status == 0)
        #expect(try Self.steppie(["children", "add", "Émile"], db: h.db).status == 0)
        let store = try Store(path: h.db, timeZone: h.zone)
        let before = try store.dump()
        for (args, message) in Self.refused {
            let r = try Self.steppie(args + (args[0] == "children" ? [] : ["--child", "mina"]), db: h.db)
            let shown = args.map { $0.unicodeScalars.count > 20 ? "(\($0.unicodeScalars.count) scalars)" : $0.debugDescription }
            #expect(r.status == 1, "\(shown): \(r.err)")
            #expect(r.err.hasSuffix("\n") && r.err.dropLast().split(separator: "\n", omittingEmptySubsequences: false).count == 1,
                    "\(shown): not one line: \(r.err.debugDescription)")
            #expect(r.err.contains(message), "\(shown): \(r.err)")
            #expect(r.err.utf8.count < 1000, "\(shown): the error repeats the value")
            #expect(try store.dump() == before, "\(shown) changed the database although refused")
        }
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func visibleNamesAndTitlesAreAcceptedAndLookupsFold() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary), "build the steppie binary first (swift build)")
        let h = CLIHarness()
        #expect(try Self.steppie(["init", "--child", "Émile"], db: h.db).status == 0)
        for args in [["children", "add", "민아"], ["children", "add", "👩‍👩‍👧‍👦 Kim"],
                     ["routine", "add", "--child", "EMILE", "--title-en", "Brush\u{200B}teeth 🪥", "--title-ko", "양치하기"],
                     ["set", "create", "--child", "e\u{301}mile", "--name-ko", "저녁", "--name-en", "Evening"],
                     ["sets", "--child", "ＥＭＩＬＥ"]] {
            let r = try Self.steppie(args, db: h.db)
            #expect(r.status == 0, "\(args): \(r.err)")
        }
        let store = try Store(path: h.db, timeZone: h.zone)
        // Each process's clock starts at STEPPIE_NOW and runs on, so creation order is not compared.
        #expect(Set(try store.children().map(\.displayName)) == ["Émile", "민아", "👩‍👩‍👧‍👦 Kim"])
    }

    /// Two names that fold alike (a database from before the rule): `--child` with that name is
    /// refused and lists both children with their ids; the id still works.
    @Test func anAmbiguousChildNameIsRefused() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary), "build the steppie binary first (swift build)")
        let h = CLIHarness()
        #expect(try Self.steppie(["init", "--child", "Émile"], db: h.db).status == 0)
        #expect(try Self.steppie(["children", "add", "Jun"], db: h.db).status == 0)
        let store = try Store(path: h.db, timeZone: h.zone)
        let jun = try store.resolveChild("Jun")
        let emile = try store.resolveChild("Émile")
        try Connection(path: h.db).run("UPDATE children SET display_name = 'emile' WHERE id = ?", [.text(jun.id.lowercased)])
        let before = try store.dump()
        let r = try Self.steppie(["routine", "add", "--child", "EMILE", "--title-en", "Water"], db: h.db)
        #expect(r.status == 1)
        let listed = ["Émile (\(emile.id.lowercased))", "emile (\(jun.id.lowercased))"]
        #expect(r.err == "steppie: EMILE matches several children (\(listed.joined(separator: ", "))); choose one by id: --child ID\n"
                || r.err == "steppie: EMILE matches several children (\(listed.reversed().joined(separator: ", "))); choose one by id: --child ID\n",
                "\(r.err)")
        #expect(try store.dump() == before)
        #expect(try Self.steppie(["routine", "add", "--child", emile.id.lowercased, "--title-en", "Water"], db: h.db).status == 0)
    }
}
