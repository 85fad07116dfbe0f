import Foundation
import SteppieBackup
import SteppieCore
import SteppieStore

/// `steppie children add|rename|archive|set-icon|list`.
enum ChildrenCommands {
    static func add(_ c: Context) throws -> Int32 {
        let store = try c.store()
        try store.ensureDeviceSettings(at: c.now)
        let child = try store.addChild(name: c.invocation.argument("NAME") ?? "", at: c.now)
        if let t = c.invocation.value("--template").flatMap(Template.init(rawValue:)) {
            try store.createSet(childId: child.id, template: t, activate: true, at: c.now)
        }
        c.console.print(c.text("cli.children.added", ["child": child.displayName, "id": child.id.lowercased]))
        return 0
    }

    /// Renames a child (name or id); the new name must be free among active children.
    static func rename(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try store.resolveChild(c.invocation.argument("NAME") ?? "")
        let newName = c.invocation.argument("NEW") ?? ""
        try store.renameChild(id: child.id, to: newName, at: c.now)
        c.console.print(c.text("cli.children.renamed", ["child": child.displayName,
                                                        "new": newName.trimmingCharacters(in: .whitespaces)]))
        return 0
    }

    /// Sets the child's picture on the kiosk's picker to a builtin icon, or back to the default
    /// (`default`). A photo it replaces is removed from the photos folder, as the guardian pages do.
    static func setIcon(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try store.resolveChild(c.invocation.argument("NAME") ?? "")
        let icon = c.invocation.typed(ChildIcon.self, "ICON") ?? ChildIcon(name: nil)
        let old = try store.setChildPicture(id: child.id, to: icon.name.map { IconRef.builtin(name: $0) }, at: c.now)
        if case .photo(_, let asset)? = old {
            unlink(BackupCreator.assetsDirectory(forDatabase: store.path).appendingPathComponent(asset).path)
        }
        if let name = icon.name {
            c.console.print(c.text("cli.children.iconSet", ["child": child.displayName, "icon": c.resolve(BuiltinIcons.label(of: name) ?? LocalizedText(["en": name]))]))
        } else {
            c.console.print(c.text("cli.children.iconDefault", ["child": child.displayName]))
        }
        return 0
    }

    /// Archives a child: hidden from lists and child mode, history kept.
    static func archive(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try store.resolveChild(c.invocation.argument("NAME") ?? "")
        try store.archiveChild(id: child.id, at: c.now)
        c.console.print(c.text("cli.children.archived", ["child": child.displayName]))
        return 0
    }

    static func list(_ c: Context) throws -> Int32 {
        if c.invocation.flag("--archived") { return try ArchivedChildrenCommands.list(c) }
        let store = try c.store()
        let children = try store.children()
        if c.json {
            try c.printJSON(try children.map { child in
                JSONDocuments.ChildSummary(id: child.id.lowercased, name: child.displayName, intensity: child.profile.intensity.rawValue,
                                           activeSet: try store.activeSet(childId: child.id).map(JSONDocuments.SetRef.init))
            })
            return 0
        }
        if children.isEmpty {
            c.console.print(c.text("cli.children.none"))
            return 0
        }
        for child in children {
            let set = try store.activeSet(childId: child.id)
            c.console.print(c.text("cli.children.row", ["child": child.displayName, "id": child.id.lowercased,
                                                        "intensity": c.text("feedback.intensity.\(child.profile.intensity.rawValue)"),
                                                        "set": set.map { c.resolve($0.name) } ?? "-"]))
        }
        return 0
    }
}

import Foundation
