import CZip
import Foundation

/// The raw libzip archive handle.
typealias ZipHandle = OpaquePointer

/// What the central directory says about one entry.
struct ZipEntryInfo: Sendable {
    let index: UInt64
    let name: String
    let size: UInt64
    let compressedSize: UInt64
    let method: Int32
    var isDirectory: Bool { name.hasSuffix("/") }
}

/// A ZIP archive open for reading. Owns the libzip handle and closes it in `deinit`.
final class ZipReader {
    private let handle: ZipHandle
    let path: String

    /// Opens `path` with libzip's consistency checks; a file that is not a ZIP archive throws `notAZip`.
    init(path: String) throws {
        self.path = path
        var code: Int32 = 0
        guard let za = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            let message = ZipReader.message(code: code)
            switch code {
            case ZIP_ER_NOENT, ZIP_ER_OPEN, ZIP_ER_READ:
                throw BackupError.fileSystem(path: path, reason: message)
            default:
                throw BackupError.notAZip(path: path, reason: message)
            }
        }
        handle = za
    }

    deinit { zip_discard(handle) }

    /// Every entry's name and sizes, in archive order.
    func entries() throws -> [ZipEntryInfo] {
        let count = zip_get_num_entries(handle, 0)
        guard count >= 0 else { throw error("zip_get_num_entries") }
        var out: [ZipEntryInfo] = []
        out.reserveCapacity(Int(count))
        for i in 0..<UInt64(count) {
            var st = zip_stat_t()
            zip_stat_init(&st)
            guard zip_stat_index(handle, i, 0, &st) == 0 else { throw error("zip_stat_index") }
            let needed = UInt64(ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD)
            guard st.valid & needed == needed, let name = st.name else {
                throw BackupError.zip(operation: "zip_stat_index", code: ZIP_ER_INCONS, message: "entry \(i) has no name or size")
            }
            out.append(ZipEntryInfo(index: i, name: String(cString: name), size: st.size,
                                    compressedSize: st.comp_size, method: Int32(st.comp_method)))
        }
        return out
    }

    /// Reads an entry in chunks, refusing more than `entry.size` bytes (and more than `limit`).
    func read(_ entry: ZipEntryInfo, limit: UInt64, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let file = zip_fopen_index(handle, entry.index, 0) else {
            throw BackupError.entryUnreadable(name: entry.name, reason: ZipReader.message(zip_get_error(handle)))
        }
        let stream = ZipFile(file)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total: UInt64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { zip_fread(stream.handle, $0.baseAddress, UInt64($0.count)) }
            if n < 0 {
                throw BackupError.entryUnreadable(name: entry.name, reason: ZipReader.message(zip_file_get_error(stream.handle)))
            }
            if n == 0 { break }
            total += UInt64(n)
            // Never trust the header: stop as soon as the data outgrows what was declared.
            if total > entry.size { throw BackupError.entrySizeMismatch(name: entry.name, declared: entry.size) }
            if total > limit { throw BackupError.entryTooLarge(name: entry.name, size: total, limit: limit) }
            try buffer.withUnsafeBytes { try chunk(UnsafeRawBufferPointer(rebasing: $0[0..<Int(n)])) }
        }
    }

    /// Reads a whole entry into memory (bounded by `limit`).
    func readAll(_ entry: ZipEntryInfo, limit: UInt64) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.size, limit)))
        try read(entry, limit: limit) { out.append(contentsOf: $0) }
        return out
    }

    private func error(_ operation: String) -> BackupError {
        let e = zip_get_error(handle)
        return BackupError.zip(operation: operation, code: e.map { zip_error_code_zip($0) } ?? -1,
                               message: ZipReader.message(e))
    }

    static func message(code: Int32) -> String {
        var e = zip_error_t()
        zip_error_init_with_code(&e, code)
        defer { zip_error_fini(&e) }
        return String(cString: zip_error_strerror(&e))
    }

    static func message(_ e: UnsafeMutablePointer<zip_error_t>?) -> String {
        guard let e else { return "unknown libzip error" }
        return String(cString: zip_error_strerror(e))
    }
}

/// One open entry stream; closed in `deinit`.
private final class ZipFile {
    let handle: OpaquePointer
    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { zip_fclose(handle) }
}
