@testable import LowbandMessagePack
import Testing

/// The writer keeps its bytes in storage of its own, written through a pointer: a copy of a
/// writer is another value (as an array is), growing keeps every byte, and the internal edits
/// the Codable encoder makes (truncate, patch, insert, reorder) see only the written bytes.
@Suite struct WriterStorageTests {
    /// Every int, str and bin form, in an order that crosses the capacity many times.
    private func writeMixture(_ writer: inout MessagePackWriter, count: Int) throws {
        for index in 0 ..< count {
            writer.write(Int64(index) * (index.isMultiple(of: 2) ? 1 : -977))
            try writer.write(String(repeating: "é", count: index % 40))
            try writer.write(binary: [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: index % 300))
        }
    }

    @Test func growingKeepsEveryByteAndDecodesBack() throws {
        var small = MessagePackWriter()
        var roomy = MessagePackWriter(reservingCapacity: 1 << 20)
        try writeMixture(&small, count: 2_000)
        try writeMixture(&roomy, count: 2_000)
        #expect(small.count > 300_000)
        #expect(small.bytes == roomy.bytes)
        var reader = MessagePackReader(small.bytes)
        for index in 0 ..< 2_000 {
            let number = try reader.readInt64()
            let text = try reader.readString()
            let binary = Array(try reader.readBinary())
            #expect(number == Int64(index) * (index.isMultiple(of: 2) ? 1 : -977))
            #expect(text == String(repeating: "é", count: index % 40))
            #expect(binary == [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: index % 300))
        }
        #expect(reader.isAtEnd)
    }

    @Test func aCopyIsAnotherValueBothWays() throws {
        var first = MessagePackWriter(reservingCapacity: 4)
        try first.write("shared")
        var second = first
        second.write(Int64(7))
        first.writeNil()
        #expect(first.bytes == [0xa6] + Array("shared".utf8) + [0xc0])
        #expect(second.bytes == [0xa6] + Array("shared".utf8) + [0x07])
        // Growing one of two writers that share storage leaves the other as it was.
        var third = second
        try writeMixture(&third, count: 50)
        #expect(second.bytes == [0xa6] + Array("shared".utf8) + [0x07])
        // The edits the encoder makes copy shared storage first too.
        var patched = second
        patched[0] = 0xc3
        patched.truncate(to: 1)
        #expect(patched.bytes == [0xc3])
        #expect(second.bytes.first == 0xa6 && second.count == 8)
    }

    @Test func removeAllEmptiesAndTheWriterWritesAgain() throws {
        var writer = MessagePackWriter()
        try writeMixture(&writer, count: 100)
        let kept = writer
        writer.removeAll()
        #expect(writer.bytes.isEmpty && writer.count == 0)
        writer.write(true)
        #expect(writer.bytes == [0xc3])
        #expect(kept.count > 1_000)
    }

    @Test func aPatchedHeaderWidensInPlace() throws {
        var writer = MessagePackWriter()
        writer.writeNil()
        writer.append(0)
        for index in 0 ..< 20 { writer.write(Int64(index)) }
        let patched = writer.patchContainerHeader(at: 1, count: 20, isMap: false)
        #expect(patched)
        #expect(Array(writer.bytes.prefix(4)) == [0xc0, 0xdc, 0x00, 20])
        var reader = MessagePackReader(writer.bytes, offset: 1)
        let count = try reader.readArrayHeader()
        var numbers: [Int64] = []
        for _ in 0 ..< count { numbers.append(try reader.readInt64()) }
        #expect(numbers == (0 ..< 20).map { Int64($0) })
    }

    @Test func writersCopiedIntoTasksWriteTheirOwnBytes() async throws {
        var base = MessagePackWriter()
        try base.write("base")
        let start = base
        let results = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for task in 0 ..< 8 {
                group.addTask {
                    var own = start
                    for _ in 0 ..< 1_000 { own.write(Int64(task)) }
                    return (task, own.bytes)
                }
            }
            var results: [Int: [UInt8]] = [:]
            for await (task, bytes) in group { results[task] = bytes }
            return results
        }
        for task in 0 ..< 8 {
            #expect(results[task] == start.bytes + [UInt8](repeating: UInt8(task), count: 1_000))
        }
        #expect(start.bytes == [0xa4] + Array("base".utf8))
    }
}
