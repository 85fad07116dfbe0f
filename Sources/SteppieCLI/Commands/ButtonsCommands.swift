import Foundation
import SteppieCore
import SteppieFiles
import SteppieInput
import SteppieStore

/// `steppie buttons list|add|remove`: big buttons and switches stored for this device, which a
/// running `steppie serve` opens and closes within a second (docs/buttons.md).
enum ButtonsCommands {
    static func list(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let buttons = try store.deviceButtons()
        let children = try store.children(includeArchived: true)
        func child(_ id: UUID?) -> Child? { id.flatMap { id in children.first { $0.id == id } } }
        if c.json {
            return try BackupCommands.printJSON(buttons.map { b in
                ButtonJSON(id: b.id.lowercased, path: b.path, map: b.keyMap,
                           child: child(b.childId).map { ButtonJSON.ChildRef(id: $0.id.lowercased, name: $0.displayName) },
                           grab: b.grab, debounceMs: b.debounceMilliseconds, present: OwnerOnly.kind(of: b.path) != nil,
                           createdAt: Timestamp.format(b.createdAt, in: store.timeZone),
                           updatedAt: Timestamp.format(b.updatedAt, in: store.timeZone))
            }, c)
        }
        if buttons.isEmpty {
            c.console.print(c.text("cli.buttons.none"))
            return 0
        }
        c.console.print(c.text("cli.buttons.title", ["count": String(buttons.count)]))
        for b in buttons {
            c.console.print(c.text("cli.buttons.row", ["path": b.path, "id": b.id.lowercased]))
            c.console.print(c.text("cli.buttons.details", [
                "keys": b.keyMap ?? c.text("cli.buttons.anyKey"),
                "child": child(b.childId)?.displayName ?? c.text("cli.buttons.defaultChild"),
                "grab": c.text(b.grab ? "cli.buttons.grab" : "cli.buttons.shared"),
                "debounce": b.debounceMilliseconds.map { c.text("cli.buttons.milliseconds", ["ms": String($0)]) }
                    ?? c.text("cli.buttons.defaultDebounce"),
                "state": c.text(OwnerOnly.kind(of: b.path) != nil ? "cli.buttons.present" : "cli.buttons.absent"),
            ]))
        }
        return 0
    }

    static func add(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let raw = inv.argument("PATH") ?? ""   // required, and --grab / --no-grab exclusive: the tree's rules
        let path = try DevicePaths.storable(raw, option: "PATH", c)
        do throws(ButtonPathError) { try ButtonPath.checkStorable(path) } catch {
            throw UsageError.refusedValue(option: "PATH", value: raw, reason: c.text(CatalogMessage.button(key: error.catalogKey, arguments: error.arguments)))
        }
        // `--map` is typed in the tree (`ButtonMap`): the parser refused a malformed one.
        let keyMap = inv.typed(ButtonMap.self, "--map").flatMap { $0 == .anyKeyIsDone ? nil : $0.description }
        // The parser has checked the range (`AllowedValues.debounceMilliseconds`).
        let debounce = inv.value("--debounce").flatMap { Int($0) }
        let store = try c.store()
        let child = try inv.value("--child").map { try store.resolveChild($0) }
        let button = try store.addDeviceButton(path: path, keyMap: keyMap, childId: child?.id, grab: inv.flag("--grab"),
                                               debounceMilliseconds: debounce, at: c.now)
        c.console.print(c.text("cli.buttons.added", ["path": button.path, "id": button.id.lowercased,
                                                     "child": child?.displayName ?? c.text("cli.buttons.defaultChild")]))
        return 0
    }

    static func remove(_ c: Context) throws -> Int32 {
        guard let raw = c.invocation.argument("PATH|ID") else { throw UsageError.missingArgument("PATH|ID") }
        // An id as it is; a path made absolute the way `add` stored it.
        let selector = UUID(uuidString: raw) != nil || raw.isEmpty ? raw : DevicePaths.absolute(raw)
        let removed = try c.store().removeDeviceButton(selector)
        c.console.print(c.text("cli.buttons.removed", ["path": removed.path, "id": removed.id.lowercased]))
        return 0
    }
}

/// `buttons list --json`: absent values are written as null, as everywhere in the contract.
struct ButtonJSON: Encodable {
    struct ChildRef: Encodable {
        let id: String
        let name: String
    }
    let id: String
    let path: String
    /// The key map; null: any key is done.
    let map: String?
    /// The child its presses are for; null: `serve --child`, else the only child.
    let child: ChildRef?
    let grab: Bool
    /// null: the default window (300 ms).
    let debounceMs: Int?
    /// Whether something is at the path now (a button plugged in).
    let present: Bool
    let createdAt: String
    let updatedAt: String

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(path, forKey: .path)
        try c.encode(map, forKey: .map)
        try c.encode(child, forKey: .child)
        try c.encode(grab, forKey: .grab)
        try c.encode(debounceMs, forKey: .debounceMs)
        try c.encode(present, forKey: .present)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    enum Keys: String, CodingKey { case id, path, map, child, grab, debounceMs, present, createdAt, updatedAt }
}
