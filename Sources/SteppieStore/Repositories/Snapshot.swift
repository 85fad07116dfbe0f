import SteppieCore

/// Every row of the store as plain values: what a backup carries and what a restore puts back.
public struct Snapshot: Hashable, Sendable {
    public var children: [Child]
    public var routineSets: [RoutineSet]
    public var routines: [Routine]
    public var dailyLogs: [DailyLog]
    /// The device row; nil when the device was never set up.
    public var deviceSettings: DeviceSettings?

    public init(children: [Child] = [], routineSets: [RoutineSet] = [], routines: [Routine] = [],
                dailyLogs: [DailyLog] = [], deviceSettings: DeviceSettings? = nil) {
        self.children = children; self.routineSets = routineSets; self.routines = routines
        self.dailyLogs = dailyLogs; self.deviceSettings = deviceSettings
    }

    /// True when the snapshot holds no rows at all.
    public var isEmpty: Bool {
        children.isEmpty && routineSets.isEmpty && routines.isEmpty && dailyLogs.isEmpty && deviceSettings == nil
    }
}
