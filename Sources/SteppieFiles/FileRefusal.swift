/// Why a path was refused or a file operation failed, as a value the edge says in the user's language.
public enum FileRefusal: Error, Equatable, Sendable {
    /// The path exists but is not a regular file (a device, a FIFO, a folder, a socket).
    case notRegularFile(path: String, kind: FileKind)
    /// The path exists but is not a folder.
    case notDirectory(path: String, kind: FileKind)
    /// The path does not exist and the operation only looks.
    case missing(path: String)
    /// The system refused: `operation` failed on `path` with `errno`'s text.
    case system(path: String, operation: String, errno: Int32, reason: String)
}

/// What kind of thing a path names, as `stat(2)` sees it (symbolic links followed).
public enum FileKind: String, Equatable, Sendable, CaseIterable {
    case regular, directory, fifo, characterDevice, blockDevice, socket, other
}
