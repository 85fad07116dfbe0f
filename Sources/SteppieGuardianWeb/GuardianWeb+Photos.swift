import Foundation
import SteppieBackup
import SteppieCore
import SteppieFiles
import SteppieSecurity

/// Photos from the routine form and a child's picture form (one rule for both): recognised by
/// content, kept owner-only beside the database under the contract's one photo name.
extension GuardianWeb {
    /// A photo from the form, checked by content (JPEG or PNG, ≤ 5 MiB, ≤ 8192 px a side and 40 MP) and kept owner-only in the
    /// photos folder under the name of its content, `routine-photo-<sha256>.<ext>` (`PhotoFile`, the one path of the pages and
    /// `steppie routine photo`); nil when the form had none. `path` is the file this save made, to remove if the edit fails
    /// (empty when the same photo was kept already: it stays).
    func savePhoto(_ r: Request) throws -> (icon: IconRef, path: String, sha256: String)? {
        guard let file = r.web.files["photo"], !file.bytes.isEmpty else { return nil }
        let kind: PhotoContent
        switch PhotoFile.check(file.bytes) {
        case .success(let k): kind = k
        case .failure(.tooLarge):
            throw FormError(field: "photo", key: "web.error.photoSize", arguments: ["mib": String(Self.maxPhotoBytes >> 20)])
        case .failure(.notPhoto): throw FormError(field: "photo", key: "web.error.photoKind")
        case .failure(.pixels(let kind)):
            throw FormError(field: "photo", key: "web.error.photoPixels",
                            arguments: ["width": String(kind.width), "height": String(kind.height), "side": String(PhotoContent.maxSide),
                                        "megapixels": String(PhotoContent.maxPixels / 1_000_000)])
        }
        guard let dir = config.photosDirectory else { throw FormError(field: "photo", key: "web.error.photoFolder") }
        do {
            let kept = try PhotoFile.keep(file.bytes, kind: kind, in: dir)
            return (kept.icon, kept.created ? kept.path : "", kept.sha256)
        } catch {
            throw FormError(field: "photo", key: "web.error.photoWrite", arguments: ["reason": r.failureReason(error)])
        }
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
