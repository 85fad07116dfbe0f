import SteppieSync

/// How the contract's tables map onto sync registers (docs/sync.md, "What is synced"): for each
/// synced table, the fields a row carries, each as an SQL expression that turns the row's column
/// into the register's JSON text (for the change-log triggers), and back (for applying a register
/// to the table). One list, read by the v10 triggers, the join's baseline and the apply path, so a
/// field is never written one way and read another.
enum SyncColumns {
    /// One field of one synced table.
    struct Field: Sendable {
        /// The register's name (`SyncEntity.allows(field:)`).
        let name: String
        /// The column it lives in.
        let column: String
        let kind: Kind
        /// Written when the record has no register for the field yet (JSON), or nil when the row
        /// cannot be made without it.
        let fallback: String?

        enum Kind: Sendable {
            /// A scalar column whose JSON is `json_quote(column)`.
            case scalar
            /// A 0/1 column, `true`/`false` in JSON.
            case flag
            /// A column holding JSON text (an object or an array).
            case json
            /// A timestamp column whose presence is the flag (`deleted_at`, `archived_at`).
            case presence
        }

        /// The register's JSON for the row named `row` (NEW, OLD, or a table alias).
        func json(_ row: String) -> String {
            let c = "\(row).\(column)"
            switch kind {
            case .scalar: return "json_quote(\(c))"
            case .flag: return "CASE \(c) WHEN 1 THEN 'true' ELSE 'false' END"
            case .json: return "COALESCE(json(\(c)), 'null')"
            case .presence: return "CASE WHEN \(c) IS NULL THEN 'false' ELSE 'true' END"
            }
        }
    }

    /// One synced table.
    struct Table: Sendable {
        let entity: SyncEntity
        let table: String
        /// SQL giving the owning child's id for the row named `row`.
        let child: @Sendable (String) -> String
        let fields: [Field]
    }

    static func scalar(_ name: String, _ column: String, _ fallback: String? = nil) -> Field {
        Field(name: name, column: column, kind: .scalar, fallback: fallback)
    }
    static func flag(_ name: String, _ column: String, _ fallback: String) -> Field {
        Field(name: name, column: column, kind: .flag, fallback: fallback)
    }
    static func json(_ name: String, _ column: String, _ fallback: String? = nil) -> Field {
        Field(name: name, column: column, kind: .json, fallback: fallback)
    }
    static func presence(_ name: String, _ column: String) -> Field {
        Field(name: name, column: column, kind: .presence, fallback: "false")
    }

    static let children = Table(entity: .child, table: "children", child: { "\($0).id" }, fields: [
        scalar("name", "display_name"),
        presence("archived", "archived_at"),
        scalar("createdAt", "created_at"),
        json("picture", "picture", "null"),
        scalar("profile.intensity", "feedback_intensity", "\"normal\""),
        flag("profile.soundEnabled", "sound_enabled", "true"),
        flag("profile.ttsEnabled", "tts_enabled", "true"),
        flag("profile.hapticEnabled", "haptic_enabled", "true"),
        scalar("profile.ttsRate", "tts_rate", "1.0"),
        scalar("profile.ttsVolume", "tts_volume", "1.0"),
        scalar("profile.volumeCap", "volume_cap", "1.0"),
        scalar("profile.pitch", "pitch", "50"),
        scalar("profile.voiceVariant", "voice_variant", "null"),
        scalar("profile.undoDurationSeconds", "undo_duration_seconds", "5"),
        json("profile.notificationLeadTimes", "notification_lead_times", "[10,5]"),
        scalar("profile.quietHoursStart", "quiet_hours_start", "null"),
        scalar("profile.quietHoursEnd", "quiet_hours_end", "null"),
        scalar("profile.locale", "locale", "null"),
    ])

    static let routineSets = Table(entity: .routineSet, table: "routine_sets", child: { "\($0).child_id" }, fields: [
        scalar("child", "child_id"),
        json("name", "name"),
        scalar("startTime", "start_time", "null"),
        presence("deleted", "deleted_at"),
        scalar("createdAt", "created_at"),
    ])

    static let routines = Table(entity: .routine, table: "routines",
                                child: { "(SELECT child_id FROM routine_sets WHERE id = \($0).routine_set_id)" }, fields: [
        scalar("set", "routine_set_id"),
        scalar("titleKey", "title_key", "null"),
        json("title", "title"),
        json("icon", "icon"),
        scalar("color", "color_token", "\"color.card.sky\""),
        scalar("time", "scheduled_time", "null"),
        flag("active", "is_active", "true"),
        presence("deleted", "deleted_at"),
        scalar("createdAt", "created_at"),
    ])

    static let tables = [children, routineSets, routines]

    /// A set's `order` register: its visible routines' ids by position.
    static func order(set: String) -> String {
        """
        (SELECT json_group_array(id) FROM (SELECT id FROM routines WHERE routine_set_id = \(set)
            AND is_active = 1 AND deleted_at IS NULL ORDER BY sort_order))
        """
    }

    /// A child's `schedule` register: every slot as `[weekday, "HH:mm", set id]`, in order.
    static func schedule(child: String) -> String {
        """
        (SELECT json_group_array(json_array(weekday, start_time, routine_set_id)) FROM (SELECT weekday, start_time,
            routine_set_id FROM set_schedules WHERE child_id = \(child) ORDER BY weekday, start_time))
        """
    }
}
