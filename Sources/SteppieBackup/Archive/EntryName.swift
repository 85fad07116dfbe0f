import SteppieCore

/// What an archive entry is, decided from its name alone.
enum EntryName: Equatable {
    case manifest, data, assetDirectory
    case asset(String)
    case recordingDirectory
    case recording(String)

    /// Accepts only `manifest.json`, `data.json`, `assets/`, `assets/<photo name>`, `recordings/` and
    /// `recordings/<uuid>.<ext>`; any name
    /// that could leave the destination (`..`, `/etc/x`, `C:`, backslashes, controls) is unsafe.
    static func classify(_ name: String) throws -> EntryName {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let unsafe = name.isEmpty || name.hasPrefix("/") || name.contains("\\") || name.contains(":")
            || components.contains(where: { $0 == ".." || $0 == "." })
            || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        if unsafe { throw BackupError.unsafeEntryName(Validator.printable(name)) }
        switch name {
        case "manifest.json": return .manifest
        case "data.json": return .data
        case "assets/": return .assetDirectory
        case "recordings/": return .recordingDirectory
        default:
            if components.count == 2, components[0] == "recordings" {
                let file = String(components[1])
                guard RecordingCheck.isFileName(file) else { throw BackupError.unexpectedEntry(Validator.printable(name)) }
                return .recording(file)
            }
            guard components.count == 2, components[0] == "assets" else { throw BackupError.unexpectedEntry(Validator.printable(name)) }
            let file = String(components[1])
            do { try Validator.photoAssetName(file) } catch { throw BackupError.unexpectedEntry(Validator.printable(name)) }
            return .asset(file)
        }
    }
}
