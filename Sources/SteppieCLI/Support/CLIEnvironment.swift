import Foundation
import Synchronization
import SteppieCore
import SteppieLocalization
import SteppieStore

/// Everything a command needs from the outside world, built once at start and injectable in tests.
public struct CLIEnvironment: Sendable {
    public var variables: [String: String]
    public var console: Console
    /// The routine's clock: the system's, or `STEPPIE_NOW` running on.
    public var clock: any WallClock
    /// The clock of the PIN backoff and the guardian session: always the system's (tests inject one).
    public var secureClock: any SecureClock
    /// The zone of the routine's days: `TZ`, else the system's. Found when first asked for (ICU's
    /// zone data costs a command that never asks, like `--help`, half a megabyte).
    public var timeZone: TimeZone {
        get { zone.value }
        set { zone = LazyZone(newValue) }
    }
    private var zone: LazyZone
    /// Where `Localization/` and `Sounds/` live.
    public var dataDirectory: URL?
    /// The message catalogs, loaded once from `dataDirectory`.
    public var catalogs: Result<CatalogSet, CatalogLoadError>
    public var executablePath: String
    /// Reads standard input (secrets, keys-from); nil at end of input.
    public var readLine: @Sendable () -> String?

    public init(variables: [String: String], console: Console, clock: any WallClock, secureClock: any SecureClock = SystemSecureClock(),
                timeZone: TimeZone, dataDirectory: URL?, executablePath: String,
                readLine: @escaping @Sendable () -> String? = { CLIEnvironment.readShortLine() }) {
        self.variables = variables
        self.console = console
        self.clock = clock
        self.secureClock = secureClock
        self.zone = LazyZone(timeZone)
        self.dataDirectory = dataDirectory
        self.catalogs = CLIEnvironment.loadCatalogs(dataDirectory)
        self.executablePath = executablePath
        self.readLine = readLine
    }

    /// The live environment of this process: `STEPPIE_NOW` and `TZ` decide the routine's clock and
    /// the zone. A malformed `STEPPIE_NOW`, `TZ` or `STEPPIE_DATA_DIR` is a usage error naming the
    /// variable; the environment then still carries the installed catalogs, so it is said in the
    /// user's language.
    public static func live(arguments: [String]) -> (CLIEnvironment, UsageError?) {
        let vars = ProcessInfo.processInfo.environment
        let exe = executablePath()
        var problem: UsageError?
        var start: Date?
        if let now = vars["STEPPIE_NOW"], !now.isEmpty {
            if let parsed = Timestamp.parse(now) { start = parsed } else {
                problem = .invalidValue(option: "STEPPIE_NOW", value: now, expected: "ISO 8601 with offset, e.g. 2026-03-08T01:59:00-05:00")
            }
        }
        var zone = LazyZone { TimeZone.current }
        if let tz = vars["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            switch LazyZone.systemKnows(name) {
            case true?:
                // The system's zone database has it: ICU (which has its own copy) is asked when needed.
                zone = LazyZone { TimeZone(identifier: name) ?? TimeZone.current }
            case false?:
                if problem == nil { problem = .invalidValue(option: "TZ", value: tz, expected: "a time zone name such as Asia/Seoul") }
            case nil:
                // No zone database installed: only ICU can tell, now.
                if let z = TimeZone(identifier: name) { zone = LazyZone(z) } else if problem == nil {
                    problem = .invalidValue(option: "TZ", value: tz, expected: "a time zone name such as Asia/Seoul")
                }
            }
        }
        var data = DataDirectory.locate(environment: vars, executablePath: exe)
        if let explicit = vars[DataDirectory.environmentVariable], !explicit.isEmpty,
           data.map({ DataDirectory.hasDirectory("Localization", in: $0) }) != true {
            // Say it with the catalogs found without the variable (installed or source checkout).
            var without = vars
            without[DataDirectory.environmentVariable] = nil
            data = DataDirectory.locate(environment: without, executablePath: exe)
            if problem == nil {
                problem = .invalidValue(option: DataDirectory.environmentVariable, value: explicit,
                                        expected: "a folder that holds Localization/ and Sounds/")
            }
        }
        var env = CLIEnvironment(variables: vars, console: .standard(), clock: RunningClock(startingAt: start), timeZone: .gmt,
                                 dataDirectory: data, executablePath: exe)
        env.zone = zone
        return (env, problem)
    }

    /// This program's own file: `/proc/self/exe` (so an installed `steppie` run by name through
    /// `PATH` finds its data), else `argv[0]` resolved.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } ?? ""
    }

    /// Longest line read from standard input (a PIN, a recovery code, a yes/no answer).
    static let maxLineBytes = 256

    /// One line of standard input, at most `maxLineBytes` long (a longer one is cut there and the
    /// rest left unread), read byte by byte so nothing past the line is consumed; nil at end of input.
    public static func readShortLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < maxLineBytes {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The database path: `--db`, then `STEPPIE_DB`, then `$XDG_DATA_HOME/steppie/steppie.db`.
    public func databasePath(option: String?) -> String {
        if let option, !option.isEmpty { return option }
        if let env = variables["STEPPIE_DB"], !env.isEmpty { return env }
        let base = variables["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((variables["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return base + "/steppie/steppie.db"
    }

    static func loadCatalogs(_ data: URL?) -> Result<CatalogSet, CatalogLoadError> {
        guard let data else { return .failure(.directoryMissing(path: "Localization (set STEPPIE_DATA_DIR)")) }
        do { return .success(try CatalogSet.open(directory: DataDirectory.localizationDirectory(in: data))) }
        catch { return .failure(error) }
    }

    /// The local day now.
    public var today: LocalDay { LocalDay(clock.now(), in: timeZone) }
}

/// A time zone made on first use (then kept), or given.
final class LazyZone: Sendable {
    private let make: @Sendable () -> TimeZone
    private let made = Mutex<TimeZone?>(nil)

    init(_ zone: TimeZone) { make = { zone }; made.withLock { $0 = zone } }
    init(_ make: @escaping @Sendable () -> TimeZone) { self.make = make }

    var value: TimeZone {
        made.withLock { zone in
            if let zone { return zone }
            let new = make()
            zone = new
            return new
        }
    }

    /// Whether the system's zone database (`/usr/share/zoneinfo`, what the C library reads for
    /// `TZ`) has `name`; nil when there is no database to ask.
    static func systemKnows(_ name: String, root: String = "/usr/share/zoneinfo") -> Bool? {
        var info = stat()
        guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        return stat(root + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
