import Foundation
import SteppieCore
import SteppieStore

/// `steppie set rename|delete SET-ID`: a guardian's edits of a whole set.
enum SetEditCommands {
    /// Renames a set in the languages given (`--name-ko`, `--name-en`; an empty value removes one).
    static func rename(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        var names: [String: String] = [:]
        if let ko = inv.value("--name-ko") { names["ko"] = ko }
        if let en = inv.value("--name-en") { names["en"] = en }
        let store = try c.store()
        let id = try Ids.parse(inv.argument("SET-ID"), argument: "SET-ID")
        let old = try store.set(id: id)
        let renamed = try store.renameSet(id: id, to: names, at: c.now)
        c.console.print(c.text("cli.set.renamed", ["old": c.resolve(old.name), "name": c.resolve(renamed.name)]))
        return 0
    }

    /// Soft-deletes a set that is not the active one.
    static func delete(_ c: Context) throws -> Int32 {
        let id = try Ids.parse(c.invocation.argument("SET-ID"), argument: "SET-ID")
        let deleted = try c.store().deleteSet(id: id, at: c.now)
        c.console.print(c.text("cli.set.deleted", ["name": c.resolve(deleted.name), "id": deleted.id.lowercased]))
        return 0
    }
}
