/// A user's schema and the message each payload is encoded as: the `protobuf` format of
/// `lowband codecs compare --proto SCHEMA.proto --message NAME`.
package struct ProtoTarget: Sendable {
    let encoder: ProtoEncoder
    let decoder: ProtoDecoder

    /// `message` of `schema`.
    ///
    /// - Throws: `ProtoSchema.Failure` naming the messages the schema has when it has no `message`.
    package init(schema: ProtoSchema, message: String) throws(ProtoSchema.Failure) {
        let name = try schema.messageName(message)
        encoder = ProtoEncoder(schema: schema, message: name)
        decoder = ProtoDecoder(schema: schema)
    }
}
