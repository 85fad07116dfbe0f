/// Terminal column widths: Hangul and other East Asian wide characters take two columns,
/// combining marks none.
enum TextWidth {
    /// Columns `s` takes; ANSI escape sequences (`ESC [ … letter`) take none.
    static func of(_ s: String) -> Int {
        var total = 0
        var inEscape = false
        for u in s.unicodeScalars {
            if inEscape {
                if u.properties.isAlphabetic { inEscape = false }
                continue
            }
            if u == "\u{1B}" { inEscape = true; continue }
            total += width(u)
        }
        return total
    }

    static func width(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v < 0x1100 { return 1 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    /// `s` cut to at most `columns` columns (with an ellipsis when cut).
    static func truncate(_ s: String, to columns: Int) -> String {
        guard of(s) > columns else { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = of(String(ch))
            if used + w > columns - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// `s` centered in `columns` columns.
    static func center(_ s: String, in columns: Int) -> String {
        let t = truncate(s, to: columns)
        let pad = max(0, columns - of(t))
        return String(repeating: " ", count: pad / 2) + t + String(repeating: " ", count: pad - pad / 2)
    }
}
