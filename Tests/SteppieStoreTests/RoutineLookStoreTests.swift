import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// History keeps what the child saw (issue 26, item 7): a completion records the routine's title
/// and icon as its card showed them (`routine_looks`), so a rename or a new photo does not
/// rewrite past days.
@Suite struct RoutineLookStoreTests {
    static func at(_ text: String) -> Date { Timestamp.parse(text) ?? .distantPast }
    static func day(_ text: String) -> LocalDay { LocalDay(text) ?? LocalDay(dayNumber: 0) }
    static let oldPhoto = IconRef.photo(localAssetId: "aaaaaaaa-1111-4111-8111-111111111111", backupAssetName: "routine-photo-11111111-1111-4111-8111-111111111111.jpg")
    static let newPhoto = IconRef.photo(localAssetId: "bbbbbbbb-2222-4222-8222-222222222222", backupAssetName: "routine-photo-22222222-2222-4222-8222-222222222222.png")
    static let oldHash = String(repeating: "ab", count: 32)

    @Test func aCompletionKeepsTheTitleAndPhotoShownWhenItWasPressed() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        var first = try #require(try f.store.routines(setId: set.id).first)
        first.icon = Self.oldPhoto
        try f.store.updateRoutine(first, at: f.now)
        try f.store.recordPhotoHash(name: "routine-photo-11111111-1111-4111-8111-111111111111.jpg", sha256: Self.oldHash)
        let log = try f.store.complete(childId: child.id, day: Self.day("2026-03-02"), at: Self.at("2026-03-02T07:05:00+09:00"))
        let lookId = try #require(log.lookId)

        // Renamed and given a new photo the next day.
        var edited = try f.store.routine(id: first.id)
        edited.title = LocalizedText(["en": "Rise and shine", "ko": "해님 인사"])
        edited.icon = Self.newPhoto
        try f.store.updateRoutine(edited, at: Self.at("2026-03-03T20:00:00+09:00"))

        let past = try f.store.history(childId: child.id, from: Self.day("2026-03-02"), through: Self.day("2026-03-02"))
        let shown = try #require(past.first { $0.routine.id == first.id })
        #expect(shown.routine.title == first.title && shown.routine.icon == Self.oldPhoto)
        let entry = try #require(try f.store.dayEntries(childId: child.id, day: Self.day("2026-03-02"), reference: Self.day("2026-03-03"))
            .first { $0.routine.id == first.id })
        #expect(entry.state == .completed && entry.routine.title == first.title && entry.routine.icon == Self.oldPhoto)
        // The look names the old photo by its hash; the routine is what it is now.
        let look = try #require(try f.store.looks(childId: child.id).first { $0.id == lookId })
        #expect(look.photoSha256 == Self.oldHash && look.routineId == first.id)
        #expect(try f.store.routine(id: first.id).title.values["en"] == "Rise and shine")
        // Both photos stay in use: the routine shows the new one, history the old one.
        #expect(try f.store.photoInUse("routine-photo-11111111-1111-4111-8111-111111111111.jpg"))
        #expect(try f.store.photoInUse("routine-photo-22222222-2222-4222-8222-222222222222.png"))
        #expect(try !f.store.photoInUse("routine-photo-33333333-3333-4333-8333-333333333333.jpg"))

        // A completion after the edit shows the new look; the same look is shared, not copied.
        let next = try f.store.complete(childId: child.id, day: Self.day("2026-03-04"), at: Self.at("2026-03-04T07:05:00+09:00"))
        #expect(next.lookId != lookId)
        let later = try #require(try f.store.history(childId: child.id, from: Self.day("2026-03-04"), through: Self.day("2026-03-04")).first)
        #expect(later.routine.title.values["en"] == "Rise and shine" && later.routine.icon == Self.newPhoto)
        let again = try f.store.complete(childId: child.id, day: Self.day("2026-03-05"), at: Self.at("2026-03-05T07:05:00+09:00"))
        #expect(again.lookId == next.lookId)
        #expect(try f.store.looks(childId: child.id).count == 2)
    }

    @Test func aCorrectionMarkingDoneRecordsTheLookAndUndoneShowsTheRoutineAsItIs() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let r = try f.store.routines(setId: try #require(try f.store.activeSet(childId: child.id)).id)
        let made = Self.at("2026-03-04T20:00:00+09:00")
        _ = try f.store.setDayEntry(childId: child.id, routineId: r[1].id, day: Self.day("2026-03-03"), done: true, at: made)
        let log = try #require(try f.store.log(day: Self.day("2026-03-03"), routineId: r[1].id))
        #expect(log.lookId != nil)
        var renamed = r[1]
        renamed.title = LocalizedText(["en": "Splash"])
        try f.store.updateRoutine(renamed, at: made)
        let entries = try f.store.dayEntries(childId: child.id, day: Self.day("2026-03-03"), reference: Self.day("2026-03-04"))
        #expect(entries.first { $0.routine.id == r[1].id }?.routine.title == r[1].title)
        // Marked not done: the entry is the routine as it is now (nothing was completed).
        _ = try f.store.setDayEntry(childId: child.id, routineId: r[1].id, day: Self.day("2026-03-03"), done: false, at: made)
        let undone = try f.store.dayEntries(childId: child.id, day: Self.day("2026-03-03"), reference: Self.day("2026-03-04"))
        #expect(undone.first { $0.routine.id == r[1].id }?.routine.title.values["en"] == "Splash")
        // Done again (an undone row): the look is what the card shows now.
        _ = try f.store.setDayEntry(childId: child.id, routineId: r[1].id, day: Self.day("2026-03-03"), done: true, at: made)
        let redone = try f.store.dayEntries(childId: child.id, day: Self.day("2026-03-03"), reference: Self.day("2026-03-04"))
        #expect(redone.first { $0.routine.id == r[1].id }?.routine.title.values["en"] == "Splash")
    }

    @Test func aSnapshotRoundTripKeepsLooksAndHashes() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        try f.store.complete(childId: child.id, day: f.today, at: f.now)
        var whole = try f.store.snapshot()
        #expect(whole.looks.count == 1 && whole.dailyLogs.first?.lookId == whole.looks.first?.id)
        whole.photoHashes = ["routine-photo-11111111-1111-4111-8111-111111111111.jpg": Self.oldHash]
        let g = try StoreFixture()
        try g.store.replaceAll(with: whole)
        let back = try g.store.snapshot()
        #expect(back.looks == whole.looks && back.dailyLogs == whole.dailyLogs)
        #expect(try g.store.photoHashes() == whole.photoHashes)
        #expect(try g.store.db.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
        #expect(try g.store.db.queryFirst("PRAGMA foreign_key_check") { _ in true } == nil)
    }

    @Test func migrationV8AddsLooksToAVersion7DatabaseAndOldLogsShowTheRoutineAsItIs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-v7-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("steppie.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        do {
            let db = try Connection(path: path)
            try Migrator(Array(Schema.migrations.prefix(7))).migrate(db)
            #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name IN ('routine_looks', 'photo_hashes')") { $0.int(0) } == 0)
            try db.execute("""
                INSERT INTO children (id, display_name, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Mina', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO routine_sets (id, child_id, name, is_active, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '{"en":"Morning"}', 1, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO routines (id, routine_set_id, title, icon, sort_order, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', '{"en":"Wake up"}', '{"type":"builtin","name":"sun"}', 0, '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000004', '2026-03-01', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', 'completed', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00', '2026-03-01T07:00:00+09:00');
                """)
        }
        let store = try Store(path: path, timeZone: zone)
        #expect(try Migrator().applied(store.db).contains("v8-routine-looks"))   // v9 follows it
        #expect(try store.db.queryFirst("PRAGMA user_version") { $0.int(0) } == Schema.migrations.count)
        let routineId = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000003"))
        let childId = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        // The old log has no look: it shows the routine as it is now (a rename shows).
        #expect(try store.log(day: Self.day("2026-03-01"), routineId: routineId)?.lookId == nil)
        var routine = try store.routine(id: routineId)
        routine.title = LocalizedText(["en": "Get up"])
        try store.updateRoutine(routine, at: Self.at("2026-03-02T06:00:00+09:00"))
        #expect(try store.history(childId: childId, from: Self.day("2026-03-01"), through: Self.day("2026-03-01")).first?.routine.title.values["en"] == "Get up")
        // A new completion records its look; the hash table takes only names and hex digests.
        let log = try store.complete(childId: childId, day: Self.day("2026-03-02"), at: Self.at("2026-03-02T07:00:00+09:00"))
        #expect(log.lookId != nil)
        #expect(throws: (any Error).self) { try store.recordPhotoHash(name: "../steppie.db", sha256: Self.oldHash) }
        #expect(throws: (any Error).self) { try store.recordPhotoHash(name: "routine-photo-x.jpg", sha256: "ABC") }
        #expect(try store.db.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }
}
