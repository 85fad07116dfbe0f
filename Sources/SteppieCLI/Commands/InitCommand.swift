import SteppieCore
import SteppieStore

/// `steppie init`: creates the database, a child and its first routine set from a template.
enum InitCommand {
    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        try store.ensureDeviceSettings(at: c.now)
        let name = c.invocation.value("--child") ?? c.text("cli.init.defaultChildName")
        let template = c.invocation.value("--template").flatMap(Template.init(rawValue:))
        let child: Child
        if let existing = try store.children().first(where: { $0.displayName.caseInsensitiveCompare(name) == .orderedSame }) {
            child = existing
        } else if c.invocation.value("--child") == nil, let only = try store.children().first {
            child = only
        } else {
            child = try store.addChild(name: name, at: c.now)
            c.console.print(c.text("cli.init.childAdded", ["child": child.displayName]))
        }
        if try store.activeSet(childId: child.id) == nil || template != nil {
            let t = template ?? .morning
            let set = try store.createSet(childId: child.id, template: t, activate: true, at: c.now)
            c.console.print(c.text("cli.init.setCreated", ["set": c.resolve(set.name), "child": child.displayName,
                                                           "count": String(t.items.count)]))
        } else {
            c.console.print(c.text("cli.init.alreadyReady", ["child": child.displayName]))
        }
        c.console.print(c.text("cli.init.database", ["path": store.path]))
        return 0
    }
}
