import CZip
import Foundation
import SteppieFiles

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

    /// Opens `path` with libzip's consistency checks; a file that is not a ZIP archive throws
    /// `notAZip`. Anything but a regular file (a FIFO, a device, a folder) is refused before it is
    /// opened, and the descriptor libzip reads is checked again, so a FIFO never blocks the read.
    init(path: String) throws {
        self.path = path
        var st = stat()
        if stat(path, &st) == 0, let refused = ZipReader.refusal(path, mode: st.st_mode) { throw refused }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw BackupError.fileSystem(path: path, reason: String(cString: strerror(errno))) }
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BackupError.fileSystem(path: path, reason: reason)
        }
        if let refused = ZipReader.refusal(path, mode: st.st_mode) { close(fd); throw refused }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var code: Int32 = 0
        guard let za = zip_fdopen(fd, ZIP_CHECKCONS, &code) else {
            close(fd)   // on failure libzip leaves the descriptor to us
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

    /// The refusal of a path that is not a regular file, judged by its `stat` mode.
    private static func refusal(_ path: String, mode: mode_t) -> BackupError? {
        let kind: FileKind
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        return .notRegularFile(path: path, kind: kind)
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

    /// Opens an entry for reading chunk by chunk (see `ZipEntryStream`).
    func stream(_ entry: ZipEntryInfo, limit: UInt64) throws -> ZipEntryStream {
        guard let file = zip_fopen_index(handle, entry.index, 0) else {
            throw BackupError.entryUnreadable(name: entry.name, reason: ZipReader.message(zip_get_error(handle)))
        }
        return ZipEntryStream(file: file, entry: entry, limit: limit)
    }

    /// Reads an entry in chunks, refusing more than `entry.size` bytes (and more than `limit`).
    func read(_ entry: ZipEntryInfo, limit: UInt64, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stream = try stream(entry, limit: limit)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try chunk(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
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

/// One entry open for reading, pulled chunk by chunk; closed in `deinit`. It never trusts the
/// header: it stops as soon as the data outgrows the declared size or the limit.
final class ZipEntryStream {
    private let handle: OpaquePointer
    let entry: ZipEntryInfo
    let limit: UInt64
    /// Bytes read so far.
    private(set) var total: UInt64 = 0

    fileprivate init(file: OpaquePointer, entry: ZipEntryInfo, limit: UInt64) {
        self.handle = file; self.entry = entry; self.limit = limit
    }

    deinit { zip_fclose(handle) }

    /// Fills `buffer` with the next bytes; 0 at the end (when libzip has checked the CRC).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = zip_fread(handle, buffer.baseAddress, UInt64(buffer.count))
        if n < 0 { throw BackupError.entryUnreadable(name: entry.name, reason: ZipReader.message(zip_file_get_error(handle))) }
        total += UInt64(n)
        if total > entry.size { throw BackupError.entrySizeMismatch(name: entry.name, declared: entry.size) }
        if total > limit { throw BackupError.entryTooLarge(name: entry.name, size: total, limit: limit) }
        return Int(n)
    }
}
