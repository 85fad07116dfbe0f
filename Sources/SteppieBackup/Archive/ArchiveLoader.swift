import SteppieSecurity
import Foundation
import SteppieCore
import SteppieFiles
import SteppieStore

/// A backup read in full and found valid. Its archive stays open, so that the photos can be
/// extracted after the confirmation from the very file that was checked.
struct LoadedBackup {
    var manifest: BackupManifest
    var contents: ValidatedContents
    /// Photo name → size in bytes, for every asset in the archive.
    var assets: [String: UInt64]
    var dataBytes: UInt64
    var checksum: String
    let zip: ZipReader
    let assetEntries: [(name: String, entry: ZipEntryInfo)]
    /// Recording file name → its entry, for every recording in the archive.
    var recordingEntries: [String: ZipEntryInfo] = [:]
}

/// Reads a backup archive and checks everything, in the order of the contract: entries and
/// their sizes → manifest → checksum → JSON → entities and references → photos' content. It
/// writes nothing: data.json is parsed while it inflates (never whole in memory) and each photo
/// is read and recognised, then dropped.
struct ArchiveLoader {
    let limits: BackupLimits
    let defaultChildName: String
    let now: Date
    /// Decodes the recordings (libsndfile's, handed in; without one a backup with recordings is refused).
    var decodeAudio: AudioDecoder = AudioDecodeFailure.unavailable

    func load(path: String, progress: ProgressHandler?) throws -> LoadedBackup {
        let zip = try ZipReader(path: path)
        let entries = try zip.entries()
        guard entries.count <= limits.maxEntries else { throw BackupError.tooManyEntries(count: entries.count, limit: limits.maxEntries) }
        var manifestEntry: ZipEntryInfo?, dataEntry: ZipEntryInfo?
        var assetEntries: [(name: String, entry: ZipEntryInfo)] = []
        var recordingEntries: [String: ZipEntryInfo] = [:]
        var seen = Set<String>()
        var declared: UInt64 = 0
        for e in entries {
            let kind = try EntryName.classify(e.name)
            guard seen.insert(e.name).inserted else { throw BackupError.duplicateEntry(Validator.printable(e.name)) }
            let limit: UInt64
            switch kind {
            case .manifest: manifestEntry = e; limit = limits.maxManifestBytes
            case .data: dataEntry = e; limit = limits.maxDataBytes
            case .assetDirectory, .recordingDirectory: limit = 0
            case .recording(let name): recordingEntries[name] = e; limit = UInt64(RecordingCheck.maximumBytes)
            case .asset(let name): assetEntries.append((name, e)); limit = limits.maxAssetBytes
            }
            try checkDeclaredSize(e, limit: limit)
            let (sum, overflow) = declared.addingReportingOverflow(e.size)
            declared = overflow ? .max : sum
            guard declared <= limits.maxTotalBytes else { throw BackupError.totalTooLarge(size: declared, limit: limits.maxTotalBytes) }
        }
        guard let manifestEntry else { throw BackupError.missingEntry("manifest.json") }
        guard let dataEntry else { throw BackupError.missingEntry("data.json") }
        let total = entries.count
        var done = 0
        func step(_ item: String) { done += 1; progress?(BackupProgress(phase: "reading", done: done, total: total, item: item)) }
        // Headers can lie: the bytes actually read count against the total too.
        let budget = ReadBudget(limit: limits.maxTotalBytes)

        let manifest = try BackupManifest.decode(try readAll(zip, manifestEntry, limit: limits.maxManifestBytes, budget: budget))
        step("manifest.json")

        let (decoded, actual, dataBytes) = try loadData(zip, dataEntry, manifest: manifest, budget: budget)
        step("data.json")

        var assets: [String: UInt64] = [:]
        var hashes: [String: String] = [:]
        for (name, entry) in assetEntries {
            let bytes = try Self.photo(zip, entry, limit: limits.maxAssetBytes, budget: budget)
            hashes[name] = Self.sha256(bytes)
            assets[name] = entry.size
            step(entry.name)
        }
        if entries.contains(where: { $0.name == "assets/" }) { step("assets/") }
        var lengths: [String: Int] = [:]
        for (name, entry) in recordingEntries.sorted(by: { $0.key < $1.key }) {
            lengths[name] = try Self.recording(zip, entry, name: name, budget: budget, decode: decodeAudio, at: nil)
            step(entry.name)
        }
        if entries.contains(where: { $0.name == "recordings/" }) { step("recordings/") }

        var validator = ContentValidator(platform: manifest.sourcePlatform, assetNames: Set(assets.keys),
                                         defaultChildId: decoded.childId, defaultChildName: defaultChildName, now: now)
        validator.recordingNames = Set(recordingEntries.keys)
        var contents = try validator.validate(decoded.data)
        // A photo named by its hash (the device's record, a look of the history) must be those bytes
        // (content addressing); the restore records the hashes it checked, of the photos it brings.
        var claimed = contents.snapshot.photoHashes ?? [:]
        for look in contents.snapshot.looks {
            guard case .photo(_, let asset) = look.icon, let sha = look.photoSha256 else { continue }
            if let other = claimed[asset], other != sha {
                throw BackupError.photoHashMismatch(name: "assets/" + asset, expected: other, actual: sha)
            }
            claimed[asset] = sha
        }
        var checked: [String: String] = [:]
        for (asset, expected) in claimed.sorted(by: { $0.key < $1.key }) {
            guard let actual = hashes[asset] else { continue }
            guard actual == expected else { throw BackupError.photoHashMismatch(name: "assets/" + asset, expected: expected, actual: actual) }
            checked[asset] = actual
        }
        contents.snapshot.photoHashes = checked
        // The row says what the file is: its length as libsndfile decodes it, as a kept take's.
        if let listed = contents.recordings {
            contents.recordings = try listed.map { r in
                guard let ms = lengths[r.fileName] else { throw BackupError.missingEntry("recordings/" + r.fileName) }
                var checked = r
                checked.durationMs = ms
                return checked
            }
        }
        var loaded = LoadedBackup(manifest: manifest, contents: contents, assets: assets, dataBytes: dataBytes, checksum: actual,
                                  zip: zip, assetEntries: assetEntries)
        loaded.recordingEntries = recordingEntries
        return loaded
    }

    /// Reads a recording entry (at most `RecordingCheck.maximumBytes`) into `path` — a new
    /// owner-only file, or a private scratch file removed again when nil — and checks it as a
    /// kept take is checked (`RecordingCheck`: decoded by libsndfile, 1…30000 ms, some sound).
    /// Returns its length in milliseconds.
    static func recording(_ zip: ZipReader, _ entry: ZipEntryInfo, name: String, budget: ReadBudget?, decode: AudioDecoder,
                          at path: String?) throws -> Int {
        var bytes: [UInt8] = []
        try zip.read(entry, limit: UInt64(RecordingCheck.maximumBytes)) { chunk in
            try budget?.add(chunk.count)
            bytes.append(contentsOf: chunk)
        }
        let target = path ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("steppie-recording-\(UUID().uuidString.lowercased())." + (name as NSString).pathExtension).path
        try StagingArea.files(target) {
            let fd = try OwnerOnly.openForWriting(target, exclusive: true)
            defer { close(fd) }
            try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: target) }
        }
        defer { if path == nil { unlink(target) } }
        switch RecordingCheck.check(path: target, bytes: bytes.count, decode: decode) {
        case .success(let ms): return ms
        case .failure(let refusal):
            if path != nil { unlink(target) }
            let reason: String = switch refusal {
            case .empty: "it is empty"
            case .tooLarge(let n): "it is larger than \(RecordingCheck.maximumBytes) bytes (\(n))"
            case .notAudio(let why): "it is not audio (\(why))"
            case .tooLong(let ms): "it is \(ms) ms long, more than \(RecordingCheck.maximumMilliseconds) ms"
            case .silent: "it holds no sound"
            }
            throw BackupError.entryUnreadable(name: "recordings/" + Validator.printable(name), reason: reason)
        }
    }

    /// Parses data.json while it inflates, hashing the same chunks. The checksum is compared
    /// when the last byte has been read, before anything decoded is used; when the JSON is bad,
    /// the rest is still read and hashed so that a damaged archive is reported as damaged.
    private func loadData(_ zip: ZipReader, _ entry: ZipEntryInfo, manifest: BackupManifest,
                          budget: ReadBudget) throws -> (data: (data: DecodedData, childId: UUID), checksum: String, bytes: UInt64) {
        let stream = try zip.stream(entry, limit: limits.maxDataBytes)
        let hasher = Hasher()
        // Inflating and hashing run one chunk ahead on another thread; the parser reads here.
        let ahead = ReadAhead { raw in
            let n = try stream.read(into: raw)
            try budget.add(n)
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[0..<n]))
            return n
        }
        defer { ahead.stop() }
        var sourceFailed = false
        let source: JSONParser.Source = { raw in
            do {
                return try ahead.read(into: raw)
            } catch {
                sourceFailed = true
                throw error
            }
        }
        let childId = UUID()
        let reader = DataFileReader(defaultChildId: childId, limits: limits)
        var parsed: ParsedData?
        var parseError: (any Error)?
        do { parsed = try reader.parse(source: source, expectedBytes: entry.size) } catch {
            if sourceFailed { throw error }
            parseError = error
        }
        if parseError != nil {
            var scratch = [UInt8](repeating: 0, count: 1 << 16)
            while try scratch.withUnsafeMutableBytes({ try source($0) }) > 0 {}
        }
        // The source is at its end: the thread is done with the stream, the budget and the hash.
        ahead.stop()
        let actual = hasher.finalHex()
        let expected = manifest.checksum.dataJson
        let matches = manifest.sourcePlatform == .android ? actual == expected.lowercased() : actual == expected
        guard matches else { throw BackupError.checksumMismatch(expected: expected, actual: actual) }
        if let parseError { throw parseError }
        guard let parsed else { throw BackupError.dataInvalid(path: "data.json", reason: "not parsed") }
        // Parsed and decoded in one pass, the logs streamed straight into entities (no tree).
        return ((try reader.decode(parsed), childId), actual, stream.total)
    }

    private func readAll(_ zip: ZipReader, _ entry: ZipEntryInfo, limit: UInt64, budget: ReadBudget) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.size, limit)))
        try zip.read(entry, limit: limit) { chunk in
            try budget.add(chunk.count)
            out.append(contentsOf: chunk)
        }
        return out
    }

    /// Reads a photo entry whole (at most `limit` bytes) and refuses it unless it is a JPEG or PNG image
    /// within `PhotoContent`'s size in pixels.
    static func photo(_ zip: ZipReader, _ entry: ZipEntryInfo, limit: UInt64, budget: ReadBudget?) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.size, limit)))
        try zip.read(entry, limit: limit) { chunk in
            try budget?.add(chunk.count)
            out.append(contentsOf: chunk)
        }
        guard let kind = PhotoContent.recognise(out) else { throw BackupError.notAnImage(name: Validator.printable(entry.name)) }
        guard kind.fitsLimits else {
            throw BackupError.imageTooLarge(name: Validator.printable(entry.name), width: kind.width, height: kind.height)
        }
        return out
    }

    /// The lowercase hex SHA-256 of a photo's bytes (nettle).
    static func sha256(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalHex()
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

/// The bytes read from all entries together, refused past `BackupLimits.maxTotalBytes`.
final class ReadBudget {
    let limit: UInt64
    private(set) var total: UInt64 = 0

    init(limit: UInt64) { self.limit = limit }

    func add(_ n: Int) throws {
        total += UInt64(n)
        guard total <= limit else { throw BackupError.totalTooLarge(size: total, limit: limit) }
    }
}

/// A SHA-256 digest the JSON source closure can update.
private final class Hasher {
    private var hash = SHA256()
    func update(_ raw: UnsafeRawBufferPointer) { hash.update(raw) }
    func finalHex() -> String { hash.finalHex() }
}
