import SteppieSync

// Kept here until the lead moves them beside the other messages (SteppieSync/SyncWire.swift).

/// `POST /sync/v1/join`: a device asks to join with the one-time code its guardian typed.
package struct JoinRequest: Hashable, Sendable, Codable {
    package let protocolVersion: Int
    /// The joining code the hub's guardian was shown (valid 10 minutes, attempts limited).
    package let code: String
    /// What the hub's guardian sees this device called ("Classroom").
    package let deviceName: String
    package let device: DeviceID

    package init(protocolVersion: Int = SyncProtocol.version, code: String, deviceName: String, device: DeviceID) {
        self.protocolVersion = protocolVersion
        self.code = code
        self.deviceName = deviceName
        self.device = device
    }
}

package struct JoinReply: Hashable, Sendable, Codable {
    /// The device's own credential, sent as `Authorization: Bearer` from now on (the hub keeps
    /// only its hash; the device keeps it owner-only).
    package let credential: String
    /// The hub's own device id (its stamps name it).
    package let hubDevice: DeviceID
    /// The children the hub gave this device.
    package let children: [String]

    package init(credential: String, hubDevice: DeviceID, children: [String]) {
        self.credential = credential
        self.hubDevice = hubDevice
        self.children = children
    }
}
