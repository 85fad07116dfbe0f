import Foundation
import Testing
import SteppieSync

/// Each merge rule of docs/sync.md with its example.
@Suite struct MergeRuleTests {
    static let a = DeviceID("00000000-0000-4000-8000-00000000000a")!
    static let b = DeviceID("00000000-0000-4000-8000-00000000000b")!
    static let child = "00000000-0000-4000-9000-000000000001"
    static let set = "00000000-0000-4000-9000-000000000002"
    static let r1 = "00000000-0000-4000-9000-000000000011"
    static let r2 = "00000000-0000-4000-9000-000000000012"
    static let r3 = "00000000-0000-4000-9000-000000000013"

    static func stamp(_ wall: Int64, _ device: DeviceID = a, _ counter: UInt32 = 0) -> HybridTimestamp {
        HybridTimestamp(wall: wall, counter: counter, device: device)
    }

    static func change(_ entity: SyncEntity, _ record: String, _ field: String, _ value: SyncValue, _ stamp: HybridTimestamp) -> FieldChange {
        FieldChange(entity: entity, record: record, child: child, field: field, value: value, stamp: stamp)
    }

    /// Applies the changes in every order: all orders must give one replica.
    static func merged(_ changes: [FieldChange]) -> SyncReplica {
        var results: Set<SyncReplica> = []
        func permute(_ rest: [FieldChange], _ replica: SyncReplica) {
            if rest.isEmpty { results.insert(replica); return }
            for i in rest.indices {
                var next = replica
                next.apply(rest[i])
                next.apply(rest[i]) // and twice: idempotent
                var remaining = rest
                remaining.remove(at: i)
                permute(remaining, next)
            }
        }
        permute(changes, SyncReplica())
        #expect(results.count == 1, "the order of arrival changed the result")
        return results.first ?? SyncReplica()
    }

    @Test func editsOfDifferentFieldsOfOneRecordBothSurvive() {
        // Home renames "Brush teeth"; school gives it the toothbrush picture at the same time.
        let replica = Self.merged([
            Self.change(.routine, Self.r1, "title", .object(["en": .string("Brush your teeth")]), Self.stamp(100, Self.a)),
            Self.change(.routine, Self.r1, "icon", .object(["type": .string("builtin"), "name": .string("toothbrush")]), Self.stamp(100, Self.b)),
        ])
        #expect(replica.value(RecordKey(.routine, Self.r1), "title") == .object(["en": .string("Brush your teeth")]))
        #expect(replica.value(RecordKey(.routine, Self.r1), "icon") == .object(["type": .string("builtin"), "name": .string("toothbrush")]))
        #expect(replica.registers[RecordKey(.routine, Self.r1)]?.count == 2)
    }

    @Test func ofTwoEditsOfOneFieldTheLaterStampWinsAndTiesGoToTheLargerDevice() {
        let later = Self.merged([
            Self.change(.child, Self.child, "profile.pitch", .int(40), Self.stamp(200, Self.b)),
            Self.change(.child, Self.child, "profile.pitch", .int(70), Self.stamp(201, Self.a)),
        ])
        #expect(later.value(RecordKey(.child, Self.child), "profile.pitch") == .int(70))
        let tie = Self.merged([
            Self.change(.child, Self.child, "profile.pitch", .int(40), Self.stamp(200, Self.b)),
            Self.change(.child, Self.child, "profile.pitch", .int(70), Self.stamp(200, Self.a)),
        ])
        #expect(tie.value(RecordKey(.child, Self.child), "profile.pitch") == .int(40))
    }

    @Test func aDeleteWinsOverAConcurrentEditAndOnlyALaterRestoreBringsItBack() {
        // School deletes the routine at 300; home, offline, renames it at 400 and comes back.
        var replica = Self.merged([
            Self.change(.routine, Self.r1, "set", .string(Self.set), Self.stamp(1)),
            Self.change(.routine, Self.r1, "deleted", .bool(true), Self.stamp(300, Self.b)),
            Self.change(.routine, Self.r1, "title", .object(["en": .string("Floss")]), Self.stamp(400, Self.a)),
        ])
        var view = SyncView(replica)
        #expect(view.routines[Self.r1]?.deleted == true)
        #expect(view.routines[Self.r1]?.title == .object(["en": .string("Floss")])) // kept for what history shows
        replica.apply(Self.change(.routine, Self.r1, "deleted", .bool(false), Self.stamp(500, Self.a)))
        view = SyncView(replica)
        #expect(view.routines[Self.r1]?.deleted == false)
    }

    @Test func twoReordersConvergeOnTheLaterAndARoutineAddedMeanwhileFollowsIt() {
        let replica = Self.merged([
            Self.change(.routineSet, Self.set, "child", .string(Self.child), Self.stamp(1)),
            Self.change(.routine, Self.r1, "set", .string(Self.set), Self.stamp(2)),
            Self.change(.routine, Self.r2, "set", .string(Self.set), Self.stamp(3)),
            // Home adds r3 (its order names it); school reorders the two it knows, later.
            Self.change(.routine, Self.r3, "set", .string(Self.set), Self.stamp(10, Self.a)),
            Self.change(.routineSet, Self.set, "order", .array([.string(Self.r1), .string(Self.r2), .string(Self.r3)]), Self.stamp(10, Self.a, 1)),
            Self.change(.routineSet, Self.set, "order", .array([.string(Self.r2), .string(Self.r1)]), Self.stamp(20, Self.b)),
        ])
        #expect(SyncView(replica).sets[Self.set]?.visibleOrder == [Self.r2, Self.r1, Self.r3])
    }

    @Test func twoActivationsConvergeOnTheLaterAndADeletedActiveSetFallsBack() {
        let other = "00000000-0000-4000-9000-000000000003"
        var changes = [
            Self.change(.routineSet, Self.set, "child", .string(Self.child), Self.stamp(1)),
            Self.change(.routineSet, other, "child", .string(Self.child), Self.stamp(2)),
            Self.change(.routine, Self.r1, "set", .string(Self.set), Self.stamp(3)),
            Self.change(.routine, Self.r2, "set", .string(other), Self.stamp(4)),
            Self.change(.child, Self.child, "activeSet", .string(Self.set), Self.stamp(50, Self.a)),
            Self.change(.child, Self.child, "activeSet", .string(other), Self.stamp(60, Self.b)),
        ]
        #expect(SyncView(Self.merged(changes)).children[Self.child]?.activeSet == other)
        changes.append(Self.change(.routineSet, other, "deleted", .bool(true), Self.stamp(55, Self.a)))
        #expect(SyncView(Self.merged(changes)).children[Self.child]?.activeSet == Self.set)
    }

    @Test func theDayIsDecidedByItsLastEventAndEveryEventIsKept() throws {
        func event(_ id: String, _ kind: CompletionEvent.Kind, _ stamp: HybridTimestamp, at: String) -> CompletionEvent {
            CompletionEvent(id: id, child: Self.child, routine: Self.r1, set: Self.set, date: "2026-03-02", kind: kind, at: at,
                            stamp: stamp, shownTitle: .object(["en": .string("Wake up")]))
        }
        let press = event("e1", .press, Self.stamp(100, Self.a), at: "2026-03-02T07:00:00.000+09:00")
        let undo = event("e2", .undo, Self.stamp(103, Self.a), at: "2026-03-02T07:00:03.000+09:00")
        let pressB = event("e3", .press, Self.stamp(104, Self.b), at: "2026-03-02T07:00:04.000+09:00")
        let correction = event("e4", .correctUndone, Self.stamp(900, Self.b), at: "2026-03-03T20:00:00.000+09:00")
        for order in [[press, undo, pressB], [pressB, undo, press], [undo, pressB, press]] {
            let entry = try #require(DayFold.entry(order))
            #expect(entry.status == .completed && entry.completedAt == "2026-03-02T07:00:04.000+09:00")
            #expect(entry.shownTitle == .object(["en": .string("Wake up")]))
        }
        let corrected = try #require(DayFold.entry([correction, press, undo, pressB]))
        #expect(corrected.status == .undone && corrected.completedAt == nil)
        #expect(corrected.corrections == [DayEntry.Correction(event: "e4", done: false, previous: .completed, madeAt: "2026-03-03T20:00:00.000+09:00")])
    }

    /// A day of one event is decided by the array form without sorting: the same entry as the
    /// general rule gives, for every kind, with and without a look.
    @Test func aDayOfOneEventIsDecidedAsTheGeneralRuleDecidesIt() {
        let device = DeviceID(UUID())
        for kind in CompletionEvent.Kind.allCases {
            for look in [nil, SyncValue.object(["en": .string("Brush")])] {
                let event = CompletionEvent(id: UUID().uuidString.lowercased(), child: "c", routine: "r", set: "s", date: "2026-03-02",
                                            kind: kind, at: "2026-03-02T08:00:00.000+09:00",
                                            stamp: HybridTimestamp(wall: 5, counter: 0, device: device), shownTitle: look, shownIcon: look)
                let fast = DayFold.entry([event])
                #expect(fast == DayFold.entry(AnySequence([event])), "\(kind)")
                #expect(fast?.status == (kind.leavesCompleted ? .completed : .undone))
            }
        }
    }
}
