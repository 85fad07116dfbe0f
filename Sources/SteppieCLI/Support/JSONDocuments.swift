import Foundation
import SteppieCore

/// The documents the command line prints with `--json`, as `Encodable` types: each key and its
/// kind is fixed here, and `JSONGoldenTests` holds the bytes. A key whose value may be missing
/// is written `null` (`@NullIfAbsent`) where it always was, and left out where it always was.
enum JSONDocuments {
    /// `{"completed": n, "total": n}`.
    struct Progress: Encodable, Sendable {
        let completed: Int
        let total: Int
    }

    /// A set named in another document: id and name in each locale.
    struct SetRef: Encodable, Sendable {
        let id: String
        let name: [String: String]

        init(_ set: RoutineSet) {
            id = set.id.lowercased
            name = set.name.values
        }
    }

    struct Icon: Encodable, Sendable {
        let type: String
        let name: String?
        let localAssetId: String?
        let backupAssetName: String?
        let label: String
    }

    struct Routine: Encodable, Sendable {
        let id: String
        let title: [String: String]
        let displayTitle: String
        let order: Int
        let icon: Icon
        let colorToken: String
        let isActive: Bool
        @NullIfAbsent var scheduledTime: String?
        @NullIfAbsent var titleKey: String?
    }

    struct Log: Encodable, Sendable {
        let id: String
        let date: String
        let routineId: String
        let routineSetId: String
        let status: String
        @NullIfAbsent var completedAt: String?
    }

    /// A routine in today's plan: the routine's keys with its status and log.
    struct PlanRoutine: Encodable, Sendable {
        let routine: Routine
        let status: String
        @NullIfAbsent var log: Log?

        private enum Keys: String, CodingKey { case status, log }

        func encode(to encoder: any Encoder) throws {
            try routine.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(status, forKey: .status)
            try c.encode(_log, forKey: .log)
        }
    }

    struct ChildRef: Encodable, Sendable {
        let id: String
        let name: String
    }

    struct Plan: Encodable, Sendable {
        let date: String
        let timeZone: String
        let child: ChildRef
        @NullIfAbsent var set: SetRef?
        let progress: Progress
        let allDone: Bool
        @NullIfAbsent var current: Routine?
        let routines: [PlanRoutine]
    }

    /// A set in `routines --json`.
    struct SetWithRoutines: Encodable, Sendable {
        let id: String
        let name: [String: String]
        let isActive: Bool
        @NullIfAbsent var startTime: String?
        let routines: [Routine]
    }

    /// A set in `sets --json`: how many routines it shows.
    struct SetSummary: Encodable, Sendable {
        let id: String
        let name: [String: String]
        let isActive: Bool
        let routines: Int
    }

    /// The reply of `complete` and `undo` saved directly.
    struct Saved: Encodable, Sendable {
        let log: Log
        let progress: Progress
    }

    struct BuiltinIcon: Encodable, Sendable {
        let name: String
        let label: [String: String]
    }

    struct ChildSummary: Encodable, Sendable {
        let id: String
        let name: String
        let intensity: String
        @NullIfAbsent var activeSet: SetRef?
    }
}
