extension Schema {
    /// Issue 26 item 4, the kiosk's picker:
    /// - `children.picture`: the child's picture, the same JSON as a routine's icon (a builtin
    ///   name or a photo); NULL until a guardian chooses one (the picker then draws a default).
    ///   It travels in backups (the child's `picture`, the photo under `assets/`).
    /// - `device_settings.siblings_may_switch`: whether the child's page offers "switch child"
    ///   (back to the picker); off by default, device-local, kept across a restore.
    static let v9ChildPicturesSiblingSwitch = """
    ALTER TABLE children ADD COLUMN picture TEXT
        CHECK (picture IS NULL OR (json_valid(picture) AND json_extract(picture, '$.type') IN ('builtin', 'photo')));
    ALTER TABLE device_settings ADD COLUMN siblings_may_switch INTEGER NOT NULL DEFAULT 0
        CHECK (siblings_may_switch IN (0, 1));
    """
}
