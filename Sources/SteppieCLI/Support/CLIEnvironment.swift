import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore

/// Everything a command needs from the outside world, built once at start and injectable in tests.
public struct CLIEnvironment: Sendable {
    public var variables: [String: String]
    public var console: Console
    public var clock: any WallClock
    public var timeZone: TimeZone
    /// Where `Localization/` and `Sounds/` live.
    public var dataDirectory: URL?
    /// The message catalogs, loaded once from `dataDirectory`.
    public var catalogs: Result<CatalogSet, CatalogLoadError>
    public var executablePath: String
    /// Reads standard input (secrets, keys-from); nil at end of input.
    public var readLine: @Sendable () -> String?

    public init(variables: [String: String], console: Console, clock: any WallClock, timeZone: TimeZone,
                dataDirectory: URL?, executablePath: String, readLine: @escaping @Sendable () -> String? = { Swift.readLine() }) {
        self.variables = variables
        self.console = console
        self.clock = clock
        self.timeZone = timeZone
        self.dataDirectory = dataDirectory
        self.catalogs = CLIEnvironment.loadCatalogs(dataDirectory)
        self.executablePath = executablePath
        self.readLine = readLine
    }

    /// The live environment of this process: `STEPPIE_NOW` and `TZ` decide the clock and the zone.
    public static func live(arguments: [String]) throws -> CLIEnvironment {
        let vars = ProcessInfo.processInfo.environment
        var start: Date?
        if let now = vars["STEPPIE_NOW"], !now.isEmpty {
            guard let parsed = Timestamp.parse(now) else {
                throw UsageError.invalidValue(option: "STEPPIE_NOW", value: now, expected: "ISO 8601 with offset, e.g. 2026-03-08T01:59:00-05:00")
            }
            start = parsed
        }
        var zone = TimeZone.current
        if let tz = vars["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            guard let z = TimeZone(identifier: name) else {
                throw UsageError.invalidValue(option: "TZ", value: tz, expected: "a time zone name such as Asia/Seoul")
            }
            zone = z
        }
        let exe = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } ?? ""
        return CLIEnvironment(variables: vars, console: .standard(), clock: RunningClock(startingAt: start), timeZone: zone,
                              dataDirectory: DataDirectory.locate(environment: vars, executablePath: exe),
                              executablePath: exe)
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
        do { return .success(try CatalogSet.load(directory: DataDirectory.localizationDirectory(in: data))) }
        catch { return .failure(error) }
    }

    /// The local day now.
    public var today: LocalDay { LocalDay(clock.now(), in: timeZone) }
}
