public import NIOCore

extension ChannelPipeline.SynchronousOperations {
    /// Adds the frame decoder and encoder for one connection, sharing `configuration`, and
    /// between them the ``VersionRefusalHandler`` that answers a request of an older version.
    ///
    /// Add an error handler after the application's handlers (NIO's `NIOCloseOnErrorHandler`):
    /// after a ``WireError`` the stream cannot be trusted and the connection must close.
    public func addFrameCodec(configuration: FrameConfiguration = FrameConfiguration()) throws {
        try addHandler(ByteToMessageHandler(FrameDecoder(configuration: configuration)))
        try addHandler(VersionRefusalHandler())
        try addHandler(MessageToByteHandler(FrameEncoder(configuration: configuration)))
    }
}
