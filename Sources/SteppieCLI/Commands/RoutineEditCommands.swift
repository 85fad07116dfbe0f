import Foundation
import SteppieCore
import SteppieStore

/// `steppie routine add|edit|move|activate|deactivate|delete|restore`: editing one routine card.
/// Positions on the command line count from 1, as `steppie routines` shows them.
enum RoutineEditCommands {
    static func add(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let store = try c.store()
        let setId: UUID
        if let raw = inv.value("--set") {
            setId = try Ids.parse(raw, argument: "--set")
        } else {
            let child = try c.child()
            guard let active = try store.activeSet(childId: child.id) else { throw StoreError.noActiveSet(child: child.displayName) }
            setId = active.id
        }
        let position = try inv.value("--position").map { try parsePosition($0, option: "--position") }
        let routine = try store.addRoutine(setId: setId, title: try title(from: inv, base: LocalizedText([:])),
                                           icon: inv.value("--icon").map { IconRef.builtin(name: $0) } ?? .fallback,
                                           colorToken: inv.value("--color").map(colorToken), position: position,
                                           scheduledTime: try inv.value("--time").flatMap { $0 == "none" ? nil : try Validator.parseTime($0, field: "scheduledTime") },
                                           at: c.now)
        c.console.print(c.text("cli.routine.added", ["title": c.resolve(routine.title), "id": routine.id.lowercased,
                                                     "position": String(routine.order + 1)]))
        return 0
    }

    static func edit(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let store = try c.store()
        var r = try store.routine(id: try routineId(c))
        r.title = try title(from: inv, base: r.title)
        if let icon = inv.value("--icon") { r.icon = .builtin(name: icon) }
        if let color = inv.value("--color") { r.colorToken = colorToken(color) }
        if let time = inv.value("--time") {
            r.scheduledTime = time == "none" ? nil : try Validator.parseTime(time, field: "scheduledTime")
        }
        try store.updateRoutine(r, at: c.now)
        c.console.print(c.text("cli.routine.edited", ["title": c.resolve(r.title)]))
        return 0
    }

    static func move(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let id = try routineId(c)
        let to = c.invocation.value("--to") ?? ""   // required by the tree
        try store.moveRoutine(id: id, to: try parsePosition(to, option: "--to"), at: c.now)
        c.console.print(c.text("cli.routine.moved", ["title": c.resolve(try store.routine(id: id).title), "position": to]))
        return 0
    }

    static func activate(_ c: Context) throws -> Int32 {
        let r = try c.store().setRoutineActive(id: try routineId(c), true, at: c.now)
        c.console.print(c.text("cli.routine.activated", ["title": c.resolve(r.title), "position": String(r.order + 1)]))
        return 0
    }

    static func deactivate(_ c: Context) throws -> Int32 {
        let r = try c.store().setRoutineActive(id: try routineId(c), false, at: c.now)
        c.console.print(c.text("cli.routine.deactivated", ["title": c.resolve(r.title)]))
        return 0
    }

    static func delete(_ c: Context) throws -> Int32 {
        let r = try c.store().deleteRoutine(id: try routineId(c), at: c.now)
        c.console.print(c.text("cli.routine.deleted", ["title": c.resolve(r.title), "id": r.id.lowercased]))
        return 0
    }

    static func restore(_ c: Context) throws -> Int32 {
        let r = try c.store().restoreRoutine(id: try routineId(c), at: c.now)
        c.console.print(c.text("cli.routine.restored", ["title": c.resolve(r.title), "position": String(r.order + 1)]))
        return 0
    }

    /// `mint` means the card token `color.card.mint`; anything else goes to the validator as given.
    private static func colorToken(_ name: String) -> String { CardColor(rawValue: name)?.token ?? name }

    private static func routineId(_ c: Context) throws -> UUID {
        try Ids.parse(c.invocation.argument("ROUTINE-ID"), argument: "ROUTINE-ID")
    }

    /// A 1-based position from the command line as a zero-based order.
    private static func parsePosition(_ text: String, option: String) throws -> Int {
        guard let n = Int(text) else { throw UsageError.invalidValue(option: option, value: text, expected: "a position 1, 2, …") }
        guard n >= 1 else { throw ContractViolation(field: "position", value: text, allowed: "1 or more", allowedKey: "contract.allowed.oneOrMore") }
        return n - 1
    }

    /// `base` with the titles given by `--title-ko` / `--title-en` replaced (an empty value removes that locale).
    private static func title(from inv: Invocation, base: LocalizedText) throws -> LocalizedText {
        var values = base.values
        for (option, tag) in [("--title-ko", "ko"), ("--title-en", "en")] {
            guard let v = inv.value(option) else { continue }
            values[tag] = v.isEmpty ? nil : v
        }
        return LocalizedText(values)
    }
}
