import Foundation
@testable import SteppieLocalization

/// A temporary directory removed when the test is done with it.
final class TempDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-l10n-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `relative`, creating folders on the way.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }
}

/// The repository checkout this test file belongs to.
func repositoryRoot(file: String = #filePath) -> URL? {
    DataDirectory.sourceCheckout(above: URL(fileURLWithPath: file).deletingLastPathComponent())
}

/// The repository's real `Localization/` folder.
func repositoryLocalization() throws -> URL {
    guard let root = repositoryRoot() else { throw TestSetupError.noRepository }
    return DataDirectory.localizationDirectory(in: root)
}

enum TestSetupError: Error { case noRepository }

/// A small in-memory catalog set for lookup tests.
func sampleSet() throws -> CatalogSet {
    func entries(_ pairs: [String: String]) throws -> [String: CatalogEntry] {
        try pairs.mapValues { .text(try MessageTemplate(parsing: $0)) }
    }
    var en = Catalog(locale: "en", entries: try entries([
        "tts.completed": "{routineTitle} done. Great job!",
        "only.en": "English only",
    ]))
    en.set("child.remaining", .plural([
        .one: try MessageTemplate(parsing: "1 activity left"),
        .other: try MessageTemplate(parsing: "{count} activities left"),
    ]))
    let ko = Catalog(locale: "ko", entries: try entries([
        "tts.completed": "{routineTitle} 완료! 잘했어요!",
        "tts.reminder": "{minutes}분 뒤에 {routineTitle|을를} 해요",
        "child.remaining": "{count}개 남았어요",
    ]))
    let enGB = Catalog(locale: "en-GB", entries: try entries(["tts.completed": "{routineTitle} finished. Brilliant!"]))
    let fr = Catalog(locale: "fr", entries: try entries(["only.fr": "Seulement en français", "only.en": "pas ici"]))
    return CatalogSet([en, ko, enGB, fr])
}
