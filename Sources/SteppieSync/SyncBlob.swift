import SteppieCore

/// A photo's or a recorded prompt's content as sync names it: by the SHA-256 of its bytes
/// (docs/sync.md, "Photos and recordings"). A photo travels as the routine's `icon` (or a
/// child's `picture`, or what a press showed) with the hash in its file name,
/// `routine-photo-<sha256>.jpg|png`; a recording as its `sha256` register. The bytes go once to
/// the hub (`PUT /sync/v1/blob/<sha256>`) and come once to each device that needs them.
package struct SyncBlob: Hashable, Sendable, Comparable {
    package enum Kind: Hashable, Sendable {
        /// A photo, kept as `routine-photo-<sha256>.<ext>` (`jpg`, `jpeg` or `png`).
        case photo(ext: String)
        /// A recorded prompt, kept as `<sha256>.audio` (or under the name the device recorded it with).
        case recording
    }

    package let sha256: String
    package let kind: Kind

    package init(sha256: String, kind: Kind) {
        self.sha256 = sha256
        self.kind = kind
    }

    package static func < (a: SyncBlob, b: SyncBlob) -> Bool { a.sha256 < b.sha256 }

    /// Whether `text` is a SHA-256 as sync writes it: 64 lowercase hex digits.
    package static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// What every hub checks of content a device sends before looking inside it (the household
    /// hub's files, the centre's `blobs` table): the name a SHA-256, the size within the
    /// recording limit, and the name the bytes' own hash (`sha256` computes it). Nil: go on.
    package static func refusal(name: String, count: Int, sha256: () -> String) -> SyncRefusal? {
        guard isHash(name) else { return .malformed(reason: "a blob is named by its SHA-256") }
        guard count <= RecordingCheck.maximumBytes else { return .tooLarge }
        let actual = sha256()
        guard actual == name else { return .malformed(reason: "the bytes' SHA-256 is \(actual), not their name") }
        return nil
    }

    package static let photoPrefix = "routine-photo-"
    package static let photoExtensions = ["jpg", "jpeg", "png"]

    /// The photo a file name names by its content (`routine-photo-<sha256>.jpg`), or nil for
    /// any other name (a photo kept before sync named photos by content travels by name only).
    package static func photo(named name: String) -> SyncBlob? {
        guard name.hasPrefix(photoPrefix) else { return nil }
        let rest = name.dropFirst(photoPrefix.count)
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, isHash(String(parts[0])), photoExtensions.contains(String(parts[1])) else { return nil }
        return SyncBlob(sha256: String(parts[0]), kind: .photo(ext: String(parts[1])))
    }

    /// The photo file name of a content hash.
    package static func photoFileName(sha256: String, ext: String) -> String { "\(photoPrefix)\(sha256).\(ext)" }

    /// The file name this blob is kept under in its folder (photos: the assets; recordings: `recordings/`).
    package var fileName: String {
        switch kind {
        case .photo(let ext): Self.photoFileName(sha256: sha256, ext: ext)
        case .recording: "\(sha256).audio"
        }
    }

    /// The photo an icon or picture value names (`{"type": "photo", "backupAssetName": …}`).
    package static func photo(in value: SyncValue?) -> SyncBlob? {
        guard case .object(let fields)? = value, fields["type"]?.string == "photo",
              let name = fields["backupAssetName"]?.string else { return nil }
        return photo(named: name)
    }

    /// Every blob the entries name, each once, in hash order.
    package static func named(in entries: [SyncEntry]) -> [SyncBlob] {
        var out: Set<SyncBlob> = []
        for entry in entries {
            switch entry {
            case .change(let c):
                switch (c.entity, c.field) {
                case (.routine, "icon"), (.child, "picture"): if let blob = photo(in: c.value) { out.insert(blob) }
                case (.recording, "sha256"): if let sha = c.value.string, isHash(sha) { out.insert(SyncBlob(sha256: sha, kind: .recording)) }
                default: break
                }
            case .event(let e):
                if let blob = photo(in: e.shownIcon) { out.insert(blob) }
            }
        }
        return out.sorted()
    }
}
