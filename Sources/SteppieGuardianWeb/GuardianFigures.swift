import Foundation
import SteppieCore

extension GuardianWeb.Request {
    /// A rate as a whole percentage ("83%"), as the history page and the month report show it.
    func percent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }

    /// A count of days as a guardian reads it ("3 days" / "3일"); the bare number goes in `data-value`.
    func days(_ count: Int) -> String { t("cli.count.days", ["count": String(count)]) }

    /// A streak's first and last days ("2 Dec 2025 – 4 Dec 2025"), "–" when there is none.
    func span(_ range: ClosedRange<LocalDay>?) -> String {
        range.map { t("web.stats.span", ["start": mediumDate($0.lowerBound), "end": mediumDate($0.upperBound)]) } ?? "–"
    }
}
