import Foundation
import SteppieCentre
import SteppieSync
import Testing

extension CentreTests {
    /// The records' owners a hub process has read (`OwnerCache`): asked of PostgreSQL once, never
    /// learned from a push that may yet be rolled back, bounded.
    @Suite struct OwnerCacheTests {
        @Test func ownersReadOnceAreAnsweredFromMemoryWithinTheBound() {
            let cache = OwnerCache(capacity: 3)
            let r1 = RecordKey(.routine, "r1"), r2 = RecordKey(.routine, "r2"), r3 = RecordKey(.routine, "r3")
            let r4 = RecordKey(.routine, "r4")
            cache.remember([r1: "a", r2: "b"])
            let first = cache.split([r1, r2, r3])
            #expect(first.known == [r1: "a", r2: "b"] && first.missing == [r3])
            #expect(cache.lookups == (known: 2, read: 1))
            // Past the bound, what was known goes and the new owners stay.
            cache.remember([r3: "c", r4: "d"])
            #expect(cache.count == 2)
            let second = cache.split([r1, r3, r4])
            #expect(second.known == [r3: "c", r4: "d"] && second.missing == [r1])
            cache.remember([:])
            #expect(cache.count == 2)
        }

        /// A routine's owner, read by one push, refuses another child's event without a read; a
        /// second hub process on the same database reads it itself and decides the same; a claim
        /// in a push that was refused is not remembered, so the record is free for the next.
        @Test func aPushReadsOnlyTheOwnersItsProcessHasNotSeen() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            let (a0, childA) = try PushGroupTests.deviceWithItsChild(f, "Ana")
            let (b0, childB) = try PushGroupTests.deviceWithItsChild(f, "Bo")
            var a = a0, b = b0
            let owners = f.store.knownOwners
            #expect(try f.push(a, [a.change(.routine, "r-a", child: childA, "title", .string("Wash"), now: f.now)]).acknowledged == 2)
            // Its first event reads the routine's owner, which the process keeps.
            var before = owners.lookups
            #expect(try f.push(a, [a.press(child: childA, routine: "r-a", now: f.now)]).acknowledged == 3)
            #expect(owners.lookups.read == before.read + 1 && owners.lookups.known == before.known)
            // Another child's event of that routine: refused from what was read.
            before = owners.lookups
            let stray = b.press(child: childB, routine: "r-a", now: f.now)
            #expect(throws: SyncRefusal.malformed(reason: "event of another child's routine")) { try f.push(b, [stray]) }
            #expect(owners.lookups.known == before.known + 1 && owners.lookups.read == before.read)
            // Another process reads it and refuses it too.
            let other = CentreStore(pool: f.pool)
            let otherHub = PostgresSyncHub(store: other, clock: f.clock, log: { _ in })
            #expect(throws: SyncRefusal.malformed(reason: "event of another child's routine")) {
                try otherHub.push(PushRequest(device: b.id, sentAt: f.now, entries: [stray]), credential: b.credential)
            }
            #expect(other.knownOwners.lookups == (known: 0, read: 1))
            b.seq -= 1
            // B claims a new record, then names A's routine: refused whole, its claim forgotten.
            let claim = b.change(.routine, "r-new", child: childB, "title", .string("Brush"), now: f.now)
            let wrong = b.change(.routine, "r-a", child: childB, "title", .string("Brush"), now: f.now)
            #expect(throws: SyncRefusal.malformed(reason: "record of another child")) { try f.push(b, [claim, wrong]) }
            #expect(try f.push(a, [a.change(.routine, "r-new", child: childA, "title", .string("Dress"), now: f.now)]).acknowledged == 4)
        }
    }
}
