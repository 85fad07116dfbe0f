import Foundation
import SteppieCore
import SteppieStore

/// The foundation's 10-year database (10 children × 3 sets × 10 routines × 10 years of daily
/// logs, about 1.1 M rows) with 60 photos of 1 MiB referenced by routines.
enum Fixture {
    static let children = 10, setsPerChild = 3, routinesPerSet = 10, years = 10, photos = 60

    /// Builds the database at `path` and the photos in `assets`; returns the number of log rows.
    static func build(path: String, assets: URL, zone: TimeZone) throws -> Int {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let last = LocalDay(year: 2026, month: 11, day: 29) ?? LocalDay(dayNumber: 20_000)
        let days = years * 365 + years / 4
        let store = try Store(path: path, timeZone: zone)
        let created = last.adding(days: -days).start(in: zone)
        var routines: [(UUID, UUID)] = []
        var photoIndex = 0
        for c in 0..<children {
            let child = try store.addChild(name: "Child \(c + 1)", at: created)
            for s in 0..<setsPerChild {
                let set = try store.createSet(childId: child.id, name: LocalizedText(ko: "세트 \(s + 1)", en: "Set \(s + 1)"), at: created)
                for r in 0..<routinesPerSet {
                    var icon = IconRef.builtin(name: BuiltinIcons.all[r].name)
                    // Two photo routines in every set: 10 × 3 × 2 = 60 photos.
                    if r < 2 && photoIndex < photos {
                        let name = String(format: "routine-photo-%04d.jpg", photoIndex)
                        var bytes = [UInt8](repeating: 0, count: 1 << 20)
                        var rng = SystemRandomNumberGenerator()
                        for i in stride(from: 0, to: bytes.count, by: 8) {
                            withUnsafeBytes(of: rng.next() as UInt64) { for (k, b) in $0.enumerated() { bytes[i + k] = b } }
                        }
                        try Data(bytes).write(to: assets.appendingPathComponent(name))
                        icon = .photo(localAssetId: UUID().uuidString, backupAssetName: name)
                        photoIndex += 1
                    }
                    let routine = try store.addRoutine(setId: set.id, title: LocalizedText(ko: "활동 \(r + 1)", en: "Activity \(r + 1)"),
                                                       icon: icon, at: created)
                    routines.append((routine.id, set.id))
                }
            }
        }
        guard let morning = LocalTime("07:30") else { return 0 }
        var rows = 0
        // A fixture, not user data: bulk-insert without a journal, then return to the store's WAL mode.
        try store.db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try store.db.transaction {
            let sql = "INSERT INTO daily_logs (id, date, routine_id, routine_set_id, status, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            for d in 0..<days {
                let day = last.adding(days: -d)
                let at = Timestamp.format(day.instant(at: morning, in: zone), in: zone)
                for (i, (routine, set)) in routines.enumerated() {
                    let done = (d + i) % 7 != 0
                    try store.db.run(sql, [.text(UUID().lowercased), .text(day.description), .text(routine.lowercased), .text(set.lowercased),
                                           .text(done ? "completed" : "undone"), done ? .text(at) : .null, .text(at), .text(at)])
                    rows += 1
                }
            }
        }
        try store.db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
        return rows
    }
}
