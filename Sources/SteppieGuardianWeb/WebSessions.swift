import Foundation
import SteppieCore
import SteppieSecurity

/// The guardian pages' signed-in browsers: a random 256-bit token (the cookie) per session, its
/// CSRF token, and when it ends. Kept in memory only: a service restart signs everyone out.
///
/// A session lasts `GuardianSession.idleTimeout` (3 minutes) after its last request and never
/// more than `maxLifetime` after its sign-in (a page that polls cannot keep it for ever), on the
/// service's `SecureClock` (the boot clock within a boot), so no client value or environment
/// variable can stretch it. A session opened under another PIN than the stored one ends: a PIN
/// changed or recovered anywhere (the command line, the other pages) signs every browser out.
struct WebSessions {
    struct Session {
        let token: String
        let csrf: String
        var deadline: GuardianSession
        /// The end however busy the session is: `maxLifetime` after the sign-in.
        let lifetime: SecureDeadline
        /// `Store.pinGeneration()` when the session was opened.
        var pinGeneration: String?
        /// The language the guardian chose on these pages (nil: the device's).
        var locale: String?
        /// A one-time notice for the next page ("saved").
        var notice: String?
        /// A backup uploaded and waiting for confirmation.
        var restore: GuardianWeb.PendingRestore?
        /// The first run's recovery code, shown until the guardian says it is written down.
        var setupCode: String? = nil
    }

    /// Most sessions at once; the one idle longest makes room for a new one.
    static let maxSessions = 16
    /// The longest a session lasts after its sign-in, however active.
    static let maxLifetime: TimeInterval = 30 * 60

    private var sessions: [String: Session] = [:]

    /// A new session at `now`.
    mutating func open(at now: SecureInstant, locale: String?, pinGeneration: String?) -> Session {
        expire(at: now)
        if sessions.count >= Self.maxSessions, let oldest = sessions.values.min(by: { $0.deadline.until.wall < $1.deadline.until.wall }) {
            sessions[oldest.token] = nil
        }
        let session = Session(token: Secrets.randomToken(), csrf: Secrets.randomToken(), deadline: GuardianSession(lastActivity: now),
                              lifetime: SecureDeadline(after: Self.maxLifetime, from: now), pinGeneration: pinGeneration,
                              locale: locale)
        sessions[session.token] = session
        return session
    }

    /// The live session for a cookie value, extended to 3 minutes from `now`; nil (and the stale
    /// one dropped) when it ended, never existed, or was opened under another PIN than
    /// `pinGeneration` (the stored one now).
    mutating func use(_ token: String?, at now: SecureInstant, pinGeneration: String?) -> Session? {
        guard let token, token.utf8.count == 64, var session = sessions[token] else { return nil }
        guard Self.isLive(session, at: now), session.pinGeneration == pinGeneration else {
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

    /// Keeps `token`'s session across a PIN it brought itself (a restore confirmed with the PIN).
    mutating func rebind(_ token: String, pinGeneration: String?) {
        sessions[token]?.pinGeneration = pinGeneration
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
        for session in sessions.values where !Self.isLive(session, at: now) {
            if let path = session.restore?.path { unlink(path) }   // an upload nobody confirmed
        }
        sessions = sessions.filter { Self.isLive($0.value, at: now) }
    }

    /// Neither idle for 3 minutes nor past its lifetime.
    static func isLive(_ session: Session, at now: SecureInstant) -> Bool {
        session.deadline.isUnlocked(at: now) && session.lifetime.remaining(at: now, longest: maxLifetime, acrossBoots: false) > 0
    }
}
