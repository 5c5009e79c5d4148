import Foundation
// Codable for the Uploads types: the reference implementation of both payload layouts. Without
// `WireFormat.v2` in the coder's userInfo (JSON, caches, wire format v1) values are maps keyed by
// name; with it they are v2's positional arrays (docs/PROTOCOL.md). The fast path
// (FastPath/) must write exactly these v2 bytes.

extension UploadChunkRequest {
    enum CodingKeys: String, CodingKey {
        case uploadID, offset, totalSize, data
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            uploadID = try container.decode(String.self, forKey: .uploadID)
            offset = try container.decode(Int64.self, forKey: .offset)
            totalSize = try container.decode(Int64.self, forKey: .totalSize)
            data = try container.decode(Data.self, forKey: .data)
            return
        }
        var container = try decoder.unkeyedContainer()
        uploadID = try container.decode(String.self)
        offset = try container.decode(Int64.self)
        totalSize = try container.decode(Int64.self)
        data = try container.decode(Data.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uploadID, forKey: .uploadID)
            try container.encode(offset, forKey: .offset)
            try container.encode(totalSize, forKey: .totalSize)
            try container.encode(data, forKey: .data)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(uploadID)
        try container.encode(offset)
        try container.encode(totalSize)
        try container.encode(data)
    }
}

extension UploadChunkReply {
    enum CodingKeys: String, CodingKey {
        case uploadID, acknowledgedOffset, complete, url
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            uploadID = try container.decode(String.self, forKey: .uploadID)
            acknowledgedOffset = try container.decode(Int64.self, forKey: .acknowledgedOffset)
            complete = try container.decode(Bool.self, forKey: .complete)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            return
        }
        var container = try decoder.unkeyedContainer()
        uploadID = try container.decode(String.self)
        acknowledgedOffset = try container.decode(Int64.self)
        complete = try container.decode(Bool.self)
        url = try container.decodeTrailing(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uploadID, forKey: .uploadID)
            try container.encode(acknowledgedOffset, forKey: .acknowledgedOffset)
            try container.encode(complete, forKey: .complete)
            try container.encodeIfPresent(url, forKey: .url)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(uploadID)
        try container.encode(acknowledgedOffset)
        try container.encode(complete)
        let present = url != nil ? 1 : 0
        if present > 0 { if let value = url { try container.encode(value) } else { try container.encodeNil() } }
    }
}

extension UploadStatusRequest {
    enum CodingKeys: String, CodingKey {
        case uploadID
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.wireFormat == .v2 else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            uploadID = try container.decode(String.self, forKey: .uploadID)
            return
        }
        var container = try decoder.unkeyedContainer()
        uploadID = try container.decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.wireFormat == .v2 else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uploadID, forKey: .uploadID)
            return
        }
        var container = encoder.unkeyedContainer()
        try container.encode(uploadID)
    }
}
