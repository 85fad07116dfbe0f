import Dispatch
import Foundation
import SteppieCentre
import SteppieCore
import SteppiePostgres
import SteppieSync
import Synchronization
import Testing

extension CentreTests {
    /// The hub's promises on PostgreSQL, as `HubFeed` and the household hub keep them.
    @Suite struct PostgresSyncHubTests {
        /// A device that brings a child, and a second device given it.
        /// Polls `condition` until it holds (at most 10 s).
        static func waitUntil(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline { if condition() { return true }; usleep(10_000) }
            return condition()
        }

        /// A pull by a device from its cursor, held up to 20 s by a hub on another thread.
        final class HeldPull: Sendable {
            let group = DispatchGroup()
            let reply = Mutex<Result<PullReply, SyncRefusal>?>(nil)

            init(_ f: CentreFixture, _ device: TestDevice) {
                let cursor = device.cursor, now = f.now
                DispatchQueue.global().async(group: group) { [self] in
                    let answer = Result { () throws(SyncRefusal) -> PullReply in
                        try f.hub.pull(PullRequest(device: device.id, sentAt: now, cursor: cursor, waitMilliseconds: 20_000),
                                       credential: device.credential)
                    }
                    reply.withLock { $0 = answer }
                }
            }

            /// Its reply once the hub answered.
            func answered() throws -> PullReply {
                group.wait()
                return try #require(reply.withLock { $0 }).get()
            }
        }

        static func twoDevices(_ f: CentreFixture) throws -> (TestDevice, TestDevice, child: String) {
            var home = TestDevice(), school = TestDevice()
            let child = UUID().uuidString.lowercased()
            try f.join(&home, children: [], name: "home")
            _ = try f.push(home, [home.change(.child, child, child: child, "name", .string("Mina"), now: f.now)])
            try f.join(&school, children: [child], name: "school")
            return (home, school, child)
        }

        /// `twoDevices`, and a second child home brought that school is not given.
        static func twoDevicesAndAnotherChild(_ f: CentreFixture) throws -> (TestDevice, TestDevice, child: String, other: String) {
            var (home, school, child) = try twoDevices(f)
            let other = UUID().uuidString.lowercased()
            #expect(try f.push(home, [home.change(.child, other, child: other, "name", .string("Joon"), now: f.now)]).acknowledged == 2)
            return (home, school, child, other)
        }

        @Test func pushesArePulledByTheOtherDeviceNotByTheirOwn() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            // School's first pull is a fresh copy of the child home brought.
            let copy = try f.pullAll(&school)
            #expect(copy.count == 1)
            _ = try f.pullAll(&home)
            let press = home.press(child: child, routine: "routine-1", now: f.now)
            let title = school.change(.routine, "routine-1", child: child, "title", .object(["en": .string("Wake up")]), now: f.now)
            #expect(try f.push(home, [press]).acknowledged == 2)
            #expect(try f.push(school, [title]).acknowledged == 1)
            #expect(try f.pullAll(&school) == [press.entry])
            #expect(try f.pullAll(&home) == [title.entry])
            #expect(try f.pullAll(&home).isEmpty)
            #expect(try f.state().count == 3)
            // The hub settles registers by hybrid timestamp: an older write loses whoever sends it last.
            let older = NumberedEntry(seq: 2, entry: .change(FieldChange(entity: .routine, record: "routine-1", child: child, field: "title",
                                                                        value: .object(["en": .string("Old")]),
                                                                        stamp: HybridTimestamp(wall: f.now - 1000, counter: 0, device: school.id))))
            #expect(try f.push(school, [older]).acknowledged == 2)
            #expect(try f.state().contains { $0.contains("{\"en\":\"Wake up\"}") })
        }

        @Test func aReplayedPushChangesNothing() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, _, child) = try Self.twoDevices(f)
            let entries = [home.press(child: child, routine: "r", now: f.now), home.change(.child, child, child: child, "name", .string("Mina K"), now: f.now)]
            #expect(try f.push(home, entries).acknowledged == 3)
            let before = try f.database.dump()
            #expect(try f.push(home, entries).acknowledged == 3)
            #expect(try f.push(home, Array(entries.prefix(1))).acknowledged == 3)
            #expect(try f.database.dump() == before)
        }

        @Test func refusedPushesLeaveTheTablesUnchanged() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            let other = UUID().uuidString.lowercased()
            _ = try f.push(home, [home.change(.child, other, child: other, "name", .string("Joon"), now: f.now)])
            _ = try f.pullAll(&school)
            let before = try f.database.dump()
            // A gap.
            var skipping = school
            skipping.seq = 1
            #expect(throws: SyncRefusal.gap(expected: 1)) { try f.push(school, [skipping.press(child: child, routine: "r", now: f.now)]) }
            // A child not given (Joon is home's).
            var s = school
            #expect(throws: SyncRefusal.childNotGiven(child: other)) { try f.push(school, [s.press(child: other, routine: "r", now: f.now)]) }
            // An unknown credential.
            var stranger = school
            stranger.credential = String(repeating: "0", count: 64)
            #expect(throws: SyncRefusal.unknownDevice) { try f.push(stranger, [s.press(child: child, routine: "r", now: f.now)]) }
            // Too many entries at once.
            var big = school
            let many = (0...SyncProtocol.maxBatchEntries).map { _ in big.press(child: child, routine: "r", now: f.now) }
            #expect(throws: SyncRefusal.tooLarge) { try f.push(school, many) }
            // A protocol of another version.
            #expect(throws: SyncRefusal.protocolVersion(hub: 1, device: 2)) {
                try f.hub.push(PushRequest(protocolVersion: 2, device: school.id, sentAt: f.now, entries: []), credential: school.credential)
            }
            #expect(try f.database.dump() == before)
            // A clock six minutes ahead: refused, the contact and offset kept.
            let beforeSkew = try f.database.dump(except: ["devices"])
            var ahead = school
            #expect(throws: SyncRefusal.clockSkew(offsetMilliseconds: 360_000)) {
                try f.push(school, [ahead.press(child: child, routine: "r", now: f.now)], sentAt: f.now + 360_000)
            }
            #expect(try f.database.dump(except: ["devices"]) == beforeSkew)
            let offsets = try f.store.devices().filter { $0.id == school.id }.map(\.lastOffsetMilliseconds)
            #expect(offsets == [360_000])
            // A removed device's credential is refused at once.
            #expect(try f.store.remove(device: school.id))
            #expect(throws: SyncRefusal.unknownDevice) { try f.pullAll(&school) }
        }

        @Test func aGrantGivesAFreshCopyAndTheHorizonDoesToo() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            let other = UUID().uuidString.lowercased()
            _ = try f.push(home, [home.change(.child, other, child: other, "name", .string("Joon"), now: f.now),
                                  home.press(child: other, routine: "r", now: f.now)])
            _ = try f.pullAll(&school)
            #expect(try f.pullAll(&school).isEmpty)
            try f.store.grant(device: school.id, children: [child, other])
            let reply = try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor), credential: school.credential)
            #expect(reply.freshCopy && reply.entries.count == 3 && reply.children == [child, other].sorted())
            // That answer lost on the way: the copy is still due, given whole again, and taken.
            #expect(try f.pullAll(&school).count == 3)
            #expect(try f.pullAll(&school).isEmpty)
            // 181 days later the feed forgot what school had not pulled: its next pull is a copy.
            _ = try f.push(home, [home.press(child: other, routine: "r", now: f.now)])
            f.clock.advance(by: 181 * 86_400)
            _ = try f.push(home, [home.change(.child, child, child: child, "name", .string("Mina K"), now: f.now)])
            let later = try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor), credential: school.credential)
            #expect(later.freshCopy)
            #expect(later.entries.count == 4)   // two names, two presses
            // The copy is the hub's state of the device's children, nothing else.
            #expect(try f.state().count == later.entries.count)
        }

        /// A content request names no device, only its credential: the device's row is found by
        /// the hash's index, among many, and an unknown credential finds none.
        @Test func aContentRequestFindsItsDeviceByTheCredentialsIndex() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let (home, school, child) = try Self.twoDevices(f)
            for k in 0..<30 {
                var other = TestDevice()
                try f.join(&other, children: k % 2 == 0 ? [child] : [], name: "room \(k)")
            }
            #expect(try f.store.deviceChildren(credentialHash: PostgresSyncHub.credentialHash(school.credential)) == [child])
            #expect(try f.store.deviceChildren(credentialHash: PostgresSyncHub.credentialHash(home.credential)) == [child])
            #expect(try f.store.deviceChildren(credentialHash: PostgresSyncHub.credentialHash("not-a-credential")) == nil)
            let plan = try f.pool.withConnection { c in
                try c.run("SET enable_seqscan = off")
                defer { _ = try? c.run("RESET enable_seqscan") }
                return try c.query("EXPLAIN " + CentreStore.deviceByCredential, [.text(PostgresSyncHub.credentialHash(school.credential))]) {
                    try $0.text(0)
                }.joined(separator: "\n")
            }
            #expect(plan.contains("devices_by_credential"), "\(plan)")
        }

        /// The feed read in one statement (`CentreStore.feedRead`) gives a long feed in pages of
        /// the limit, in position order, each entry once (a fraction's too), never the device's own, `more` on every
        /// page but the last, and the device's stored cursor where its last page ended.
        @Test func aLongFeedIsReadInPagesEachEntryOnceInOrder() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            _ = try f.pullAll(&school)
            var pressed: [SyncEntry] = []
            for r in 0..<7 {
                // A fraction among them (the wire's fast reader leaves it to Foundation's).
                let press = r == 5 ? home.change(.child, child, child: child, "profile.ttsRate", .double(0.9), now: f.now)
                    : home.press(child: child, routine: "r\(r)", now: f.now)
                _ = try f.push(home, [press])
                pressed.append(press.entry)
                if r == 3 { _ = try f.push(school, [school.press(child: child, routine: "own", now: f.now)]) }
            }
            var read: [SyncEntry] = []
            var pages: [Bool] = []
            while true {
                let reply = try f.store.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor),
                                             credentialHash: PostgresSyncHub.credentialHash(school.credential), now: f.now, limit: 3).get()
                #expect(!reply.freshCopy && reply.copyAfter == nil)
                read += reply.entries
                pages.append(reply.more)
                school.cursor = reply.cursor
                if !reply.more { break }
            }
            #expect(read == pressed)
            #expect(pages == [true, true, false])
            // The cursor is stored with the contact, once the contact's resolution has passed.
            f.clock.advance(by: Double(CentreStore.contactResolutionMilliseconds) / 1000)
            #expect(try f.pullAll(&school).isEmpty)
            let stored = try f.store.pool.withConnection { c in
                try c.queryFirst("SELECT cursor FROM devices WHERE id = $1", [.text(school.id.text)], { try $0.int(0) })
            }
            #expect(stored.map { UInt64($0) } == school.cursor)
        }

        /// The stored cursor (what `hub devices` shows) is the place the device has taken: the one
        /// its request comes with, written with its contact, at the contact's resolution (a pull
        /// within 5 s of the contact written leaves both). An answer is not counted until the
        /// device asks from it, and one it never got (it asks again from where it was) moves it back.
        @Test func theStoredCursorIsWhereTheDeviceAsksFrom() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            _ = try f.pullAll(&school)
            let stored = {
                try f.pool.withConnection { c in
                    try c.queryFirst("SELECT cursor FROM devices WHERE id = $1", [.text(school.id.text)]) { UInt64(try $0.int(0)) }
                }
            }
            let taken = school.cursor
            #expect(try stored() == taken)
            _ = try f.push(home, [home.press(child: child, routine: "wash", now: f.now)])
            let pull = { (cursor: UInt64) throws(SyncRefusal) -> PullReply in
                try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: cursor), credential: school.credential)
            }
            let resolution = Double(CentreStore.contactResolutionMilliseconds) / 1000
            f.clock.advance(by: resolution)
            let answer = try pull(taken)
            #expect(answer.entries.count == 1 && answer.cursor > taken)
            #expect(try stored() == taken, "an answer not yet asked from")
            #expect(try pull(answer.cursor).entries.isEmpty)
            #expect(try stored() == taken, "within the contact's resolution: left")
            f.clock.advance(by: resolution)
            #expect(try pull(answer.cursor).entries.isEmpty)
            #expect(try stored() == answer.cursor)
            // That answer lost after all: the device asks from where it was, and gets it again.
            f.clock.advance(by: resolution)
            #expect(try pull(taken).entries == answer.entries)
            #expect(try stored() == taken)
        }

        /// A copy is due until the device sends back the mark of its last page: answers lost on
        /// the way (the first, a middle one, the mark's) are given again; a grant between two
        /// pages starts the copy again.
        @Test func aCopyIsDueUntilTheDeviceSaysItTookTheLastPage() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            let other = UUID().uuidString.lowercased(), third = UUID().uuidString.lowercased()
            var entries = [home.change(.child, other, child: other, "name", .string("Joon"), now: f.now),
                           home.change(.child, third, child: third, "name", .string("Ara"), now: f.now)]
            for r in 0..<5 { entries.append(home.press(child: other, routine: "r\(r)", now: f.now)) }
            _ = try f.push(home, entries)
            _ = try f.pullAll(&school)
            try f.store.grant(device: school.id, children: [child, other])
            func pull(_ copyAfter: String?) throws -> PullReply {
                try f.store.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor, copyAfter: copyAfter),
                                 credentialHash: PostgresSyncHub.credentialHash(school.credential), now: f.now, limit: 3).get()
            }
            var copyAfter: String? = nil
            var keys: [SyncEntry] = []
            var answers = 0
            while true {
                let lost = try pull(copyAfter)
                let reply = try pull(copyAfter)   // the same question again: the same answer
                answers += 2
                #expect(lost == reply && reply.freshCopy)
                keys += reply.entries
                school.cursor = reply.cursor
                copyAfter = reply.copyAfter
                if !reply.more { break }
            }
            // Seven rows of the two children (two names, five presses), in pages of three, then the mark.
            #expect(keys.count == 7 && answers == 8)
            #expect(try f.pullAll(&school).isEmpty)
            // A grant between two pages: the copy starts again, sealed with the new children.
            try f.store.grant(device: school.id, children: [child])
            let first = try pull(nil)
            try f.store.grant(device: school.id, children: [child, other, third])
            let again = try pull(first.copyAfter)
            #expect(first.freshCopy && first.more && first.children == [child])
            // The copy's first page of the three children, as a pull from nothing gets it.
            #expect(again.freshCopy && again.children == [child, other, third].sorted())
            #expect(again == (try pull(nil)))
        }

        @Test func hostileTextRoundTripsAndANulIsMalformed() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            let title = "'); DROP TABLE registers; --"
            let change = home.change(.routine, "r-\(title)", child: child, "title", .object(["en": .string(title)]), now: f.now)
            _ = try f.push(home, [change])
            let got = try f.pullAll(&school)
            #expect(got.last == change.entry)
            let before = try f.database.dump()
            var h = home
            #expect(throws: SyncRefusal.malformed(reason: "text holds a NUL character")) {
                try f.push(home, [h.change(.routine, "r2", child: child, "title", .object(["en": .string("a\u{0}b")]), now: f.now)])
            }
            var h2 = home
            #expect(throws: SyncRefusal.malformed(reason: "text holds a NUL character")) {
                try f.push(home, [h2.change(.routine, "r\u{0}", child: child, "title", .string("x"), now: f.now)])
            }
            #expect(try f.database.dump() == before)
        }

        /// Another process's push in progress (here a connection holding the `hub_state` row)
        /// keeps a push waiting before it asks for a feed position: positions are handed out in
        /// the order pushes commit, so a pull never moves past one still to come.
        @Test func aPushWaitsForTheOneBeforeItBeforeTakingAPosition() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            _ = try f.pullAll(&school)
            let slow = try PostgresConnection(conninfo: f.database.conninfo)
            try slow.run("BEGIN")
            try slow.run("SELECT 1 FROM hub_state WHERE id = 'singleton' FOR UPDATE")
            let later = home.press(child: child, routine: "r", now: f.now)
            let pushed = Atomic<Bool>(false)
            let group = DispatchGroup()
            let pusher = home
            DispatchQueue.global().async(group: group) {
                _ = try? f.push(pusher, [later])
                pushed.store(true, ordering: .sequentiallyConsistent)
            }
            // Half a second for the push to go past the lock if nothing held it.
            let deadline = Date().addingTimeInterval(0.5)
            while Date() < deadline, !pushed.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
            let finishedEarly = pushed.load(ordering: .sequentiallyConsistent)
            #expect(!finishedEarly, "the push did not wait for the one before it")
            #expect(try f.pullAll(&school).isEmpty)
            // The earlier push takes its position now, and commits.
            var other = TestDevice()
            let early = other.press(child: child, routine: "r", now: f.now)
            try slow.run("INSERT INTO feed (origin, child, taken_at, entry) VALUES ($1, $2, $3, $4::jsonb)",
                         [.text(other.id.text), .text(child), .integer(f.now),
                          .text(String(decoding: SyncProtocol.encode(early.entry) ?? Data(), as: UTF8.self))])
            try slow.run("COMMIT")
            group.wait()
            #expect(try f.pullAll(&school) == [early.entry, later.entry])
        }

        @Test func twoHubsOnOneDatabaseKeepTheFeedInCommitOrder() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            let child = UUID().uuidString.lowercased()
            var devices = (0..<4).map { _ in TestDevice() }
            try first.join(&devices[0], children: [])
            _ = try first.push(devices[0], [devices[0].change(.child, child, child: child, "name", .string("Mina"), now: first.now)])
            for i in 1..<4 { try (i % 2 == 0 ? first : second).join(&devices[i], children: [child]) }
            var reader = TestDevice()
            try second.join(&reader, children: [child])
            _ = try second.pullAll(&reader)
            let pushes = 30, perPush = 10
            let pushers = devices, joinedReader = reader
            let received = Mutex<[SyncEntry]>([])
            let failures = Mutex<[String]>([])
            let done = Atomic<Int>(0)
            let group = DispatchGroup()
            for (i, device) in pushers.enumerated() {
                DispatchQueue.global().async(group: group) {
                    var d = device
                    let hub = i % 2 == 0 ? first : second
                    for _ in 0..<pushes {
                        // Several entries a push: a transaction that asked for its positions stays open a while.
                        let batch = (0..<perPush).map { _ in d.press(child: child, routine: "r", now: hub.now) }
                        do { _ = try hub.push(d, batch) } catch {
                            failures.withLock { $0.append("push \(error)") }
                        }
                    }
                    done.add(1, ordering: .sequentiallyConsistent)
                }
            }
            // The reader pulls all along, through the other hub than most pushes.
            DispatchQueue.global().async(group: group) {
                var r = joinedReader
                while true {
                    let finished = done.load(ordering: .sequentiallyConsistent) == pushers.count
                    do {
                        let got = try first.pullAll(&r)
                        received.withLock { $0 += got }
                    } catch { failures.withLock { $0.append("pull \(error)") } }
                    if finished { break }
                }
            }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty)
            let events = received.withLock { $0 }.filter { if case .event = $0 { true } else { false } }
            #expect(events.count == pushes * perPush * pushers.count, "the reader missed \(pushes * perPush * pushers.count - events.count)")
            #expect(Set(events).count == events.count)
            let c = try PostgresConnection(conninfo: first.database.conninfo)
            let positions = try c.query("SELECT position FROM feed ORDER BY position") { try $0.int(0) }
            #expect(positions == Array(1...Int64(positions.count)))
        }

        /// A push is written in a few statements (`CentreStore.registersStep`): of two changes
        /// of one field in it the later stamp is kept whatever their order, and the feed carries
        /// both, in the push's order.
        @Test func aPushWithTwoChangesOfOneFieldKeepsTheLaterAndFeedsBoth() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try Self.twoDevices(f)
            _ = try f.pullAll(&school)
            let first = home.change(.routine, "r1", child: child, "title", .string("Wash"), now: f.now)
            let second = home.change(.routine, "r1", child: child, "title", .string("Brush"), now: f.now)
            // A hostile order: the later stamp first. Sequence numbers say the order, stamps who wins.
            guard case .change(let a) = first.entry, case .change(let b) = second.entry else { Issue.record("not changes"); return }
            let swapped = [NumberedEntry(seq: first.seq, entry: .change(b)), NumberedEntry(seq: second.seq, entry: .change(a))]
            let routine = home.change(.routine, "r1", child: child, "set", .string("set-1"), now: f.now)
            let press = home.press(child: child, routine: "r1", now: f.now)
            #expect(try f.push(home, swapped + [routine, press]).acknowledged == home.seq)
            let c = try PostgresConnection(conninfo: f.database.conninfo)
            let title = try c.queryFirst("SELECT value #>> '{}' FROM registers WHERE entity = 'routine' AND record = 'r1' AND field = 'title'",
                                         [], { try $0.text(0) })
            #expect(title == "Brush")
            #expect(try f.pullAll(&school) == swapped.map(\.entry) + [routine.entry, press.entry])
        }

        /// Devices that share a child push changes of the same records, in every order, through
        /// two hub processes at once: no push fails (their rows are locked in one order, never
        /// crosswise), every field holds its latest stamp, and the feed holds every entry once
        /// at positions without a gap.
        @Test func pushesOfTheSameRecordsSideBySideNeitherDeadlockNorLoseALaterValue() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            let (home, _, child) = try Self.twoDevices(first)
            var devices = [home] + (0..<5).map { _ in TestDevice() }
            for i in 1..<devices.count { try (i % 2 == 0 ? first : second).join(&devices[i], children: [child]) }
            let pushes = 15, perPush = 12
            let failures = Mutex<[String]>([])
            let written = Mutex<[FieldChange]>([])
            let group = DispatchGroup()
            for (i, device) in devices.enumerated() {
                DispatchQueue.global().async(group: group) {
                    var d = device
                    var rng = SystemRandomNumberGenerator()
                    let hub = i % 2 == 0 ? first : second
                    for _ in 0..<pushes {
                        let batch = (0..<perPush).map { _ in
                            d.change(.routine, "r\(Int.random(in: 0..<4, using: &rng))", child: child,
                                     ["title", "icon", "color", "time"].randomElement(using: &rng) ?? "title",
                                     .string("v\(Int.random(in: 0..<1000, using: &rng))"), now: hub.now)
                        }
                        do {
                            _ = try hub.push(d, batch)
                            let changes = batch.compactMap { if case .change(let change) = $0.entry { change } else { nil } }
                            written.withLock { $0 += changes }
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                            break
                        }
                    }
                }
            }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty)
            var latest: [String: FieldChange] = [:]
            for change in written.withLock({ $0 }) {
                let key = change.record + "/" + change.field
                if let kept = latest[key], kept.stamp.description >= change.stamp.description { continue }
                latest[key] = change
            }
            let c = try PostgresConnection(conninfo: first.database.conninfo)
            let held = try c.query("SELECT record || '/' || field, value #>> '{}', stamp FROM registers WHERE entity = 'routine'") {
                (try $0.text(0), try $0.text(1), try $0.text(2))
            }
            #expect(held.count == latest.count)
            for (key, value, stamp) in held {
                #expect(latest[key]?.value.string == value && latest[key]?.stamp.description == stamp, "\(key)")
            }
            let positions = try c.query("SELECT position FROM feed ORDER BY position") { try $0.int(0) }
            #expect(positions == Array(1...Int64(1 + devices.count * pushes * perPush)))
        }

        /// A pull held by one hub process is woken by PostgreSQL's NOTIFY when another process
        /// commits a push (`CentreStore.nudge`, `PostgresSyncHub.startListening`), and its listener
        /// comes back after the server ends its session.
        @Test func aPushThroughOneHubWakesAPullHeldByAnotherThroughNotify() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            second.hub.startListening()
            defer { second.hub.shutdown() }
            #expect(Self.waitUntil { second.hub.isListening })
            var (home, school, child) = try Self.twoDevices(first)
            _ = try second.pullAll(&school)
            _ = try first.pullAll(&home)

            for round in 0..<2 {
                let before = second.hub.nudgesReceived
                let started = Date()
                let held = HeldPull(second, school)
                let press = home.press(child: child, routine: "routine-\(round)", now: first.now)
                #expect(try first.push(home, [press]).acknowledged == UInt64(2 + round))
                let reply = try held.answered()
                #expect(reply.entries == [press.entry])
                school.cursor = reply.cursor
                // Counted once its wake-ups are on the board, which may be just after the pull answered.
                #expect(Self.waitUntil { second.hub.nudgesReceived > before }, "no notification reached the other hub")
                print("centre: a pull held by another hub process answered \(String(format: "%.0f", Date().timeIntervalSince(started) * 1000)) ms after it began (round \(round))")
                if round == 0 {
                    // The server ends the listener's session: it connects again and listens.
                    let admin = try PostgresConnection(conninfo: first.database.conninfo)
                    try admin.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
                    #expect(Self.waitUntil { !second.hub.isListening })
                    #expect(Self.waitUntil { second.hub.isListening })
                }
            }
        }

        /// A push of a child the holding device does not get wakes its held pull for nothing no
        /// more (the nudge names the children it touched): the pull reads the feed again only for
        /// its own child's press, which it is then given.
        @Test func aHeldPullIsWokenOnlyByChangesOfItsChildren() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            var (home, school, child, other) = try Self.twoDevicesAndAnotherChild(first)
            _ = try second.pullAll(&school)
            _ = try first.pullAll(&home)
            // Listening only now: the set-up's notifications (a join's wakes everyone) are never
            // delivered to it, so none can come late and wake the pull held below. Its first
            // wake-up (everyone, as it connects) comes before that pull.
            second.hub.startListening()
            defer { second.hub.shutdown() }
            #expect(Self.waitUntil { second.hub.isListening && second.hub.wakeupCount >= 1 })

            // A pull's looks at the feed: its reads, and a hold without one (`aPullComingStraightBack…`).
            let looks = { second.hub.pullReads + second.hub.pullsHeldQuietly }
            let looksBefore = looks()
            let held = HeldPull(second, school)
            #expect(Self.waitUntil { looks() == looksBefore + 1 })   // held, after its first look
            let nudgesBefore = second.hub.nudgesReceived
            for n in 0..<5 {
                #expect(try first.push(home, [home.press(child: other, routine: "other-\(n)", now: first.now)]).acknowledged == UInt64(3 + n))
            }
            #expect(Self.waitUntil { second.hub.nudgesReceived >= nudgesBefore + 5 })
            #expect(looks() == looksBefore + 1, "woken for another child's presses")
            #expect(held.reply.withLock { $0 } == nil)

            let press = home.press(child: child, routine: "routine-0", now: first.now)
            #expect(try first.push(home, [press]).acknowledged == 8)
            let reply = try held.answered()
            #expect(reply.entries == [press.entry])
            #expect(looks() == looksBefore + 2)
        }

        /// A device that comes back right after an answer, its children unchanged since, is held
        /// without a read of the feed (its credential still checked) and woken by the next change
        /// as any held pull; a change made between the answer and its return is read at once; an
        /// answer is used once; a push taken by the same process wakes its pulls directly, and that
        /// push's notification, coming back to it, wakes nobody.
        @Test func aPullComingStraightBackAfterAnAnswerIsHeldWithoutReadingTheFeed() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            // The devices joined before the listener listens: the joins' notifications are never
            // delivered to it, so each one it receives from here on is a push of this test's. Its
            // first wake-up (everyone, as it connects) comes before anything is answered.
            var (home, school, child) = try Self.twoDevices(first)
            second.hub.startListening()
            defer { second.hub.shutdown() }
            #expect(Self.waitUntil { second.hub.isListening && second.hub.wakeupCount >= 1 })
            _ = try second.pullAll(&school)
            let press = home.press(child: child, routine: "routine-0", now: first.now)
            var nudges = second.hub.nudgesReceived
            #expect(try first.push(home, [press]).acknowledged == 2)
            #expect(Self.waitUntil { second.hub.nudgesReceived > nudges })
            #expect(try second.pullAll(&school) == [press.entry])

            // Straight back: held, no read.
            let (reads, quiet) = (second.hub.pullReads, second.hub.pullsHeldQuietly)
            let held = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullsHeldQuietly == quiet + 1 })
            #expect(second.hub.pullReads == reads)
            #expect(held.reply.withLock { $0 } == nil)
            let next = home.press(child: child, routine: "routine-1", now: first.now)
            nudges = second.hub.nudgesReceived
            #expect(try first.push(home, [next]).acknowledged == 3)
            let reply = try held.answered()
            #expect(reply.entries == [next.entry])
            #expect(second.hub.pullReads == reads + 1)
            school.cursor = reply.cursor
            // Its notification counted (just after the wake-up that answered the pull), so the
            // count taken below waits for the next push's own.
            #expect(Self.waitUntil { second.hub.nudgesReceived > nudges })

            // A change between the answer and the return: read at once, not held.
            let between = home.press(child: child, routine: "routine-2", now: first.now)
            nudges = second.hub.nudgesReceived
            #expect(try first.push(home, [between]).acknowledged == 4)
            #expect(Self.waitUntil { second.hub.nudgesReceived > nudges })
            let quietBefore = second.hub.pullsHeldQuietly
            let again = HeldPull(second, school)
            #expect(try again.answered().entries == [between.entry])
            #expect(second.hub.pullsHeldQuietly == quietBefore)

            // The credential is still checked: a wrong one is refused, held or not.
            school.cursor = try again.answered().cursor
            #expect(throws: SyncRefusal.unknownDevice) {
                try second.hub.pull(PullRequest(device: school.id, sentAt: second.now, cursor: school.cursor, waitMilliseconds: 20_000),
                                    credential: "not-" + school.credential)
            }
            // An answer is used once: this pull reads (the wrong one took it) and a push through
            // the same hub process (no notification of its own needed) still wakes the next.
            let (readsAfter, quietAfter) = (second.hub.pullReads, second.hub.pullsHeldQuietly)
            let last = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullReads == readsAfter + 1 })
            #expect(second.hub.pullsHeldQuietly == quietAfter)
            let own = home.press(child: child, routine: "routine-3", now: second.now)
            nudges = second.hub.nudgesReceived
            #expect(try second.push(home, [own]).acknowledged == 5)
            let ownReply = try last.answered()
            #expect(ownReply.entries == [own.entry])
            school.cursor = ownReply.cursor
            // That push's notification comes back to the process that took it, which passes over
            // it (it woke its pulls already): the next pull is still held without a read.
            #expect(Self.waitUntil { second.hub.nudgesReceived > nudges })
            let (readsNow, quietNow) = (second.hub.pullReads, second.hub.pullsHeldQuietly)
            let after = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullsHeldQuietly == quietNow + 1 })
            #expect(second.hub.pullReads == readsNow)
            second.hub.shutdown()
            #expect(try after.answered().entries.isEmpty)
        }

        /// A held pull woken by a push is answered from its hub process's tail (`FeedTail`, read
        /// once for every pull the process holds): no read of the database's feed, and what it is
        /// given is what that read gives (its children's entries, not its own); a removed device's
        /// held pull is refused as soon as the removal's notification arrives; a cursor the tail
        /// does not cover reads the database.
        @Test func aWokenPullIsAnsweredFromItsProcesssTailOfTheFeed() throws {
            let first = try CentreFixture()
            defer { first.database.drop() }
            let second = try CentreFixture(database: first.database)
            var (home, school, child, other) = try Self.twoDevicesAndAnotherChild(first)
            _ = try second.pullAll(&school)
            second.hub.startListening()
            defer { second.hub.shutdown() }
            #expect(Self.waitUntil { second.hub.isListening && second.hub.isFollowing })
            let databaseReads = { second.hub.pullReads - second.hub.pullsAnsweredFromTail }

            // Held after its first look (from the tail: the cursor is the feed's head), then woken.
            var (reads, fromTail) = (databaseReads(), second.hub.pullsAnsweredFromTail)
            let held = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullsAnsweredFromTail > fromTail })
            let press = home.press(child: child, routine: "routine-0", now: first.now)
            let elsewhere = home.press(child: other, routine: "routine-1", now: first.now)
            let own = school.press(child: child, routine: "routine-2", now: first.now)
            #expect(try first.push(school, [own]).acknowledged == 1)
            #expect(try first.push(home, [press, elsewhere]).acknowledged == 4)
            let reply = try held.answered()
            #expect(reply.entries == [press.entry], "its child's press, not its own nor another child's")
            #expect(!reply.more && reply.children == [child])
            #expect(databaseReads() == reads, "answered without reading the feed")
            #expect(second.hub.pullsAnsweredFromTail > fromTail)
            school.cursor = reply.cursor
            // The same answer as the database's read gives from the cursor it came with.
            var fromDatabase = school
            fromDatabase.cursor = 0
            #expect(try first.pullAll(&fromDatabase).contains(press.entry))

            // A push through the same process: its own thread brings the tail up to the feed.
            (reads, fromTail) = (databaseReads(), second.hub.pullsAnsweredFromTail)
            let quiet = second.hub.pullsHeldQuietly
            let next = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullsAnsweredFromTail + second.hub.pullsHeldQuietly > fromTail + quiet })
            let again = home.press(child: child, routine: "routine-3", now: second.now)
            #expect(try second.push(home, [again]).acknowledged == 5)
            let nextReply = try next.answered()
            #expect(nextReply.entries == [again.entry])
            #expect(databaseReads() == reads)
            school.cursor = nextReply.cursor

            // Removed while held: refused at once, not given the next press from the tail.
            let looks = second.hub.pullsAnsweredFromTail + second.hub.pullsHeldQuietly + databaseReads()
            let removed = HeldPull(second, school)
            #expect(Self.waitUntil { second.hub.pullsAnsweredFromTail + second.hub.pullsHeldQuietly + databaseReads() > looks })
            let started = Date()
            #expect(try first.store.remove(device: school.id))
            _ = try first.push(home, [home.press(child: child, routine: "routine-4", now: first.now)])
            #expect(throws: SyncRefusal.unknownDevice) { try removed.answered() }
            #expect(Date().timeIntervalSince(started) < 5, "held until its wait ran out")

            // A cursor older than what the tail began at reads the database.
            reads = databaseReads()
            home.cursor = 0
            #expect(try second.pullAll(&home).count >= 1)
            #expect(databaseReads() > reads)
        }

        @Test func theWakeBoardTellsAPullWhatConcernsIt() {
            var board = WakeBoard()
            let seen = board.count
            board.moved(["b"])
            #expect(!board.moved(since: seen, for: ["a"]))
            #expect(board.moved(since: seen, for: ["a", "b"]))
            let later = board.count
            board.moved(nil)
            #expect(board.moved(since: later, for: ["a"]) && board.moved(since: later, for: []))
            #expect(!board.moved(since: board.count, for: ["a", "b"]))

            // A push wakes only the held pulls of devices getting a child it named.
            let ab = PullWaiter(children: ["a", "b"]), c = PullWaiter(children: ["c"]), none = PullWaiter(children: [])
            for w in [ab, c, none] { board.add(w) }
            #expect(board.waiters == 3)
            #expect(board.moved(["b"]).map(ObjectIdentifier.init) == [ObjectIdentifier(ab)])
            #expect(Set(board.moved(["a", "c", "x"]).map(ObjectIdentifier.init)) == [ObjectIdentifier(ab), ObjectIdentifier(c)])
            #expect(board.moved(["x"]).isEmpty)
            #expect(Set(board.moved(nil).map(ObjectIdentifier.init)) == Set([ab, c, none].map(ObjectIdentifier.init)))
            board.remove(ab)
            #expect(board.moved(["a", "b"]).isEmpty)
            #expect(board.moved(["c"]).map(ObjectIdentifier.init) == [ObjectIdentifier(c)])
            // Nor the pushing device's own held pull (it would find only its own entries).
            let home = PullWaiter(children: ["c"], device: "home")
            board.add(home)
            #expect(board.moved(["c"], from: "home").map(ObjectIdentifier.init) == [ObjectIdentifier(c)])
            #expect(Set(board.moved(["c"], from: "school").map(ObjectIdentifier.init)) == [ObjectIdentifier(c), ObjectIdentifier(home)])
            #expect(board.moved(nil, from: "home").count == 3)
            board.remove(home)
            board.remove(c)
            board.remove(none)
            #expect(board.waiters == 0 && board.moved(nil).isEmpty)

            // A nudge's payload names the sending store and the pushing device before its
            // children; one of an earlier version names only the device, or children only.
            #expect(CentreStore.nudged("5a1e/dev;a,b") == ("5a1e", "dev", ["a", "b"]))
            #expect(CentreStore.nudged("dev;a,b") == (nil, "dev", ["a", "b"]))
            #expect(CentreStore.nudged("a,b") == (nil, nil, ["a", "b"]))
        }

        /// The staff pages read a day's or a month's events only (`replica(children:dates:)`), and
        /// the registers whole.
        @Test func aReplicaForSomeDaysHoldsOnlyTheirEvents() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let (home, _, child) = try Self.twoDevices(f)
            var device = home
            let days = ["2026-11-30", "2026-12-01", "2026-12-03", "2026-12-31", "2027-01-01"]
            let presses = days.enumerated().map { device.press(child: child, routine: "routine-\($0.offset)", now: f.now, date: $0.element) }
            #expect(try f.push(device, presses).acknowledged == UInt64(1 + days.count))
            let whole = try f.store.replica(children: [child])
            #expect(Set(whole.events.values.map(\.date)) == Set(days))
            let december = try f.store.replica(children: [child], dates: "2026-12-01"..."2026-12-31")
            #expect(Set(december.events.values.map(\.date)) == ["2026-12-01", "2026-12-03", "2026-12-31"])
            #expect(december.registers == whole.registers)
            let one = try f.store.replica(children: [child], dates: "2026-12-03"..."2026-12-03")
            #expect(one.events.values.map(\.date) == ["2026-12-03"])
        }
    }
}
