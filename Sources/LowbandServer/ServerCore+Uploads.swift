import LowbandBasics
import LowbandWire

extension ServerCore {
    /// Stores a piece only if it starts at the acknowledged offset; always answers with the
    /// offset held, so a client resumes from there and no piece is stored twice.
    mutating func uploadChunk(_ request: UploadChunkRequest, userID: Int64) throws(ErrorReply) -> UploadChunkReply {
        let limits = configuration.limits
        try validate(uploadID: request.uploadID)
        guard request.totalSize > 0, request.offset >= 0 else {
            throw ErrorReply(.badRequest, "upload \(request.uploadID): totalSize must be positive and offset not negative (got \(request.totalSize), \(request.offset))")
        }
        guard request.totalSize <= limits.uploadSize else {
            throw ErrorReply(.payloadTooLarge, "upload \(request.uploadID) is \(request.totalSize) bytes; the limit is \(limits.uploadSize)")
        }
        guard request.data.count <= limits.uploadPieceSize else {
            throw ErrorReply(.payloadTooLarge, "upload pieces are at most \(limits.uploadPieceSize) bytes, not \(request.data.count)")
        }
        let key = UploadKey(userID: userID, uploadID: request.uploadID)
        guard var upload = uploads[key] else {
            guard request.offset == 0 else {
                // Nothing held yet: start from 0.
                return UploadChunkReply(uploadID: request.uploadID, acknowledgedOffset: 0, complete: false)
            }
            guard users[Int(userID - 1)].activeUploads < limits.concurrentUploadsPerUser else {
                throw ErrorReply(.tooManyRequests, "\(limits.concurrentUploadsPerUser) uploads are already in progress: finish one first")
            }
            let upload = UploadState(number: lastUploadNumber + 1, totalSize: request.totalSize)
            try commit(.upload(upload.record(key)))
            lastUploadNumber = upload.number
            users[Int(userID - 1)].activeUploads += 1
            uploads[key] = upload
            return try uploadChunk(request, userID: userID)
        }
        guard upload.totalSize == request.totalSize else {
            throw ErrorReply(.badRequest, "upload \(request.uploadID) is \(upload.totalSize) bytes, not \(request.totalSize): use a new upload id for a different file")
        }
        guard !upload.complete, request.offset == upload.acknowledgedOffset, !request.data.isEmpty else {
            return reply(for: upload, id: request.uploadID)
        }
        guard request.offset + Int64(request.data.count) <= upload.totalSize else {
            throw ErrorReply(.badRequest, "upload \(request.uploadID): a piece of \(request.data.count) bytes at \(request.offset) runs past its total size \(upload.totalSize)")
        }
        guard storedUploadBytes + request.data.count <= limits.storedUploadBytes else {
            throw ErrorReply(.payloadTooLarge, "the server holds \(storedUploadBytes) bytes of uploads, its limit is \(limits.storedUploadBytes): try again later")
        }
        // The bytes first, then the record of the new offset: what is acknowledged is stored.
        do {
            try uploadStorage.write(request.data, toUpload: upload.number, at: upload.acknowledgedOffset)
        } catch {
            throw ErrorReply(.internalError, "the server could not store a piece of upload \(request.uploadID): \(error.message); resume from offset \(upload.acknowledgedOffset)")
        }
        upload.acknowledgedOffset += Int64(request.data.count)
        upload.checksum.add(request.data)
        if upload.acknowledgedOffset == upload.totalSize {
            try verify(upload, key: key, piece: request.data.count)
            upload.url = "\(Self.uploadURLPrefix)\(userID)/\(uploadsStarted + 1)"
        }
        try commit(.upload(upload.record(key)))
        storedUploadBytes += request.data.count
        if upload.complete {
            uploadsStarted += 1
            users[Int(userID - 1)].activeUploads -= 1
        }
        uploads[key] = upload
        return reply(for: upload, id: request.uploadID)
    }

    /// Checks a finished upload's stored bytes against what was received (size and checksum);
    /// on a mismatch drops the upload, so the client's next piece starts it again from 0.
    private mutating func verify(_ upload: UploadState, key: UploadKey, piece: Int) throws(ErrorReply) {
        let stored: [UInt8]
        do {
            stored = try uploadStorage.bytes(ofUpload: upload.number)
        } catch {
            throw ErrorReply(.internalError, "the server could not read back upload \(key.uploadID): \(error.message)")
        }
        let checksum = FNV1a.of(stored)
        guard Int64(stored.count) != upload.totalSize || checksum != upload.checksum.value else { return }
        try commit(.uploadDropped(userID: key.userID, uploadID: key.uploadID))
        try? uploadStorage.remove(upload: upload.number)
        // The last piece was never counted.
        storedUploadBytes -= Int(upload.acknowledgedOffset) - piece
        uploads[key] = nil
        users[Int(key.userID - 1)].activeUploads -= 1
        throw ErrorReply(
            .internalError,
            "upload \(key.uploadID) was stored as \(stored.count) bytes with checksum \(String(checksum, radix: 16)), not the \(upload.totalSize) received with \(String(upload.checksum.value, radix: 16)): it was dropped, upload it again from offset 0"
        )
    }

    /// How much of an upload the server holds (0 for one it does not know).
    func uploadStatus(_ request: UploadStatusRequest, userID: Int64) throws(ErrorReply) -> UploadChunkReply {
        try validate(uploadID: request.uploadID)
        guard let upload = uploads[UploadKey(userID: userID, uploadID: request.uploadID)] else {
            return UploadChunkReply(uploadID: request.uploadID, acknowledgedOffset: 0, complete: false)
        }
        return reply(for: upload, id: request.uploadID)
    }

    /// An upload of `userID` as the server holds it; nil if it never began.
    public func upload(_ uploadID: String, of userID: Int64) -> StoredUpload? {
        guard let upload = uploads[UploadKey(userID: userID, uploadID: uploadID)] else { return nil }
        let data = (try? uploadStorage.bytes(ofUpload: upload.number)) ?? []
        return StoredUpload(uploadID: uploadID, totalSize: upload.totalSize, data: data, url: upload.url, checksum: upload.checksum.value)
    }

    private func validate(uploadID: String) throws(ErrorReply) {
        let limit = configuration.limits.uploadIDBytes
        guard !uploadID.isEmpty, uploadID.utf8.count <= limit else {
            throw ErrorReply(.badRequest, "upload ids are 1...\(limit) bytes, not \(uploadID.utf8.count)")
        }
    }

    private func reply(for upload: UploadState, id: String) -> UploadChunkReply {
        UploadChunkReply(uploadID: id, acknowledgedOffset: upload.acknowledgedOffset, complete: upload.complete, url: upload.url)
    }
}

extension ServerCore {
    /// Where finished uploads are published: `<prefix><userID>/<n>`.
    package static let uploadURLPrefix = "https://cdn.lowband.test/uploads/"
}
