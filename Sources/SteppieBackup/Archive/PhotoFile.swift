import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity

/// Keeping a guardian's photo (the routine form, a child's picture form, `steppie routine photo`):
/// checked by content, kept owner-only in the photos folder under the name of its content,
/// `routine-photo-<sha256>.jpg|png`, so the same photo is one file whatever number of routines
/// show it, and sync sends it once by that name (docs/sync.md, "Photos and recordings").
public enum PhotoFile {
    /// Why a photo was not kept.
    public enum Refusal: Error, Equatable, Sendable {
        /// Over `PhotoContent.maxBytes`.
        case tooLarge
        /// Not a JPEG or PNG image.
        case notPhoto
        /// Larger in pixels than the limits.
        case pixels(PhotoContent)
    }

    /// What keeping a photo gave: the icon naming it, its path, the SHA-256 of its bytes, and
    /// whether this save made the file (false: the same photo was kept already, and stays).
    public struct Kept: Sendable, Equatable {
        public var icon: IconRef
        public var path: String
        public var sha256: String
        public var created: Bool
    }

    /// The photo `bytes` are, when they pass the checks the guardian pages make.
    public static func check(_ bytes: [UInt8]) -> Result<PhotoContent, Refusal> {
        guard bytes.count <= PhotoContent.maxBytes else { return .failure(.tooLarge) }
        guard let kind = PhotoContent.recognise(bytes) else { return .failure(.notPhoto) }
        guard kind.fitsLimits else { return .failure(.pixels(kind)) }
        return .success(kind)
    }

    /// The extension a photo of this kind is kept with.
    public static func fileExtension(_ kind: PhotoContent) -> String {
        if case .png = kind { return "png" }
        return "jpg"
    }

    /// Keeps checked bytes in `directory` (made owner-only when missing) under their content's name.
    public static func keep(_ bytes: [UInt8], kind: PhotoContent, in directory: URL) throws -> Kept {
        let sha = SHA256.hex(of: Data(bytes))
        let name = "routine-photo-\(sha).\(fileExtension(kind))"
        let path = directory.appendingPathComponent(name).path
        let icon = IconRef.photo(localAssetId: UUID().lowercased, backupAssetName: name)
        _ = try OwnerOnly.createDirectories(directory.path)
        if OwnerOnly.kind(of: path) == .regular { return Kept(icon: icon, path: path, sha256: sha, created: false) }
        let temporary = directory.appendingPathComponent(".photo-\(UUID().lowercased).part").path
        let fd = try OwnerOnly.openForWriting(temporary, exclusive: true)
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: temporary) }
            try Descriptor.sync(fd, path: temporary)
            guard rename(temporary, path) == 0 else {
                let code = errno
                throw FileRefusal.system(path: path, operation: "rename", errno: code, reason: String(cString: strerror(code)))
            }
        } catch {
            unlink(temporary)
            throw error
        }
        return Kept(icon: icon, path: path, sha256: sha, created: true)
    }
}
