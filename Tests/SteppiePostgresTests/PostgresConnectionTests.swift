import Foundation
import Testing
import SteppieCore
@testable import SteppiePostgres

extension PostgresTests {
    /// Statements through the one checking helper: parameters never spliced, failures typed.
    @Suite struct Connection {
        static let hostile = "'); DROP TABLE registers; --"
        static let stamp = String(repeating: "0", count: 15) + "-00000000-" + String(repeating: "a", count: 36)

        @Test func aHostileTitleRoundTripsAsText() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            try HubSchema.migrator.migrate(c)
            let insert = PostgresStatement("test_register_insert", """
                INSERT INTO registers (entity, record, field, child, value, stamp) VALUES ('routine', $1, 'title', $2, to_jsonb($3::text), $4)
                """)
            #expect(try c.run(insert, [.text(Self.hostile), .text(Self.hostile), .text(Self.hostile), .text(Self.stamp)]) == 1)
            let row = try c.queryFirst("SELECT record, child, value #>> '{}', value FROM registers WHERE record = $1", [.text(Self.hostile)]) {
                [try $0.text(0), try $0.text(1), try $0.text(2), try $0.text(3)]
            }
            #expect(row == [Self.hostile, Self.hostile, Self.hostile, #""'); DROP TABLE registers; --""#])
            #expect(try c.queryFirst("SELECT $1::text", [.text(Self.hostile)]) { try $0.text(0) } == Self.hostile)
            #expect(try db.tables(c).contains("registers"))
            #expect(try c.queryFirst("SELECT count(*) FROM registers") { try $0.int(0) } == 1)
        }

        @Test func valuesOfEveryKindRoundTrip() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            let bytes: [UInt8] = [0, 1, 0x7f, 0x80, 0xff, 0x5c, 0x27]
            let row = try #require(try c.queryFirst("SELECT $1::text, $2::bigint, $3::bytea, $4::text, $5::boolean, $6::bytea, '서준 🌟'::text",
                                                    [.text("하루 '일과'"), .integer(Int64.min), .bytes(bytes), .null, .bool(true), .bytes([])]) { r in
                (try r.text(0), try r.int(1), try r.bytes(2), try r.optionalText(3), try r.bool(4), try r.bytes(5), try r.text(6))
            })
            #expect(row.0 == "하루 '일과'")
            #expect(row.1 == Int64.min)
            #expect(row.2 == bytes)
            #expect(row.3 == nil)
            #expect(row.4 == true)
            #expect(row.5 == [])
            #expect(row.6 == "서준 🌟")
            // Reading a NULL as text, or text as a number, is a typed error, not a crash or a zero.
            #expect(throws: PostgresError.unexpectedValue(column: 0, expected: "text, not NULL", statement: "SELECT NULL::text")) {
                try c.queryFirst("SELECT NULL::text") { try $0.text(0) }
            }
            #expect(throws: PostgresError.unexpectedValue(column: 0, expected: "an integer", statement: "SELECT 'x'")) {
                try c.queryFirst("SELECT 'x'") { try $0.int(0) }
            }
            #expect(throws: PostgresError.invalidParameter(index: 1)) {
                try c.run("SELECT $1::text, $2::text", [.text("a"), .text("b\u{0}c")])
            }
        }

        /// A `text[]` parameter (`PostgresValue.textArray`) gives back each element as it was,
        /// whatever it holds: array syntax, quotes, backslashes, the word NULL, nothing at all.
        @Test func aTextArrayKeepsEveryElementAsItWas() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            var random = SystemRandomNumberGenerator()
            let alphabet = Array(#"{}",\ "NULLab 서🌟'()[]"#)
            let lists: [[String]] = [
                [], [""], ["NULL"], ["null", "NULL "], [#"a"b"#, #"c\d"#, #"\""#, "{x,y}", " padded ", "a,b", Self.hostile, "서준 🌟", "\t\n"],
            ] + (0..<40).map { _ in
                (0..<Int.random(in: 1...6, using: &random)).map { _ in
                    String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                }
            }
            for list in lists {
                let back = try c.query("SELECT e FROM unnest($1::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n", [.textArray(list)]) {
                    try $0.optionalText(0)
                }
                #expect(back == list.map { Optional($0) }, "\(list)")
                #expect(try c.queryFirst("SELECT cardinality($1::text[])", [.textArray(list)]) { try $0.int(0) } == Int64(list.count))
            }
        }

        @Test func aUniqueViolationIsTypedWithItsSQLState() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            try HubSchema.migrator.migrate(c)
            let insert = "INSERT INTO events (id, child, routine, set_id, date, kind, at, stamp) VALUES ($1, 'c', 'r', 's', '2026-12-03', 'press', 'x', $2)"
            try c.run(insert, [.text("e1"), .text(Self.stamp)])
            let error = try #require(throws: PostgresError.self) { try c.run(insert, [.text("e1"), .text(Self.stamp)]) }
            #expect(error.sqlState == "23505")
            #expect(!error.isRetryable)
            #expect(error.catalogMessage.key == "postgres.error.duplicate")
            guard case .server(_, let message, _, let statement) = error else { Issue.record("not a server error: \(error)"); return }
            #expect(message.contains("events_pkey"))
            #expect(statement == insert)
            // The session is still usable, and a transaction that hit it kept nothing.
            #expect(!c.isBroken)
            #expect(throws: PostgresError.self) {
                try c.transaction { t in
                    try t.run(insert, [.text("e2"), .text(Self.stamp)])
                    try t.run(insert, [.text("e1"), .text(Self.stamp)])
                }
            }
            #expect(try c.query("SELECT id FROM events ORDER BY id") { try $0.text(0) } == ["e1"])
            #expect(!c.inTransaction)
        }

        @Test func aCheckViolationAndAnAbortedTransactionAreRefused() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            try HubSchema.migrator.migrate(c)
            let error = try #require(throws: PostgresError.self) {
                try c.run("INSERT INTO events (id, child, routine, set_id, date, kind, at, stamp) VALUES ('e', 'c', 'r', 's', 'today', 'press', 'x', $1)",
                          [.text(Self.stamp)])
            }
            #expect(error.sqlState == "23514")
            #expect(error.catalogMessage.key == "postgres.error.constraint")
            // A body that swallows a failure cannot commit what the server already aborted.
            #expect(throws: PostgresError.server(sqlState: "25P02", message: "the transaction was aborted by an earlier error",
                                                 detail: nil, statement: "COMMIT")) {
                try c.transaction { t in
                    try t.run("INSERT INTO join_attempts (at) VALUES (1)")
                    _ = try? t.run("SELECT 1/0")
                }
            }
            #expect(try c.queryFirst("SELECT count(*) FROM join_attempts") { try $0.int(0) } == 0)
        }

        /// A pipeline sends its statements at once and reads their results in order; a failure
        /// in the middle is thrown with its SQL state once the rest (skipped) are read, inside a
        /// transaction nothing of it is kept, and the session goes on as before.
        @Test func aPipelineReadsEveryResultInOrderAndAFailureInItRollsBack() throws {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let c = try db.connect()
            try c.run("CREATE TABLE t (id bigint PRIMARY KEY, note text NOT NULL)")
            let insert = PostgresStatement("test_pipeline_insert", "INSERT INTO t (id, note) VALUES ($1, $2)")
            let read = PostgresStatement("test_pipeline_read", "SELECT id, note FROM t WHERE id >= $1 ORDER BY id")
            let count = PostgresStatement("test_pipeline_count", "SELECT count(*) FROM t")

            let results = try c.transaction { c in
                try c.pipeline([.init(insert, [.integer(1), .text(Self.hostile)]), .init(insert, [.integer(2), .text("둘")]),
                                .init(read, [.integer(0)]), .init(count)])
            }
            #expect(results.affected(0) == 1 && results.affected(1) == 1)
            #expect(try results.rows(2) { [String(try $0.int(0)), try $0.text(1)] } == [["1", Self.hostile], ["2", "둘"]])
            #expect(try results.first(3) { try $0.int(0) } == 2)

            // The second insert breaks the key: the third is skipped, the first rolled back with it.
            #expect {
                try c.transaction { c in
                    try c.pipeline([.init(insert, [.integer(3), .text("three")]), .init(insert, [.integer(1), .text("again")]),
                                    .init(insert, [.integer(4), .text("four")])])
                }
            } throws: { error in
                guard case .server(let state, _, _, let statement) = error as? PostgresError else { return false }
                return state == "23505" && statement == "test_pipeline_insert"
            }
            #expect(!c.inTransaction && !c.isBroken)
            #expect(try c.query(read, [.integer(0)]) { try $0.int(0) } == [1, 2])
            // A parameter that cannot be sent is refused before anything is.
            #expect(throws: PostgresError.invalidParameter(index: 1)) {
                try c.pipeline([.init(insert, [.integer(5), .text("five")]), .init(insert, [.integer(6), .text("six\u{0}")])])
            }
            // Outside a transaction the pipeline is one (an implicit transaction); the session answers.
            let alone = try c.pipeline([.init(count), .init(read, [.integer(2)])])
            #expect(try alone.first(0) { try $0.int(0) } == 2)
            #expect(try alone.rows(1) { try $0.text(1) } == ["둘"])
        }
    }
}
