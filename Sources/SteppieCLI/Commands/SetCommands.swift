import Foundation
import SteppieCore
import SteppieStore

/// `steppie sets`, `steppie set create|activate`: a child's routine sets.
enum SetCommands {
    /// Lists the child's sets, the active one marked.
    static func list(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let sets = try store.sets(childId: child.id)
        if c.json {
            try c.printJSON(try sets.map { set in
                JSONDocuments.SetSummary(id: set.id.lowercased, name: set.name.values, isActive: set.isActive,
                                         routines: try store.routines(setId: set.id).filter(\.isVisible).count)
            })
            return 0
        }
        if sets.isEmpty { c.console.print(c.text("cli.sets.none", ["child": child.displayName])) }
        for set in sets {
            let count = try store.routines(setId: set.id).filter(\.isVisible).count
            c.console.print(c.text(set.isActive ? "cli.sets.rowActive" : "cli.sets.row",
                                   ["name": c.resolve(set.name), "id": set.id.lowercased, "count": String(count)]))
        }
        return 0
    }

    /// Creates a set from a template or with a name in each locale; `--activate` makes it the active set.
    static func create(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let template = inv.value("--template").flatMap(Template.init(rawValue:))
        var names: [String: String] = [:]
        if let ko = inv.value("--name-ko") { names["ko"] = ko }
        if let en = inv.value("--name-en") { names["en"] = en }
        // The tree's rules: a template or names, not both.
        let start = try inv.value("--start").map { try Validator.parseTime($0, field: "startTime") }
        let child = try c.child()
        let set = try c.store().createSet(childId: child.id, name: names.isEmpty ? nil : LocalizedText(names),
                                          template: template, activate: inv.flag("--activate"), startTime: start, at: c.now)
        c.console.print(c.text(set.isActive ? "cli.set.createdActive" : "cli.set.created",
                               ["name": c.resolve(set.name), "id": set.id.lowercased, "child": child.displayName]))
        return 0
    }

    /// Sets or clears a set's daily start time (`HH:mm` or `none`).
    static func startTime(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let id = try Ids.parse(c.invocation.argument("SET-ID"), argument: "SET-ID")
        let text = c.invocation.argument("TIME") ?? ""
        let time = text == "none" ? nil : try Validator.parseTime(text, field: "startTime")
        try store.setStartTime(id, time, at: c.now)
        c.console.print(c.text(time == nil ? "cli.set.startCleared" : "cli.set.startSet",
                               ["name": c.resolve(try store.set(id: id).name), "time": time?.description ?? ""]))
        return 0
    }

    /// Makes a set its child's one active set.
    static func activate(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let id = try Ids.parse(c.invocation.argument("SET-ID"), argument: "SET-ID")
        try store.activateSet(id, at: c.now)
        c.console.print(c.text("cli.set.activated", ["name": c.resolve(try store.set(id: id).name)]))
        return 0
    }
}
