import Foundation
import SteppieCore
import SteppieStore

/// Guardian mode around commands: commands that change data need it on whenever a PIN is set and
/// extend it; commands that only look neither need it nor extend it, and never create a database.
enum GuardianAccess {
    /// Wraps a handler that changes data: refused while a PIN is set and guardian mode is off.
    static func changing(_ handler: @escaping Steppie.Handler) -> Steppie.Handler {
        { c in
            try requireUnlocked(c)
            return try handler(c)
        }
    }

    /// Wraps a handler that only looks: it opens an existing database only and leaves the guardian
    /// session as it is (looking is not guardian activity).
    static func looking(_ handler: @escaping Steppie.Handler) -> Steppie.Handler {
        { c in
            c.lookOnly = true
            return try handler(c)
        }
    }

    /// Throws `GuardianError.sessionRequired` unless no PIN is set or guardian mode is on (which it extends).
    static func requireUnlocked(_ c: Context) throws {
        let store = try c.store()
        let state = try store.guardianState()
        guard state.hasPin else { return }
        let now = c.secureNow
        if try store.touchGuardianSession(at: now) == nil {
            throw GuardianError.sessionRequired(lockedSeconds: wholeSeconds(state.lockRemaining(at: now)))
        }
    }

    /// Whole seconds, rounded up; nil when nothing is left.
    static func wholeSeconds(_ left: TimeInterval) -> Int? {
        left > 0 ? Int(left.rounded(.up)) : nil
    }
}
