import Foundation
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
            users[Int(userID - 1)].activeUploads += 1
            uploads[key] = UploadState(totalSize: request.totalSize)
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
        uploads[key] = nil  // keep the buffer uniquely referenced while appending
        upload.data.append(contentsOf: request.data)
        storedUploadBytes += request.data.count
        if upload.acknowledgedOffset == upload.totalSize {
            uploadsStarted += 1
            upload.url = "https://cdn.lowband.test/uploads/\(userID)/\(uploadsStarted)"
            users[Int(userID - 1)].activeUploads -= 1
        }
        uploads[key] = upload
        return reply(for: upload, id: request.uploadID)
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
        uploads[UploadKey(userID: userID, uploadID: uploadID)].map { upload in
            StoredUpload(uploadID: uploadID, totalSize: upload.totalSize, data: upload.data, url: upload.url)
        }
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
