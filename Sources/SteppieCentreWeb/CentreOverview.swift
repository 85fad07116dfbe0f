import Foundation
import SteppieCore
import SteppieSync

/// The teachers' overview of a group on one day, folded from the children's registers and
/// events by the rules every device uses (`SyncView`: the active set, its visible routines in
/// order, each day's entry decided by `DayFold`). Pure: the store hands the replica in.
package struct CentreOverview: Equatable, Sendable {
    /// One child's day.
    package struct ChildDay: Equatable, Sendable {
        package let id: String
        package let name: String
        /// The first routine of the active set not done today (nil: all done, or no set).
        package let current: Activity?
        package let done: Int
        package let total: Int
        /// The last press of the day: when (as the device wrote it) and on which device.
        package let lastPress: Press?
    }

    package struct Activity: Equatable, Sendable {
        package let routine: String
        package let title: LocalizedText
    }

    package struct Press: Equatable, Sendable {
        package let at: String
        package let device: DeviceID
    }

    package let day: String
    package let children: [ChildDay]

    /// The overview of `children` (ids) on `day` (`YYYY-MM-DD`), by name; archived and unknown
    /// children are left out.
    package init(replica: SyncReplica, children ids: [String], day: String) {
        let view = SyncView(replica)
        self.day = day
        var rows: [ChildDay] = []
        for id in ids {
            guard let child = view.children[id], !child.archived else { continue }
            let order = child.activeSet.flatMap { view.sets[$0]?.visibleOrder } ?? []
            let done = order.filter { view.days[SyncView.DayKey(routine: $0, date: day)]?.status == .completed }
            let current = order.first { view.days[SyncView.DayKey(routine: $0, date: day)]?.status != .completed }
            let presses = replica.events.values.filter { $0.child == id && $0.date == day && $0.kind == .press }
            let last = presses.max { $0.stamp < $1.stamp }
            rows.append(ChildDay(id: id, name: child.name?.string ?? "",
                                 current: current.map { Activity(routine: $0, title: Self.text(view.routines[$0]?.title)) },
                                 done: done.count, total: order.count,
                                 lastPress: last.map { Press(at: $0.at, device: $0.stamp.device) }))
        }
        children = rows.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// A title register (`{"ko": …, "en": …}`) as text in every language it has.
    package static func text(_ value: SyncValue?) -> LocalizedText {
        guard case .object(let fields)? = value else { return LocalizedText([:]) }
        return LocalizedText(fields.compactMapValues(\.string))
    }

    /// A child's month by the guardian history's rules (`MonthCalendar` over `TrackedRoutine`s, as
    /// `Store.monthCalendar` builds them): every routine of the child's sets, tracked from the day
    /// it was made until the day it or its set was deleted, counted when it is active in the
    /// active set; a day is done when its entry (`DayFold`) is completed. Days of deletions come
    /// from the deleting write's stamp (registers keep no history, so a routine deleted and
    /// restored again counts as never away).
    package static func month(replica: SyncReplica, child: String, month: YearMonth, reference: LocalDay,
                              timeZone: TimeZone) -> MonthCalendar {
        let view = SyncView(replica)
        let active = view.children[child]?.activeSet
        func day(_ stamp: HybridTimestamp) -> LocalDay { LocalDay(Date(timeIntervalSince1970: Double(stamp.wall) / 1000), in: timeZone) }
        func deletedDay(_ key: RecordKey) -> LocalDay? {
            guard let register = replica.registers[key]?["deleted"], register.value.bool == true else { return nil }
            return day(register.stamp)
        }
        var completions: [String: Set<LocalDay>] = [:]
        for (key, entry) in view.days where entry.status == .completed {
            if let date = LocalDay(key.date) { completions[key.routine, default: []].insert(date) }
        }
        var tracked: [TrackedRoutine] = []
        for (id, routine) in view.routines {
            guard let set = view.sets[routine.set], set.child == child, let uuid = UUID(uuidString: id),
                  let created = replica.created(RecordKey(.routine, id)) else { continue }
            let start = replica.value(RecordKey(.routine, id), "createdAt")?.string.flatMap(Timestamp.parse)
                .map { LocalDay($0, in: timeZone) } ?? day(created)
            let ends = [deletedDay(RecordKey(.routine, id)), deletedDay(RecordKey(.routineSet, routine.set))].compactMap { $0 }
            tracked.append(TrackedRoutine(id: uuid, start: start, end: ends.min(), completionDays: completions[id] ?? [],
                                          countsForChild: routine.set == active && routine.active))
        }
        return MonthCalendar(month: month, routines: tracked, reference: reference)
    }
}
