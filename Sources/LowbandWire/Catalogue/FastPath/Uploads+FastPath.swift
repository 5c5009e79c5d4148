public import LowbandMessagePack
import Foundation

// Hand-written MessagePack for the Uploads types in wire format v2 (docs/PROTOCOL.md): the same
// bytes as the Codable conformances write with `WireFormat.v2`, without the Codable machinery.

extension UploadChunkRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 4)
        try writer.write(uploadID)
        writer.write(offset)
        writer.write(totalSize)
        try writer.write(binary: data)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 4, of: "UploadChunkRequest")
        let uploadID = try reader.readString()
        let offset = try reader.readInt64()
        let totalSize = try reader.readInt64()
        let data = Data(try reader.readBinary())
        try reader.skipFields(fields, known: 4)
        self.init(uploadID: uploadID, offset: offset, totalSize: totalSize, data: data)
    }
}

extension UploadChunkReply: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        let present = url != nil ? 1 : 0
        try writer.writeArrayHeader(count: 3 + present)
        try writer.write(uploadID)
        writer.write(acknowledgedOffset)
        writer.write(complete)
        if present > 0 { if let value = url { try writer.write(value) } else { writer.writeNil() } }
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 3, of: "UploadChunkReply")
        let uploadID = try reader.readString()
        let acknowledgedOffset = try reader.readInt64()
        let complete = try reader.readBool()
        let url: String? = fields > 3 ? try reader.readOptional { reader throws(MessagePackError) in try reader.readString() } : nil
        try reader.skipFields(fields, known: 4)
        self.init(uploadID: uploadID, acknowledgedOffset: acknowledgedOffset, complete: complete, url: url)
    }
}

extension UploadStatusRequest: MessagePackFastCodable {
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: 1)
        try writer.write(uploadID)
    }

    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let fields = try reader.readFields(required: 1, of: "UploadStatusRequest")
        let uploadID = try reader.readString()
        try reader.skipFields(fields, known: 1)
        self.init(uploadID: uploadID)
    }
}
