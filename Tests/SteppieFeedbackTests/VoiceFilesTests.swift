import Foundation
import Testing
@testable import SteppieFeedback

/// Voices are chosen by their file (issue 16): the path resolution, and the same samples as
/// espeak-ng's own lookup by name.
@Suite struct VoiceFilesTests {
    /// A data folder laid out like espeak-ng's: `lang/<family>/<language>`, `lang/<language>`, `voices/`.
    static func dataFolder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("voices-\(UUID().uuidString)").path
        for dir in ["lang/gmw", "lang/sit", "lang/zle", "voices/!v", "voices/mb"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(dir)", withIntermediateDirectories: true)
        }
        for file in ["lang/gmw/en", "lang/gmw/en-US", "lang/ko", "lang/zle/ru", "voices/!v/f3", "voices/special"] {
            try Data("name x\n".utf8).write(to: URL(fileURLWithPath: "\(root)/\(file)"))
        }
        // A folder named like a language is not a voice file.
        try FileManager.default.createDirectory(atPath: "\(root)/lang/sit/ko-folder", withIntermediateDirectories: true)
        return root
    }

    /// The variants a profile may name: files of `voices/!v` with names the contract accepts
    /// (a name with a space, or a folder, is not offered), sorted; the real espeak-ng's too.
    @Test func variantsAreTheVariantFilesWithUsableNames() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for file in ["voices/!v/m1", "voices/!v/Mr serious", "voices/!v/Annie"] {
            try Data("name x\n".utf8).write(to: URL(fileURLWithPath: "\(root)/\(file)"))
        }
        try FileManager.default.createDirectory(atPath: "\(root)/voices/!v/folder", withIntermediateDirectories: true)
        #expect(VoiceFiles(dataDirectory: root).variants() == ["Annie", "f3", "m1"])
        let installed = try SpeechSynthesizer.shared.installedVariants()
        #expect(installed.count > 20 && installed.contains("f3") && installed.contains("m1"), "\(installed)")
        #expect(!installed.contains { $0.contains(" ") })
    }

    @Test func languagesInFamilyFoldersAreNamedByTheirPath() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = VoiceFiles(dataDirectory: root)
        #expect(files.resolve("en") == "gmw/en")
        #expect(files.resolve("en+f3") == "gmw/en+f3")
        #expect(files.resolve("en-US") == "gmw/en-US")
        #expect(files.resolve("ru") == "zle/ru")
        // Already at the top of lang/: espeak-ng finds it without a search.
        #expect(files.resolve("ko") == "ko")
        #expect(files.resolve("ko+m2") == "ko+m2")
    }

    @Test func anythingElseIsLeftToEspeak() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = VoiceFiles(dataDirectory: root)
        // A voice in voices/ wins in espeak-ng's own lookup; unknown names, folders and paths stay as given.
        for name in ["special", "xx", "ko-folder", "../lang/ko", "gmw/en", "", "en us", "+f3"] {
            #expect(files.resolve(name) == name, "\(name)")
        }
        #expect(VoiceFiles(dataDirectory: root + "/missing").resolve("en") == "en")
    }
}
