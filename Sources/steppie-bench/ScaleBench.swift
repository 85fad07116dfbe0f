import CSQLite
import Foundation
import SteppieCore
import SteppieStore

/// The foundation's scale benchmark: 10 children × 3 sets × 10 routines × 10 years of daily logs.
enum ScaleBench {
    static let children = 10, setsPerChild = 3, routinesPerSet = 10, years = 10

    static func run(directory: URL) throws {
        let path = directory.appendingPathComponent("scale.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let referenceDay = LocalDay(year: 2026, month: 11, day: 29) ?? LocalDay(dayNumber: 20_000)
        let days = years * 365 + years / 4
        let build = ContinuousClock.now
        let (childIds, rows) = try populate(path: path, zone: zone, through: referenceDay, days: days)
        let buildTime = ContinuousClock.now - build
        print("database: \(rows) daily logs, \(children) children, \(children * setsPerChild * routinesPerSet) routines; built in \(buildTime); file \(fileSizeMiB(path)) MiB")

        var open = Samples(), openRaw = Samples()
        for _ in 0..<50 {
            try open.time { _ = try Store(path: path, timeZone: zone) }
            openRaw.time {
                var db: OpaquePointer?
                sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil)
                sqlite3_exec(db, "SELECT count(*) FROM schema_migrations", nil, nil, nil)
                sqlite3_close_v2(db)
            }
        }

        let store = try Store(path: path, timeZone: zone)
        let raw = try Connection(path: path)
        var today = Samples(), todayRaw = Samples(), month = Samples(), monthRaw = Samples()
        let monthStart = LocalDay(year: referenceDay.year, month: referenceDay.month, day: 1) ?? referenceDay
        let monthEnd = monthStart.adding(days: LocalDay.daysIn(month: monthStart.month, year: monthStart.year) - 1)
        for i in 0..<1000 {
            let child = childIds[i % childIds.count]
            var plan: DayPlan?
            try today.time { plan = try store.today(childId: child, day: referenceDay) }
            guard plan?.total == routinesPerSet else { throw BenchError.wrong("today's plan has \(plan?.total ?? -1) routines") }
            try todayRaw.time {
                _ = try raw.query("""
                    SELECT r.id, r.title, l.status FROM routine_sets s JOIN routines r ON r.routine_set_id = s.id
                    LEFT JOIN daily_logs l ON l.routine_id = r.id AND l.date = ?
                    WHERE s.child_id = ? AND s.is_active = 1 AND r.is_active = 1 AND r.deleted_at IS NULL ORDER BY r.sort_order
                    """, [.text(referenceDay.description), .text(child.lowercased)]) { $0.text(0) }
            }
            var items: [DayPlan.Item] = []
            try month.time { items = try store.history(childId: child, from: monthStart, through: monthEnd) }
            guard items.count == setsPerChild * routinesPerSet * referenceDay.day else {
                throw BenchError.wrong("a month of history has \(items.count) logs")
            }
            try monthRaw.time {
                _ = try raw.query("""
                    SELECT l.id, l.date, l.status, r.title FROM routine_sets s JOIN daily_logs l ON l.routine_set_id = s.id AND l.date BETWEEN ? AND ?
                    JOIN routines r ON r.id = l.routine_id WHERE s.child_id = ? ORDER BY l.date
                    """, [.text(monthStart.description), .text(monthEnd.description), .text(child.lowercased)]) { $0.text(0) }
            }
        }
        Report.print(title: "Store at scale (\(rows) logs)", area: "store", rows: [
            ReportRow(name: "open + migrate", samples: open, target: "-", baselineName: "bare sqlite3_open + one query", baseline: openRaw),
            ReportRow(name: "today's state of one child", samples: today, target: "< 1 ms median", baselineName: "the same SQL, rows not decoded", baseline: todayRaw),
            ReportRow(name: "one month of one child's history", samples: month, target: "< 5 ms median", baselineName: "the same SQL, rows not decoded", baseline: monthRaw),
        ])
    }

    /// Builds the database through the store for structure, then bulk-inserts the logs in one transaction.
    static func populate(path: String, zone: TimeZone, through last: LocalDay, days: Int) throws -> ([UUID], Int) {
        try? FileManager.default.removeItem(atPath: path)
        let store = try Store(path: path, timeZone: zone)
        let created = last.adding(days: -days).start(in: zone)
        var childIds: [UUID] = []
        var routines: [(UUID, UUID)] = []
        for c in 0..<children {
            let child = try store.addChild(name: "Child \(c + 1)", at: created)
            childIds.append(child.id)
            for s in 0..<setsPerChild {
                let set = try store.createSet(childId: child.id, name: LocalizedText(ko: "세트 \(s + 1)", en: "Set \(s + 1)"), at: created)
                for r in 0..<routinesPerSet {
                    let routine = try store.addRoutine(setId: set.id, title: LocalizedText(ko: "활동 \(r + 1)", en: "Activity \(r + 1)"),
                                                       icon: .builtin(name: BuiltinIcons.all[r].name), at: created)
                    routines.append((routine.id, set.id))
                }
            }
        }
        var rows = 0
        guard let morning = LocalTime("07:30") else { throw BenchError.wrong("time") }
        // A fixture, not user data: build it without a journal, then return to the store's WAL mode.
        try store.db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288")
        defer { try? store.db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") }
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
        try store.db.execute("ANALYZE")
        return (childIds, rows)
    }

    static func fileSizeMiB(_ path: String) -> String {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        return String(format: "%.1f", Double(size) / 1_048_576)
    }
}

enum BenchError: Error { case wrong(String) }
