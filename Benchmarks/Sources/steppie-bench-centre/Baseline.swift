import Foundation
import SteppieBenchSupport

/// The baseline: the registers and events a run's hub wrote, written again straight into the same
/// tables of a copy of its database (emptied) by one `psql -f` session, `INSERT … ON CONFLICT` in
/// batches of `batch` rows (each statement its own transaction, as each push is), in the order the
/// hub took them.
enum Baseline {
    static func run(_ centre: Centre, from database: String, into target: String, batch: Int = 500) throws -> (rows: Int, seconds: Double) {
        try centre.psql("steppie_test", ["-c", "DROP DATABASE IF EXISTS \(target)"])
        try centre.psql("steppie_test", ["-c", "CREATE DATABASE \(target) TEMPLATE \(database)"])
        try centre.psql(target, ["-c", "TRUNCATE registers, events, feed"])
        let registers = """
            SELECT 'INSERT INTO registers (entity, record, field, child, value, stamp) VALUES '
                || string_agg(format('(%L, %L, %L, %L, %L, %L)', entity, record, field, child, value::text, stamp), ', ')
                || ' ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp'
                || ' WHERE registers.stamp COLLATE "C" < excluded.stamp COLLATE "C";'
            FROM (SELECT *, (row_number() OVER (ORDER BY stamp COLLATE "C") - 1) / \(batch) AS b FROM registers) r GROUP BY b ORDER BY b
            """
        let events = """
            SELECT 'INSERT INTO events (id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon) VALUES '
                || string_agg(format('(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)', id, child, routine, set_id, date, kind, at, stamp,
                                     shown_title::text, shown_icon::text), ', ')
                || ' ON CONFLICT (id) DO NOTHING;'
            FROM (SELECT *, (row_number() OVER (ORDER BY stamp COLLATE "C") - 1) / \(batch) AS b FROM events) e GROUP BY b ORDER BY b
            """
        let sql = try centre.psql(database, ["-c", registers]) + (try centre.psql(database, ["-c", events]))
        let file = centre.root + "/baseline.sql"
        try sql.write(toFile: file, atomically: true, encoding: .utf8)
        let rows = Int(try centre.psql(database, ["-c", "SELECT (SELECT count(*) FROM registers) + (SELECT count(*) FROM events)"])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let start = now()
        try centre.psql(target, ["-f", file])
        let seconds = Double(now() - start) / 1e9
        let written = Int(try centre.psql(target, ["-c", "SELECT (SELECT count(*) FROM registers) + (SELECT count(*) FROM events)"])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        guard written == rows else { throw BenchError("the baseline wrote \(written) of \(rows) rows") }
        return (rows, seconds)
    }
}
