import Foundation
import SteppieCore
import SteppieStore

/// `steppie routines`, `today`, `complete`, `undo` and `icons`: scriptable single actions.
enum TodayCommands {
    static func today(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let plan = try store.today(childId: child.id, day: c.today)
        if c.json {
            try c.printJSON(planJSON(plan, child: child, c))
            return 0
        }
        c.console.write(render(plan, child: child, c))
        return 0
    }

    static func routines(_ c: Context) throws -> Int32 {
        if c.invocation.flag("--deleted") { return try DeletedRoutinesCommand.run(c) }
        let store = try c.store()
        let child = try c.child()
        let sets = try store.sets(childId: child.id)
        if c.json {
            try c.printJSON(try sets.map { set in
                JSONDocuments.SetWithRoutines(id: set.id.lowercased, name: set.name.values, isActive: set.isActive,
                                              startTime: set.startTime?.description,
                                              routines: try store.routines(setId: set.id).map { routineJSON($0, c) })
            })
            return 0
        }
        var recorded: [UUID: [String]] = [:]
        for r in try store.recordings() { recorded[r.routineId, default: []].append(r.locale) }
        for set in sets {
            c.console.print((set.isActive ? "● " : "○ ") + c.resolve(set.name) + "  " + set.id.lowercased)
            for r in try store.routines(setId: set.id) {
                var line = "   \(r.order + 1). \(c.resolve(r.title))  [\(iconLabel(r.icon, c))]  \(r.id.lowercased)"
                if let t = r.scheduledTime { line += "  ⏰ \(t)" }
                if !r.isActive { line += "  " + c.text("cli.routines.inactive") }
                if let locales = recorded[r.id] { line += "  " + c.text("cli.routines.recorded", ["locales": locales.sorted().joined(separator: ", ")]) }
                c.console.print(line)
            }
        }
        return 0
    }

    static func complete(_ c: Context) throws -> Int32 {
        let routineId = c.invocation.typed(RecordId.self, "ROUTINE-ID")?.id
        if let status = try ServiceCommands.press(c, routineId.map { .card(routineId: $0.lowercased) } ?? .done) { return status }
        return try saveAndReport(c, doneKey: "cli.complete.done") { store, child, day, now in
            try store.complete(childId: child.id, routineId: routineId, day: day, at: now)
        }
    }

    static func undo(_ c: Context) throws -> Int32 {
        if let status = try ServiceCommands.press(c, .undo) { return status }
        return try saveAndReport(c, doneKey: "cli.undo.done") { store, child, day, now in
            try store.undo(childId: child.id, day: day, at: now, windowSeconds: child.profile.undoDurationSeconds)
        }
    }

    /// Runs one save for the child on today's local date, then reports the routine and the progress.
    private static func saveAndReport(_ c: Context, doneKey: String,
                                      _ save: (Store, Child, LocalDay, Date) throws -> DailyLog) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let now = c.now
        let day = LocalDay(now, in: store.timeZone)
        let log = try save(store, child, day, now)
        let plan = try store.today(childId: child.id, day: day)
        let title = plan.item(log.routineId).map { c.resolve($0.routine.title) } ?? ""
        if c.json {
            try c.printJSON(JSONDocuments.Saved(log: logJSON(log, c), progress: .init(completed: plan.completedCount, total: plan.total)))
        } else {
            c.console.print(c.text(doneKey, ["routineTitle": title, "completed": String(plan.completedCount), "total": String(plan.total)]))
        }
        return 0
    }

    static func icons(_ c: Context) throws -> Int32 {
        if c.json {
            try c.printJSON(BuiltinIcons.all.map { JSONDocuments.BuiltinIcon(name: $0.name, label: $0.label.values) })
            return 0
        }
        for icon in BuiltinIcons.all { c.console.print("\(icon.name)\t\(c.resolve(icon.label))") }
        return 0
    }

    // MARK: Rendering

    static func render(_ plan: DayPlan, child: Child, _ c: Context) -> String {
        guard let set = plan.set else { return c.text("cli.today.noSet", ["child": child.displayName]) + "\n" }
        var out = c.text("cli.today.header", ["child": child.displayName, "set": c.resolve(set.name), "date": plan.day.description,
                                              "completed": String(plan.completedCount), "total": String(plan.total)]) + "\n"
        let currentId = plan.current?.routine.id
        for item in plan.items {
            let mark = item.isCompleted ? "✓" : (item.routine.id == currentId ? "▶" : " ")
            var line = " \(mark) \(item.routine.order + 1). \(c.resolve(item.routine.title))"
            if let at = item.log?.completedAt, item.isCompleted {
                line += "  " + c.text("cli.today.doneAt", ["time": clockTime(at, c)])
            } else if item.routine.id == currentId {
                line += "  " + c.text("cli.today.now")
            }
            out += line + "\n"
        }
        if plan.isAllDone { out += c.text("cli.today.allDone") + "\n" }
        if plan.items.isEmpty { out += c.text("cli.today.empty") + "\n" }
        return out
    }

    static func clockTime(_ date: Date, _ c: Context) -> String {
        String(Timestamp.format(date, in: c.env.timeZone).dropFirst(11).prefix(5))
    }

    static func iconLabel(_ icon: IconRef, _ c: Context) -> String {
        switch icon {
        case .builtin(let name): return BuiltinIcons.label(of: name).map(c.resolve) ?? name
        case .photo: return c.text("cli.icon.photo")
        }
    }

    static func routineJSON(_ r: Routine, _ c: Context) -> JSONDocuments.Routine {
        let icon: JSONDocuments.Icon
        switch r.icon {
        case .builtin(let name):
            icon = .init(type: "builtin", name: name, localAssetId: nil, backupAssetName: nil, label: iconLabel(r.icon, c))
        case .photo(let id, let asset):
            icon = .init(type: "photo", name: nil, localAssetId: id, backupAssetName: asset, label: iconLabel(r.icon, c))
        }
        return .init(id: r.id.lowercased, title: r.title.values, displayTitle: c.resolve(r.title), order: r.order,
                     icon: icon, colorToken: r.colorToken, isActive: r.isActive,
                     scheduledTime: r.scheduledTime?.description, titleKey: r.titleKey)
    }

    static func logJSON(_ l: DailyLog, _ c: Context) -> JSONDocuments.Log {
        .init(id: l.id.lowercased, date: l.date.description, routineId: l.routineId.lowercased,
              routineSetId: l.routineSetId.lowercased, status: l.status.rawValue,
              completedAt: l.completedAt.map { Timestamp.format($0, in: c.env.timeZone) })
    }

    static func planJSON(_ plan: DayPlan, child: Child, _ c: Context) -> JSONDocuments.Plan {
        .init(date: plan.day.description, timeZone: c.env.timeZone.identifier,
              child: .init(id: child.id.lowercased, name: child.displayName),
              set: plan.set.map(JSONDocuments.SetRef.init),
              progress: .init(completed: plan.completedCount, total: plan.total),
              allDone: plan.isAllDone,
              current: plan.current.map { routineJSON($0.routine, c) },
              routines: plan.items.map { item in
                  .init(routine: routineJSON(item.routine, c), status: item.isCompleted ? "completed" : "undone",
                        log: item.log.map { logJSON($0, c) })
              })
    }
}
