import Foundation
import SteppieTestSupport
import Testing

/// Which hub a sync process test runs against (issue 28: the household suite runs unchanged on both).
enum HubKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `steppie serve --hub`: the hub is a device too, with its own SQLite database.
    case household
    /// `steppie hub --postgres`: headless, its store of record a schema of its own on the test
    /// cluster; an "office" device joined first does what the household hub does as a device.
    case centre

    var testDescription: String { rawValue }

    /// The centre's runs need the private cluster of `scripts/with-postgres.sh` (scripts/test.sh runs
    /// the process tests under it); without it only the household hub is tested, and it is said.
    static var available: [HubKind] {
        if CentreSchema.base != nil { return allCases }
        print("STEPPIE_TEST_POSTGRES is unset: the sync process tests run against the household hub only")
        return [.household]
    }
}

/// A schema of its own on the test cluster for one centre hub, dropped afterwards.
final class CentreSchema {
    static var base: String? { ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] }
    let name = "hub_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    /// The cluster's connection string with `search_path` set to this schema.
    let conninfo: String

    init() throws {
        let base = try #require(Self.base)
        conninfo = base + " options='-csearch_path=\(name)'"
        // An identifier cannot be a parameter; this one is made here of [a-z0-9_] only.
        let made = Self.psql(base, "CREATE SCHEMA \(name)")
        try #require(made.status == 0, "\(made.err)")
    }

    deinit { if let base = Self.base { _ = Self.psql(base, "DROP SCHEMA \(name) CASCADE") } }

    /// One statement through `psql` (another program's view of the hub's tables): rows as
    /// `|`-separated lines, trimmed.
    static func psql(_ conninfo: String, _ sql: String) -> BinaryHarness.Result {
        let h = BinaryHarness()
        let r = h.sh("psql -X -q -v ON_ERROR_STOP=1 -At \"$C\" -c \"$Q\"", env: ["C": conninfo, "Q": sql])
        return BinaryHarness.Result(status: r.status, out: r.out.trimmingCharacters(in: .whitespacesAndNewlines), err: r.err)
    }

    func query(_ sql: String) -> String {
        let r = Self.psql(conninfo, sql)
        return r.status == 0 ? r.out : "psql failed (\(r.status)): \(r.err)"
    }
}

/// The hub of a sync process test, of either kind, with the device side of the hub as `office`:
/// the household hub's own service, or a device of the centre joined before any other.
final class SyncHubUnderTest {
    let kind: HubKind
    /// Where the tests make what the hub's side makes (children, presses, edits).
    let office = SyncNode()
    let schema: CentreSchema?
    private var centre: SpawnedProcess?
    private var officeJoined = false
    private let centreLog: String

    init(_ kind: HubKind) throws {
        self.kind = kind
        schema = kind == .centre ? try CentreSchema() : nil
        centreLog = office.h.directory + "/hub.log"
    }

    deinit { stop() }

    var isRunning: Bool { kind == .household ? office.service != nil : centre != nil }

    /// Starts the hub on `port` (0: any), and for a centre its office device, joined the first time
    /// with every child it made (a joining device's own children go to the hub with it).
    func start(port: UInt16 = 0, now: String? = nil) throws {
        switch kind {
        case .household:
            try office.start(["--hub", "127.0.0.1:\(port)"], now: now)
        case .centre:
            try startCentre(port: port, now: now)
            if !officeJoined {
                let (url, fingerprint) = try #require(address(), "hub log: \(log)")
                let code = try #require(SyncProcessTests.code(invite(now: now)), "hub log: \(log)")
                let joined = office.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint) --name office", now: now)
                try #require(joined.status == 0, "\(joined.err)")
                officeJoined = true
            }
            if office.service == nil { try office.start(now: now) }
        }
    }

    /// After another device joined: a centre's office device is given every child the hub holds
    /// now (the household hub holds every child itself), and takes them.
    func deviceJoined() throws {
        guard kind == .centre else { return }
        let granted = hubCommand("grant office --all-children")
        try #require(granted.status == 0, "\(granted.err)")
        if office.service != nil {
            let pulled = office.sh("$S sync now")
            try #require(pulled.status == 0, "\(pulled.err)")
        }
    }

    /// `steppie hub` alone (the office device as it is).
    func startCentre(port: UInt16 = 0, now: String? = nil) throws {
        let schema = try #require(schema)
        try? FileManager.default.removeItem(atPath: centreLog)
        var environment = ProcessInfo.processInfo.environment
        environment["STEPPIE_NOW"] = now
        environment["LANG"] = "en_US.UTF-8"
        centre = try SpawnedProcess(CLIHarness.binary, ["hub", "--postgres", schema.conninfo, "--listen", "127.0.0.1:\(port)"],
                                    environment: environment, stdoutPath: centreLog, stderrPath: centreLog)
        _ = address()
    }

    /// Stops the hub (SIGTERM, or `signal`); a centre's office device keeps running.
    func stopHub(_ signal: Int32 = SIGTERM) {
        switch kind {
        case .household:
            office.service?.stop(signal)
            office.service = nil
        case .centre:
            centre?.stop(signal)
            centre = nil
        }
    }

    func stop() {
        stopHub()
        office.stop()
    }

    var log: String {
        kind == .household ? office.log : ((try? String(contentsOfFile: centreLog, encoding: .utf8)) ?? "")
    }

    /// The hub's address and fingerprint, from its log.
    func address() -> (url: String, fingerprint: String)? {
        if kind == .household { return office.hubAddress() }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let line = log.split(separator: "\n").last(where: { $0.contains("sync hub on https://") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("https://") }),
               let fp = line.split(separator: " ").last?.dropLast() {
                return (String(url), String(fp))
            }
            usleep(50_000)
        }
        return nil
    }

    /// A joining code for these children (none named: every child).
    func invite(_ children: [String] = [], now: String? = nil) -> BinaryHarness.Result {
        let named = children.map { " --child '\($0)'" }.joined()
        switch kind {
        case .household: return office.sh("$S sync invite\(named) --json", now: now)
        case .centre: return office.h.sh("$S hub invite --postgres \"$C\"\(named) --json", env: centreEnv(now))
        }
    }

    /// A `steppie hub` command against this centre's database (`$C`).
    func hubCommand(_ arguments: String, now: String? = nil) -> BinaryHarness.Result {
        office.h.sh("$S hub \(arguments) --postgres \"$C\"", env: centreEnv(now))
    }

    private func centreEnv(_ now: String?) -> [String: String] {
        var env = ["C": schema?.conninfo ?? ""]
        env["STEPPIE_NOW"] = now
        return env
    }

    /// The hub's synced state as one hash: the household hub's `sync digest`, or `hub digest`
    /// (the same canonical lines from the centre's tables).
    func digest() -> String {
        kind == .household ? office.digest() : hubCommand("digest --json").out
    }

    /// The nodes whose digests must agree: the hub (and a centre's office device).
    var digestNodes: [any SyncDigesting] { kind == .household ? [office] : [self, office] }

    /// Removes a device by its name.
    func remove(_ name: String) -> BinaryHarness.Result {
        kind == .household ? office.sh("$S sync remove \(name)") : hubCommand("remove \(name)")
    }

    /// One number from the hub's store of record, asked the same way of either kind.
    enum Count {
        case events(kind: String?)
        case feed(origin: String)
        case acknowledged(device: String)
        case forgottenThrough
    }

    func count(_ what: Count) -> String {
        switch (kind, what) {
        case (.household, .events(let k)): office.h.query("SELECT COUNT(*) FROM sync_events" + (k.map { " WHERE kind = '\($0)'" } ?? ""))
        case (.centre, .events(let k)): schema?.query("SELECT COUNT(*) FROM events" + (k.map { " WHERE kind = '\($0)'" } ?? "")) ?? ""
        case (.household, .feed(let o)): office.h.query("SELECT COUNT(*) FROM sync_feed WHERE origin = '\(o)'")
        case (.centre, .feed(let o)): schema?.query("SELECT COUNT(*) FROM feed WHERE origin = '\(o)'") ?? ""
        case (.household, .acknowledged(let d)): office.h.query("SELECT acknowledged FROM sync_devices WHERE id = '\(d)'")
        case (.centre, .acknowledged(let d)): schema?.query("SELECT acknowledged FROM devices WHERE id = '\(d)'") ?? ""
        case (.household, .forgottenThrough): office.h.query("SELECT forgotten_through FROM sync_state")
        case (.centre, .forgottenThrough): schema?.query("SELECT forgotten_through FROM hub_state") ?? ""
        }
    }

    /// A query of the hub's store of record: the household hub's SQLite tables or the centre's.
    func query(household: String, centre: String) -> String {
        kind == .household ? office.h.query(household) : (schema?.query(centre) ?? "")
    }

    /// What the hub keeps, for "unchanged" checks: the office's tables and digest, and the feed.
    func snapshot() -> String {
        switch kind {
        case .household:
            return office.tables() + office.digest() + office.h.query("SELECT COUNT(*), MAX(position) FROM sync_feed")
        case .centre:
            return digest() + (schema?.query("""
                SELECT (SELECT COUNT(*) FROM feed), (SELECT MAX(position) FROM feed), (SELECT COUNT(*) FROM registers),
                (SELECT COUNT(*) FROM events), (SELECT string_agg(id || acknowledged, ',' ORDER BY id) FROM devices)
                """) ?? "")
        }
    }
}

/// Something with a digest of its synced state: a device, or a hub.
protocol SyncDigesting: AnyObject {
    func digest() -> String
}

extension SyncNode: SyncDigesting {}
extension SyncHubUnderTest: SyncDigesting {}
