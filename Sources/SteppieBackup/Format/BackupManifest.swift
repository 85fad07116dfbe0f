import Foundation

/// `manifest.json`: what made the archive and the checksum of its data file.
public struct BackupManifest: Codable, Equatable, Sendable {
    /// The platforms whose backups this project reads.
    public enum Platform: String, Codable, Sendable, CaseIterable {
        case linux, ios, android
    }

    /// `{ "algorithm": "sha256", "dataJson": <hex> }`.
    public struct Checksum: Codable, Equatable, Sendable {
        public var algorithm: String
        public var dataJson: String
    }

    public static let currentSchemaVersion = 2
    public static let supportedSchemaVersions = 1...2

    public var app: String
    public var backupSchemaVersion: Int
    public var createdAt: String
    public var sourcePlatform: Platform
    public var appVersion: String
    public var dataFile: String
    public var assetDirectory: String
    public var checksum: Checksum

    /// Pretty-printed with sorted keys: easy to read with `unzip -p`.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(self)) } catch {
            throw BackupError.manifestInvalid(field: "manifest", reason: "cannot encode: \(error)")
        }
    }

    /// Reads and checks a manifest from any of the three platforms.
    static func decode(_ bytes: [UInt8]) throws -> BackupManifest {
        let root: JSONValue
        let limits = BackupLimits()
        let options = JSONParseOptions(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxJSONStringBytes)
        do { root = try JSONParser.parse(bytes, options: options) } catch let error as JSONParseError {
            throw error.backupError(entry: "manifest.json", limits: limits)
        }
        let o = try manifestField("manifest") { try JSONObject(root, path: "manifest") }
        let app = try manifestField("app") { try o.string("app") }
        guard app == "Steppie" else { throw BackupError.wrongApp(app) }
        let version = try manifestField("backupSchemaVersion") { try o.int("backupSchemaVersion") }
        guard supportedSchemaVersions.contains(version) else { throw BackupError.unsupportedSchemaVersion(version) }
        let platformName = try manifestField("sourcePlatform") { try o.string("sourcePlatform") }
        guard let platform = Platform(rawValue: platformName.lowercased()) else { throw BackupError.unsupportedPlatform(platformName) }
        let createdAt = try manifestField("createdAt") { try o.string("createdAt") }
        let dataFile = try manifestField("dataFile") { try o.optionalString("dataFile") } ?? "data.json"
        guard dataFile == "data.json" else { throw BackupError.manifestInvalid(field: "dataFile", reason: "must be data.json") }
        let assets = try manifestField("assetDirectory") { try o.optionalString("assetDirectory") } ?? "assets"
        guard assets == "assets" else { throw BackupError.manifestInvalid(field: "assetDirectory", reason: "must be assets") }
        guard let sum = try manifestField("checksum", { try o.object("checksum") }) else {
            throw BackupError.manifestInvalid(field: "checksum", reason: "missing")
        }
        let algorithm = try manifestField("checksum.algorithm") { try sum.string("algorithm") }
        guard algorithm.lowercased() == "sha256" else { throw BackupError.unsupportedChecksumAlgorithm(algorithm) }
        let hex = try manifestField("checksum.dataJson") { try sum.string("dataJson") }
        guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
            throw BackupError.manifestInvalid(field: "checksum.dataJson", reason: "not 64 hexadecimal digits")
        }
        return BackupManifest(app: app, backupSchemaVersion: version, createdAt: createdAt, sourcePlatform: platform,
                              appVersion: try manifestField("appVersion") { try o.optionalString("appVersion") } ?? "",
                              dataFile: dataFile, assetDirectory: assets,
                              checksum: Checksum(algorithm: "sha256", dataJson: hex))
    }

    private static func manifestField<T>(_ field: String, _ read: () throws -> T) throws -> T {
        do { return try read() } catch BackupError.dataInvalid(_, let reason) {
            throw BackupError.manifestInvalid(field: field, reason: reason)
        }
    }
}
