/// Steppie's version: the one source of it. Backups record it, the man page's footer shows it and
/// `scripts/make-deb.sh` reads it from the binary (`steppie __version`) for the package's version.
public enum SteppieVersion {
    public static let current = "0.1.0"
}
