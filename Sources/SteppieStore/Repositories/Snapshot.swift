import Foundation
import SteppieCore

/// Every row of the store as plain values: what a backup carries and what a restore puts back.
public struct Snapshot: Hashable, Sendable {
    public var children: [Child]
    public var routineSets: [RoutineSet]
    public var routines: [Routine]
    public var dailyLogs: [DailyLog]
    /// The device row; nil when the device was never set up.
    public var deviceSettings: DeviceSettings?
    /// Every child's weekly schedule slots; nil when the snapshot does not carry schedules (a
    /// phone backup, or a Linux backup from before they travelled): `Store.replaceAll` then keeps
    /// the slots that still fit.
    public var schedules: [ScheduleRecord]?
    /// What completions showed (schema v8), named by `DailyLog.lookId`; empty in a backup from
    /// before looks travelled (its logs show their routines as they are).
    public var looks: [RoutineLook]
    /// The SHA-256 of each photo file by name; nil leaves the device's record as it is. A restore
    /// sets it to the hashes of the backup's photos, as read from the archive.
    public var photoHashes: [String: String]?

    public init(children: [Child] = [], routineSets: [RoutineSet] = [], routines: [Routine] = [],
                dailyLogs: [DailyLog] = [], deviceSettings: DeviceSettings? = nil, schedules: [ScheduleRecord]? = nil,
                looks: [RoutineLook] = [], photoHashes: [String: String]? = nil) {
        self.children = children; self.routineSets = routineSets; self.routines = routines
        self.dailyLogs = dailyLogs; self.deviceSettings = deviceSettings; self.schedules = schedules
        self.looks = looks; self.photoHashes = photoHashes
    }

    /// True when the snapshot holds no rows at all.
    public var isEmpty: Bool {
        children.isEmpty && routineSets.isEmpty && routines.isEmpty && dailyLogs.isEmpty && deviceSettings == nil
            && (schedules ?? []).isEmpty && looks.isEmpty
    }
}

/// One stored slot of a child's weekly schedule (a `set_schedules` row).
public struct ScheduleRecord: Hashable, Sendable {
    public var childId: UUID
    public var slot: ScheduleSlot
    public var createdAt: Date
    public var updatedAt: Date

    public init(childId: UUID, slot: ScheduleSlot, createdAt: Date, updatedAt: Date) {
        self.childId = childId; self.slot = slot; self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}
