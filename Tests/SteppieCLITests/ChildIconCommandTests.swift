import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// `steppie children set-icon NAME ICON` (#26 item 4): a builtin icon or `default`, checked by the
/// command tree before anything opens (exit 64 naming ICON), said in ko and en.
@Suite struct ChildIconCommandTests {
    @Test func setIconChoosesABuiltinIconOrTheDefaultAndRefusesAnythingElse() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let set = h.run(["children", "set-icon", "mina", "bicycle"])
        #expect(set.status == 0 && set.out == "Mina's picture is now Bicycle.\n", "\(set)")
        #expect(try Store(path: h.db, timeZone: h.zone).resolveChild("Mina").picture == .builtin(name: "bicycle"))
        let ko = h.run(["children", "set-icon", "Mina", "cat"], locale: "ko")
        #expect(ko.status == 0 && ko.out == "이제 Mina의 그림은 고양이예요.\n", "\(ko)")

        let before = try Store(path: h.db, timeZone: h.zone).dump()
        for bad in ["unicorn", "../cat", "routine-photo-x.png", ""] {
            let refused = h.run(["children", "set-icon", "Mina", bad])
            #expect(refused.status == 64 && refused.err.contains("ICON"), "\(bad): \(refused)")
        }
        #expect(h.run(["children", "set-icon", "Mina"]).status == 64)
        #expect(h.run(["children", "set-icon", "Nobody", "cat"]).status == 1)
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)

        let back = h.run(["children", "set-icon", "Mina", "default"])
        #expect(back.status == 0 && back.out == "Mina's picture is Steppie's choice again.\n", "\(back)")
        #expect(try Store(path: h.db, timeZone: h.zone).resolveChild("Mina").picture == nil)
        #expect(h.run(["children", "set-icon", "--help"]).out.contains("ICON"))
    }
}
