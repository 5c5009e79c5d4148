import LowbandBasics

/// JSON text written value by value in the exact form of Foundation's `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys]`: two-space indents, `"key" : value`, an empty array as
/// `[`, an empty line and `]`, `/` escaped as `\/`, and a `Double` as its `description`
/// without a trailing `.0`.
///
/// The caller writes an object's keys in sorted order (by their UTF-8 bytes, as `JSONEncoder`
/// sorts them) and leaves out the keys of nil optionals, as synthesized `Codable` does.
/// `RecordJSONTests` holds `JSONEncoder` as the reference.
struct PrettyJSONWriter {
    /// The text so far, UTF-8.
    private(set) var bytes: [UInt8] = []
    /// NaNs and infinities met by ``number(_:)-(Double)``.
    private(set) var nonFiniteNumbers = 0
    private var depth = 0
    private var containerIsEmpty = true

    /// An empty text; `capacity` bytes reserved.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object (`{`) as the current value.
    mutating func openObject() { open(UInt8(ascii: "{")) }
    /// Closes the innermost object.
    mutating func closeObject() { close(UInt8(ascii: "}")) }
    /// Opens an array (`[`) as the current value.
    mutating func openArray() { open(UInt8(ascii: "[")) }
    /// Closes the innermost array.
    mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// Starts the next member of the innermost object: its key; the value follows.
    mutating func key(_ name: StaticString) {
        startElement()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
    }

    /// Starts the next element of the innermost array; the value follows.
    mutating func element() { startElement() }

    /// A number as `JSONEncoder` prints it: `description`, without a trailing `.0`.
    /// JSON has no NaN or infinity (`JSONEncoder` throws on them): one is written as `null` and
    /// counted in ``nonFiniteNumbers``, which the caller turns into an error.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            nonFiniteNumbers += 1
            bytes.append(contentsOf: "null".utf8)
            return
        }
        let text = value.description
        var utf8 = text.utf8[...]
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            utf8 = utf8.dropLast(2)
        }
        bytes.append(contentsOf: utf8)
    }

    /// An integer.
    mutating func number(_ value: some BinaryInteger) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A string literal escaped as `JSONEncoder` escapes it (`JSONString` with `/` escaped).
    mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes, escapingSolidus: true)
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        containerIsEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        // An empty container is printed with an empty line inside, as JSONEncoder does.
        if containerIsEmpty { bytes.append(UInt8(ascii: "\n")) }
        depth -= 1
        newLine()
        bytes.append(bracket)
        containerIsEmpty = false
    }

    private mutating func startElement() {
        if !containerIsEmpty { bytes.append(UInt8(ascii: ",")) }
        containerIsEmpty = false
        newLine()
    }

    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}
