import Foundation
import LowbandBasics
import LowbandServer
import LowbandServerStore
import LowbandTestSupport
import LowbandWire
import Testing

/// Uploads on a data directory: bytes in files (not memory), a total cap, checksums, and a
/// resume after a restart.
@Suite struct UploadStorageTests {
    private static let bytes = (0 ..< 3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    private static func piece(_ range: Range<Int>, of id: String = "photo-1") -> UploadChunkRequest {
        UploadChunkRequest(uploadID: id, offset: Int64(range.lowerBound), totalSize: Int64(bytes.count), data: Data(bytes[range]))
    }

    @Test func theBytesAreInAFileAndAFinishedUploadIsChecked() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        var (harness, _) = try StoreHarness.open(folder)
        _ = try harness.call(Self.piece(0 ..< 1000), from: 1)
        let file = folder.path + "/uploads/1.part"
        #expect(FileManager.default.contents(atPath: file) == Data(Self.bytes[0 ..< 1000]), "the acknowledged bytes are on disk")
        _ = try harness.call(Self.piece(1000 ..< 2000), from: 1)
        let done = try harness.call(Self.piece(2000 ..< 3000), from: 1)
        #expect(done.complete && done.acknowledgedOffset == 3000 && done.url != nil)
        let stored = try #require(harness.core.upload("photo-1", of: 1))
        #expect(stored.data == Self.bytes)
        #expect(stored.checksum == FNV1a.of(Self.bytes))
        #expect(FileManager.default.contents(atPath: file) == Data(Self.bytes))
    }

    @Test func anUploadOverTheTotalCapIsRefusedWithAClearError() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        var limits = ServerLimits()
        limits.storedUploadBytes = 2500
        var (harness, _) = try StoreHarness.open(folder, limits: limits)
        _ = try harness.call(Self.piece(0 ..< 2000), from: 1)
        let error = try harness.refusal(Self.piece(2000 ..< 3000), from: 1)
        #expect(error.code == .payloadTooLarge)
        #expect(error.text.contains("holds 2000 bytes of uploads, its limit is 2500"))
        #expect(FileManager.default.contents(atPath: folder.path + "/uploads/1.part")?.count == 2000, "nothing past the cap was written")
    }

    @Test func anUploadResumesFromItsAcknowledgedOffsetAfterARestart() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        do {
            var (harness, _) = try StoreHarness.open(folder)
            _ = try harness.call(Self.piece(0 ..< 1000), from: 1)
        }
        // The server died while writing the next piece: bytes past the acknowledged offset.
        let file = try #require(FileHandle(forWritingAtPath: folder.path + "/uploads/1.part"))
        try file.seekToEnd()
        try file.write(contentsOf: Data(Self.bytes[1000 ..< 1400]))
        try file.close()

        var (harness, data) = try StoreHarness.open(folder)
        #expect(data.notes.count == 1 && data.notes[0].contains("cut back from 1400 to its 1000 acknowledged bytes"))
        let status = try harness.call(UploadStatusRequest(uploadID: "photo-1"), from: 1)
        #expect(status.acknowledgedOffset == 1000 && !status.complete)
        _ = try harness.call(Self.piece(1000 ..< 2000), from: 1)
        let done = try harness.call(Self.piece(2000 ..< 3000), from: 1)
        #expect(done.complete)
        #expect(try #require(harness.core.upload("photo-1", of: 1)).data == Self.bytes)
    }

    @Test func anUploadWhoseFileLostAcknowledgedBytesIsDroppedAndStartsAgain() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        do {
            var (harness, _) = try StoreHarness.open(folder)
            _ = try harness.call(Self.piece(0 ..< 1000), from: 1)
        }
        try FileManager.default.removeItem(atPath: folder.path + "/uploads/1.part")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path + "/uploads/77.part"))

        var (harness, data) = try StoreHarness.open(folder)
        #expect(data.notes.count == 2)
        #expect(data.notes.contains { $0.contains("holds 0 of its 1000 acknowledged bytes; dropped") })
        #expect(data.notes.contains { $0.contains("77.part: no upload record") })
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/uploads/77.part"))
        #expect(try harness.call(UploadStatusRequest(uploadID: "photo-1"), from: 1).acknowledgedOffset == 0)
        _ = try harness.call(Self.piece(0 ..< 3000), from: 1)
        #expect(try #require(harness.core.upload("photo-1", of: 1)).data == Self.bytes)
    }
}
