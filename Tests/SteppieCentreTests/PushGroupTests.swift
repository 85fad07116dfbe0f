import Dispatch
import Foundation
import SteppieCentre
import SteppieCore
import SteppiePostgres
import SteppieSync
import Synchronization
import Testing

extension CentreTests {
    /// Pushes of several devices taken in one transaction (`CentreStore.pushGroup`, and the hub's
    /// `Grouping` of the pushes that arrive while others are written), each decided as alone.
    @Suite struct PushGroupTests {
        /// A device joined with no child, which then brings its own (a names push, alone).
        static func deviceWithItsChild(_ f: CentreFixture, _ name: String) throws -> (TestDevice, child: String) {
            var device = TestDevice()
            let child = UUID().uuidString.lowercased()
            try f.join(&device, children: [], name: name)
            #expect(try f.push(device, [device.change(.child, child, child: child, "name", .string(name), now: f.now)]).acknowledged == 1)
            return (device, child)
        }

        /// The feed's rows from `position` on: (position, origin).
        static func feed(_ f: CentreFixture, from position: UInt64) throws -> [(UInt64, String)] {
            try f.pool.withConnection { c in
                try c.query("SELECT position, origin FROM feed WHERE position >= $1 ORDER BY position", [.integer(Int64(position))]) {
                    (UInt64(try $0.int(0)), try $0.text(1))
                }
            }
        }

        static func position(_ f: CentreFixture) throws -> UInt64 {
            try f.pool.withConnection { c in UInt64(try c.queryFirst("SELECT COALESCE(MAX(position), 0) FROM feed") { try $0.int(0) } ?? 0) }
        }

        /// In the group's order, as if one after another: the first to claim a record owns it
        /// for the next; a wrong credential, a gap, a record of another child refused alone; a
        /// replay taken as nothing new; the others' entries in the feed in the group's order, at
        /// the positions each push is told.
        @Test func aGroupDecidesEachPushAsIfAloneOneAfterAnother() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let made = try ["Ana", "Bo", "Cy", "Di", "Ed", "Gu"].map { try Self.deviceWithItsChild(f, $0) }
            var a = made[0].0, b = made[1].0, c = made[2].0, d = made[3].0, e = made[4].0, g = made[5].0
            let childA = made[0].child, childB = made[1].child, childC = made[2].child, childD = made[3].child
            let childE = made[4].child, childG = made[5].child
            let replayed = e.press(child: childE, routine: "e-1", now: f.now)
            #expect(try f.push(e, [replayed]).acknowledged == 2)
            let start = try Self.position(f) + 1

            let aTitle = a.change(.routine, "shared", child: childA, "title", .string("Wash"), now: f.now)
            // B claims a record first, then one A took: refused whole, so its claim is not
            // seen by G, which claims the same record after it.
            let bClaim = b.change(.routine, "claimed", child: childB, "title", .string("Brush"), now: f.now)
            let bTitle = b.change(.routine, "shared", child: childB, "title", .string("Brush"), now: f.now)
            let cPress = c.press(child: childC, routine: "c-1", now: f.now)
            d.seq += 1
            let dPress = d.press(child: childD, routine: "d-1", now: f.now)   // seq 3: 2 is missing
            let gPress = g.press(child: childG, routine: "g-1", now: f.now)
            let gTitle = g.change(.routine, "claimed", child: childG, "title", .string("Dress"), now: f.now)
            let push = { (device: TestDevice, entries: [NumberedEntry], credential: String) in
                CentreStore.GroupedPush(request: PushRequest(device: device.id, sentAt: f.now, entries: entries),
                                        credentialHash: PostgresSyncHub.credentialHash(credential))
            }
            let listener = try PostgresConnection(conninfo: f.database.conninfo)
            try listener.listen(CentreStore.feedChannel)
            let outcomes = try f.store.pushGroup([
                push(a, [aTitle], a.credential), push(b, [bClaim, bTitle], b.credential), push(c, [cPress], "not-its-credential"),
                push(d, [dPress], d.credential), push(e, [replayed], e.credential), push(g, [gPress, gTitle], g.credential),
            ], now: f.now)
            #expect(outcomes.count == 6)
            // One nudge for each push taken, naming its device and children, after this store's
            // mark; none for a push refused or with nothing new.
            var nudges: [String] = []
            let deadline = Date().addingTimeInterval(5)
            while nudges.count < 2, Date() < deadline { nudges += try listener.notifications(waitingUpTo: 200).map(\.payload) }
            nudges += try listener.notifications(waitingUpTo: 100).map(\.payload)
            #expect(nudges.sorted() == ["\(f.store.sender)/\(a.id.text);\(childA)", "\(f.store.sender)/\(g.id.text);\(childG)"].sorted())
            let taken = outcomes.map { try? $0.get() }
            #expect(taken[0]?.reply.acknowledged == 2 && taken[0]?.fed?.first == start && taken[0]?.fed?.entries == [aTitle.entry])
            #expect(throws: SyncRefusal.malformed(reason: "record of another child")) { try outcomes[1].get() }
            #expect(throws: SyncRefusal.unknownDevice) { try outcomes[2].get() }
            #expect(throws: SyncRefusal.gap(expected: 2)) { try outcomes[3].get() }
            #expect(taken[4]?.reply.acknowledged == 2 && taken[4].map { $0.fed == nil } == true, "a replay: nothing new")
            #expect(taken[5]?.reply.acknowledged == 3 && taken[5]?.fed?.first == start + 1 && taken[5]?.fed?.entries == [gPress.entry, gTitle.entry])
            let rows = try Self.feed(f, from: start)
            #expect(rows.map(\.0) == [start, start + 1, start + 2])
            #expect(rows.map(\.1) == [a.id.text, g.id.text, g.id.text])
            // What was refused left nothing: the shared routine is A's, and pushes after the
            // refusals are taken where they left off.
            let owner = try f.pool.withConnection { c in
                try c.queryFirst("SELECT child FROM registers WHERE entity = 'routine' AND record = 'shared'") { try $0.text(0) }
            }
            #expect(owner == childA)
            let claimed = try f.pool.withConnection { c in
                try c.queryFirst("SELECT child FROM registers WHERE entity = 'routine' AND record = 'claimed'") { try $0.text(0) }
            }
            #expect(claimed == childG)
            b.seq -= 2
            #expect(try f.push(b, [b.change(.routine, "b-own", child: childB, "title", .string("Brush"), now: f.now)]).acknowledged == 2)
            d.seq = 1
            #expect(try f.push(d, [d.press(child: childD, routine: "d-1", now: f.now)]).acknowledged == 2)
        }

        /// One event sent by two devices of its child in the same group (read from the group's
        /// feed rows by the events' insert): stored once, as the first push in the group sent it;
        /// both pushes taken, and both entries in the feed.
        @Test func anEventSentTwiceInAGroupIsStoredOnceAsTheFirstPushSentIt() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let (home, child) = try Self.deviceWithItsChild(f, "Mina")
            var school = TestDevice()
            try f.join(&school, children: [child], name: "school")
            var first = home, second = school
            let press = first.press(child: child, routine: "wash", now: f.now)
            guard case .event(let event) = press.entry else { Issue.record("a press is an event"); return }
            // The same event as the second device sends it, with a title of its own.
            second.seq += 1
            let copy = CompletionEvent(id: event.id, child: child, routine: "wash", set: event.set, date: event.date, kind: .press,
                                       at: event.at, stamp: second.stamp(f.now), shownTitle: .string("second"))
            let start = try Self.position(f) + 1
            let outcomes = try f.store.pushGroup([
                CentreStore.GroupedPush(request: PushRequest(device: first.id, sentAt: f.now, entries: [press]),
                                        credentialHash: PostgresSyncHub.credentialHash(first.credential)),
                CentreStore.GroupedPush(request: PushRequest(device: second.id, sentAt: f.now, entries: [NumberedEntry(seq: second.seq, entry: .event(copy))]),
                                        credentialHash: PostgresSyncHub.credentialHash(second.credential)),
            ], now: f.now)
            #expect(outcomes.map { (try? $0.get())?.reply.acknowledged } == [2, 1])
            let stored = try f.pool.withConnection { c in
                try c.query("SELECT stamp, shown_title::text FROM events WHERE id = $1", [.text(event.id)]) { (try $0.text(0), try $0.optionalText(1)) }
            }
            #expect(stored.count == 1)
            #expect(stored.first?.0 == event.stamp.description && stored.first?.1 == nil, "the first push's event: \(stored)")
            #expect(try Self.feed(f, from: start).map(\.1) == [first.id.text, second.id.text])
        }

        /// A pull whose device's row a push holds (here another connection) is admitted without
        /// waiting for that push: its contact and cursor are left for its next pull.
        @Test func aPullIsNotHeldUpByAPushHoldingItsDevicesRow() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (_, school, child) = try PostgresSyncHubTests.twoDevices(f)
            _ = try f.pullAll(&school)
            let stored = {
                try f.pool.withConnection { c in
                    try c.queryFirst("SELECT cursor FROM devices WHERE id = $1", [.text(school.id.text)]) { try $0.int(0) }
                }
            }
            #expect(try stored() == Int64(school.cursor) && school.cursor > 0)
            let pushing = try PostgresConnection(conninfo: f.database.conninfo)
            try pushing.run("BEGIN")
            try pushing.run("SELECT 1 FROM devices WHERE id = $1 FOR UPDATE", [.text(school.id.text)])
            // An older cursor (its last answer lost), once the contact's resolution has passed:
            // written, unless the row is held.
            f.clock.advance(by: Double(CentreStore.contactResolutionMilliseconds) / 1000)
            let older = PullRequest(device: school.id, sentAt: f.now, cursor: 0)
            let hash = PostgresSyncHub.credentialHash(school.credential)
            let admitted = Mutex<Result<CentreStore.Admitted, SyncRefusal>?>(nil)
            let threads = GroupingTests.Threads()
            threads.run {
                let answer = Result { try f.store.admitPull(older, credentialHash: hash, now: f.now) }
                admitted.withLock { $0 = (try? answer.get()) ?? .failure(.unavailable) }
            }
            let answered = GroupingTests.until { admitted.withLock { $0 } != nil }
            #expect(answered, "the pull waited for the push holding its device's row")
            #expect(try admitted.withLock { $0 }?.get().children == [child])
            #expect(try stored() == Int64(school.cursor), "the cursor left while the row is held")
            try pushing.run("ROLLBACK")
            #expect(threads.join())
            _ = try f.store.admitPull(older, credentialHash: hash, now: f.now).get()
            #expect(try stored() == 0, "the next pull writes it")
        }

        /// A held pull woken with no other push of its children under way is answered at once (a
        /// push of another child held at its device's row changes nothing); one woken while
        /// another device's push of its child is under way (held at that device's row) lingers,
        /// once, and is answered when the linger ends with what woke it.
        @Test func aPullWokenWhileAnotherPushOfItsChildrenIsUnderWayLingersForIt() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var (home, school, child) = try PostgresSyncHubTests.twoDevices(f)
            _ = try f.pullAll(&school)
            var office = TestDevice()
            try f.join(&office, children: [child], name: "office")
            let (ana, anaChild) = try Self.deviceWithItsChild(f, "Ana")
            final class Held: Sendable {
                let threads = GroupingTests.Threads()
                let reply = Mutex<PullReply?>(nil)
                var answer: PullReply? { reply.withLock { $0 } }
            }
            func hold() -> Held {
                let held = Held()
                let request = PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor, waitMilliseconds: 20_000)
                let credential = school.credential
                held.threads.run { let got = try? f.hub.pull(request, credential: credential); held.reply.withLock { $0 = got } }
                return held
            }
            /// A push of `device` held at its row (another connection holds it) until the returned
            /// connection commits.
            func blocked(_ device: TestDevice, _ entries: [NumberedEntry]) throws -> (PostgresConnection, GroupingTests.Threads) {
                let blocker = try PostgresConnection(conninfo: f.database.conninfo)
                try blocker.run("BEGIN")
                try blocker.run("SELECT 1 FROM devices WHERE id = $1 FOR UPDATE", [.text(device.id.text)])
                let groups = f.hub.pushGroupCounts.groups
                let pushing = GroupingTests.Threads()
                pushing.run { _ = try? f.push(device, entries) }
                #expect(GroupingTests.until { f.hub.pushGroupCounts.groups == groups + 1 }, "the held push is under way")
                return (blocker, pushing)
            }
            func pressAndPull(_ routine: String) throws {
                let held = hold()
                #expect(GroupingTests.until { f.hub.pullsWaiting == 1 })
                let press = home.press(child: child, routine: routine, now: f.now)
                #expect(try f.push(home, [press]).acknowledged == home.seq)
                #expect(held.threads.join())
                #expect(held.answer?.entries == [press.entry])
                school.cursor = try #require(held.answer).cursor
            }
            // Alone: answered at once.
            try pressAndPull("wash")
            #expect(f.hub.pullsLingered == 0)
            // Another child's push under way: answered at once.
            var other = ana
            let (anaBlocker, anaPushing) = try blocked(other, [other.press(child: anaChild, routine: "r-ana", now: f.now)])
            try pressAndPull("teeth")
            #expect(f.hub.pullsLingered == 0)
            try anaBlocker.run("COMMIT")
            #expect(anaPushing.join())
            // Another device's push of its child under way: it lingers for it.
            let (officeBlocker, officePushing) = try blocked(office, [office.press(child: child, routine: "dress", now: f.now)])
            try pressAndPull("shoes")
            #expect(f.hub.pullsLingered == 1)
            try officeBlocker.run("COMMIT")
            #expect(officePushing.join())
        }

        /// Pushes that come while two groups are held at the feed's lock (another process's push
        /// in progress) wait, then go together in one group; one with text the database refuses
        /// fails that group, whose pushes then go alone: only that one is refused (malformed), a
        /// push of a child not given is refused alone, and every other is taken once.
        @Test func pushesWaitingForAGroupGoTogetherAndAFailedGroupGoesAlone() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            var devices: [(TestDevice, String)] = []
            for name in ["A", "B", "C", "D", "E"] { devices.append(try Self.deviceWithItsChild(f, name)) }
            let start = try Self.position(f) + 1
            let slow = try PostgresConnection(conninfo: f.database.conninfo)
            try slow.run("BEGIN")
            try slow.run("SELECT 1 FROM hub_state WHERE id = 'singleton' FOR UPDATE")

            let answers = Mutex<[Int: Result<PushReply, SyncRefusal>]>([:])
            let threads = GroupingTests.Threads()
            func push(_ n: Int, _ entries: [NumberedEntry]) {
                let device = devices[n].0
                threads.run {
                    let answer = Result { () throws(SyncRefusal) -> PushReply in try f.push(device, entries) }
                    answers.withLock { $0[n] = answer }
                }
            }
            var entries: [[NumberedEntry]] = []
            for n in 0..<5 {
                let child = n == 4 ? devices[0].1 : devices[n].1   // E presses A's child, not given to it
                var entry = devices[n].0.press(child: child, routine: "r-\(n)", now: f.now)
                if n == 3, case .event(let event) = entry.entry {   // D's shown title holds a NUL
                    entry = NumberedEntry(seq: entry.seq, entry: .event(CompletionEvent(
                        id: event.id, child: event.child, routine: event.routine, set: event.set, date: event.date, kind: event.kind,
                        at: event.at, stamp: event.stamp, shownTitle: .string("a\u{0}b"), shownIcon: nil)))
                }
                entries.append([entry])
            }
            push(0, entries[0])
            #expect(GroupingTests.until { f.hub.pushGroupCounts.groups == 1 })
            push(1, entries[1])
            #expect(GroupingTests.until { f.hub.pushGroupCounts.groups == 2 }, "a second group beside the first")
            for n in 2..<5 {
                push(n, entries[n])
                #expect(GroupingTests.until { f.hub.pushesWaitingForAGroup == n - 1 })
            }
            try slow.run("COMMIT")
            #expect(threads.join())

            let got = answers.withLock { $0 }
            for n in [0, 1, 2] { #expect(try got[n]?.get().acknowledged == 2, "device \(n)") }
            #expect(throws: SyncRefusal.malformed(reason: "text holds a NUL character")) { try got[3]?.get() }
            #expect(throws: SyncRefusal.childNotGiven(child: devices[0].1)) { try got[4]?.get() }
            #expect(f.hub.pushGroupCounts == (3, 5, 3), "two groups of one, then the three that waited together")
            #expect(f.hub.pushGroupsFailed == 1)
            // Each taken press once in the feed, nothing of the refused.
            let rows = try Self.feed(f, from: start)
            #expect(rows.count == 3)
            #expect(Set(rows.map(\.1)) == Set([0, 1, 2].map { devices[$0].0.id.text }))
        }
    }
}
