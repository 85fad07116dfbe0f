import Foundation
import Synchronization
import Testing
@testable import SteppieBackup

/// data.json inflates and is hashed on another thread; the parser must see exactly what the source
/// gives: the bytes, the end, an error at the byte where it happened.
@Suite struct ReadAheadTests {
    static let data = (0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    /// A source handing out `data` in uneven pulls, then `failure` (or the end).
    final class Source: @unchecked Sendable {
        let pulls = Mutex(0)
        var at = 0
        let stopAt: Int
        let failure: BackupError?
        init(stopAt: Int = ReadAheadTests.data.count, failure: BackupError? = nil) { self.stopAt = stopAt; self.failure = failure }

        func pull(_ raw: UnsafeMutableRawBufferPointer) throws -> Int {
            let call = pulls.withLock { $0 += 1; return $0 }
            let n = min(raw.count, 1 + (call * 7919) % 70_000, stopAt - at)
            if n == 0, let failure { throw failure }
            for k in 0..<n { raw[k] = ReadAheadTests.data[at + k] }
            at += n
            return n
        }
    }

    static func readAll(_ ahead: ReadAhead) -> (bytes: [UInt8], error: (any Error)?) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var size = 1
        do {
            while true {
                let n = try buffer.withUnsafeMutableBytes { try ahead.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }
                if n == 0 { return (out, nil) }
                out.append(contentsOf: buffer[0..<n])
                size = size * 3 % 65_536 + 1
            }
        } catch {
            return (out, error)
        }
    }

    @Test func theReaderSeesTheSourcesBytesThenItsEnd() throws {
        let source = Source()
        let ahead = ReadAhead(source.pull)
        let (bytes, error) = Self.readAll(ahead)
        #expect(error == nil)
        #expect(bytes == Self.data)
        var one = [UInt8](repeating: 0, count: 8)
        #expect(try one.withUnsafeMutableBytes { try ahead.read(into: $0) } == 0)
        ahead.stop()
    }

    @Test func anErrorArrivesRightAfterTheBytesBeforeIt() throws {
        let failure = BackupError.entrySizeMismatch(name: "data.json", declared: 300_001)
        let ahead = ReadAhead(Source(stopAt: 300_001, failure: failure).pull)
        let (bytes, error) = Self.readAll(ahead)
        #expect(bytes == Array(Self.data[0..<300_001]))
        #expect(error as? BackupError == failure)
        // And again on the next read: the source is not pulled past its error.
        var one = [UInt8](repeating: 0, count: 8)
        #expect(throws: failure) { try one.withUnsafeMutableBytes { try ahead.read(into: $0) } }
    }

    @Test func stoppingEarlyEndsThePulls() throws {
        let source = Source()
        let ahead = ReadAhead(source.pull)
        var buffer = [UInt8](repeating: 0, count: 1000)
        #expect(try buffer.withUnsafeMutableBytes { try ahead.read(into: $0) } > 0)
        ahead.stop()
        let pulled = source.pulls.withLock { $0 }
        // Joined: the thread pulls no more, and at most the chunks that fit ahead were pulled.
        #expect(pulled <= ReadAhead.depth + 1)
        ahead.stop()
        #expect(source.pulls.withLock { $0 } == pulled)
        #expect(source.at < Self.data.count)
    }
}
