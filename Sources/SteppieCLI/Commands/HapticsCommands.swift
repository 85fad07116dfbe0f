import Foundation
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieStore

/// `steppie haptics show|set`: which haptic stand-ins this device uses (the audio pulse mixed into
/// the sound, an evdev force-feedback device, a JSON-lines log). `steppie serve` and `steppie
/// child` use the setting when they start; a running service takes a change within a second
/// (docs/feedback.md).
enum HapticsCommands {
    static func show(_ c: Context) throws -> Int32 {
        let store = try c.store()
        try printSetting(try store.deviceHaptics(), store: store, c)
        return 0
    }

    static func set(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let pulse = inv.value("--audio-pulse")
        let rumbleText = inv.value("--rumble"), logText = inv.value("--log")
        // nil: leave as it is; .some(nil): none.
        let rumble: String?? = try rumbleText.map { (text: String) throws -> String? in
            if text == "none" { return nil }
            return try rumblePath(text, c)
        }
        let log: String?? = try logText.map { (text: String) throws -> String? in
            if text == "none" { return nil }
            return try logPath(text, c)
        }
        let store = try c.store()
        let saved = try store.updateDeviceHaptics(at: c.now) { h in
            if let pulse { h.audioPulse = pulse == "on" }
            if let rumble { h.rumblePath = rumble }
            if let log { h.logPath = log }
        }
        if !c.json { c.console.print(c.text("cli.haptics.saved")) }
        try printSetting(saved, store: store, c)
        return 0
    }

    /// A force-feedback device: an event node under /dev/input. When it is there it must have
    /// FF_RUMBLE; a game pad not plugged in yet is accepted (the service opens it when it is there).
    static func rumblePath(_ raw: String, _ c: Context) throws -> String {
        let path = try DevicePaths.storable(raw, option: "--rumble", c)
        guard path.hasPrefix(Validator.inputDeviceFolder) else {
            throw UsageError.refusedValue(option: "--rumble", value: raw, reason: c.text("cli.haptics.rumbleOutside"))
        }
        guard let kind = OwnerOnly.kind(of: path) else { return path }
        guard kind == .characterDevice else {
            throw UsageError.refusedValue(option: "--rumble", value: raw,
                                          reason: c.text("cli.haptics.rumbleKind", ["kind": c.text("file.kind.\(kind.rawValue)")]))
        }
        do { _ = try RumbleDevice(path: path) } catch let e as FeedbackError {
            throw UsageError.refusedValue(option: "--rumble", value: raw, reason: c.text(e.catalogMessage))
        }
        return path
    }

    /// The event log: a regular file, or a new one in a folder that exists.
    static func logPath(_ raw: String, _ c: Context) throws -> String {
        let path = try DevicePaths.storable(raw, option: "--log", c)
        switch OwnerOnly.kind(of: path) {
        case nil:
            guard OwnerOnly.kind(of: OwnerOnly.parent(of: path)) == .directory else {
                throw UsageError.refusedValue(option: "--log", value: raw,
                                              reason: c.text("cli.haptics.logFolderMissing", ["folder": OwnerOnly.parent(of: path)]))
            }
        case .regular?:
            break
        case let kind?:
            throw UsageError.unusablePath(option: "--log", .notRegularFile(path: path, kind: kind))
        }
        return path
    }

    static func printSetting(_ h: DeviceHaptics, store: Store, _ c: Context) throws {
        if c.json {
            _ = try BackupCommands.printJSON(HapticsJSON(audioPulse: h.audioPulse, rumble: h.rumblePath, log: h.logPath,
                                                         updatedAt: h.updatedAt.map { Timestamp.format($0, in: store.timeZone) }), c)
            return
        }
        func state(_ path: String) -> String {
            c.text(OwnerOnly.kind(of: path) != nil ? "cli.buttons.present" : "cli.buttons.absent")
        }
        c.console.print(c.text("cli.haptics.title"))
        c.console.print(c.text("cli.haptics.audioPulse", ["value": c.text(h.audioPulse ? "cli.haptics.on" : "cli.haptics.off")]))
        c.console.print(c.text("cli.haptics.rumble", ["value": h.rumblePath.map { "\($0) (\(state($0)))" } ?? c.text("cli.haptics.none")]))
        c.console.print(c.text("cli.haptics.log", ["value": h.logPath ?? c.text("cli.haptics.none")]))
    }
}

/// `haptics show --json`: absent values are written as null.
struct HapticsJSON: Encodable {
    let audioPulse: Bool
    let rumble: String?
    let log: String?
    /// When the setting was last changed; null: never (the defaults).
    let updatedAt: String?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(audioPulse, forKey: .audioPulse)
        try c.encode(rumble, forKey: .rumble)
        try c.encode(log, forKey: .log)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    enum Keys: String, CodingKey { case audioPulse, rumble, log, updatedAt }
}
