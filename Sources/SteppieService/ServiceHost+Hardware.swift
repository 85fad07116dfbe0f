import Foundation
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieStore

/// This device's hardware settings, followed while the service runs: the buttons stored for the
/// device (`steppie buttons add|remove`) and the haptic stand-ins (`steppie haptics set`). Both
/// are read again whenever another process commits (SQLite's `data_version`) and at least every
/// second, with the children, so a change is in use within about a second.
extension ServiceHost {
    /// Opens the readers of stored buttons that were added or changed and closes those of buttons
    /// that were removed; the command line's buttons stay. A stored button whose path a
    /// `--button` names is left to the command line for this run.
    func reloadButtons() {
        let rows: [DeviceButton]
        do { rows = try store.deviceButtons() } catch {
            if storedButtons != nil { return }   // keep what runs; said once at start
            log(.fault(child: "-", reason: describe(error)))
            storedButtons = []
            return
        }
        guard rows != storedButtons else { return }
        let starting = storedButtons == nil
        let commandLinePaths = Set(buttons.filter { $0.stored == nil }.map(\.device.spec.path))
        let wanted = rows.filter { !commandLinePaths.contains($0.path) }
        var wantedById: [UUID: DeviceButton] = [:]
        for row in wanted { wantedById[row.id] = row }
        // Let go of removed and changed buttons first: their descriptors close (and a grab is
        // given back) before a changed one is opened again.
        var kept: [UUID: ServiceButton] = [:]
        var dropped: [String] = []
        buttons = buttons.filter { b in
            guard let row = b.stored else { return true }
            if wantedById[row.id] == row {
                kept[row.id] = b
                return true
            }
            if !rows.contains(where: { $0.id == row.id }) { dropped.append(row.path) }
            return false
        }
        if !starting { dropped.forEach { log(.buttonDropped(path: $0)) } }
        let now = ContinuousClock.now
        var next = buttons.filter { $0.stored == nil }
        for row in wanted {
            if let same = kept[row.id] {
                next.append(same)
                continue
            }
            let spec: ButtonSpec
            do throws(ButtonSpecError) {
                var map = ButtonMap.anyKeyIsDone
                if let text = row.keyMap { map = try ButtonMap(parsing: text) }
                spec = ButtonSpec(path: row.path, map: map, grab: row.grab, debounce: row.debounceMilliseconds.map { .milliseconds($0) })
            } catch {
                log(.button(key: error.catalogKey, arguments: error.arguments))
                continue
            }
            // Stored buttons never stop the service: missing, not permitted or held elsewhere,
            // they are tried again every 500 ms.
            guard let device = try? ButtonDevice(spec: spec, debounce: spec.effectiveDebounce(childSetting: Debouncer.defaultWindow),
                                                 now: now, keepTrying: true) else { continue }
            next.append(ServiceButton(stored: row, device: device, childId: row.childId))
            log(.buttonInUse(path: row.path))
            if let problem = device.lastReopenError { log(.button(key: problem.catalogKey, arguments: problem.arguments)) }
        }
        buttons = next
        storedButtons = rows
    }

    /// Opens the haptic outputs again when the setting changed, and gives them to the engine; a
    /// force-feedback device that was missing is tried again every 2 s while its node is there.
    func reloadHaptics(now: Double) {
        guard let setting = try? store.deviceHaptics() else { return }
        if var current = haptics, current.setting == setting {
            // An open game pad that was unplugged is let go of, then tried again like a missing one.
            if now - lastRumbleTry >= 2, current.dropRumbleIfGone() {
                current.apply(to: engine)
                haptics = current
                log(.rumbleUnplugged(path: setting.rumblePath ?? ""))
            }
            guard let path = setting.rumblePath, current.rumble == nil, now - lastRumbleTry >= 2,
                  OwnerOnly.kind(of: path) == .characterDevice else { return }
            lastRumbleTry = now
            var retried = current
            guard retried.retryRumble() else { return }
            retried.apply(to: engine)
            haptics = retried
            log(.haptics(audioPulse: setting.audioPulse, rumble: setting.rumblePath, log: setting.logPath))
            return
        }
        let opened = DeviceHapticOutputs(setting)
        opened.apply(to: engine)
        haptics = opened
        lastRumbleTry = now
        log(.haptics(audioPulse: setting.audioPulse, rumble: setting.rumblePath, log: setting.logPath))
        for failure in opened.failures { log(.hapticOutputFailed(failure)) }
    }

    /// What `status` says about the haptic stand-ins in use.
    var hapticsStatus: ServiceHapticsStatus {
        let setting = haptics?.setting ?? .defaults
        return ServiceHapticsStatus(
            audioPulse: setting.audioPulse,
            rumble: setting.rumblePath.map { HapticOutputStatus(path: $0, state: haptics?.rumble == nil ? "absent" : "present") },
            log: setting.logPath.map { HapticOutputStatus(path: $0, state: haptics?.log == nil ? "absent" : "present") })
    }
}
