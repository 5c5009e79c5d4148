package import Foundation
import LowbandBasics

/// Where a server keeps the bytes of uploads, each named by its ``StoredUploadRecord/number``.
///
/// ``MemoryUploadStorage`` keeps them in memory (in-process runs and virtual time: no file
/// system, same bytes every run); ``FileUploadStorage`` writes one file per upload (`lowband
/// server`). The core appends a piece only at the acknowledged offset and records the new
/// offset in its ``ServerStore`` after the append returns, so bytes past the recorded offset
/// are never acknowledged and may be cut off.
package protocol UploadStorage: Sendable {
    /// Writes `piece` at `offset` of upload `number` (creating it at 0), dropping anything held
    /// past `offset`; returns once the bytes are as durable as the store's commits.
    mutating func write(_ piece: Data, toUpload number: Int64, at offset: Int64) throws(ServerStoreError)
    /// The bytes held for upload `number` (empty when there are none).
    func bytes(ofUpload number: Int64) throws(ServerStoreError) -> [UInt8]
    /// Forgets upload `number`'s bytes.
    mutating func remove(upload number: Int64) throws(ServerStoreError)
}

/// Upload bytes held in memory; the default.
package struct MemoryUploadStorage: UploadStorage {
    private var uploads: [Int64: [UInt8]] = [:]

    package init() {}

    package mutating func write(_ piece: Data, toUpload number: Int64, at offset: Int64) throws(ServerStoreError) {
        let keep = Int(offset)
        if let held = uploads[number]?.count, held > keep {
            uploads[number]?.removeLast(held - keep)
        }
        uploads[number, default: []].append(contentsOf: piece)
    }

    package func bytes(ofUpload number: Int64) throws(ServerStoreError) -> [UInt8] {
        uploads[number] ?? []
    }

    package mutating func remove(upload number: Int64) throws(ServerStoreError) {
        uploads[number] = nil
    }
}
