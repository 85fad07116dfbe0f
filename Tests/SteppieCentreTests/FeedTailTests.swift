import SteppieCentre
import SteppieCore
import SteppieSync
import Testing

/// A hub process's tail of the feed (`FeedTail`): what its held pulls are answered from, needing
/// no database (a pure value).
@Suite struct FeedTailTests {
    static let home = "home-device", school = "school-device"

    /// A press of `child` at `position`, pushed by `origin`.
    static func item(_ position: UInt64, _ child: String, from origin: String, at readAt: Int64 = 0) -> FeedTail.Item {
        let event = CompletionEvent(id: "event-\(position)", child: child, routine: "routine", set: "set", date: "2026-12-07", kind: .press,
                                    at: "2026-12-07T08:00:00+09:00", stamp: HybridTimestamp(wall: 1_000 + Int64(position), counter: 0,
                                                                                            device: DeviceID("00000000-0000-4000-8000-000000000001")!))
        return FeedTail.Item(position: position, origin: origin, entry: .event(event), readAt: readAt)
    }

    static func ids(_ entries: [SyncEntry]) -> [String] {
        entries.map { if case .event(let e) = $0 { e.id } else { "change" } }
    }

    @Test func aPullGetsItsChildrenAfterItsCursorButNotItsOwnInPositionOrder() throws {
        var tail = FeedTail()
        #expect(tail.answer(after: 0, children: ["mina"], device: Self.school, limit: 10) == nil, "not following yet")
        tail.start(at: 10)
        let taken = tail.take([Self.item(11, "mina", from: Self.home), Self.item(12, "joon", from: Self.home),
                               Self.item(13, "mina", from: Self.school), Self.item(14, "ara", from: Self.home),
                               Self.item(16, "mina", from: Self.home)], from: tail.head, through: 17, now: 0)
        #expect(taken == .moved([Self.home: ["mina", "joon", "ara"], Self.school: ["mina"]]))
        #expect(tail.head == 17 && tail.count == 5)

        let all = try #require(tail.answer(after: 10, children: ["mina", "ara"], device: Self.school, limit: 10))
        #expect(Self.ids(all.entries) == ["event-11", "event-14", "event-16"])
        #expect(all.cursor == 17 && all.head == 17)
        // Home's own press of Mina is not given back to it.
        #expect(Self.ids(try #require(tail.answer(after: 10, children: ["mina"], device: Self.home, limit: 10)).entries) == ["event-13"])
        // After a cursor, and in pages: a full page ends at its last entry.
        #expect(Self.ids(try #require(tail.answer(after: 11, children: ["mina", "ara"], device: Self.school, limit: 10)).entries)
                == ["event-14", "event-16"])
        let page = try #require(tail.answer(after: 10, children: ["mina", "ara"], device: Self.school, limit: 2))
        #expect(Self.ids(page.entries) == ["event-11", "event-14"] && page.cursor == 14 && page.head == 17)
        let rest = try #require(tail.answer(after: page.cursor, children: ["mina", "ara"], device: Self.school, limit: 2))
        #expect(Self.ids(rest.entries) == ["event-16"] && rest.cursor == 17)
        // Nothing new: the head as the cursor.
        let none = try #require(tail.answer(after: 17, children: ["mina"], device: Self.school, limit: 10))
        #expect(none.entries.isEmpty && none.cursor == 17)
        // A child the tail has nothing of.
        #expect(try #require(tail.answer(after: 10, children: ["nobody"], device: Self.school, limit: 10)).entries.isEmpty)
    }

    @Test func aCursorTheTailDoesNotCoverIsLeftToTheDatabase() {
        var tail = FeedTail()
        tail.start(at: 100)
        _ = tail.take([Self.item(101, "mina", from: Self.home)], from: tail.head, through: 101, now: 0)
        #expect(tail.covers(100) && tail.covers(101))
        #expect(!tail.covers(99), "older than what the tail began at")
        #expect(!tail.covers(102), "past its head: another process's answer, or a database put back")
        #expect(tail.answer(after: 99, children: ["mina"], device: Self.school, limit: 10) == nil)
        #expect(tail.answer(after: 102, children: ["mina"], device: Self.school, limit: 10) == nil)
        tail.stop()
        #expect(!tail.covers(101) && tail.base == nil)
    }

    @Test func aReadTakenTwiceOrFromBehindTheHeadAddsNothing() {
        var tail = FeedTail()
        tail.start(at: 0)
        _ = tail.take([Self.item(1, "mina", from: Self.home), Self.item(2, "mina", from: Self.home)], from: tail.head, through: 2, now: 0)
        let again = tail.take([Self.item(2, "mina", from: Self.home), Self.item(3, "mina", from: Self.home)], from: tail.head, through: 3, now: 0)
        #expect(again == .moved([Self.home: ["mina"]]))
        #expect(tail.count == 3 && tail.head == 3)
        // A read that found nothing still moves the head (positions a failed push took are never filled).
        #expect(tail.take([], from: tail.head, through: 5, now: 0) == .moved([:]))
        #expect(tail.head == 5 && tail.covers(5))
    }

    @Test func aPushOfThisProcessIsAppendedWithoutAReadWhenItFollowsTheHead() throws {
        var tail = FeedTail()
        #expect(tail.appendPushed([Self.item(1, "mina", from: Self.home)], now: 0) == nil, "not following")
        tail.start(at: 10)
        #expect(tail.appendPushed([Self.item(11, "mina", from: Self.home), Self.item(12, "joon", from: Self.home)], now: 0)
                == [Self.home: ["mina", "joon"]])
        #expect(tail.head == 12)
        // A later push whose thread came first waits aside until the one before it is in.
        #expect(tail.appendPushed([Self.item(15, "mina", from: Self.school)], now: 0) == nil)
        #expect(tail.head == 12 && !tail.covers(15))
        #expect(tail.appendPushed([Self.item(13, "ara", from: Self.home), Self.item(14, "ara", from: Self.home)], now: 0)
                == [Self.home: ["ara"], Self.school: ["mina"]])
        #expect(tail.head == 15)
        #expect(Self.ids(try #require(tail.answer(after: 10, children: ["mina", "ara"], device: "other", limit: 10)).entries)
                == ["event-11", "event-13", "event-14", "event-15"])
        // Entries a read brought already are passed over (the hub reads: a database put back
        // hands positions out again).
        #expect(tail.appendPushed([Self.item(15, "mina", from: Self.school)], now: 0) == nil)
        #expect(tail.count == 5)

        // Another process's push in between: a read brings it, and what waited aside follows it.
        #expect(tail.appendPushed([Self.item(18, "mina", from: Self.home)], now: 0) == nil)
        let read = tail.take([Self.item(16, "joon", from: "elsewhere"), Self.item(17, "joon", from: "elsewhere")], from: 15, through: 17, now: 0)
        #expect(read == .moved(["elsewhere": ["joon"], Self.home: ["mina"]]))
        #expect(tail.head == 18 && tail.count == 8)
    }

    @Test func whatIsHeldAsideIsBounded() throws {
        var tail = FeedTail(maxItems: 100)
        tail.start(at: 0)
        // Pushes of 30 entries that never follow the head (position 1 never comes without a read).
        for n in 0..<10 {
            let from = UInt64(2 + n * 30)
            #expect(tail.appendPushed((from..<(from + 30)).map { Self.item($0, "mina", from: Self.home) }, now: 0) == nil)
            #expect(tail.heldAside <= 100)
        }
        #expect(tail.heldAside == 30, "dropped whole when the next would pass the bound")
        // A read brings everything, what is still aside included, and nothing is held twice.
        let read = tail.take((1...301).map { Self.item($0, "mina", from: Self.home) }, from: 0, through: 301, now: 0)
        #expect(read == .moved([Self.home: ["mina"]]))
        #expect(tail.heldAside == 0 && tail.head == 301 && tail.count == 100)
    }

    @Test func aReadThatBeganBeforeAPushWasAppendedNeitherStartsTheTailAgainNorRepeatsIt() throws {
        var tail = FeedTail()
        tail.start(at: 10)
        // A read began at 10 and saw the feed through 12; meanwhile this process appended 11 to 13.
        _ = tail.appendPushed((11...13).map { Self.item($0, "mina", from: Self.home) }, now: 0)
        let stale = tail.take([Self.item(11, "mina", from: Self.home), Self.item(12, "mina", from: Self.home)], from: 10, through: 12, now: 0)
        #expect(stale == .moved([:]))
        #expect(tail.head == 13 && tail.count == 3 && tail.base == 10)
        // One that saw further adds only what is after the head.
        let further = tail.take([Self.item(12, "mina", from: Self.home), Self.item(13, "mina", from: Self.home),
                                 Self.item(14, "joon", from: Self.school)], from: 11, through: 14, now: 0)
        #expect(further == .moved([Self.school: ["joon"]]))
        #expect(tail.head == 14 && tail.count == 4)
        #expect(Self.ids(try #require(tail.answer(after: 10, children: ["mina", "joon"], device: "other", limit: 10)).entries)
                == ["event-11", "event-12", "event-13", "event-14"])
    }

    @Test func aFeedWhoseHeadWentBackStartsTheTailAgain() {
        var tail = FeedTail()
        tail.start(at: 0)
        _ = tail.take((1...5).map { Self.item($0, "mina", from: Self.home) }, from: tail.head, through: 5, now: 0)
        // The database was put back to a dump taken at position 3.
        #expect(tail.take([], from: tail.head, through: 3, now: 0) == .restarted)
        #expect(tail.count == 0 && tail.base == 3 && tail.head == 3)
        #expect(!tail.covers(5), "a cursor from before the restore reads the database, which gives a copy")
        #expect(tail.answer(after: 3, children: ["mina"], device: Self.school, limit: 10)?.entries.isEmpty == true)
    }

    @Test func theTailLetsGoOfItsOldestEntriesByCountAndByAge() throws {
        var tail = FeedTail(maxItems: 100, keptForMilliseconds: 60_000)
        tail.start(at: 0)
        // 3,000 entries in reads of 30, one second apart, over four children.
        for read in 0..<100 {
            let items = (1...30).map { n -> FeedTail.Item in
                let position = UInt64(read * 30 + n)
                return Self.item(position, "child-\(position % 4)", from: Self.home, at: Int64(read) * 1_000)
            }
            _ = tail.take(items, from: tail.head, through: UInt64(read * 30 + 30), now: Int64(read) * 1_000)
            #expect(tail.count <= 100)
        }
        #expect(tail.count == 100 && tail.base == 2_900 && tail.head == 3_000)
        let kept = try #require(tail.answer(after: 2_900, children: ["child-0", "child-1", "child-2", "child-3"], device: Self.school,
                                            limit: 1_000))
        #expect(Self.ids(kept.entries) == (2_901...3_000).map { "event-\($0)" })
        #expect(!tail.covers(2_899))
        // Nothing read for longer than 60 s: everything is let go, the head kept.
        _ = tail.take([], from: tail.head, through: 3_000, now: 99_000 + 60_001)
        #expect(tail.count == 0 && tail.base == 3_000 && tail.covers(3_000))
    }

    @Test func whatTheFeedForgotIsNoLongerAnsweredFromTheTail() throws {
        var tail = FeedTail()
        tail.start(at: 0)
        _ = tail.take((1...6).map { Self.item($0, "mina", from: Self.home) }, from: tail.head, through: 6, now: 0)
        tail.forget(through: 4)
        #expect(tail.base == 4 && tail.count == 2)
        #expect(!tail.covers(3), "owed a fresh copy")
        #expect(Self.ids(try #require(tail.answer(after: 4, children: ["mina"], device: Self.school, limit: 10)).entries)
                == ["event-5", "event-6"])
        tail.forget(through: 9)
        #expect(tail.count == 0 && tail.base == 6 && tail.head == 6)
    }
}
