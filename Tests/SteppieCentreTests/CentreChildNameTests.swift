import Foundation
import SteppieCentre
import SteppiePostgres
import SteppieSync
import Testing

extension CentreTests {
    /// A child's name taken twice, settled on the centre's hub as the household hub settles it
    /// (`Store.settleChildNameConflicts`): names compare with ASCII letters folded (SQLite's
    /// `NOCASE`), only shown (not archived) children count, and the later child is renamed by the
    /// hub, "Mina (2)", then "(3)", within 60 characters, noted in `conflicts` and sent through the feed.
    @Suite struct CentreChildNameTests {
        /// A device of its own that brings children of its own.
        static func device(_ f: CentreFixture, _ name: String) throws -> TestDevice {
            var device = TestDevice()
            try f.join(&device, children: [], name: name)
            return device
        }

        static func newChild() -> String { UUID().uuidString.lowercased() }

        /// The shown children's names by id, and the renames noted.
        static func names(_ f: CentreFixture) throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try f.store.children().map { ($0.id, $0.name) })
        }

        static func renames(_ f: CentreFixture) throws -> [String] {
            try f.pool.withConnection { c in try c.query("SELECT reason FROM conflicts ORDER BY id") { try $0.text(0) } }
        }

        @Test func theLaterOfTwoChildrenOfOneNameIsRenamedAndTheRenameReachesTheDevices() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var home = try Self.device(f, "home"), school = try Self.device(f, "school"), clinic = try Self.device(f, "clinic")
            let mina = Self.newChild(), second = Self.newChild(), third = Self.newChild()
            _ = try f.push(home, [home.change(.child, mina, child: mina, "name", .string("Mina"), now: f.now)])
            _ = try f.push(school, [school.change(.child, second, child: second, "name", .string("mina"), now: f.now)])
            _ = try f.push(clinic, [clinic.change(.child, third, child: third, "name", .string("MINA"), now: f.now)])
            #expect(try Self.names(f) == [mina: "Mina", second: "mina (2)", third: "MINA (3)"])
            #expect(try Self.renames(f) == ["renamed: mina → mina (2)", "renamed: MINA → MINA (3)"])
            // The school's own child comes back to it renamed, with a stamp later than its own.
            let back = try f.pullAll(&school)
            let rename = back.compactMap { entry -> FieldChange? in if case .change(let c) = entry, c.record == second { c } else { nil } }
            #expect(rename.map(\.value) == [.string("mina (2)")])
            #expect(rename.allSatisfy { $0.stamp.device != school.id })
            // The first Mina renamed to itself in another case is no conflict.
            _ = try f.push(home, [home.change(.child, mina, child: mina, "name", .string("MINA"), now: f.now)])
            #expect(try Self.names(f)[mina] == "MINA")
            #expect(try Self.renames(f).count == 2)
        }

        @Test func archivedChildrenLettersBeyondASCIIAndLongNamesAreSettledAsAtHome() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let home = try Self.device(f, "home"), school = try Self.device(f, "school")
            var h = home, s = school
            let sora = Self.newChild(), soraAgain = Self.newChild(), emile = Self.newChild(), emileLower = Self.newChild()
            let long = Self.newChild(), longAgain = Self.newChild(), twinA = Self.newChild(), twinB = Self.newChild()
            let sixty = String(repeating: "가", count: 55) + "Kiwi!"
            let spelled = Self.newChild()
            _ = try f.push(h, [h.change(.child, sora, child: sora, "name", .string("Sora"), now: f.now),
                               h.change(.child, sora, child: sora, "archived", .bool(true), now: f.now),
                               h.change(.child, emile, child: emile, "name", .string("Émile"), now: f.now),
                               h.change(.child, long, child: long, "name", .string(sixty), now: f.now)])
            _ = try f.push(s, [s.change(.child, soraAgain, child: soraAgain, "name", .string("sora"), now: f.now),
                               s.change(.child, emileLower, child: emileLower, "name", .string("émile"), now: f.now),
                               s.change(.child, longAgain, child: longAgain, "name", .string(sixty.uppercased()), now: f.now),
                               s.change(.child, spelled, child: spelled, "name", .string("E\u{301}mile"), now: f.now)])
            let names = try Self.names(f)
            // An archived Sora takes no name; É and é are different letters to NOCASE, and so is
            // an E with a combining accent, code unit by code unit as SQLite compares them.
            #expect(names[soraAgain] == "sora" && names[sora] == nil)
            #expect(names[emile] == "Émile" && names[emileLower] == "émile")
            #expect(names[spelled].map { Array($0.unicodeScalars) } == Array("E\u{301}mile".unicodeScalars))
            // Sixty characters: the name's first 56 and " (2)".
            let renamed = String(repeating: "가", count: 55) + "K (2)"
            #expect(names[longAgain] == renamed && renamed.count == 60, "\(names[longAgain] ?? "nil")")
            // Two children of one name in one push: taken in id order, the first meets the other's
            // name and is renamed; the second then holds its own.
            let (first, later) = twinA < twinB ? (twinA, twinB) : (twinB, twinA)
            _ = try f.push(h, [h.change(.child, twinA, child: twinA, "name", .string("Ha-eun"), now: f.now),
                               h.change(.child, twinB, child: twinB, "name", .string("Ha-eun"), now: f.now)])
            let twins = try Self.names(f)
            #expect(twins[first] == "Ha-eun (2)" && twins[later] == "Ha-eun", "\(twins)")
            // Shown again, the archived Sora meets the other: it is the one renamed.
            _ = try f.push(h, [h.change(.child, sora, child: sora, "archived", .bool(false), now: f.now)])
            #expect(try Self.names(f)[sora] == "Sora (2)")
            #expect(try Self.names(f)[soraAgain] == "sora")
        }
    }
}
