import SteppieCore

/// What the centre's staff and group operations refuse (docs/centre.md). A refused act changes nothing.
package enum CentreStaffError: Error, Equatable, Sendable, CatalogDescribable {
    /// The acting member's role does not permit this.
    case notPermitted(role: StaffRole, action: StaffAction)
    /// The acting member was removed (or never existed): sign in again.
    case notStaff
    /// A wrong name or password (the same answer for both).
    case signInRefused
    /// Too many wrong passwords for this name: wait.
    case lockedOut(seconds: Int)
    /// A name not 1–60 printable characters.
    case invalidName
    /// A password shorter than `CentreStore.minimumPasswordLength` (or longer than the maximum).
    case passwordLength(minimum: Int, maximum: Int)
    /// Someone current already has this name (whatever its letters' case).
    case staffNameTaken(String)
    /// No current member of this name.
    case noSuchStaff(String)
    /// The first admin without signing in, when an admin exists already.
    case adminExists
    /// The last current admin cannot be removed.
    case lastAdmin
    /// A group of this name exists already (whatever its letters' case).
    case groupNameTaken(String)
    /// No group of this name.
    case noSuchGroup(String)
    /// The hub holds no child with this id.
    case noSuchChild(String)
    /// No device with this id.
    case noSuchDevice(String)

    package var catalogMessage: CatalogMessage {
        switch self {
        case .notPermitted(let role, let action):
            CatalogMessage("hub.staff.error.notPermitted", ["role": .message(CatalogMessage("hub.staff.role." + role.rawValue)),
                                                           "action": .message(CatalogMessage("hub.staff.action." + action.rawValue))])
        case .notStaff: CatalogMessage("hub.staff.error.notStaff")
        case .signInRefused: CatalogMessage("hub.staff.error.signInRefused")
        case .lockedOut(let seconds): CatalogMessage("hub.staff.error.lockedOut", ["seconds": .text(String(seconds))])
        case .invalidName: CatalogMessage("hub.staff.error.invalidName")
        case .passwordLength(let minimum, let maximum):
            CatalogMessage("hub.staff.error.passwordLength", ["minimum": .text(String(minimum)), "maximum": .text(String(maximum))])
        case .staffNameTaken(let name): CatalogMessage("hub.staff.error.nameTaken", ["name": .text(Validator.printable(name))])
        case .noSuchStaff(let name): CatalogMessage("hub.staff.error.noSuchStaff", ["name": .text(Validator.printable(name))])
        case .adminExists: CatalogMessage("hub.staff.error.adminExists")
        case .lastAdmin: CatalogMessage("hub.staff.error.lastAdmin")
        case .groupNameTaken(let name): CatalogMessage("hub.group.error.nameTaken", ["group": .text(Validator.printable(name))])
        case .noSuchGroup(let name): CatalogMessage("hub.group.error.noSuchGroup", ["group": .text(Validator.printable(name))])
        case .noSuchChild(let child): CatalogMessage("hub.group.error.noSuchChild", ["child": .text(Validator.printable(child))])
        case .noSuchDevice(let device): CatalogMessage("hub.group.error.noSuchDevice", ["device": .text(Validator.printable(device))])
        }
    }
}
