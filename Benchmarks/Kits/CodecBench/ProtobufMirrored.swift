public import SwiftProtobuf

/// A model type with a generated protobuf message that holds the same data (Proto/catalogue.proto).
///
/// The conversion is hand-written, as it is in any app that keeps its own model types next to
/// protobuf; the `protobuf` codec times it together with the protobuf encoding itself.
public protocol ProtobufMirrored {
    associatedtype ProtobufMessage: SwiftProtobuf.Message

    /// The generated message with this value's data.
    var protobufMessage: ProtobufMessage { get }

    /// The value in `message`; throws when the message holds something the model cannot
    /// (an unknown enum number, a missing required sub-message).
    init(protobufMessage message: ProtobufMessage) throws(CodecBenchError)
}
