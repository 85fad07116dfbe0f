import Foundation
import SteppieCore
import SteppieStore

/// `steppie profile show|set`: a child's feedback profile.
enum ProfileCommands {
    /// Prints the child's profile as text or JSON.
    static func show(_ c: Context) throws -> Int32 {
        let child = try c.child()
        let p = child.profile
        if c.json {
            try c.printJSON(json(p, child: child))
            return 0
        }
        let on = { (b: Bool) in c.text(b ? "cli.profile.on" : "cli.profile.off") }
        let none = c.text("cli.profile.none")
        let rows: [(String, String)] = [
            ("intensity", c.text("feedback.intensity.\(p.intensity.rawValue)")),
            ("sound", on(p.soundEnabled)), ("speech", on(p.ttsEnabled)), ("haptic", on(p.hapticEnabled)),
            ("ttsRate", format(p.ttsRate)), ("ttsVolume", format(p.ttsVolume)), ("volumeCap", format(p.volumeCap)),
            ("pitch", String(p.pitch)), ("voice", p.voiceVariant ?? c.text("cli.profile.default")),
            ("undo", c.text("cli.profile.seconds", ["seconds": String(p.undoDurationSeconds)])),
            ("leadTimes", p.notificationLeadTimes.isEmpty ? none : p.notificationLeadTimes.map(String.init).joined(separator: ", ")),
            ("quietHours", quietHours(p) ?? none),
            ("locale", p.locale ?? c.text("cli.profile.system")),
        ]
        c.console.print(c.text("cli.profile.header", ["child": child.displayName]))
        for (field, value) in rows {
            c.console.print("  " + c.text("cli.profile.field.\(field)", ["value": value]))
        }
        return 0
    }

    /// Changes the given profile values; the database is left unchanged when any value is refused.
    static func set(_ c: Context) throws -> Int32 {
        let child = try c.child()
        try c.store().updateProfile(childId: child.id, ProfileOptions(invocation: c.invocation).patch, at: c.now)
        c.console.print(c.text("cli.profile.updated", ["child": child.displayName]))
        return 0
    }

    /// `profile show --json`.
    struct ProfileJSON: Encodable {
        let child: String
        let intensity: String
        let sound: Bool
        let speech: Bool
        let haptic: Bool
        let ttsRate: Double
        let ttsVolume: Double
        let volumeCap: Double
        let pitch: Int
        @NullIfAbsent var voice: String?
        let undoSeconds: Int
        let leadTimes: [Int]
        @NullIfAbsent var quietHours: String?
        @NullIfAbsent var locale: String?
    }

    static func json(_ p: FeedbackProfile, child: Child) -> ProfileJSON {
        ProfileJSON(child: child.displayName, intensity: p.intensity.rawValue, sound: p.soundEnabled, speech: p.ttsEnabled,
                    haptic: p.hapticEnabled, ttsRate: p.ttsRate, ttsVolume: p.ttsVolume, volumeCap: p.volumeCap,
                    pitch: p.pitch, voice: p.voiceVariant, undoSeconds: p.undoDurationSeconds,
                    leadTimes: p.notificationLeadTimes, quietHours: quietHours(p), locale: p.locale)
    }

    private static func quietHours(_ p: FeedbackProfile) -> String? {
        guard let s = p.quietHoursStart, let e = p.quietHoursEnd else { return nil }
        return "\(s)-\(e)"
    }

    private static func format(_ v: Double) -> String { String(format: "%.2f", v) }
}
