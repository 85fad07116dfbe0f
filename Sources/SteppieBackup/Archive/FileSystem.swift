import Foundation
import SteppieFiles

/// The few file operations a backup needs, each turning failure into `BackupError.fileSystem`.
enum FileSystem {
    /// A finished archive at `temp` takes the name `target`: owner-only, on disk before it is
    /// renamed and the name on disk after (a power cut leaves either no archive or a whole one),
    /// the target checked again (it may have become something else meanwhile). Returns its size.
    static func publish(_ temp: URL, as target: URL) throws -> UInt64 {
        guard chmod(temp.path, OwnerOnly.fileMode) == 0 else {
            throw BackupError.fileSystem(path: temp.path, reason: "chmod: \(String(cString: strerror(errno)))")
        }
        try sync(temp)
        try StagingArea.files(target.path) { try OwnerOnly.checkOutputTarget(target.path) }
        try rename(temp, to: target)
        try sync(target.deletingLastPathComponent())
        return (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)??.uint64Value ?? 0
    }

    /// Atomic rename within one file system (`rename(2)`), replacing a file at `to`.
    static func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw BackupError.fileSystem(path: to.path, reason: "rename from \(from.lastPathComponent): \(String(cString: strerror(errno)))")
        }
    }

    /// A second name for a file (`link(2)`): the photos a restore keeps go into the new folder
    /// without a copy, and the old folder still has them until the commit.
    static func link(_ from: URL, to: URL) throws {
        guard Foundation.link(from.path, to.path) == 0 else {
            throw BackupError.fileSystem(path: to.path, reason: "link to \(from.lastPathComponent): \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes the file (or folder) at `url` to stable storage (`fsync(2)`).
    static func sync(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BackupError.fileSystem(path: url.path, reason: "open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw BackupError.fileSystem(path: url.path, reason: "fsync: \(String(cString: strerror(errno)))") }
    }

    static func remove(_ url: URL) throws {
        do { try FileManager.default.removeItem(at: url) } catch {
            throw BackupError.fileSystem(path: url.path, reason: error.localizedDescription)
        }
    }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    static func createDirectory(_ url: URL) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw BackupError.fileSystem(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Regular files directly inside `directory` (none when it does not exist), sorted by name.
    static func files(in directory: URL) throws -> [(name: String, size: UInt64)] {
        guard exists(directory) else { return [] }
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            return try names.compactMap { name in
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                guard attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
                return (name, (attributes[.size] as? NSNumber)?.uint64Value ?? 0)
            }
        } catch {
            throw BackupError.fileSystem(path: directory.path, reason: error.localizedDescription)
        }
    }
}
