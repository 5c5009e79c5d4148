public import NIOCore

extension ChannelPipeline.SynchronousOperations {
    /// Adds the frame decoder and encoder for one connection, sharing `configuration`.
    ///
    /// Add an error handler after the application's handlers (NIO's `NIOCloseOnErrorHandler`):
    /// after a ``WireError`` the stream cannot be trusted and the connection must close.
    public func addFrameCodec(configuration: FrameConfiguration = FrameConfiguration()) throws {
        try addHandler(ByteToMessageHandler(FrameDecoder(configuration: configuration)))
        try addHandler(MessageToByteHandler(FrameEncoder(configuration: configuration)))
    }
}
