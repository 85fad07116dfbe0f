import Foundation
import SteppieBackup
import SteppieCore
import SteppieFiles
import SteppieSecurity

/// Photos from the routine form and a child's picture form (one rule for both): recognised by
/// content, kept owner-only beside the database under the contract's one photo name.
extension GuardianWeb {
    /// A photo from the form, checked by content (JPEG or PNG, ≤ 5 MiB, ≤ 8192 px a side and 40 MP) and kept owner-only in the
    /// photos folder under a new `routine-photo-<id>` name, with the SHA-256 of its bytes; nil when the form had none.
    func savePhoto(_ r: Request) throws -> (icon: IconRef, path: String, sha256: String)? {
        guard let file = r.web.files["photo"], !file.bytes.isEmpty else { return nil }
        guard file.bytes.count <= Self.maxPhotoBytes else {
            throw FormError(field: "photo", key: "web.error.photoSize", arguments: ["mib": String(Self.maxPhotoBytes >> 20)])
        }
        guard let kind = PhotoContent.recognise(file.bytes) else { throw FormError(field: "photo", key: "web.error.photoKind") }
        guard kind.fitsLimits else {
            throw FormError(field: "photo", key: "web.error.photoPixels",
                            arguments: ["width": String(kind.width), "height": String(kind.height), "side": String(PhotoContent.maxSide),
                                        "megapixels": String(PhotoContent.maxPixels / 1_000_000)])
        }
        guard let dir = config.photosDirectory else { throw FormError(field: "photo", key: "web.error.photoFolder") }
        let id = UUID().lowercased
        let ext: String = { if case .png = kind { return "png" }; return "jpg" }()
        let name = "routine-photo-\(id).\(ext)"
        let path = dir.appendingPathComponent(name).path
        do {
            _ = try OwnerOnly.createDirectories(dir.path)
            let fd = try OwnerOnly.openForWriting(path, exclusive: true)
            defer { close(fd) }
            do {
                try file.bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: path) }
                try Descriptor.sync(fd, path: path)
            } catch {
                unlink(path)
                throw error
            }
        } catch {
            throw FormError(field: "photo", key: "web.error.photoWrite", arguments: ["reason": r.failureReason(error)])
        }
        // The content's address: history names a picture by it, backups check it, sync sends by it.
        var hash = SHA256()
        hash.update(file.bytes)
        return (.photo(localAssetId: id, backupAssetName: name), path, hash.finalHex())
    }

    /// Records a saved photo's hash once the routine names it (`Store.recordPhotoHash`). A failure
    /// here only leaves the photo without a recorded hash, as photos set before schema v8 are; it
    /// goes to the service's log (the routine itself was saved, so the page says nothing of it).
    func recordPhotoHash(_ r: Request, _ photo: (icon: IconRef, path: String, sha256: String)?) {
        guard let photo, case .photo(_, let name) = photo.icon else { return }
        do {
            try r.store.recordPhotoHash(name: name, sha256: photo.sha256)
        } catch {
            _ = r.failureReason(error)
        }
    }
}
