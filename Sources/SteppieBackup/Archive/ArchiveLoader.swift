import SteppieSecurity
import Foundation
import SteppieCore
import SteppieStore

/// A backup read in full and found valid.
struct LoadedBackup {
    var manifest: BackupManifest
    var contents: ValidatedContents
    /// Photo name → size in bytes, for every asset in the archive.
    var assets: [String: UInt64]
    var dataBytes: UInt64
    var checksum: String
}

/// Reads a backup archive and checks everything, in the order of the contract: entries and
/// their sizes → manifest → checksum → JSON → entities and references. It changes nothing;
/// photos go to `assetSink` (a staging directory during a restore, nowhere during verify).
struct ArchiveLoader {
    let limits: BackupLimits
    let defaultChildName: String
    let now: Date

    func load(path: String, assetSink: ((String, [UInt8]) throws -> Void)?, progress: ProgressHandler?) throws -> LoadedBackup {
        let zip = try ZipReader(path: path)
        let entries = try zip.entries()
        guard entries.count <= limits.maxEntries else { throw BackupError.tooManyEntries(count: entries.count, limit: limits.maxEntries) }
        var manifestEntry: ZipEntryInfo?, dataEntry: ZipEntryInfo?
        var assetEntries: [(String, ZipEntryInfo)] = []
        var seen = Set<String>()
        for e in entries {
            let kind = try EntryName.classify(e.name)
            guard seen.insert(e.name).inserted else { throw BackupError.duplicateEntry(Validator.printable(e.name)) }
            let limit: UInt64
            switch kind {
            case .manifest: manifestEntry = e; limit = limits.maxManifestBytes
            case .data: dataEntry = e; limit = limits.maxDataBytes
            case .assetDirectory: limit = 0
            case .asset(let name): assetEntries.append((name, e)); limit = limits.maxAssetBytes
            }
            try checkDeclaredSize(e, limit: limit)
        }
        guard let manifestEntry else { throw BackupError.missingEntry("manifest.json") }
        guard let dataEntry else { throw BackupError.missingEntry("data.json") }
        let total = entries.count
        var done = 0
        func step(_ item: String) { done += 1; progress?(BackupProgress(phase: "reading", done: done, total: total, item: item)) }

        let manifest = try BackupManifest.decode(try zip.readAll(manifestEntry, limit: limits.maxManifestBytes))
        step("manifest.json")

        var hash = SHA256()
        var data: [UInt8] = []
        data.reserveCapacity(Int(dataEntry.size))
        try zip.read(dataEntry, limit: limits.maxDataBytes) { chunk in
            hash.update(chunk)
            data.append(contentsOf: chunk)
        }
        let actual = hash.finalHex()
        let expected = manifest.checksum.dataJson
        let matches = manifest.sourcePlatform == .android ? actual == expected.lowercased() : actual == expected
        guard matches else { throw BackupError.checksumMismatch(expected: expected, actual: actual) }
        let dataBytes = UInt64(data.count)
        let childId = UUID()
        // Parsed and decoded in one pass, the logs streamed straight into entities (no tree).
        let decoded = try DataFileReader(defaultChildId: childId).decode(bytes: data)
        data = []
        step("data.json")

        var assets: [String: UInt64] = [:]
        for (name, entry) in assetEntries {
            if let assetSink {
                let bytes = try zip.readAll(entry, limit: limits.maxAssetBytes)
                try assetSink(name, bytes)
            } else {
                try zip.read(entry, limit: limits.maxAssetBytes) { _ in }
            }
            assets[name] = entry.size
            step(entry.name)
        }
        if entries.contains(where: { $0.name == "assets/" }) { step("assets/") }

        let contents = try ContentValidator(platform: manifest.sourcePlatform, assetNames: Set(assets.keys),
                                            defaultChildId: childId, defaultChildName: defaultChildName, now: now).validate(decoded)
        return LoadedBackup(manifest: manifest, contents: contents, assets: assets, dataBytes: dataBytes, checksum: actual)
    }

    /// Refuses an entry by its header alone: over its size limit, or compressed suspiciously well.
    private func checkDeclaredSize(_ e: ZipEntryInfo, limit: UInt64) throws {
        guard e.size <= limit else { throw BackupError.entryTooLarge(name: e.name, size: e.size, limit: limit) }
        guard e.size > 0 else { return }
        let (product, overflow) = e.compressedSize.multipliedReportingOverflow(by: limits.maxCompressionRatio)
        if e.compressedSize == 0 || (!overflow && e.size > product) {
            throw BackupError.compressionRatioTooHigh(name: e.name, uncompressed: e.size, compressed: e.compressedSize)
        }
    }
}
