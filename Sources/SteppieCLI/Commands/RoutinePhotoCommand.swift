import Foundation
import SteppieBackup
import SteppieCore
import SteppieStore

/// `steppie routine photo ROUTINE-ID FILE`: shows a photo on a routine card, checked and kept as
/// the routine page keeps one (`PhotoFile`: JPEG or PNG, ≤ 5 MiB, named by its content), with
/// its hash recorded (history and sync name it by that). The photo it replaces goes unless
/// something still shows it.
enum RoutinePhotoCommand {
    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        var routine = try store.routine(id: try Ids.parse(c.invocation.argument("ROUTINE-ID"), argument: "ROUTINE-ID"))
        let path = c.invocation.argument("FILE") ?? ""
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
        guard let size else { throw PhotoCommandError.notFound(path: path) }
        guard size <= PhotoContent.maxBytes else { throw PhotoCommandError.refused(path: path, .tooLarge) }
        guard let data = FileManager.default.contents(atPath: path) else { throw PhotoCommandError.notFound(path: path) }
        let bytes = Array(data)
        let kind: PhotoContent
        switch PhotoFile.check(bytes) {
        case .success(let k): kind = k
        case .failure(let refusal): throw PhotoCommandError.refused(path: path, refusal)
        }
        let folder = BackupCreator.assetsDirectory(forDatabase: store.path)
        let kept = try PhotoFile.keep(bytes, kind: kind, in: folder)
        let old = routine.icon
        routine.icon = kept.icon
        do { try store.updateRoutine(routine, at: c.now) } catch {
            if kept.created { unlink(kept.path) }
            throw error
        }
        try store.recordPhotoHash(name: SyncNameOf.photo(kept.icon), sha256: kept.sha256)
        if case .photo(_, let previous) = old, previous != SyncNameOf.photo(kept.icon), try !store.photoInUse(previous) {
            unlink(folder.appendingPathComponent(previous).path)
        }
        c.console.print(c.text("cli.routine.photoSet", ["title": c.resolve(routine.title), "sha256": kept.sha256]))
        return 0
    }
}

/// The file name an icon's photo has ("" for a builtin icon).
enum SyncNameOf {
    static func photo(_ icon: IconRef) -> String {
        if case .photo(_, let name) = icon { return name }
        return ""
    }
}

/// Why `steppie routine photo` kept nothing.
enum PhotoCommandError: Error, Equatable {
    case notFound(path: String)
    case refused(path: String, PhotoFile.Refusal)
}

extension PhotoCommandError: CatalogDescribable {
    var catalogMessage: CatalogMessage {
        switch self {
        case .notFound(let path): CatalogMessage("cli.error.photo.notFound", ["path": .detail(path)])
        case .refused(let path, .tooLarge):
            CatalogMessage("cli.error.photo.tooLarge", ["path": .detail(path), "mib": .text(String(PhotoContent.maxBytes >> 20))])
        case .refused(let path, .notPhoto): CatalogMessage("cli.error.photo.kind", ["path": .detail(path)])
        case .refused(let path, .pixels(let kind)):
            CatalogMessage("cli.error.photo.pixels", ["path": .detail(path), "width": .text(String(kind.width)),
                                                      "height": .text(String(kind.height)), "side": .text(String(PhotoContent.maxSide))])
        }
    }
}
