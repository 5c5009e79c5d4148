/// The colours of the report: the Okabe–Ito palette, distinguishable with the common forms of
/// colour blindness, in an order where neighbours contrast.
enum ChartPalette {
    static let series = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]

    /// Beyond seven profiles colours repeat; the dash pattern then tells them apart.
    static func color(forSeries index: Int) -> String {
        series[((index % series.count) + series.count) % series.count]
    }

    static func dash(forSeries index: Int) -> String? {
        switch (index / series.count) % 3 {
        case 1: "6 3"
        case 2: "2 2"
        default: nil
        }
    }

    static let down = "#0072B2"
    static let up = "#D55E00"
    static let outage = "#C62828"
    static let outageOpacity = "0.14"
    static let disconnect = "#C62828"
    static let reconnect = "#2E7D32"
    static let note = "#555555"
    static let grid = "#E3E3E3"
    static let axis = "#666666"
    static let text = "#333333"
}
