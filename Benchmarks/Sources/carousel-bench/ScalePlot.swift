import Foundation

/// The scale benchmark's picture: each cost against the list's size, on
/// log–log axes, relative to its value at the reference size — a flat line
/// is a cost that does not grow, a line of slope 1 one that grows with the
/// list. A hand-written SVG: no plotting library for one chart.
struct ScalePlot {
    var points: [ScaleBenchmark.Point]
    var reference: Int

    private struct Series {
        var name: String
        var colour: String
        var value: (ScaleBenchmark.Point) -> Double
    }

    private let series: [Series] = [
        Series(name: "import time per row", colour: "#1f77b4") { $0.importSecondsPerRow },
        Series(name: "import peak RSS", colour: "#ff7f0e") { Double($0.peakRSSBytes) },
        Series(name: "database bytes per store", colour: "#2ca02c") { $0.bytesPerStore },
        Series(name: "store at a position, right after opening", colour: "#d62728") { $0.position },
        Series(name: "store at a position, warm", colour: "#ff9896") { $0.warmPosition },
        Series(name: "nearest 10", colour: "#9467bd") { $0.nearest },
        Series(name: "box of as many stores", colour: "#8c564b") { $0.box },
        Series(name: "cold carousel focus", colour: "#e377c2") { $0.focusSeconds },
        Series(name: "first page of 20", colour: "#7f7f7f") { $0.firstPageSeconds },
    ]

    // Plot area, in SVG units.
    private let width = 760.0, height = 440.0
    private let left = 70.0, right = 250.0, top = 40.0, bottom = 60.0

    func svg() -> String {
        let sizes = points.map { Double($0.stores) }
        let xRange = (log10(sizes.min()!), log10(sizes.max()!))
        let base = points.first { $0.stores == reference } ?? points[0]
        // Ratios to the reference; the y axis spans them, at least 0.5×–2×.
        let ratios = series.map { line in points.map { line.value($0) / line.value(base) } }
        let all = ratios.flatMap { $0 }.filter { $0 > 0 && $0.isFinite }
        let yRange = (floor(log10(min(all.min() ?? 1, 0.5)) * 2) / 2, ceil(log10(max(all.max() ?? 1, 2)) * 2) / 2)

        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ size: Double) -> Double {
            left + (log10(size) - xRange.0) / max(xRange.1 - xRange.0, 1e-9) * plotWidth
        }
        func y(_ ratio: Double) -> Double {
            top + (1 - (log10(ratio) - yRange.0) / (yRange.1 - yRange.0)) * plotHeight
        }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(left))" y="22" font-size="14">Cost against list size, relative to \
            \(Format.count(reference)) stores (log–log)</text>

            """
        // Grid: each size measured on x, each half decade on y.
        for size in sizes {
            svg += """
                <line x1="\(f(x(size)))" y1="\(f(top))" x2="\(f(x(size)))" y2="\(f(top + plotHeight))" stroke="#ddd"/>
                <text x="\(f(x(size)))" y="\(f(top + plotHeight + 18))" text-anchor="middle">\(Format.count(Int(size)))</text>

                """
        }
        var exponent = yRange.0
        while exponent <= yRange.1 + 1e-9 {
            let ratio = pow(10, exponent)
            svg += """
                <line x1="\(f(left))" y1="\(f(y(ratio)))" x2="\(f(left + plotWidth))" y2="\(f(y(ratio)))" \
                stroke="\(abs(exponent) < 1e-9 ? "#999" : "#ddd")"/>
                <text x="\(f(left - 6))" y="\(f(y(ratio) + 4))" text-anchor="end">\(Self.ratioLabel(ratio))</text>

                """
            exponent += 0.5
        }
        svg += """
            <text x="\(f(left + plotWidth / 2))" y="\(f(height - 16))" text-anchor="middle">stores in the list</text>
            <text x="16" y="\(f(top + plotHeight / 2))" text-anchor="middle" \
            transform="rotate(-90 16 \(f(top + plotHeight / 2)))">cost ÷ cost at \(Format.count(reference))</text>

            """
        for (index, line) in series.enumerated() {
            let coordinates = zip(sizes, ratios[index]).filter { $0.1 > 0 && $0.1.isFinite }
            let path = coordinates.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(line.colour)\" stroke-width=\"2\"/>\n"
            for (size, ratio) in coordinates {
                svg += "<circle cx=\"\(f(x(size)))\" cy=\"\(f(y(ratio)))\" r=\"3\" fill=\"\(line.colour)\"/>\n"
            }
            let legendY = top + 10 + Double(index) * 20
            svg += """
                <line x1="\(f(width - right + 20))" y1="\(f(legendY))" x2="\(f(width - right + 44))" y2="\(f(legendY))" \
                stroke="\(line.colour)" stroke-width="2"/>
                <text x="\(f(width - right + 50))" y="\(f(legendY + 4))">\(line.name)</text>

                """
        }
        return svg + "</svg>\n"
    }

    private static func ratioLabel(_ ratio: Double) -> String {
        ratio >= 10 ? String(format: "%.0f×", ratio) : ratio >= 1 ? String(format: "%.1f×", ratio) : String(format: "%.2f×", ratio)
    }
}
