/// What a member of the centre's staff may do (docs/centre.md, "Staff, roles and groups"):
/// a viewer reads; an editor also manages groups and which children a device gets; an admin also
/// makes joining codes, removes devices and adds or removes staff.
package enum StaffRole: String, CaseIterable, Codable, Sendable {
    case viewer, editor, admin

    /// Whether this role may do `action`.
    package func permits(_ action: StaffAction) -> Bool {
        switch action {
        case .read: true
        case .manageGroups, .grantChildren: self == .editor || self == .admin
        case .makeJoiningCodes, .removeDevices, .manageStaff: self == .admin
        }
    }
}

/// The kinds of act the roles decide (`StaffRole.permits`).
package enum StaffAction: String, CaseIterable, Sendable {
    /// See the devices, groups, staff and children.
    case read
    /// Make, rename or remove a group; put a child in one or take it out.
    case manageGroups
    /// Give a device a group or children.
    case grantChildren
    /// Make a joining code.
    case makeJoiningCodes
    /// Remove a joined device.
    case removeDevices
    /// Add or remove a member of staff.
    case manageStaff
}

/// A member of the centre's staff as a signed-in act carries them. The store checks against the
/// database, on every change, that this member is still current and what their role is now: a
/// member removed or given another role meanwhile acts with what the database says.
package struct Staff: Equatable, Sendable {
    package let id: Int64
    package let name: String
    package let role: StaffRole

    package init(id: Int64, name: String, role: StaffRole) {
        self.id = id
        self.name = name
        self.role = role
    }
}
