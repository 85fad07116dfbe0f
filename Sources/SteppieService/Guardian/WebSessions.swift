import Foundation
import SteppieCore
import SteppieSecurity

/// The guardian pages' signed-in browsers: a random 256-bit token (the cookie) per session, its
/// CSRF token, and when it ends. Kept in memory only: a service restart signs everyone out.
///
/// A session lasts `GuardianSession.idleTimeout` (3 minutes) after its last request, on the
/// service's `SecureClock` (the boot clock within a boot), so no client value or environment
/// variable can stretch it.
struct WebSessions {
    struct Session {
        let token: String
        let csrf: String
        var deadline: GuardianSession
        /// The language the guardian chose on these pages (nil: the device's).
        var locale: String?
        /// A one-time notice for the next page ("saved").
        var notice: String?
        /// A backup uploaded and waiting for confirmation.
        var restore: GuardianWeb.PendingRestore?
    }

    /// Most sessions at once; the one idle longest makes room for a new one.
    static let maxSessions = 16

    private var sessions: [String: Session] = [:]

    /// A new session at `now`.
    mutating func open(at now: SecureInstant, locale: String?) -> Session {
        expire(at: now)
        if sessions.count >= Self.maxSessions, let oldest = sessions.values.min(by: { $0.deadline.until.wall < $1.deadline.until.wall }) {
            sessions[oldest.token] = nil
        }
        let session = Session(token: Secrets.randomToken(), csrf: Secrets.randomToken(), deadline: GuardianSession(lastActivity: now),
                              locale: locale)
        sessions[session.token] = session
        return session
    }

    /// The live session for a cookie value, extended to 3 minutes from `now`; nil (and the stale
    /// one dropped) when it ended or never existed.
    mutating func use(_ token: String?, at now: SecureInstant) -> Session? {
        guard let token, token.utf8.count == 64, var session = sessions[token] else { return nil }
        guard session.deadline.isUnlocked(at: now) else {
            if let path = session.restore?.path { unlink(path) }
            sessions[token] = nil
            return nil
        }
        session.deadline = session.deadline.touched(at: now)
        sessions[token] = session
        return session
    }

    mutating func update(_ session: Session) {
        if sessions[session.token] != nil { sessions[session.token] = session }
    }

    mutating func close(_ token: String) {
        if let path = sessions[token]?.restore?.path { unlink(path) }
        sessions[token] = nil
    }

    /// Signs every browser out (the PIN changed).
    mutating func closeAll() {
        for session in sessions.values { if let path = session.restore?.path { unlink(path) } }
        sessions.removeAll()
    }

    var count: Int { sessions.count }

    mutating func expire(at now: SecureInstant) {
        for session in sessions.values where !session.deadline.isUnlocked(at: now) {
            if let path = session.restore?.path { unlink(path) }   // an upload nobody confirmed
        }
        sessions = sessions.filter { $0.value.deadline.isUnlocked(at: now) }
    }
}
