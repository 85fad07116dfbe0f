#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SteppieCore

extension FileRefusal: CatalogDescribable {
    /// The refused path and why, in the reader's words (`cli.error.notRegularFile`, `cli.error.fileSystem` …).
    public var catalogMessage: CatalogMessage {
        switch self {
        case .notRegularFile(let path, let kind):
            CatalogMessage("cli.error.notRegularFile", ["path": .detail(Validator.printable(path)), "kind": .message(kind.catalogMessage)])
        case .notDirectory(let path, let kind):
            CatalogMessage("cli.error.notDirectory", ["path": .detail(Validator.printable(path)), "kind": .message(kind.catalogMessage)])
        case .missing(let path): CatalogMessage("cli.error.fileMissing", ["path": .detail(Validator.printable(path))])
        case .system(let path, let operation, let code, _):
            CatalogMessage("cli.error.fileSystem", ["path": .detail(Validator.printable(path)),
                                                    "reason": .message(.systemReason(operation, code))])
        }
    }

    /// Why the operation failed, without the path (for a sentence that names the target itself).
    public var reasonMessage: CatalogMessage {
        if case .system(_, let operation, let code, _) = self { return .systemReason(operation, code) }
        return catalogMessage
    }
}

extension FileKind {
    /// `file.kind.*`: what kind of thing is at a path (`a folder`, `a named pipe (FIFO)`).
    public var catalogMessage: CatalogMessage { CatalogMessage("file.kind." + rawValue) }
}

extension CatalogMessage {
    /// A failed system call in the reader's words (`file.operation`): the common `errno`s by name
    /// (`file.errno.*`: the disk is full, permission denied …), others by their number.
    public static func systemReason(_ operation: String, _ code: Int32) -> CatalogMessage {
        let known: [Int32: String] = [ENOSPC: "noSpace", EPIPE: "brokenPipe", EACCES: "denied", EPERM: "denied",
                                      ENOENT: "missing", EROFS: "readOnly", EIO: "io", EDQUOT: "noSpace", EISDIR: "isDirectory",
                                      EADDRINUSE: "addressInUse", EADDRNOTAVAIL: "addressNotHere"]
        let reason = known[code].map { CatalogMessage("file.errno." + $0) }
            ?? CatalogMessage("file.errno.other", ["code": .detail(String(code))])
        return CatalogMessage("file.operation", ["operation": .detail(operation), "reason": .message(reason)])
    }
}
