import Foundation
import SteppieCore
import SteppieFiles

/// One JSON object per line for other front ends (a kiosk screen, a big-button controller):
/// every transition and every cue, with type, activity id, title, time and progress. The lines
/// are the reducer's `.log` effects; `ChildModeRuntime` writes them here.
///
/// A write that fails (a closed pipe, a full disk) turns the log off and is reported once through
/// `onFailure`; child mode goes on.
public final class EventLog {
    private let write: (String) throws(FileRefusal) -> Void
    private let zone: TimeZone
    private let locale: String
    private var failed = false
    /// Told once, on the first failed write.
    public var onFailure: ((FileRefusal) -> Void)?

    public init(zone: TimeZone, locale: String, write: @escaping (String) throws(FileRefusal) -> Void) {
        self.write = write
        self.zone = zone
        self.locale = locale
    }

    /// Opens `-` (standard output) or appends to a file (created owner-only; anything but a
    /// regular file is refused untouched).
    public static func open(_ target: String, zone: TimeZone, locale: String) throws -> EventLog {
        if target == "-" {
            return EventLog(zone: zone, locale: locale) { line throws(FileRefusal) in
                try Descriptor.writeAll(STDOUT_FILENO, line + "\n", path: "standard output")
            }
        }
        let fd = try OwnerOnly.openForWriting(target, truncate: false, append: true)
        let file = OpenFile(fd)
        return EventLog(zone: zone, locale: locale) { line throws(FileRefusal) in
            try Descriptor.writeAll(file.fd, line + "\n", path: target)
        }
    }

    /// Writes one record as one line.
    public func record(_ kind: EventLogRecord.Kind, routine: Routine?, state: ChildModeState, at now: Date,
                       cue: String? = nil, minutes: Int? = nil) {
        guard !failed else { return }
        let record = EventLogRecord(type: kind, time: Timestamp.format(now, in: zone), date: state.day.description,
                                    progress: .init(completed: state.shownCompleted, total: state.plan.total),
                                    activityId: routine?.id.lowercased, title: routine?.title.resolve(chosen: locale, system: nil),
                                    cue: cue, minutes: minutes)
        guard let data = try? Self.encoder.encode(record) else { return }
        do throws(FileRefusal) {
            try write(String(decoding: data, as: UTF8.self))
        } catch {
            failed = true
            onFailure?(error)
        }
    }

    /// One line: sorted keys, no spaces, slashes kept.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// One line of the event log (`docs/child-mode.md`, "Event log"). Keys without a value are left
/// out: `activityId` and `title` when no routine is concerned, `cue` and `minutes` unless a cue.
public struct EventLogRecord: Codable, Equatable, Sendable {
    /// The kinds the reducer logs (`ChildModeEffect.log`).
    public typealias Kind = ChildModeLogEntry.Kind

    public struct Progress: Codable, Equatable, Sendable {
        public var completed: Int
        public var total: Int
    }

    public var type: Kind
    public var time: String
    public var date: String
    public var progress: Progress
    public var activityId: String?
    public var title: String?
    public var cue: String?
    public var minutes: Int?
}

/// A descriptor closed when the last reference goes.
public final class OpenFile {
    public let fd: Int32
    public init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}
