import Foundation
import SteppieCore
import SteppieSecurity
import SteppieStore
import SteppieTLS

/// A one-time joining code made on the hub (`steppie sync invite`, the guardian's sync page):
/// 8 random digits shown as `1234-5678`, valid 10 minutes; only their SHA-256 is kept.
package struct SyncInvitation: Equatable, Sendable {
    /// How long a joining code is valid.
    package static let validMinutes = 10

    /// The code as the guardian reads it (`1234-5678`): shown once, never stored.
    package let code: String
    /// The hub's certificate fingerprint the joining device's guardian checks.
    package let fingerprint: String
    /// The hub's device id.
    package let hubDevice: String
    /// Milliseconds since 1970 when the code stops working.
    package let expiresAt: Int64

    /// Makes a code on the hub for these children (lowercased ids; empty: every child).
    package static func make(_ store: Store, children: [String], clock: any WallClock) throws -> SyncInvitation {
        guard let state = try store.syncState(), state.role == .hub else { throw SyncInvitationError.notHub }
        let fingerprint = try hubFingerprint(store)
        let digits = Secrets.randomDigits(8)
        let expires = SyncRound.milliseconds(clock) + Int64(validMinutes) * 60_000
        try store.syncHubInvite(codeHash: SyncCodes.hash(digits), children: children, expiresAt: expires)
        return SyncInvitation(code: digits.prefix(4) + "-" + digits.suffix(4), fingerprint: fingerprint, hubDevice: state.device.text,
                              expiresAt: expires)
    }

    /// The fingerprint of the certificate the hub presents (its guardian pages' own, made by the
    /// first `serve --hub`).
    package static func hubFingerprint(_ store: Store) throws -> String {
        do {
            return try TLSIdentityStore(databasePath: store.path).load().fingerprint
        } catch {
            throw SyncInvitationError.noIdentity
        }
    }
}

/// Why a joining code could not be made.
package enum SyncInvitationError: Error, Equatable, CatalogDescribable {
    /// This database is not a hub.
    case notHub
    /// The hub has no HTTPS identity yet (it is made by the first `serve --hub`).
    case noIdentity

    package var catalogMessage: CatalogMessage {
        switch self {
        case .notHub: CatalogMessage("sync.error.notHub")
        case .noIdentity: CatalogMessage("sync.error.noIdentity")
        }
    }
}
