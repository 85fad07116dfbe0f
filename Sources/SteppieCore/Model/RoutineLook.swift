import Foundation

/// What a routine's card showed when it was completed: its title and its icon (a builtin name or
/// a photo), kept so that a later rename or a new photo does not rewrite past days (the snapshot
/// rule of the finance model, seed `004_*`). Immutable once written; many logs share one look.
public struct RoutineLook: Hashable, Sendable, Identifiable, Codable {
    public var id: UUID
    public var routineId: UUID
    public var title: LocalizedText
    public var icon: IconRef
    /// The SHA-256 (lowercase hex) of the photo's bytes when the icon is a photo whose hash is
    /// known (`photo_hashes`); nil for a builtin icon or a photo set before schema v8.
    public var photoSha256: String?
    public var createdAt: Date

    public init(id: UUID, routineId: UUID, title: LocalizedText, icon: IconRef, photoSha256: String? = nil, createdAt: Date) {
        self.id = id; self.routineId = routineId; self.title = title; self.icon = icon
        self.photoSha256 = photoSha256; self.createdAt = createdAt
    }

    /// `routine` as this look showed it: its title and icon, everything else as it is now.
    public func applied(to routine: Routine) -> Routine {
        var shown = routine
        shown.title = title
        shown.icon = icon
        return shown
    }

    /// True when `text` is a SHA-256 as stored: 64 lowercase hexadecimal digits.
    public static func isSha256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
