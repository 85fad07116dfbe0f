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
    static func viaTree(_ bytes: [UInt8], limits: BackupLimits = BackupLimits()) -> Result<DecodedData, BackupError> {
        Result {
            let root: JSONValue
            do { root = try JSONParser.parse(bytes, options: DataFileReader.parseOptions(limits)) } catch let error as JSONParseError {
                throw error.backupError(entry: "data.json", limits: limits)
            }
            return try DataFileReader(defaultChildId: childId, limits: limits).decode(root)
        }.mapError { ($0 as? BackupError) ?? .dataInvalid(path: "?", reason: "\($0)") }
    }

    static func viaStream(_ bytes: [UInt8], limits: BackupLimits = BackupLimits(), flat: Bool = true) -> Result<DecodedData, BackupError> {
        Result {
            var reader = DataFileReader(defaultChildId: childId, limits: limits)
            reader.decodesFlatLogs = flat
            return try reader.decode(bytes: bytes)
        }
            .mapError { ($0 as? BackupError) ?? .dataInvalid(path: "?", reason: "\($0)") }
    }

    /// The streamed path pulling `bytes` from a source `size` bytes at a time (the restore's way).
    static func viaChunks(_ bytes: [UInt8], size: Int, limits: BackupLimits = BackupLimits(), flat: Bool = true) -> Result<DecodedData, BackupError> {
        Result {
            var at = 0
            var reader = DataFileReader(defaultChildId: childId, limits: limits)
            reader.decodesFlatLogs = flat
            let parsed = try reader.parse(source: { raw in
                let n = min(size, raw.count, bytes.count - at)
                for k in 0..<n { raw[k] = bytes[at + k] }
                at += n
                return n
            }, expectedBytes: UInt64(bytes.count))
            return try reader.decode(parsed)
        }.mapError { ($0 as? BackupError) ?? .dataInvalid(path: "?", reason: "\($0)") }
    }

    /// Photo icons without a `localAssetId` get a fresh random one on every decode; ignore it.
    static func comparable(_ routines: [Routine]) -> [Routine] {
        routines.map { r in
            var r = r
            if case .photo(_, let asset) = r.icon { r.icon = .photo(localAssetId: "", backupAssetName: asset) }
            return r
        }
    }

    static func expectSame(_ bytes: [UInt8], limits: BackupLimits = BackupLimits(), chunks: Int? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let streamed = chunks.map { viaChunks(bytes, size: $0, limits: limits) } ?? viaStream(bytes, limits: limits)
        switch (viaTree(bytes, limits: limits), streamed) {
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

    /// Daily logs written every way the contract allows, and broken every way the bytes can be:
    /// the fast path for flat logs takes the usual ones and hands every other to the tree path,
    /// so the data and the errors are the tree's.
    @Test func flatLogsDecodeLikeTheTree() throws {
        let id = "0b7c6a52-54f4-4c64-9b1e-2f6f4d1a9c01", routine = "5d0c4b6e-8a87-4f6e-a3c2-7f3b5a1e2d10"
        let set = "9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4"
        func log(_ fields: String) -> String { "{\(fields)}" }
        let plain = #""id":"\#(id)","date":"2026-03-01","routineId":"\#(routine)","routineSetId":"\#(set)","status":"completed","completedAt":"2026-03-01T07:10:00.123+09:00","createdAt":"2026-03-01T07:10:00+09:00","updatedAt":null"#
        let undone = #""id":"\#(id.uppercased())","date":"2026-02-28","routineID":"\#(routine)","routineSetID":"\#(set)","status":"undone","completedAt":null,"createdAt":"2026-02-28T07:10:00Z","updatedAt":"2026-02-28T08:00:00.5+0900""#
        func doc(_ logs: [String]) -> [UInt8] {
            Array(#"{"schemaVersion":2,"routineSets":[],"routines":[],"dailyLogs":[\#(logs.joined(separator: ","))]}"#.utf8)
        }
        let cases: [[String]] = [
            [log(plain), log(undone)],
            ["\n  {\n\t\"id\" : \"\(id)\" ,\r\n \(plain.dropFirst(44))\n}\n", log(undone)],
            [log(plain.replacingOccurrences(of: "\"completed\"", with: #""\u0063ompleted""#))],
            [log(plain.replacingOccurrences(of: "\"status\"", with: #""st\u0061tus""#))],
            [log(plain.replacingOccurrences(of: "\"completed\"", with: "\"cömpleted\""))],
            [log(plain + #","id":"\#(id)""#)],
            [log(plain + #","note":"x""#), log(plain + #","note":{"a":[1,2.5e3,true,null]}"#)],
            [log(plain + #","name":"x""#)],
            [log(plain + #","title":{"en":"x","ko":"엑스"}"#)],
            [log(plain.replacingOccurrences(of: "\"routineId\":\"\(routine)\"", with: #""routineId":null,"routineID":"\#(routine)""#))],
            [log(plain.replacingOccurrences(of: "\"routineId\":\"\(routine)\"", with: #""routineID":"\#(set)","routineId":"\#(routine)""#))],
            [log(plain.replacingOccurrences(of: "\"completed\"", with: "1"))],
            [log(plain.replacingOccurrences(of: "\"\(id)\"", with: "true"))],
            [log(plain.replacingOccurrences(of: "\"\(id)\"", with: "{\"a\":1}"))],
            [log(plain.replacingOccurrences(of: "\"2026-03-01\"", with: "null"))],
            [log(plain.replacingOccurrences(of: "\"2026-03-01\"", with: "\"2026-3-1\""))],
            [log(plain.replacingOccurrences(of: id, with: "not-a-uuid"))],
            [log(plain.replacingOccurrences(of: "07:10:00.123+09:00", with: "07:10"))],
            [log(plain.replacingOccurrences(of: "null", with: "nul"))],
            [log(plain + ",")],
            [log(plain) + "x"],
            ["{}", "[]", #""x""#, "null", "7"],
            [log(plain + #","note":"\#(String(repeating: "long ", count: 1500))""#), log(undone)],
            [log(undone.replacingOccurrences(of: "\"completedAt\":null", with: #""completedAt":"2026-02-28T07:10:00Z""#))],
            [log(plain), log(plain), log(undone)],
        ]
        for logs in cases {
            let bytes = doc(logs)
            Self.expectSame(bytes)
            for size in [1, 5, 333, 4096, 70_000] { Self.expectSame(bytes, chunks: size) }
        }
        // A truncated document: the last log runs past the end.
        let truncated = Array(doc([log(plain), log(undone)]).dropLast(40))
        Self.expectSame(truncated)
        Self.expectSame(truncated, chunks: 64)

        // The limits apply to flat logs exactly as on the usual streamed path (where the kept size
        // is counted per log, not over the whole array as in a tree).
        let three = doc([log(plain), log(undone), log(plain + #","note":"x""#)])
        for change in [{ (l: inout BackupLimits) in l.maxJSONStringBytes = 30 }, { $0.maxJSONStringBytes = 36 },
                       { $0.maxStructureBytes = 1000 }, { $0.maxStructureBytes = 1394 }, { $0.maxStructureBytes = 1395 },
                       { $0.maxJSONDepth = 3 }, { $0.maxJSONDepth = 4 }, { $0.maxDailyLogs = 2 }, { $0.maxDailyLogs = 3 }] {
            var limits = BackupLimits()
            change(&limits)
            let usual = Self.viaStream(three, limits: limits, flat: false)
            for flat in [Self.viaStream(three, limits: limits), Self.viaChunks(three, size: 7, limits: limits)] {
                switch (usual, flat) {
                case (.success(let a), .success(let b)): #expect(a.dailyLogs == b.dailyLogs, "\(limits)")
                case (.failure(let a), .failure(let b)): #expect(a == b, "\(limits)")
                default: Issue.record("usual \(usual) but flat \(flat) with \(limits)")
                }
            }
        }
        guard case .success(let decoded) = Self.viaStream(doc([log(plain), log(undone)])) else {
            Issue.record("the plain logs must decode")
            return
        }
        #expect(decoded.dailyLogs.count == 2)
        // The usual logs take the fast path; one with an escape or an unknown field does not.
        let reader = DataFileReader(defaultChildId: Self.childId)
        #expect(try reader.parse(bytes: doc([log(plain), log(undone)])).flatLogs == 2)
        #expect(try reader.parse(bytes: doc(cases[1])).flatLogs == 2)
        #expect(try reader.parse(bytes: doc([log(plain), log(plain + #","note":"x""#), cases[2][0]])).flatLogs == 1)
        #expect(decoded.dailyLogs[1].updatedAt == Timestamp.parse("2026-02-28T08:00:00.5+09:00"))
        #expect(decoded.dailyLogs[0].updatedAt == decoded.dailyLogs[0].createdAt)
    }

    /// A whole backup's data.json pulled in small chunks decodes to the same data.
    @Test func aChunkedSourceGivesTheSameLogs() throws {
        let source = try BackupFixture()
        let (_, good) = try CorruptArchiveTests.goodParts(source)
        let many = try RestoreScaleTests.manyLogs(good, count: 500)
        for size in [1, 100, 4095, 65_536] { Self.expectSame(many, chunks: size) }
    }
}
