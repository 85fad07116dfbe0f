import Foundation

/// Finds the folder holding `Localization/` and `Sounds/`.
enum DataLocator {
    static func locate(environment: [String: String], executablePath: String, currentDirectory: String) -> URL? {
        let fm = FileManager.default
        func holdsData(_ url: URL) -> Bool { fm.fileExists(atPath: url.appendingPathComponent("Localization").path) }
        if let dir = environment["STEPPIE_DATA_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        let exe = URL(fileURLWithPath: executablePath)
        let installed = exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/steppie")
        if holdsData(installed) { return installed }
        for start in [exe.deletingLastPathComponent(), URL(fileURLWithPath: currentDirectory)] {
            var dir = start
            for _ in 0..<8 {
                if holdsData(dir) && fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }
}
