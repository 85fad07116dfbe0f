import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// The children of the device holding this credential (its own and its group's), nil when none
    /// does: its row found by the hash's index (migration `2026-12-hub-v6-devices-by-credential`),
    /// the hash compared again here in constant time.
    package func deviceChildren(credentialHash: String) throws -> Set<String>? {
        try pool.withConnection { c in
            for (hash, children, group) in try c.query(Self.deviceByCredential, [.text(credentialHash)], {
                (try $0.text(0), try $0.text(1), try $0.text(2))
            })
            where Self.equalHashes(hash, credentialHash) {
                return Set(SyncJSON.value(children)?.strings ?? []).union(SyncJSON.value(group)?.strings ?? [])
            }
            return nil
        }
    }

    /// The device holding a credential, by its hash (`$1`): the hash, its children and its group's.
    package static let deviceByCredential = """
        SELECT d.credential_hash, d.children::text,
               COALESCE((SELECT jsonb_agg(g.child) FROM group_children g WHERE g.group_id = d.group_id), '[]')::text
        FROM devices d WHERE d.credential_hash = $1
        """

    /// Whether the hub holds the bytes named `sha256`.
    package func hasBlob(_ sha256: String) throws -> Bool {
        guard SyncBlob.isHash(sha256) else { return false }
        return try pool.withConnection { c in try c.queryFirst("SELECT 1 FROM blobs WHERE sha256 = $1", [.text(sha256)], { _ in true }) ?? false }
    }

    /// The bytes named `$2` when a register or an event of one of the children `$1` (`text[]`)
    /// names them, the children's rows found by their indexes.
    package static let blobOfChildren = """
        SELECT bytes FROM blobs WHERE sha256 = $2 AND (
            EXISTS (SELECT 1 FROM registers WHERE child = ANY ($1::text[])
                    AND field IN ('icon', 'picture', 'sha256') AND strpos(value::text, $2) > 0)
            OR EXISTS (SELECT 1 FROM events WHERE child = ANY ($1::text[]) AND strpos(shown_icon::text, $2) > 0))
        """

    /// The bytes named `sha256` when a register or an event of one of `children` names them
    /// (`Store.syncHubBlobNamed`); nil otherwise.
    package func blob(_ sha256: String, children: Set<String>) throws -> [UInt8]? {
        guard SyncBlob.isHash(sha256), !children.isEmpty else { return nil }
        return try pool.withConnection { c in
            try c.queryFirst(Self.blobOfChildren, [.textArray(children.sorted()), .text(sha256)]) { try $0.bytes(0) }
        }
    }

    /// Stores checked bytes under their hash, once; true when stored now.
    package func storeBlob(_ sha256: String, bytes: [UInt8]) throws -> Bool {
        try pool.withConnection { c in
            try c.run("INSERT INTO blobs (sha256, bytes, size) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
                      [.text(sha256), .bytes(bytes), .int(bytes.count)]) == 1
        }
    }
}
