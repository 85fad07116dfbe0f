import Foundation
import SteppieCore
import SteppieStore

/// `steppie routines --deleted`: the child's deleted routines with their ids, for `routine restore`.
enum DeletedRoutinesCommand {
    struct Row: Encodable {
        let id: String
        let title: [String: String]
        let displayTitle: String
        let setId: String
        let setName: String
        let deletedAt: String?
    }

    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let deleted = try store.deletedRoutines(childId: child.id)
        if c.json {
            try c.printEncodable(deleted.map { r, set in
                Row(id: r.id.lowercased, title: r.title.values, displayTitle: c.resolve(r.title), setId: set.id.lowercased,
                    setName: c.resolve(set.name), deletedAt: r.deletedAt.map { Timestamp.format($0, in: c.env.timeZone) })
            })
            return 0
        }
        if deleted.isEmpty {
            c.console.print(c.text("cli.routines.deletedNone", ["child": child.displayName]))
            return 0
        }
        c.console.print(c.text("cli.routines.deletedHeader", ["child": child.displayName]))
        for (r, set) in deleted {
            c.console.print(c.text("cli.routines.deletedRow", ["title": c.resolve(r.title), "id": r.id.lowercased, "set": c.resolve(set.name),
                                                               "date": r.deletedAt.map { LocalDay($0, in: c.env.timeZone).description } ?? "-"]))
        }
        return 0
    }
}
