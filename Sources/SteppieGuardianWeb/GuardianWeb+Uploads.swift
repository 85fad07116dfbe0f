import Foundation

extension GuardianWeb {
    /// A large upload's place, and where its archive goes (nil: kept in memory).
    package struct UploadTicket: Sendable {
        package let slot: UploadSlot
        package let spoolTo: (ledger: UploadLedger, folder: String)?
    }

    /// A signed-in guardian's large upload (nil: no live session): a place among the device's
    /// uploads, or why there is none. A new archive replaces the session's waiting one, so that
    /// one is removed now (its room is free for the new one).
    package func beginUpload(_ token: String?, archive: Bool) -> Result<UploadTicket, UploadRefusal>? {
        let now = config.secureClock.now()
        return inner.withLock { inner -> Result<UploadTicket, UploadRefusal>? in
            let generation = (try? inner.store.pinGeneration()) ?? nil
            guard var session = inner.sessions.use(token, at: now, pinGeneration: generation) else { return nil }
            if archive, session.restore != nil {
                session.restore = nil
                inner.sessions.update(session)
            }
            return config.uploads.reserve(session: session.token).map {
                UploadTicket(slot: $0, spoolTo: archive ? (config.uploads, uploadFolder) : nil)
            }
        }
    }

    /// Whether a cookie names a live session (touched, as the request itself will touch it): the
    /// page server lets only signed-in browsers send bodies over the text limit.
    package func isSignedIn(_ token: String?) -> Bool {
        let now = config.secureClock.now()
        return inner.withLock { inner in
            let generation = (try? inner.store.pinGeneration()) ?? nil
            return inner.sessions.use(token, at: now, pinGeneration: generation) != nil
        }
    }
}
