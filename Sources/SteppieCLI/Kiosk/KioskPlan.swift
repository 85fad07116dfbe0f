import Foundation

/// What `steppie kiosk enable` writes (#26 item 2), as data: every file and link, relative to the
/// root it is written under (`/`, or `--root DIR` for a look without touching the machine). The
/// same plan is written in both cases; on the machine itself the command then also runs
/// `systemd-sysusers` (the user) and `systemctl daemon-reload`.
///
/// - the kiosk user, in the groups of the big buttons, the screen and the sound (sysusers.d);
/// - its auto-login on the first virtual terminal (a getty@tty1 drop-in) and lingering, so its
///   systemd user manager runs from boot;
/// - its user units: `steppie serve` and cage + Chromium on the child's page, enabled;
/// - the console's blanking off (a oneshot unit running `setterm` on tty1).
struct KioskPlan: Equatable {
    enum Entry: Equatable {
        case file(path: String, content: String)
        case link(path: String, target: String)

        var path: String {
            switch self {
            case .file(let path, _), .link(let path, _): path
            }
        }
    }

    let user: String
    let home: String
    let entries: [Entry]

    /// Where `enable` records what it did, so `disable` undoes exactly that.
    static let manifestPath = "/etc/steppie/kiosk.json"

    static let groups = ["input", "video", "audio", "render"]

    init(user: String, steppie: String) {
        self.user = user
        home = "/home/\(user)"
        let units = "\(home)/.config/systemd/user"
        let header = "# Written by `steppie kiosk enable`; `steppie kiosk disable` removes it.\n"
        entries = [
            .file(path: "/etc/sysusers.d/steppie-kiosk.conf", content: header + """
                u \(user) - "Steppie kiosk" \(home) /bin/sh
                """ + "\n" + Self.groups.map { "m \(user) \($0)" }.joined(separator: "\n") + "\n"),
            .file(path: "/etc/systemd/system/getty@tty1.service.d/steppie-autologin.conf", content: header + """
                [Service]
                ExecStart=
                ExecStart=-/sbin/agetty --autologin \(user) --noclear %I $TERM

                """),
            .file(path: "/var/lib/systemd/linger/\(user)", content: ""),
            .file(path: "/etc/systemd/system/steppie-kiosk-noblank.service", content: header + """
                [Unit]
                Description=Steppie kiosk: the console never blanks
                After=getty@tty1.service

                [Service]
                Type=oneshot
                Environment=TERM=linux
                ExecStart=/usr/bin/setterm --blank 0 --powersave off --powerdown 0
                TTYPath=/dev/tty1
                StandardOutput=tty

                [Install]
                WantedBy=multi-user.target

                """),
            .link(path: "/etc/systemd/system/multi-user.target.wants/steppie-kiosk-noblank.service",
                  target: "/etc/systemd/system/steppie-kiosk-noblank.service"),
            .file(path: "\(units)/steppie.service", content: header + """
                [Unit]
                Description=Steppie routine guidance (steppie serve)
                After=pipewire-pulse.service pulseaudio.service

                [Service]
                Type=notify
                NotifyAccess=main
                ExecStart=\(steppie) serve
                Restart=on-failure
                RestartSec=2
                WatchdogSec=30
                TimeoutStopSec=10
                NoNewPrivileges=yes
                LockPersonality=yes
                RestrictSUIDSGID=yes
                RestrictNamespaces=yes
                SystemCallArchitectures=native
                UMask=0077

                [Install]
                WantedBy=default.target

                """),
            .file(path: "\(units)/steppie-kiosk.service", content: header + """
                [Unit]
                Description=Steppie child screen (cage + Chromium kiosk)
                Wants=steppie.service
                After=steppie.service

                [Service]
                ExecStart=/usr/bin/cage -d -s -- /usr/bin/chromium --kiosk --app=http://127.0.0.1:8470/ --noerrdialogs --disable-infobars --no-first-run --disable-translate --overscroll-history-navigation=0 --disable-pinch --password-store=basic --autoplay-policy=no-user-gesture-required --check-for-update-interval=31536000
                Restart=always
                RestartSec=2
                NoNewPrivileges=yes
                LockPersonality=yes
                RestrictSUIDSGID=yes
                UMask=0077

                [Install]
                WantedBy=default.target

                """),
            .link(path: "\(units)/default.target.wants/steppie.service", target: "\(units)/steppie.service"),
            .link(path: "\(units)/default.target.wants/steppie-kiosk.service", target: "\(units)/steppie-kiosk.service"),
        ]
    }

    /// A user name `useradd` and systemd accept: lowercase letter or `_` first, then lowercase
    /// letters, digits, `-` or `_`, at most 32.
    static func isValidUser(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 32,
              (first >= "a" && first <= "z") || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_" }
    }
}

/// `--user NAME` of `kiosk enable|disable`.
struct KioskUser: ArgumentValue, Equatable {
    var name: String

    static func parse(argument text: String) -> Result<KioskUser, ArgumentRefusal> {
        KioskPlan.isValidUser(text) ? .success(KioskUser(name: text)) : .failure(.expected(key: "cli.expected.userName"))
    }
}
