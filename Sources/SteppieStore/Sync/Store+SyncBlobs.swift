import Foundation
import SteppieCore
import SteppieSync

/// Which photos and recordings this database names by content (docs/sync.md, "Photos and
/// recordings"): the agent fetches the missing ones after a pull, and the hub lets a device read
/// only the ones its children's registers name.
extension Store {
    /// Every photo a routine, a look or a child's picture names by its hash, and every recording
    /// with a hash, each once.
    package func syncBlobsNamedHere() throws -> [SyncBlob] {
        try read {
            var out: Set<SyncBlob> = []
            let names = try db.query("""
                SELECT json_extract(icon, '$.backupAssetName') FROM routines WHERE json_extract(icon, '$.type') = 'photo'
                UNION SELECT json_extract(icon, '$.backupAssetName') FROM routine_looks WHERE json_extract(icon, '$.type') = 'photo'
                UNION SELECT json_extract(picture, '$.backupAssetName') FROM children
                    WHERE picture IS NOT NULL AND json_extract(picture, '$.type') = 'photo'
                """) { $0.optionalText(0) }
            for name in names.compactMap({ $0 }) {
                if let blob = SyncBlob.photo(named: name) { out.insert(blob) }
            }
            for sha in try db.query("SELECT DISTINCT sha256 FROM routine_recordings WHERE sha256 IS NOT NULL", [], { $0.text(0) }) {
                out.insert(SyncBlob(sha256: sha, kind: .recording))
            }
            return out.sorted()
        }
    }

    /// The file name (in `recordings/`) of a recording here whose bytes hash to `sha256`.
    package func syncRecordingFile(sha256: String) throws -> String? {
        try read {
            try db.queryFirst("SELECT file_name FROM routine_recordings WHERE sha256 = ? ORDER BY rowid LIMIT 1",
                              [.text(sha256)]) { $0.text(0) }
        }
    }

    /// On the hub: the children of the device whose credential hashes to `credentialHash` (nil:
    /// no such device).
    /// The device whose credential this is (nil: none, or it was removed).
    package func syncHubDevice(credentialHash: String) throws -> DeviceID? {
        try read {
            _ = try hubState()
            for (hash, id) in try db.query("SELECT credential_hash, id FROM sync_devices", [], { ($0.text(0), $0.text(1)) })
            where Self.equalHashes(hash, credentialHash) {
                return DeviceID(id)
            }
            return nil
        }
    }

    package func syncHubDeviceChildren(credentialHash: String) throws -> Set<String>? {
        try read {
            _ = try hubState()
            for (hash, children) in try db.query("SELECT credential_hash, children FROM sync_devices", [], { ($0.text(0), $0.text(1)) })
            where Self.equalHashes(hash, credentialHash) {
                return Set(SyncJSON.value(children)?.strings ?? [])
            }
            return nil
        }
    }

    /// On the hub: whether a register or an event of one of `children` names the content `sha256`.
    package func syncHubBlobNamed(sha256: String, children: Set<String>) throws -> Bool {
        guard SyncBlob.isHash(sha256), !children.isEmpty else { return false }
        let list = SyncJSON.text(.array(children.sorted().map(SyncValue.string)))
        return try read {
            try db.queryFirst("""
                SELECT EXISTS (SELECT 1 FROM sync_registers WHERE child IN (SELECT value FROM json_each(?1))
                        AND field IN ('icon', 'picture', 'sha256') AND instr(value, ?2) > 0)
                    OR (EXISTS (SELECT 1 FROM sync_event_looks WHERE instr(icon, ?2) > 0)
                        AND EXISTS (SELECT 1 FROM sync_event_log WHERE target IN (SELECT id FROM sync_event_targets
                            WHERE child IN (SELECT value FROM json_each(?1))) AND look IN (SELECT id FROM sync_event_looks WHERE instr(icon, ?2) > 0)))
                """, [.text(list), .text(sha256)]) { $0.bool(0) } ?? false
        }
    }
}
