import SteppieCore
import SteppiePostgres
import SteppieSync

/// Groups of children (a class) and the devices given one (docs/centre.md, "Staff, roles and
/// groups"). A device's children are its own (`devices.children`: granted one by one, or made on
/// it) and its group's (`group_children` of `devices.group_id`); every change to what a device
/// gets makes its next pull a fresh copy. Every change is an editor's or an admin's.
extension CentreStore {
    /// A group as `steppie hub group list` shows it.
    package struct Group: Equatable, Sendable {
        package let id: Int64
        package let name: String
        package let children: [String]
        package let devices: [DeviceID]
    }

    /// A new group, by an editor or an admin.
    @discardableResult
    package func addGroup(name: String, actor: Staff) throws -> Group {
        let name = try Self.checkedName(name)
        return try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .manageGroups)
                guard try Self.groupID(c, name) == nil else { throw CentreStaffError.groupNameTaken(name) }
                guard let id = try c.queryFirst("INSERT INTO groups (name) VALUES ($1) RETURNING id", [.text(name)], { try $0.int(0) }) else {
                    throw PostgresError.unexpectedValue(column: 0, expected: "the new group's id", statement: "groups")
                }
                return Group(id: id, name: name, children: [], devices: [])
            }
        }
    }

    /// Removes a group: its devices keep only their own children (their next pull is a copy).
    package func removeGroup(name: String, actor: Staff) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .manageGroups)
                guard let id = try Self.groupID(c, name) else { throw CentreStaffError.noSuchGroup(name) }
                try Self.holdDevices(c, group: id)
                try c.run("UPDATE devices SET needs_copy = true WHERE group_id = $1", [.integer(id)])
                try Self.nudge(c)
                try c.run("DELETE FROM groups WHERE id = $1", [.integer(id)])
            }
        }
    }

    /// Every group with its children and devices, by name.
    package func groups() throws -> [Group] {
        try pool.withConnection { c in try c.query(Self.groupsQuery(where: "true"), [], Self.group) }
    }

    /// Puts a child (by id) in a group; the group's devices get it with their next pull (a copy).
    package func addGroupChild(group: String, child: String, actor: Staff) throws {
        try changeGroupChild(group: group, child: child, actor: actor, sql: """
            INSERT INTO group_children (group_id, child) VALUES ($1, $2) ON CONFLICT DO NOTHING
            """)
    }

    /// Takes a child out of a group; the group's devices no longer get it (unless it is their own).
    package func removeGroupChild(group: String, child: String, actor: Staff) throws {
        try changeGroupChild(group: group, child: child, actor: actor, sql: "DELETE FROM group_children WHERE group_id = $1 AND child = $2")
    }

    private func changeGroupChild(group: String, child: String, actor: Staff, sql: String) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .manageGroups)
                guard let id = try Self.groupID(c, group) else { throw CentreStaffError.noSuchGroup(group) }
                guard try c.queryFirst("SELECT 1 FROM registers WHERE entity = 'child' AND record = $1 LIMIT 1", [.text(child)],
                                       { _ in true }) != nil else { throw CentreStaffError.noSuchChild(child) }
                try Self.holdDevices(c, group: id)
                if try c.run(sql, [.integer(id), .text(child)]) > 0 {
                    try c.run("UPDATE devices SET needs_copy = true WHERE group_id = $1", [.integer(id)])
                    try Self.nudge(c)
                }
            }
        }
    }

    /// Gives a device a group (nil: none), by an editor or an admin; its next pull is a fresh
    /// copy of its own children and the group's.
    package func giveGroup(device: DeviceID, group: String?, actor: Staff) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .grantChildren)
                var id: Int64?
                if let group {
                    guard let found = try Self.groupID(c, group) else { throw CentreStaffError.noSuchGroup(group) }
                    id = found
                }
                guard try c.run("UPDATE devices SET group_id = $1, needs_copy = true WHERE id = $2",
                                [id.map(PostgresValue.integer) ?? .null, .text(device.text)]) == 1 else {
                    throw CentreStaffError.noSuchDevice(device.text)
                }
                try Self.nudge(c)
            }
        }
    }

    /// Gives a device these children of its own (`grant(device:children:)`), by an editor or an admin.
    package func grant(device: DeviceID, children: [String], actor: Staff) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .grantChildren)
                guard try Self.grant(c, device: device, children: children) == 1 else { throw CentreStaffError.noSuchDevice(device.text) }
            }
        }
    }

    /// A joining code, by an admin (`invite(codeHash:children:expiresAt:)`).
    package func invite(codeHash: String, children: [String], expiresAt: Int64, actor: Staff) throws {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .makeJoiningCodes)
                try Self.invite(c, codeHash: codeHash, children: children, expiresAt: expiresAt)
            }
        }
    }

    /// Removes a device, by an admin (`remove(device:)`): its credential is refused at once.
    @discardableResult
    package func remove(device: DeviceID, actor: Staff) throws -> Bool {
        try pool.withConnection { c in
            try c.transaction { c in
                try Self.authorize(c, actor, .removeDevices)
                return try Self.remove(c, device: device)
            }
        }
    }

    /// Holds the group's devices' rows (in id order) before the group changes: a push of one of
    /// them in progress commits first, and one that comes after reads the group as changed.
    static func holdDevices(_ c: PostgresConnection, group: Int64) throws {
        try c.run("SELECT 1 FROM devices WHERE group_id = $1 ORDER BY id FOR UPDATE", [.integer(group)])
    }

    /// A group's id by its name, whatever its letters' case.
    static func groupID(_ c: PostgresConnection, _ name: String) throws -> Int64? {
        try c.queryFirst("SELECT id FROM groups WHERE lower(name) = lower($1)", [.text(name.trimmingCharacters(in: .whitespacesAndNewlines))],
                         { try $0.int(0) })
    }
}
