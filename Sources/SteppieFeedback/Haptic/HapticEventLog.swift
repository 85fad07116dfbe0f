import Foundation
import SteppieFiles
import Synchronization

/// Writes one JSON object per haptic pattern to a file (JSON lines), for review and other front ends.
public final class HapticEventLog: HapticOutput, Sendable {
    public let path: String
    /// One line written at a time.
    private let handle: Mutex<FileHandle>
    private let clock: @Sendable () -> Date

    /// Opens (creates 0600, or appends to) the log at `path`; anything but a regular file (a FIFO
    /// that would block every cue, a device, a folder) is refused.
    public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        let fd: Int32
        do { fd = try OwnerOnly.openForWriting(path, truncate: false, append: true) } catch {
            throw FeedbackError.hapticLog(path: path, reason: "\(error)")
        }
        self.path = path
        handle = Mutex(FileHandle(fileDescriptor: fd, closeOnDealloc: true))
        self.clock = clock
    }

    struct Line: Encodable {
        var at: String
        var event: String
        var pattern: String
        var pulses: [HapticPulse]
    }

    public func play(_ pattern: HapticPattern, event: FeedbackEvent) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let line = Line(at: formatter.string(from: clock()), event: event.rawValue, pattern: pattern.name,
                        pulses: pattern.pulses)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(line)
        data.append(0x0A)
        let path = path
        try handle.withLock { handle in
            do { try handle.write(contentsOf: data) } catch {
                throw FeedbackError.hapticLog(path: path, reason: "\(error)")
            }
        }
    }
}
