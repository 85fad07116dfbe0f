import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// The restore path decodes data.json with the daily logs streamed (`DataFileReader.decode(bytes:)`);
/// it must give exactly what the whole-tree path (`decode(_:)`) gives, results and errors alike.
@Suite struct StreamingDecodeTests {
    static let childId = UUID()

    /// The tree path's outcome: the decoded data or the error, as text for comparison.
    static func viaTree(_ bytes: [UInt8]) -> Result<DecodedData, BackupError> {
        Result {
            let root: JSONValue
            do { root = try JSONParser.parse(bytes, options: DataFileReader.parseOptions(BackupLimits())) } catch let error as JSONParseError {
                throw error.backupError(entry: "data.json", limits: BackupLimits())
            }
            return try DataFileReader(defaultChildId: childId).decode(root)
        }.mapError { ($0 as? BackupError) ?? .dataInvalid(path: "?", reason: "\($0)") }
    }

    static func viaStream(_ bytes: [UInt8]) -> Result<DecodedData, BackupError> {
        Result { try DataFileReader(defaultChildId: childId).decode(bytes: bytes) }
            .mapError { ($0 as? BackupError) ?? .dataInvalid(path: "?", reason: "\($0)") }
    }

    /// Photo icons without a `localAssetId` get a fresh random one on every decode; ignore it.
    static func comparable(_ routines: [Routine]) -> [Routine] {
        routines.map { r in
            var r = r
            if case .photo(_, let asset) = r.icon { r.icon = .photo(localAssetId: "", backupAssetName: asset) }
            return r
        }
    }

    static func expectSame(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        switch (viaTree(bytes), viaStream(bytes)) {
        case (.success(let a), .success(let b)):
            #expect(a.schemaVersion == b.schemaVersion, sourceLocation: sourceLocation)
            #expect(a.routineSets == b.routineSets && a.setHasChild == b.setHasChild, sourceLocation: sourceLocation)
            #expect(comparable(a.routines) == comparable(b.routines), sourceLocation: sourceLocation)
            #expect(a.dailyLogs == b.dailyLogs, sourceLocation: sourceLocation)
            #expect(a.children == b.children, sourceLocation: sourceLocation)
            #expect(a.appSettings?.fields == b.appSettings?.fields, sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        case (let a, let b):
            Issue.record("tree \(a) but stream \(b)", sourceLocation: sourceLocation)
        }
    }

    @Test func sameDataForEveryPlatform() throws {
        let source = try BackupFixture()
        let (_, linux) = try CorruptArchiveTests.goodParts(source)
        let decoded = try DataFileReader(defaultChildId: Self.childId).decode(bytes: linux)
        #expect(decoded.dailyLogs.count == 14)
        for bytes in [linux, Array(OtherPlatformTests.android.utf8), Array(OtherPlatformTests.ios.utf8)] {
            Self.expectSame(bytes)
        }
    }

    @Test func sameErrorsForBrokenLogs() throws {
        let source = try BackupFixture()
        let (_, good) = try CorruptArchiveTests.goodParts(source)
        func logs(_ change: @escaping (inout [[String: Any]]) -> Void) throws -> [UInt8] {
            try CorruptArchiveTests.edit(good) { o in
                var l = o["dailyLogs"] as? [[String: Any]] ?? []
                change(&l)
                o["dailyLogs"] = l
            }
        }
        let cases: [[UInt8]] = [
            try logs { $0[3]["status"] = "skipped" },
            try logs { $0[5]["id"] = nil; $0[7]["date"] = "2026-13-01" },
            try logs { $0[0]["routineId"] = NSNull(); $0[0]["routineID"] = $0[1]["routineId"] },
            try logs { $0[2]["routineId"] = 7 },
            // A bad log, and a bad set that `decode(_:)` reports first.
            try CorruptArchiveTests.edit(try logs { $0[1]["createdAt"] = "yesterday" }) { o in
                var sets = o["routineSets"] as? [[String: Any]] ?? []
                sets[0]["createdAt"] = "never"
                o["routineSets"] = sets
            },
            try CorruptArchiveTests.edit(try logs { $0[1]["status"] = 1 }) { $0["schemaVersion"] = 99 },
            try CorruptArchiveTests.edit(good) { $0["dailyLogs"] = ["not": "an array"] },
            try CorruptArchiveTests.edit(good) { $0["dailyLogs"] = NSNull() },
            try CorruptArchiveTests.edit(good) { $0["dailyLogs"] = [] },
            try CorruptArchiveTests.edit(good) { $0["dailyLogs"] = [1, "two"] },
            // JSON errors after a bad log, inside and after the streamed array.
            Array(#"{"dailyLogs":[{"status":"x"},{"a":tru}],"schemaVersion":2}"#.utf8),
            Array(#"{"dailyLogs":[{"status":"x"}],"schemaVersion":2,"dailyLogs":[]}"#.utf8),
            Array(#"{"dailyLogs":[{"status":"x"}] , "schemaVersion":2} x"#.utf8),
            Array(#"{"dailyLogs":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#.utf8),
            Array(#"{"dailyLogs":[}"#.utf8),
            Array(#"{"dailyLogs":[{"status":"x"},]}"#.utf8),
            Array(#"[{"dailyLogs":[{"status":"x"}]}]"#.utf8),
            Array(#"{"x":{"dailyLogs":[{"status":"x"}]},"schemaVersion":2}"#.utf8),
        ]
        for bytes in cases { Self.expectSame(bytes) }
        guard case .failure(.dataInvalid(let path, _)) = Self.viaStream(cases[0]) else {
            Issue.record("a bad status must be refused")
            return
        }
        #expect(path == "dailyLogs[3].status")
    }
}
