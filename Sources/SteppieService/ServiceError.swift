import SteppieCore
import SteppieFiles

/// Why the service could not start or stopped, as values the command line says.
public enum ServiceError: Error, Equatable, Sendable {
    /// Another `steppie serve` holds the database; its pid and socket as it wrote them.
    case alreadyRunning(pid: Int32?, socket: String?, database: String)
    /// Something answers on the socket path already (another service, on another database).
    case socketInUse(path: String)
    /// The socket's folder is a link, not a folder, or another user's: nothing was changed there.
    case socketFolder(SocketFolderRefusal)
    /// A C library the service may use cannot be loaded: it refuses to start rather than end later.
    case library(LibraryUnavailable)
    case file(FileRefusal)
    /// The kiosk pages' address could not be bound (in use, not this machine's).
    case httpUnavailable(address: String, errno: Int32)
    case system(operation: String, errno: Int32)
    /// The guardian pages could not open the database (why, as its own message).
    case guardianPages(reason: CatalogMessage)
}
