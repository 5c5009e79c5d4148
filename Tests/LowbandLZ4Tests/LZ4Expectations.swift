import LowbandLZ4
import Testing

/// Expects `body` to throw an `LZ4Error` with `code`, and returns the error.
@discardableResult
func expectLZ4Error<R>(
    _ code: LZ4Error.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) -> LZ4Error? {
    let error = #expect(throws: LZ4Error.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, "expected \(code), got \(error.map { "\($0.code): \($0)" } ?? "no error")", sourceLocation: sourceLocation)
    return error
}

extension Array where Element == UInt8 {
    /// The bytes split into consecutive pieces of the given sizes, cycling through `sizes`.
    func chunked(_ sizes: [Int]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var offset = 0
        var index = 0
        while offset < count {
            let size = Swift.max(1, sizes[index % sizes.count])
            pieces.append(self[offset..<Swift.min(count, offset + size)])
            offset += size
            index += 1
        }
        return pieces
    }
}

/// Expects equal bytes; on failure reports sizes and the first differing offset instead of
/// printing megabytes of array literals.
func expectSameBytes(
    _ actual: [UInt8],
    _ expected: [UInt8],
    _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    let difference = actual.indices.first { $0 < expected.count && actual[$0] != expected[$0] } ?? Swift.min(actual.count, expected.count)
    Issue.record(
        "\(comment()) got \(actual.count) bytes, expected \(expected.count); first difference at byte \(difference)",
        sourceLocation: sourceLocation
    )
}
