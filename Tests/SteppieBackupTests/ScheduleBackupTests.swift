import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// Weekly schedules travel in Linux backups (`weeklySchedules`, docs/backup.md): a new device gets
/// them back; a backup made before they travelled keeps the slots that still fit.
@Suite struct ScheduleBackupTests {
    /// The fixture's backup, its data.json, and a restore of an edited copy into `target`.
    static func backup(_ f: BackupFixture) throws -> (archive: URL, data: [UInt8]) {
        try CorruptArchiveTests.goodParts(f)
    }

    static func restore(_ data: [UInt8], into target: BackupFixture, name: String) throws {
        let archive = target.url(name)
        try makeZip(at: archive, [TestEntry(name: "manifest.json", bytes: try manifest(for: data)), TestEntry(name: "data.json", bytes: data)])
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
    }

    static func schedules(_ store: Store) throws -> [UUID: WeeklySchedule] {
        var out: [UUID: WeeklySchedule] = [:]
        for child in try store.children() { out[child.id] = try store.schedule(childId: child.id) }
        return out
    }

    @Test func theSchedulesComeBackOnANewDevice() throws {
        let source = try BackupFixture()
        let (archive, data) = try Self.backup(source)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        let slots = try #require(object["weeklySchedules"] as? [[String: Any]])
        // Two children × (5 school days at 06:00 + 7 days at 18:00).
        #expect(slots.count == 24)
        #expect(Set(slots.compactMap { $0["weekday"] as? String }) == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])

        let target = try BackupFixture()
        _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now, confirm: { _ in true })
        let restored = try Self.schedules(target.store)
        #expect(restored.count == 2 && restored.values.allSatisfy { $0.slots.count == 12 })
        #expect(restored == (try Self.schedules(source.store)))
        // Created and updated times come back too: the whole table is the same.
        #expect(try target.store.dataDump() == (try source.store.dataDump()))
        // And the service's rule works on them: Monday 06:30 is the morning set's time.
        let child = try #require(try target.store.children().first)
        let monday = try #require(Timestamp.parse("2026-03-02T06:30:00+09:00"))
        let morning = try #require(restored[child.id]?.activeSet(at: monday, in: target.zone))
        #expect(try target.store.sets(childId: child.id).first { $0.id == morning }?.name.values["en"] == "Morning routine")
    }

    /// A Linux backup from before schedules travelled (no field): the device keeps each slot whose
    /// child and set are there again, as before.
    @Test func aBackupWithoutTheFieldKeepsTheSlotsThatStillFit() throws {
        let f = try BackupFixture()
        let (_, data) = try Self.backup(f)
        let before = try Self.schedules(f.store)
        let old = try CorruptArchiveTests.edit(data) { $0["weeklySchedules"] = nil }
        #expect(!String(decoding: old, as: UTF8.self).contains("weeklySchedules"))
        try Self.restore(old, into: f, name: "old.zip")
        #expect(try Self.schedules(f.store) == before)
    }

    /// With the field, the backup's schedules replace the device's, as every other row: a schedule
    /// cleared after the backup is back, and an empty list clears them all.
    @Test func theFieldReplacesTheDevicesSchedules() throws {
        let f = try BackupFixture()
        let (_, data) = try Self.backup(f)
        let before = try Self.schedules(f.store)
        let child = try #require(try f.store.children().first)
        #expect(try f.store.clearSchedule(childId: child.id, at: f.now) == 12)
        try Self.restore(data, into: f, name: "again.zip")
        #expect(try Self.schedules(f.store) == before)

        let none = try CorruptArchiveTests.edit(data) { $0["weeklySchedules"] = [] as [Any] }
        try Self.restore(none, into: f, name: "none.zip")
        #expect(try Self.schedules(f.store).values.allSatisfy { $0.slots.isEmpty })
    }

    /// The plan a guardian confirms counts the slots: what the backup carries (nil when it does not
    /// carry the field) and what the device holds now, so the confirmation can say which stay.
    @Test func thePlanCountsTheSlotsBothWays() throws {
        let f = try BackupFixture()
        let (archive, data) = try Self.backup(f)
        let verified = try BackupVerifier().verify(archive: archive, at: f.now)
        #expect(verified.counts.scheduleSlots == 24)
        #expect(verified.replacing == nil)

        let child = try #require(try f.store.children().first)
        #expect(try f.store.clearSchedule(childId: child.id, at: f.now) == 12)
        #expect(try f.store.rowCounts().scheduleSlots == 12)
        var seen: [RestorePlan] = []
        let old = try CorruptArchiveTests.edit(data) { $0["weeklySchedules"] = nil }
        for (name, bytes) in [("with.zip", data), ("without.zip", old)] {
            let url = f.url(name)
            try makeZip(at: url, [TestEntry(name: "manifest.json", bytes: try manifest(for: bytes)), TestEntry(name: "data.json", bytes: bytes)])
            // Refused at the confirmation: nothing changes, so both plans see the same device.
            #expect(throws: BackupError.cancelled) {
                try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                    .restore(archive: url, into: f.store, assetsDirectory: f.assets, at: f.now, confirm: { seen.append($0); return false })
            }
        }
        #expect(seen.map(\.counts.scheduleSlots) == [24, nil])
        #expect(seen.map { $0.scope?.incoming.map(\.scheduleSlots) } == [[12, 12], [0, 0]])
        #expect(seen.map { $0.scope?.replaced.map(\.scheduleSlots).sorted() } == [[0, 12], [0, 12]])
        #expect(seen.map { $0.replacing?.scheduleSlots } == [12, 12])
        #expect(try f.store.rowCounts().scheduleSlots == 12)
    }
}
