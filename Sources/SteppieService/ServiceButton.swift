import Foundation
import SteppieCore
import SteppieInput

/// A big button the service reads: given on the command line for this run, or stored for the
/// device (`steppie buttons add`), with the child its presses are for.
final class ServiceButton {
    /// The stored row it was opened for; nil: `serve --button`.
    let stored: DeviceButton?
    let device: ButtonDevice
    /// The child its presses go to; nil: `serve --child`, else the only child with an active set.
    let childId: UUID?
    /// The path of an earlier button that reads the same device, while both are open: this one's
    /// presses are not counted again (each open descriptor of an input device gets every event).
    var sameDeviceAs: String?

    init(stored: DeviceButton?, device: ButtonDevice, childId: UUID?) {
        self.stored = stored
        self.device = device
        self.childId = childId
    }

    /// What `status` says about it.
    var status: ServiceButtonStatus {
        ServiceButtonStatus(path: device.spec.path, source: stored == nil ? "commandLine" : "stored", id: stored?.id.lowercased,
                            child: childId?.lowercased, map: device.spec.map == .anyKeyIsDone ? nil : device.spec.map.description,
                            state: device.isPresent ? "present" : "absent",
                            problem: device.isPresent ? (sameDeviceAs == nil ? nil : Self.sameDeviceKey) : device.lastReopenError?.catalogKey,
                            sameDeviceAs: device.isPresent ? sameDeviceAs : nil)
    }

    /// The status problem and log line of a button whose device another button already reads.
    static let sameDeviceKey = "service.log.buttonSameDevice"
}
