import Foundation
import SteppieCore
import SteppieStore

/// `steppie schedule show|set|clear`: which routine set is active by weekday and time.
/// The long-running service switches sets at those times (`Store.applySchedule`).
enum ScheduleCommands {
    /// Lists the child's schedule, the set it names now and the next switch.
    static func show(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let schedule = try store.schedule(childId: child.id)
        let sets = try store.sets(childId: child.id, includeDeleted: true)
        func set(_ id: UUID) -> RoutineSet? { sets.first { $0.id == id } }
        let now = c.now
        let scheduled = schedule.activeSet(at: now, in: c.env.timeZone)
        let next = schedule.nextSwitch(after: now, in: c.env.timeZone)
        let active = sets.first(where: \.isActive)?.id
        if c.json {
            let out = ScheduleJSON(
                childId: child.id.lowercased,
                entries: schedule.entries.map { e in
                    ScheduleJSON.Entry(days: e.weekdays.sorted().map(\.code), from: e.start.description,
                                       setId: e.routineSetId.lowercased, setName: set(e.routineSetId)?.name.values ?? [:])
                },
                scheduledSetId: scheduled?.lowercased, activeSetId: active?.lowercased,
                nextSwitch: next.map { ScheduleJSON.Switch(at: Timestamp.format($0.at, in: c.env.timeZone), setId: $0.routineSetId.lowercased) })
            return try BackupCommands.printJSON(out, c)
        }
        if schedule.isEmpty {
            c.console.print(c.text("cli.schedule.none", ["child": child.displayName]))
            return 0
        }
        c.console.print(c.text("cli.schedule.title", ["child": child.displayName]))
        for entry in schedule.entries {
            c.console.print(c.text("cli.schedule.row", ["time": entry.start.description, "days": days(entry.weekdays, c),
                                                        "name": name(set(entry.routineSetId), c),
                                                        "id": entry.routineSetId.lowercased]))
        }
        if let scheduled {
            c.console.print(c.text("cli.schedule.now", ["name": name(set(scheduled), c)]))
            if let active, active != scheduled {
                c.console.print(c.text("cli.schedule.activeDiffers", ["name": name(set(active), c)]))
            }
        }
        if let next {
            let day = LocalDay(next.at, in: c.env.timeZone)
            let time = Timestamp.format(next.at, in: c.env.timeZone).dropFirst(11).prefix(5)
            c.console.print(c.text("cli.schedule.next", ["date": day.description, "day": dayName(Weekday(day), c),
                                                         "time": String(time), "name": name(set(next.routineSetId), c)]))
        }
        return 0
    }

    /// Adds or replaces one entry: from `--from` on `--days`, `--set` is the active set.
    static func set(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        // All three are required and typed by the tree.
        guard let selector = inv.value("--set"), let weekdays = inv.typed(WeekdayList.self, "--days")?.days,
              let start = inv.typed(StartTime.self, "--from")?.time else { return Steppie.exitUsage }
        let store = try c.store()
        let child = try c.child()
        let routineSet = try store.resolveSet(childId: child.id, selector)
        try store.setScheduleEntry(childId: child.id, ScheduleEntry(weekdays: weekdays, start: start, routineSetId: routineSet.id), at: c.now)
        c.console.print(c.text("cli.schedule.setDone", ["child": child.displayName, "days": days(weekdays, c),
                                                        "time": start.description, "name": c.resolve(routineSet.name)]))
        return 0
    }

    /// Removes the schedule on `--days`, or all of it.
    static func clear(_ c: Context) throws -> Int32 {
        let weekdays = c.invocation.typed(WeekdayList.self, "--days")?.days
        let store = try c.store()
        let child = try c.child()
        let removed = try store.clearSchedule(childId: child.id, weekdays: weekdays, at: c.now)
        c.console.print(removed == 0 ? c.text("cli.schedule.clearedNothing", ["child": child.displayName])
                                     : c.text("cli.schedule.cleared", ["child": child.displayName, "count": String(removed)]))
        return 0
    }

    static func dayName(_ day: Weekday, _ c: Context) -> String { c.text("cli.schedule.day.\(day.code)") }

    static func days(_ days: Set<Weekday>, _ c: Context) -> String {
        days.sorted().map { dayName($0, c) }.joined(separator: c.text("cli.schedule.daySeparator"))
    }

    static func name(_ set: RoutineSet?, _ c: Context) -> String {
        guard let set else { return c.text("cli.schedule.unknownSet") }
        let name = c.resolve(set.name)
        return set.deletedAt == nil ? name : c.text("cli.schedule.deletedSet", ["name": name])
    }
}

/// `schedule show --json`.
struct ScheduleJSON: Encodable {
    struct Entry: Encodable {
        let days: [String]
        let from: String
        let setId: String
        let setName: [String: String]
    }
    struct Switch: Encodable {
        let at: String
        let setId: String
    }
    let childId: String
    let entries: [Entry]
    /// The set the schedule names now; null without a schedule.
    let scheduledSetId: String?
    /// The child's active set now (a guardian may have activated another by hand).
    let activeSetId: String?
    let nextSwitch: Switch?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(childId, forKey: .childId)
        try c.encode(entries, forKey: .entries)
        // Absent values are written as null, as everywhere in the contract.
        try c.encode(scheduledSetId, forKey: .scheduledSetId)
        try c.encode(activeSetId, forKey: .activeSetId)
        try c.encode(nextSwitch, forKey: .nextSwitch)
    }

    enum Keys: String, CodingKey { case childId, entries, scheduledSetId, activeSetId, nextSwitch }
}
