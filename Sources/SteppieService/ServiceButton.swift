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
                            problem: device.isPresent ? nil : device.lastReopenError?.catalogKey)
    }
}
