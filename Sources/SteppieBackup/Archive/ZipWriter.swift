import CZip
import Foundation

/// A new ZIP archive being written. Owns the libzip handle: `close()` writes it; if the writer
/// goes away without a successful close, `deinit` discards everything (no partial archive).
final class ZipWriter {
    private var handle: ZipHandle?
    let path: String

    /// Creates (truncating) the archive at `path`; nothing is written before `close()`.
    init(path: String) throws {
        self.path = path
        var code: Int32 = 0
        guard let za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw BackupError.zip(operation: "zip_open", code: code, message: ZipReader.message(code: code))
        }
        handle = za
    }

    deinit { if let handle { zip_discard(handle) } }

    /// Adds a directory entry such as `assets/`; `stored` marks it stored (method 0) rather than
    /// libzip's default, for readers that accept nothing else (the iOS app's).
    func addDirectory(_ name: String, stored: Bool = false) throws {
        let za = try open()
        let index = zip_dir_add(za, name, ZIP_FL_ENC_UTF_8)
        guard index >= 0 else { throw error("zip_dir_add \(name)") }
        if stored, zip_set_file_compression(za, UInt64(index), ZIP_CM_STORE, 0) != 0 { throw error("zip_set_file_compression \(name)") }
    }

    /// Adds `bytes` under `name` (libzip takes its own copy).
    func add(name: String, bytes: [UInt8], compress: Bool) throws {
        let za = try open()
        // libzip frees this copy with the source (freep = 1), on success or failure of zip_file_add.
        guard let copy = malloc(max(bytes.count, 1)) else { throw BackupError.zip(operation: "malloc", code: ZIP_ER_MEMORY, message: "out of memory") }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { memcpy(copy, base, bytes.count) } }
        guard let source = zip_source_buffer(za, copy, UInt64(bytes.count), 1) else {
            free(copy)
            throw error("zip_source_buffer \(name)")
        }
        try add(name: name, source: source, compress: compress)
    }

    /// Adds the file at `file` under `name`; libzip reads it during `close()`. `level` is the
    /// deflate level (1–9; 0 is libzip's default, 9).
    func add(name: String, file: String, compress: Bool, level: UInt32 = 0) throws {
        let za = try open()
        guard let source = zip_source_file(za, file, 0, -1) else { throw error("zip_source_file \(file)") }
        try add(name: name, source: source, compress: compress, level: level)
    }

    private func add(name: String, source: OpaquePointer, compress: Bool, level: UInt32 = 0) throws {
        let za = try open()
        let index = zip_file_add(za, name, source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)
        guard index >= 0 else {
            zip_source_free(source)   // on failure the source is still ours
            throw error("zip_file_add \(name)")
        }
        guard zip_set_file_compression(za, UInt64(index), compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, compress ? level : 0) == 0 else {
            throw error("zip_set_file_compression \(name)")
        }
    }

    /// Writes the archive to disk. On failure the archive is discarded and nothing stays at `path`.
    func close() throws {
        let za = try open()
        guard zip_close(za) == 0 else {
            let failure = error("zip_close")
            zip_discard(za)
            handle = nil
            try? FileManager.default.removeItem(atPath: path)
            throw failure
        }
        handle = nil
    }

    private func open() throws -> ZipHandle {
        guard let handle else { throw BackupError.zip(operation: "write", code: ZIP_ER_ZIPCLOSED, message: "archive already closed") }
        return handle
    }

    private func error(_ operation: String) -> BackupError {
        guard let handle, let e = zip_get_error(handle) else {
            return .zip(operation: operation, code: -1, message: "unknown libzip error")
        }
        return .zip(operation: operation, code: zip_error_code_zip(e), message: ZipReader.message(e))
    }
}
