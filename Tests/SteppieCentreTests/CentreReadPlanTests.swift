import Foundation
import SteppieCentre
import SteppiePostgres
import SteppieSync
import Testing

extension CentreTests {
    /// Reads that name a few children among a centre's many: a device's copy, the staff pages'
    /// today and month, a photo's check.
    @Suite struct CentreReadPlanTests {
        /// With 400 other children's 20,000 registers and 40,000 events in the tables and their
        /// statistics taken, the planner reads one child's rows through `registers_by_child` and
        /// `events_by_child_day`, and a name through `registers_child_names`, never by reading
        /// every register or event of the centre (a
        /// `jsonb` list unnested in a subquery was met with a sequential scan of the whole table:
        /// 40 ms a copy page with 98,000 registers, 69 ms for a group's today with 480,000
        /// events); and what those reads return is that child's alone.
        @Test func aFewChildrensRowsAreReadByTheirIndexesAmongManyChildren() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try PostgresSyncHubTests.twoDevices(f)
            let today = "2026-12-03", yesterday = "2026-12-02"
            _ = try f.push(home, [home.press(child: child, routine: "wash", now: f.now, date: today),
                                  home.press(child: child, routine: "teeth", now: f.now, date: today),
                                  home.press(child: child, routine: "wash", now: f.now, date: yesterday)])
            try f.pool.withConnection { c in
                let stamp = try #require(try c.queryFirst("SELECT stamp FROM registers LIMIT 1") { try $0.text(0) })
                try c.run("""
                    INSERT INTO registers (entity, record, field, child, value, stamp)
                    SELECT 'routine', 'bulk-' || c || '-' || k, f, 'bulk-' || c, '"x"', $1
                    FROM generate_series(1, 400) c, generate_series(1, 7) k,
                         unnest(ARRAY['set', 'title', 'icon', 'color', 'time', 'active', 'createdAt']) f
                    """, [.text(stamp)])
                try c.run("""
                    INSERT INTO events (id, child, routine, set_id, date, kind, at, stamp)
                    SELECT 'bulk-' || c || '-' || d, 'bulk-' || c, 'bulk-' || c || '-1', 'set', to_char(date '2026-09-01' + d, 'YYYY-MM-DD'),
                           'press', to_char(date '2026-09-01' + d, 'YYYY-MM-DD') || 'T08:00:00+09:00', $1
                    FROM generate_series(1, 400) c, generate_series(1, 100) d
                    """, [.text(stamp)])
                try c.run("""
                    INSERT INTO registers (entity, record, field, child, value, stamp)
                    SELECT 'child', 'bulk-' || c, 'name', 'bulk-' || c, to_jsonb('Child ' || c), $1 FROM generate_series(1, 400) c
                    """, [.text(stamp)])
                try c.run("ANALYZE registers")
                try c.run("ANALYZE events")
            }

            let children = PostgresValue.textArray([child])
            let reads: [(name: String, sql: String, parameters: [PostgresValue], index: String)] = [
                ("a copy's registers", CentreStore.copyRegisters, [children, .text(""), .int(500)], "registers_by_child"),
                ("a copy's events", CentreStore.copyEvents, [children, .text(""), .int(500)], "events_by_child_day"),
                ("the staff pages' registers", CentreStore.replicaRegisters, [children], "registers_by_child"),
                ("a group's today", CentreStore.replicaEvents, [children, .text(today), .text(today)], "events_by_child_day"),
                ("a child's month", CentreStore.replicaEvents, [children, .text("2026-12-01"), .text("2026-12-31")], "events_by_child_day"),
                ("a photo's check", CentreStore.blobOfChildren, [children, .text(String(repeating: "a", count: 64))], "registers_by_child"),
                ("a child's name looked up", CentreStore.childNameTaken, [.text("child 7"), .text(child)], "registers_child_names"),
            ]
            for read in reads {
                let plan = try f.pool.withConnection { c in
                    try c.query("EXPLAIN " + read.sql, read.parameters) { try $0.text(0) }.joined(separator: "\n")
                }
                #expect(!plan.contains("Seq Scan on registers") && !plan.contains("Seq Scan on events"), "\(read.name):\n\(plan)")
                #expect(plan.contains(read.index), "\(read.name):\n\(plan)")
            }

            // The school's fresh copy: the child's name and its three presses, nothing of the others.
            let copy = try f.pullAll(&school)
            #expect(copy.count == 4 && copy.allSatisfy { $0.child == child }, "\(copy)")
            let replica = try f.store.replica(children: [child], dates: today...today)
            #expect(replica.events.count == 2 && replica.events.values.allSatisfy { $0.child == child && $0.date == today })
            #expect(try f.store.replica(children: [child]).events.count == 3)
            #expect(try f.store.replica(children: ["bulk-7"], dates: "2026-09-02"..."2026-09-11").events.count == 10)
        }

        /// A group's acknowledgements find their devices by key among a district's thousands,
        /// never by reading every device, and write only theirs.
        @Test func aGroupsAcknowledgementsFindTheirDevicesByKey() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let (home, school, _) = try PostgresSyncHubTests.twoDevices(f)
            try f.pool.withConnection { c in
                try c.run("""
                    INSERT INTO devices (id, name, credential_hash, children, joined_at)
                    SELECT lpad(g::text, 36, '0'), 'bulk ' || g, encode(sha256(g::text::bytea), 'hex'), '[]', '2026-12-01T07:00:00Z'
                    FROM generate_series(1, 3000) g
                    """)
                try c.run("ANALYZE devices")
            }
            let acknowledgements = #"[["\#(home.id.text)",7,["mina"]],["\#(school.id.text)",3,[]]]"#
            let parameters: [PostgresValue] = [.text(acknowledgements), .textArray([home.id.text, school.id.text])]
            let plan = try f.pool.withConnection { c in
                try c.query("EXPLAIN " + CentreStore.acknowledgeAll, parameters) { try $0.text(0) }.joined(separator: "\n")
            }
            #expect(!plan.contains("Seq Scan on devices") && plan.contains("devices_pkey"), "\(plan)")
            let written = try f.pool.withConnection { c in
                #expect(try c.run(CentreStore.acknowledgeAll, parameters) == 2)
                return try c.query("SELECT id, acknowledged, children::text FROM devices WHERE id = ANY ($1::text[]) ORDER BY acknowledged",
                                   [parameters[1]]) { [try $0.text(0), String(try $0.int(1)), try $0.text(2)] }
            }
            #expect(written == [[school.id.text, "3", "[]"], [home.id.text, "7", #"["mina"]"#]])
        }

        /// Every index of the tables each push writes is one a read or a write uses (each row of
        /// a push pays for them all): an index added or left behind shows here, and in
        /// docs/centre.md's "What the hub keeps" with its reader.
        @Test func thePushesTablesHaveOnlyTheIndexesTheirReadsUse() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let indexes = try f.pool.withConnection { c in
                try c.query("""
                    SELECT tablename || '.' || indexname FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename IN ('events', 'feed', 'registers') ORDER BY 1
                    """) { try $0.text(0) }
            }
            #expect(indexes == [
                "events.events_by_child_day",     // a copy's, a day's, a month's events, a photo's check
                "events.events_pkey",             // an event taken once
                "feed.feed_by_child",             // a pull's entries, child by child
                "feed.feed_by_time",              // the horizon's forget
                "feed.feed_pkey",                 // the tail's read after its head
                "registers.registers_by_child",   // a copy's registers, a photo's check
                "registers.registers_child_names", // a child's name taken twice
                "registers.registers_pkey",       // last writer wins, the owners read
            ])
        }
    }
}
