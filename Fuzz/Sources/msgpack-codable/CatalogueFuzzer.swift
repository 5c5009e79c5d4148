import FuzzSupport
import LowbandMessagePack
import LowbandWire

/// `MessagePackDecoder` decoding the wire catalogue, as a server or client decodes a frame's
/// payload. The first input byte picks the type, the rest is the payload.
///
/// A payload that decodes encodes back to bytes that decode to the same value. Bad payloads must
/// give `WireError.malformedPayload` through `Frame.decode` (typed) and a `MessagePackError` or
/// `DecodingError` from the decoder itself. Where a type has a hand-written fast path
/// (`MessagePackFastCodable`), both readers must accept the same payloads with the same result,
/// and both writers write the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = Int(input.takeByte())
    let payload = input.rest()
    let checks = CatalogueChecks.all
    checks[choice % checks.count](payload)
    return 0
}

/// One check per catalogue type, so a choice byte selects the type.
enum CatalogueChecks {
    static let all: [@Sendable ([UInt8]) -> Void] = [
        message(Ping.self), message(Pong.self), message(LoginRequest.self), message(LoginReply.self),
        message(HistoryRequest.self), message(HistoryReply.self), message(SendMessageRequest.self),
        message(SendMessageReply.self), message(MarkReadRequest.self), message(Ack.self),
        message(UploadChunkRequest.self), message(UploadChunkReply.self), message(UploadStatusRequest.self),
        message(NewMessagePush.self), message(ContactChangedPush.self), message(ReadReceiptPush.self),
        codable(ErrorReply.self),
        fast(Settings.self), fast(Contact.self), fast(Attachment.self), fast(Message.self), fast(Chat.self),
        fast(LoginReply.self), fast(HistoryReply.self), fast(NewMessagePush.self),
    ]

    /// Through `Frame.decode`, the path the server and client take.
    static func message<M: WireMessage>(_: M.Type) -> @Sendable ([UInt8]) -> Void {
        { payload in
            let frame = Frame(command: M.command, sequence: 1, payload: payload)
            do throws(WireError) {
                let value = try frame.decode(M.self)
                roundTrip(value)
            } catch {
                require(error.code == .malformedPayload, "\(M.self): unexpected wire error \(error)")
            }
        }
    }

    /// Straight through `MessagePackDecoder`.
    static func codable<T: Codable & Equatable & Sendable>(_: T.Type) -> @Sendable ([UInt8]) -> Void {
        { payload in
            if let value = decode(T.self, payload) { roundTrip(value) }
        }
    }

    /// The Codable path against the hand-written one.
    static func fast<T: Codable & Equatable & Sendable & MessagePackFastCodable>(_: T.Type) -> @Sendable ([UInt8]) -> Void {
        { payload in
            let slow = decode(T.self, payload)
            let quick: T?
            do {
                quick = try T(messagePackBytes: payload)
            } catch {
                quick = nil
            }
            switch (slow, quick) {
            case let (slow?, quick?):
                require(slow == quick, "\(T.self): Codable and fast path read different values")
                roundTrip(slow)
                do {
                    let written = try quick.messagePackBytes()
                    let encoded = try MessagePackEncoder(userInfo: WireFormat.v2.userInfo).encode(slow)
                    require(written == encoded, "\(T.self): fast path writes other bytes than MessagePackEncoder")
                } catch {
                    finding("\(T.self): a decoded value does not encode: \(error)")
                }
            case (nil, nil):
                break
            case (_?, nil):
                finding("\(T.self): the fast path refuses a payload the Codable decoder accepts")
            case (nil, _?):
                finding("\(T.self): the fast path accepts a payload the Codable decoder refuses")
            }
        }
    }

    static func decode<T: Decodable>(_: T.Type, _ payload: [UInt8]) -> T? {
        do {
            return try MessagePackDecoder(userInfo: WireFormat.v2.userInfo).decode(T.self, from: payload)
        } catch is MessagePackError {
            return nil
        } catch is DecodingError {
            return nil
        } catch {
            finding("\(T.self): the decoder threw \(type(of: error)): \(error)")
        }
    }

    static func roundTrip<T: Codable & Equatable>(_ value: T) {
        do {
            let bytes = try MessagePackEncoder(userInfo: WireFormat.v2.userInfo).encode(value)
            let again = try MessagePackDecoder(userInfo: WireFormat.v2.userInfo).decode(T.self, from: bytes)
            require(again == value, "\(T.self): encode then decode changed the value")
        } catch {
            finding("\(T.self): a decoded value does not round-trip: \(error)")
        }
    }
}
