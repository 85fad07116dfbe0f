import Foundation
import SteppieCore
import SteppieStore

/// Guardian mode around commands: every guardian command extends the session; commands that change
/// data need it on whenever a PIN is set.
enum GuardianAccess {
    /// Wraps a handler that changes data: refused while a PIN is set and guardian mode is off.
    static func changing(_ handler: @escaping Steppie.Handler) -> Steppie.Handler {
        { c in
            try requireUnlocked(c)
            return try handler(c)
        }
    }

    /// Wraps a handler that only looks: it extends a running session but needs none.
    static func looking(_ handler: @escaping Steppie.Handler) -> Steppie.Handler {
        { c in
            try touch(c)
            return try handler(c)
        }
    }

    /// Throws `GuardianError.sessionRequired` unless no PIN is set or guardian mode is on (which it extends).
    static func requireUnlocked(_ c: Context) throws {
        let store = try c.store()
        let state = try store.guardianState()
        guard state.hasPin else { return }
        if try store.touchGuardianSession(at: c.now) == nil {
            throw GuardianError.sessionRequired(lockedSeconds: state.lockedUntil.flatMap { seconds(from: c.now, to: $0) })
        }
    }

    /// Extends guardian mode when it is on; writes nothing otherwise.
    static func touch(_ c: Context) throws {
        let store = try c.store()
        if try store.guardianState().unlockedUntil != nil { try store.touchGuardianSession(at: c.now) }
    }

    /// Whole seconds from `now` until `until`, rounded up; nil when `until` has passed.
    static func seconds(from now: Date, to until: Date) -> Int? {
        let left = until.timeIntervalSince(now)
        return left > 0 ? Int(left.rounded(.up)) : nil
    }
}
