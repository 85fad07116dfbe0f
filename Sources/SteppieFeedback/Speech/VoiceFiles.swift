import Foundation

/// Where espeak-ng keeps a language's voice file, so the voice is chosen by its file.
///
/// `espeak_SetVoiceByName("en")` first looks for `voices/en` and `lang/en`; when neither exists
/// (English is `lang/gmw/en`) it reads every voice and variant file in the data folder to build
/// its list (about 200 files, 6 ms of a 20 ms `espeak-ng -w` here). Given the file's own path,
/// `gmw/en`, it loads that file at once; the voice, and every sample, is the same.
struct VoiceFiles: Sendable {
    /// espeak-ng's data folder (`espeak_Info`), e.g. `/usr/lib/x86_64-linux-gnu/espeak-ng-data`.
    let dataDirectory: String

    /// The name to hand to `espeak_SetVoiceByName` for `voice` (`language` or `language+variant`):
    /// the language's path below `lang/` when it is found there in a family folder (`gmw/en+f3`),
    /// else `voice` unchanged (espeak-ng then searches as before).
    func resolve(_ voice: String) -> String {
        let parts = voice.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let language = String(parts[0])
        guard let path = path(of: language) else { return voice }
        return parts.count == 2 ? "\(path)+\(parts[1])" : path
    }

    /// `lang/<language>` itself → the language as it is; `lang/<family>/<language>` → that path;
    /// nil when the name is not a plain language name or no file has it.
    func path(of language: String) -> String? {
        guard !language.isEmpty, language.utf8.allSatisfy({ Self.nameBytes.contains($0) }) else { return nil }
        let lang = dataDirectory + "/lang"
        // A voice in `voices/` wins in espeak-ng's own lookup: leave those names alone.
        if isFile(dataDirectory + "/voices/" + language) { return nil }
        if isFile(lang + "/" + language) { return language }
        guard let families = try? FileManager.default.contentsOfDirectory(atPath: lang) else { return nil }
        for family in families.sorted() where !family.hasPrefix(".") && isFile("\(lang)/\(family)/\(language)") {
            return "\(family)/\(language)"
        }
        return nil
    }

    /// The variant files in `voices/!v` whose names a profile accepts (`Validator.voiceVariant`).
    func variants() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory + "/voices/!v")) ?? []
        return names.filter { name in
            !name.isEmpty && name.utf8.count <= 40 && isFile(dataDirectory + "/voices/!v/" + name)
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }.sorted { $0.lowercased() < $1.lowercased() }
    }

    private func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static let nameBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)
}
