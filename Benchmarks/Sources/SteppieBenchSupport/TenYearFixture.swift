import Foundation
import SteppieCore
import SteppieStore

/// The foundation's scale fixture, shared by the benchmarks: 10 children × 3 sets × 10 routines
/// × 10 years of daily logs (about 1.1 M rows), optionally with photos of 1 MiB referenced by the
/// first two routines of each set.
public enum TenYearFixture {
    public static let children = 10, setsPerChild = 3, routinesPerSet = 10, years = 10
    public static let lastDay = LocalDay(year: 2026, month: 11, day: 29) ?? LocalDay(dayNumber: 20_000)

    public struct Built: Sendable {
        public let childIds: [UUID]
        public let rows: Int
    }

    /// Builds the database at `path` (replacing it) and, when `assets` is given, `photos` random
    /// 1 MiB photos there.
    public static func build(path: String, zone: TimeZone, assets: URL? = nil, photos: Int = 0) throws -> Built {
        try? FileManager.default.removeItem(atPath: path)
        if let assets { try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true) }
        let days = years * 365 + years / 4
        let store = try Store(path: path, timeZone: zone)
        let created = lastDay.adding(days: -days).start(in: zone)
        var childIds: [UUID] = []
        var routines: [(UUID, UUID)] = []
        var photoIndex = 0
        for c in 0..<children {
            let child = try store.addChild(name: "Child \(c + 1)", at: created)
            childIds.append(child.id)
            for s in 0..<setsPerChild {
                let set = try store.createSet(childId: child.id, name: LocalizedText(ko: "세트 \(s + 1)", en: "Set \(s + 1)"), at: created)
                for r in 0..<routinesPerSet {
                    var icon = IconRef.builtin(name: BuiltinIcons.all[r].name)
                    if let assets, r < 2, photoIndex < photos {
                        let name = String(format: "routine-photo-%04d.jpg", photoIndex)
                        try randomMiB().write(to: assets.appendingPathComponent(name))
                        icon = .photo(localAssetId: UUID().uuidString, backupAssetName: name)
                        photoIndex += 1
                    }
                    let routine = try store.addRoutine(setId: set.id, title: LocalizedText(ko: "활동 \(r + 1)", en: "Activity \(r + 1)"),
                                                       icon: icon, at: created)
                    routines.append((routine.id, set.id))
                }
            }
        }
        guard let morning = LocalTime("07:30") else { return Built(childIds: childIds, rows: 0) }
        var rows = 0
        // A fixture, not user data: the store bulk-loads it without a journal, then returns to WAL.
        try store.loadFixtureLogs { insert in
            for d in 0..<days {
                let day = lastDay.adding(days: -d)
                let at = Timestamp.format(day.instant(at: morning, in: zone), in: zone)
                for (i, (routine, set)) in routines.enumerated() {
                    try insert(Store.FixtureLog(id: UUID(), day: day, routineId: routine, setId: set, completed: (d + i) % 7 != 0, at: at))
                    rows += 1
                }
            }
        }
        return Built(childIds: childIds, rows: rows)
    }

    static func randomMiB() -> Data {
        var rng = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for i in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: rng.next() as UInt64) { for (k, b) in $0.enumerated() { bytes[i + k] = b } }
        }
        // A JPEG header (SOI, JFIF, a 640×480 frame header) so that backups carry it as a photo.
        let header: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
                               0x00, 0x01, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 0x01, 0x22,
                               0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        bytes.replaceSubrange(0..<header.count, with: header)
        return Data(bytes)
    }
}
