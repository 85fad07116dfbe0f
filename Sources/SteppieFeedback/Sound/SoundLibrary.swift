import Foundation

/// The preloaded sound effects, all at the engine's rate in mono float.
public struct SoundLibrary: Sendable {
    public let directory: String
    private let buffers: [SoundName: [Float]]

    /// Loads every `SoundName` from `directory` (`<name>.wav`); a missing file is an error.
    public init(directory: String) throws {
        var loaded: [SoundName: [Float]] = [:]
        for name in SoundName.allCases {
            let path = (directory as NSString).appendingPathComponent("\(name.rawValue).wav")
            guard FileManager.default.fileExists(atPath: path) else {
                throw FeedbackError.missingSound(name: name.rawValue, directory: directory)
            }
            loaded[name] = try SoundFile.read(path: path)
        }
        self.directory = directory
        buffers = loaded
    }

    /// Loads every effect that can be read from `directory`; a missing or unreadable file stays
    /// silent and is returned as a problem, so child mode can report it once and go on.
    public static func loadingWhatIsThere(directory: String) -> (SoundLibrary, [FeedbackError]) {
        var loaded: [SoundName: [Float]] = [:]
        var problems: [FeedbackError] = []
        for name in SoundName.allCases {
            let path = (directory as NSString).appendingPathComponent("\(name.rawValue).wav")
            guard FileManager.default.fileExists(atPath: path) else {
                problems.append(.missingSound(name: name.rawValue, directory: directory))
                continue
            }
            do {
                loaded[name] = try SoundFile.read(path: path)
            } catch let error as FeedbackError {
                problems.append(error)
            } catch {
                problems.append(.soundFile(path: path, reason: String(describing: error)))
            }
        }
        return (SoundLibrary(directory: directory, buffers: loaded), problems)
    }

    private init(directory: String, buffers: [SoundName: [Float]]) {
        self.directory = directory
        self.buffers = buffers
    }

    /// An empty library (every effect silent), for tests and speech-only use.
    public init(buffers: [SoundName: [Float]] = [:]) {
        directory = ""
        self.buffers = buffers
    }

    /// The samples of `name` (empty when absent).
    public func samples(_ name: SoundName) -> [Float] { buffers[name] ?? [] }

    /// Where the sounds are: `$STEPPIE_SOUNDS_DIR`, `./Sounds`, or `Sounds/` beside or above the executable.
    public static func defaultDirectory() -> String {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["STEPPIE_SOUNDS_DIR"], !env.isEmpty { return env }
        let cwd = (fm.currentDirectoryPath as NSString).appendingPathComponent("Sounds")
        if fm.fileExists(atPath: cwd) { return cwd }
        var dir = (CommandLine.arguments.first.map { ($0 as NSString).resolvingSymlinksInPath } ?? "") as NSString
        for _ in 0..<6 {
            dir = dir.deletingLastPathComponent as NSString
            let candidate = dir.appendingPathComponent("Sounds")
            if fm.fileExists(atPath: candidate) { return candidate }
        }
        return cwd
    }
}
