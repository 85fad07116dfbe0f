import CSQLiteBench
import Foundation
import SteppieCore
import SteppieStore
import SteppieBenchSupport

/// The foundation's scale benchmark: 10 children × 3 sets × 10 routines × 10 years of daily logs.
enum ScaleBench {
    static let children = TenYearFixture.children, setsPerChild = TenYearFixture.setsPerChild
    static let routinesPerSet = TenYearFixture.routinesPerSet

    static func run(directory: URL) throws {
        let path = directory.appendingPathComponent("scale.db").path
        let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
        let referenceDay = TenYearFixture.lastDay
        let build = ContinuousClock.now
        let built = try TenYearFixture.build(path: path, zone: zone)
        let (childIds, rows) = (built.childIds, built.rows)
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
            guard plan?.total == routinesPerSet else { throw BenchError("today's plan has \(plan?.total ?? -1) routines") }
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
                throw BenchError("a month of history has \(items.count) logs")
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

    static func fileSizeMiB(_ path: String) -> String {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        return String(format: "%.1f", Double(size) / 1_048_576)
    }
}
