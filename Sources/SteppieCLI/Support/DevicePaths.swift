import Foundation
import SteppieCore

/// Paths of this device's hardware as typed on the command line: made absolute from the current
/// folder and written plainly, because the service that uses them runs in another folder.
enum DevicePaths {
    /// `raw` as an absolute path with empty and `.` parts dropped and `..` taken back by words
    /// alone (nothing on the disk is read: `/dev/input/by-id` names are symbolic links and stay
    /// as they are).
    static func absolute(_ raw: String, currentFolder: String = FileManager.default.currentDirectoryPath) -> String {
        let full = raw.hasPrefix("/") ? raw : currentFolder + "/" + raw
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `raw` made absolute and checked as a path the device may store; a refusal is a usage
    /// error naming `option`.
    static func storable(_ raw: String, option: String, _ c: Context) throws -> String {
        let path = absolute(raw)
        do { try Validator.devicePath(path, field: option) } catch {
            throw UsageError.refusedValue(option: option, value: raw, reason: c.text("cli.device.pathMalformed"))
        }
        return path
    }
}
