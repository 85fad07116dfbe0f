import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// Children's names are unique as `Validator.foldedName` reads them; `--child NAME` finds them
/// the same way; hostile titles and names leave the database unchanged.
@Suite struct ChildNameStoreTests {
    @Test(arguments: ["émile", "Emile", "EMILE", "E\u{301}mile", " Émile", "Emi\u{200B}le", "ＥＭＩＬＥ"])
    func aNameFoldedLikeAnotherIsTaken(_ name: String) throws {
        let f = try StoreFixture()
        let emile = try f.store.addChild(name: "Émile", at: f.now)
        let jun = try f.store.addChild(name: "Jun", at: f.now)
        let before = try f.store.dump()
        #expect(throws: StoreError.childNameTaken(name.trimmingCharacters(in: .whitespaces))) { try f.store.addChild(name: name, at: f.now) }
        #expect(throws: StoreError.childNameTaken(name.trimmingCharacters(in: .whitespaces))) {
            try f.store.renameChild(id: jun.id, to: name, at: f.now)
        }
        #expect(try f.store.dump() == before)
        // The same name in another case is a rename of the child to itself.
        try f.store.renameChild(id: emile.id, to: "EMILE", at: f.now)
        #expect(try f.store.child(id: emile.id).displayName == "EMILE")
    }

    @Test func anArchivedChildsNameIsFreeAgain() throws {
        let f = try StoreFixture()
        let old = try f.store.addChild(name: "Émile", at: f.now)
        try f.store.archiveChild(id: old.id, at: f.now)
        let new = try f.store.addChild(name: "emile", at: f.now)
        #expect(try f.store.resolveChild("ÉMILE").id == new.id)
    }

    @Test func lookupsFoldTheNameAndStillTakeAnId() throws {
        let f = try StoreFixture()
        let emile = try f.store.addChild(name: "Émile", at: f.now)
        let mina = try f.store.addChild(name: "민아", at: f.now)
        for selector in ["Émile", "émile", "Emile", "EMILE", "E\u{301}mile", "emile "] {
            #expect(try f.store.resolveChild(selector).id == emile.id, "\(selector)")
        }
        #expect(try f.store.resolveChild("\u{1106}\u{1175}\u{11AB}\u{110B}\u{1161}").id == mina.id)
        #expect(try f.store.resolveChild(emile.id.uuidString).id == emile.id)
        #expect(throws: StoreError.childNotFound("Emil")) { try f.store.resolveChild("Emil") }
        #expect(throws: StoreError.childNotFound("\u{3164}")) { try f.store.resolveChild("\u{3164}") }
    }

    /// A database from before folding made names unique can hold two names that fold alike: a
    /// name that means both is refused, naming each child with its id.
    @Test func anAmbiguousNameIsRefusedWithBothChildren() throws {
        let f = try StoreFixture()
        let a = try f.store.addChild(name: "Émile", at: f.now)
        let b = try f.store.addChild(name: "Jun", at: f.now)
        try f.rawConnection().run("UPDATE children SET display_name = 'Emile' WHERE id = ?", [.text(b.id.lowercased)])
        let expected = StoreError.childNameAmbiguous(name: "emile", children: ["Émile (\(a.id.lowercased))", "Emile (\(b.id.lowercased))"])
        #expect(throws: expected) { try f.store.resolveChild("emile") }
        #expect(try f.store.resolveChild(b.id.lowercased).id == b.id)
    }

    @Test func aRestoreWithNamesFoldedAlikeIsRefusedWhole() throws {
        let f = try StoreFixture()
        _ = try f.childWithMorning()
        let before = try f.store.dump()
        var snapshot = try f.store.snapshot()
        snapshot.children.append(Child(id: UUID(), displayName: "MINA", profile: FeedbackProfile(), createdAt: f.now))
        #expect(throws: StoreError.invalid(ContractViolation(field: "child.name", value: "MINA",
                                                             allowed: "a name no other child has, ignoring case and accents (Mina exists)"))) {
            try f.store.replaceAll(with: snapshot)
        }
        #expect(try f.store.dump() == before)
    }

    @Test func hostileTitlesAndNamesLeaveTheDatabaseUnchanged() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let before = try f.store.dump()
        let hostile = ["e" + String(repeating: "\u{301}", count: 50_000), "\u{3164}", "\u{2800}\u{200B}", "\u{115F}\u{1160}", "\u{FFA0} \u{3000}"]
        for text in hostile {
            #expect(throws: StoreError.self) { try f.store.addChild(name: text, at: f.now) }
            #expect(throws: StoreError.self) { try f.store.renameChild(id: child.id, to: text, at: f.now) }
            #expect(throws: StoreError.self) { try f.store.addRoutine(setId: set.id, title: LocalizedText(["en": text]), at: f.now) }
            #expect(throws: StoreError.self) {
                try f.store.addRoutine(setId: set.id, title: LocalizedText(["ko": text, "en": "Drink water"]), at: f.now)
            }
            #expect(throws: StoreError.self) { try f.store.createSet(childId: child.id, name: LocalizedText(["en": text]), at: f.now) }
        }
        #expect(try f.store.dump() == before)
        // Set names need not be unique (the data contract has no such rule): a second "Morning" is fine.
        try f.store.createSet(childId: child.id, template: .morning, at: f.now)
    }
}
