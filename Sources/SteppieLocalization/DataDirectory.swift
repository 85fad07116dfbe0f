import Foundation

/// Finds the directory that holds Steppie's data folders, `Localization/` and `Sounds/`.
public enum DataDirectory {
    /// The environment variable that names the data directory explicitly.
    public static let environmentVariable = "STEPPIE_DATA_DIR"

    /// The data directory, searched in this order:
    /// 1. `STEPPIE_DATA_DIR`, when set and not empty (taken as given, so a wrong path shows up in
    ///    the loader's error rather than being silently skipped);
    /// 2. the installed layout: for `<prefix>/bin/steppie`, `<prefix>/share/steppie` if it holds
    ///    `Localization/` (checked for the path as given and with symbolic links resolved);
    /// 3. a source checkout: walking up from the executable's folder (a `swift run` binary lives in
    ///    `<repo>/.build/<triple>/debug/`), then from `currentDirectory`, to the first folder that
    ///    holds both `Localization/` and `Package.swift`.
    ///
    /// A relative `executablePath` is read against `currentDirectory`. Returns `nil` when nothing fits.
    public static func locate(environment: [String: String], executablePath: String,
                              currentDirectory: String = FileManager.default.currentDirectoryPath) -> URL? {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
                .standardizedFileURL
        }
        let cwd = URL(fileURLWithPath: currentDirectory, isDirectory: true).standardizedFileURL
        var executables: [URL] = []
        if !executablePath.isEmpty {
            let given = URL(fileURLWithPath: executablePath, relativeTo: cwd).standardizedFileURL
            executables.append(given)
            let resolved = given.resolvingSymlinksInPath()
            if resolved != given { executables.append(resolved) }
        }
        for executable in executables {
            let bin = executable.deletingLastPathComponent()
            guard bin.lastPathComponent == "bin" else { continue }
            let share = bin.deletingLastPathComponent().appendingPathComponent("share/steppie", isDirectory: true)
            if hasDirectory("Localization", in: share) { return share }
        }
        for start in executables.map({ $0.deletingLastPathComponent() }) + [cwd] {
            if let checkout = sourceCheckout(above: start) { return checkout }
        }
        return nil
    }

    /// `<data>/Localization`.
    public static func localizationDirectory(in data: URL) -> URL {
        data.appendingPathComponent("Localization", isDirectory: true)
    }

    /// `<data>/Web`: the kiosk pages and their icons.
    public static func webDirectory(in data: URL) -> URL {
        data.appendingPathComponent("Web", isDirectory: true)
    }

    /// `<data>/Sounds`.
    public static func soundsDirectory(in data: URL) -> URL {
        data.appendingPathComponent("Sounds", isDirectory: true)
    }

    /// The first folder at or above `start` holding `Localization/` and `Package.swift`.
    static func sourceCheckout(above start: URL) -> URL? {
        var folder = start.standardizedFileURL
        while true {
            if hasDirectory("Localization", in: folder),
               FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    public static func hasDirectory(_ name: String, in folder: URL) -> Bool {
        var isDirectory: ObjCBool = false
        let path = folder.appendingPathComponent(name, isDirectory: true).path
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
