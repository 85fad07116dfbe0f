extension HubSchema {
    /// Devices by the hash of their credential (docs/centre.md, "What the hub keeps"): a device's
    /// content request (`GET /sync/v1/blob/…`) names no device, only its bearer credential, and
    /// finding its children read every device's row (and its group's children) for each photo or
    /// recording fetched, thousands of rows a request in a district.
    static let v6DevicesByCredential = PostgresMigration("2026-12-hub-v6-devices-by-credential", [
        "CREATE INDEX devices_by_credential ON devices (credential_hash)",
    ])
}
