import SteppieCore

/// The haptic outputs a device's setting (`steppie haptics set`, `DeviceHaptics`) names, opened.
public struct DeviceHapticOutputs {
    /// The setting they were opened for.
    public let setting: DeviceHaptics
    /// The open force-feedback device; nil when none is set or it could not be opened.
    public private(set) var rumble: RumbleDevice?
    /// The open event log; nil when none is set or it could not be opened.
    public let log: HapticEventLog?
    /// Why an output that is set could not be opened; feedback goes on without it.
    public let failures: [FeedbackError]

    /// Opens the rumble device and the log the setting names; a failure is kept, never thrown.
    public init(_ setting: DeviceHaptics) {
        self.setting = setting
        var failures: [FeedbackError] = []
        func opening<T>(_ open: () throws -> T) -> T? {
            do { return try open() } catch let e as FeedbackError {
                failures.append(e)
            } catch {
                failures.append(.hapticDevice(path: "", reason: "\(error)"))
            }
            return nil
        }
        rumble = setting.rumblePath.flatMap { path in opening { try RumbleDevice(path: path) } }
        log = setting.logPath.flatMap { path in opening { try HapticEventLog(path: path) } }
        self.failures = failures
    }

    /// Tries the force-feedback device again when it is set but was not opened (a game pad
    /// plugged in since); true when it is open now.
    public mutating func retryRumble() -> Bool {
        guard rumble == nil, let path = setting.rumblePath else { return rumble != nil }
        rumble = try? RumbleDevice(path: path)
        return rumble != nil
    }

    /// Lets go of a force-feedback device that was unplugged (`RumbleDevice.isGone`); true when it
    /// did. `retryRumble` opens it again once it is back.
    public mutating func dropRumbleIfGone() -> Bool {
        guard let rumble, rumble.isGone else { return false }
        self.rumble = nil
        return true
    }

    /// What the engine sends patterns to.
    public var outputs: [any HapticOutput] {
        var outputs: [any HapticOutput] = []
        if let rumble { outputs.append(rumble) }
        if let log { outputs.append(log) }
        return outputs
    }

    /// Gives `engine` these outputs and the setting's audio pulse.
    public func apply(to engine: FeedbackEngine) {
        engine.setHaptics(outputs, audioPulse: setting.audioPulse)
    }
}
