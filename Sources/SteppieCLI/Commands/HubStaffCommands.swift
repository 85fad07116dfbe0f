import Foundation
import SteppieCentre
import SteppieCore
import SteppieSync

/// `steppie hub staff|group …` and `hub grant --group` (docs/centre.md, "Staff, roles and groups").
///
/// The command line is the machine's operator: it holds the database's connection string. It may
/// add the first admin without signing in, only while the hub has no admin. Every other change to
/// the staff or the groups acts as a member, `--as NAME`, whose password is the first line of
/// standard input (`--password-stdin`); the role rules then decide. A new member's password is the
/// next line. Passwords are never taken from the command line or the environment.
enum HubStaffCommands {
    /// The next password line of standard input (`--password-stdin`), its line ending removed.
    static func password(_ c: Context) throws -> String {
        guard c.invocation.flag("--password-stdin") else { throw HubStaffCommandError.passwordStdin }
        guard var line = c.env.readLine() else { throw HubStaffCommandError.noPassword }
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }

    /// The member named by `--as`, signed in with the password on standard input; nil without `--as`.
    static func actor(_ c: Context, _ store: CentreStore) throws -> Staff? {
        guard let name = c.invocation.value("--as") else { return nil }
        return try store.signIn(name: name, password: try password(c), now: SyncProtocol.milliseconds(c.now))
    }

    static func requiredActor(_ c: Context, _ store: CentreStore) throws -> Staff {
        guard let actor = try actor(c, store) else { throw HubStaffCommandError.signInNeeded }
        return actor
    }

    /// `hub staff add NAME --role ROLE --password-stdin [--as ADMIN]`: without `--as`, only the
    /// first admin (while the hub has none).
    static func add(_ c: Context) throws -> Int32 {
        let store = try HubCommands.centre(c, setUp: false)
        guard let name = c.invocation.argument("NAME"), let role = c.invocation.value("--role").flatMap(StaffRole.init) else {
            return Steppie.exitUsage
        }
        // The first admin may come before the first `steppie hub`: the same migrations it runs.
        try store.prepare()
        let member: Staff
        if let actor = try actor(c, store) {
            member = try store.addStaff(name: name, password: try password(c), role: role, actor: actor)
        } else {
            guard role == .admin else { throw HubStaffCommandError.signInNeeded }
            member = try store.addFirstAdmin(name: name, password: try password(c))
        }
        c.console.print(c.text("cli.hub.staff.added", ["name": member.name, "role": c.text("hub.staff.role." + member.role.rawValue)]))
        return 0
    }

    /// `hub staff remove NAME --as ADMIN --password-stdin`.
    static func remove(_ c: Context) throws -> Int32 {
        let store = try HubCommands.centre(c)
        guard let name = c.invocation.argument("NAME") else { return Steppie.exitUsage }
        try store.removeStaff(name: name, actor: try requiredActor(c, store))
        c.console.print(c.text("cli.hub.staff.removed", ["name": name]))
        return 0
    }

    struct StaffJSON: Encodable {
        let name: String
        let role: String
    }

    /// `hub staff list [--json]`: the current staff and their roles.
    static func list(_ c: Context) throws -> Int32 {
        let staff = try HubCommands.centre(c).staff()
        if c.json {
            try c.printJSON(staff.map { StaffJSON(name: $0.name, role: $0.role.rawValue) })
            return 0
        }
        c.console.print(c.text("cli.hub.staff.count", ["count": String(staff.count)]))
        for member in staff {
            c.console.print(c.text("cli.hub.staff.line", ["name": member.name, "role": c.text("hub.staff.role." + member.role.rawValue)]))
        }
        return 0
    }

    /// `hub group add NAME --as NAME --password-stdin`.
    static func addGroup(_ c: Context) throws -> Int32 {
        let store = try HubCommands.centre(c)
        guard let name = c.invocation.argument("GROUP") else { return Steppie.exitUsage }
        let group = try store.addGroup(name: name, actor: try requiredActor(c, store))
        c.console.print(c.text("cli.hub.group.added", ["group": group.name]))
        return 0
    }

    /// `hub group remove NAME --as NAME --password-stdin`.
    static func removeGroup(_ c: Context) throws -> Int32 {
        let store = try HubCommands.centre(c)
        guard let name = c.invocation.argument("GROUP") else { return Steppie.exitUsage }
        try store.removeGroup(name: name, actor: try requiredActor(c, store))
        c.console.print(c.text("cli.hub.group.removed", ["group": name]))
        return 0
    }

    struct GroupJSON: Encodable {
        let name: String
        let children: [String]
        let devices: [String]
    }

    /// `hub group list [--json]`: every group, its children (by name) and its devices.
    static func listGroups(_ c: Context) throws -> Int32 {
        let store = try HubCommands.centre(c)
        let groups = try store.groups()
        let names = Dictionary(try store.children().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        if c.json {
            try c.printJSON(groups.map { GroupJSON(name: $0.name, children: $0.children, devices: $0.devices.map(\.text)) })
            return 0
        }
        c.console.print(c.text("cli.hub.group.count", ["count": String(groups.count)]))
        for group in groups {
            let children = group.children.map { names[$0] ?? $0 }.sorted()
            c.console.print(c.text("cli.hub.group.line", ["group": group.name, "children": children.isEmpty ? "-" : children.joined(separator: ", "),
                                                          "devices": String(group.devices.count)]))
        }
        return 0
    }

    /// `hub group child add|remove GROUP CHILD --as NAME --password-stdin` (the child by name or id).
    static func addChild(_ c: Context) throws -> Int32 { try changeChild(c, adding: true) }
    static func removeChild(_ c: Context) throws -> Int32 { try changeChild(c, adding: false) }

    private static func changeChild(_ c: Context, adding: Bool) throws -> Int32 {
        let store = try HubCommands.centre(c)
        guard let group = c.invocation.argument("GROUP"), let named = c.invocation.argument("CHILD") else { return Steppie.exitUsage }
        let actor = try requiredActor(c, store)
        guard let child = try HubCommands.children([named], of: try store.children()).first else { return Steppie.exitUsage }
        if adding {
            try store.addGroupChild(group: group, child: child.id, actor: actor)
        } else {
            try store.removeGroupChild(group: group, child: child.id, actor: actor)
        }
        c.console.print(c.text(adding ? "cli.hub.group.childAdded" : "cli.hub.group.childRemoved", ["group": group, "child": child.name]))
        return 0
    }
}

/// What the staff and group commands refuse before asking the hub.
enum HubStaffCommandError: Error, Equatable, CatalogDescribable {
    /// A password was needed and `--password-stdin` was not given.
    case passwordStdin
    /// Standard input ended before the password.
    case noPassword
    /// The change needs `--as NAME` (and the first admin may only be an admin).
    case signInNeeded

    var catalogMessage: CatalogMessage {
        switch self {
        case .passwordStdin: CatalogMessage("hub.staff.error.passwordStdin")
        case .noPassword: CatalogMessage("hub.staff.error.noPassword")
        case .signInNeeded: CatalogMessage("hub.staff.error.signInNeeded")
        }
    }
}
