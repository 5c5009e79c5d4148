@testable import LowbandClient
import LowbandWire
import Testing

/// The client's rules for the dictionary of one link, without a link.
@Suite struct DictionaryAgreementTests {
    static let one = WireDictionary.messenger1.id

    private func reply(naming id: Int64?) -> LoginReply {
        LoginReply(userID: 1, serverTime: 2, settings: nil, contacts: [], chats: [], compressionDictionary: id)
    }

    private func push(_ id: WireDictionary.ID?) -> Frame {
        Frame(flags: .push, command: .pushNewMessage, sequence: 4, payload: [0x91], compressionDictionary: id)
    }

    @Test func anOfferedDictionaryTheReplyNamesIsAgreedAndStampedOnEveryFrame() {
        var agreement = DictionaryAgreement()
        agreement.loginSent(LoginRequest(token: "t", lastSync: 0, compressionDictionaries: [1]))
        #expect(agreement.stamped(Frame(command: .ping, sequence: 1, payload: [])).compressionDictionary == nil, "not before the reply")
        #expect(agreement.loginReplied(reply(naming: 1)) == nil)
        #expect(agreement.agreed == Self.one)
        #expect(agreement.stamped(Frame(command: .ping, sequence: 2, payload: [])).compressionDictionary == Self.one)
        #expect(agreement.refusal(of: push(Self.one)) == nil)
        #expect(agreement.refusal(of: push(nil)) == nil, "a frame the dictionary could not shrink comes plain")
    }

    @Test func aReplyNamingADictionaryNotOfferedIsAProtocolError() {
        var agreement = DictionaryAgreement()
        agreement.loginSent(LoginRequest(token: "t", lastSync: 0))
        let error = agreement.loginReplied(reply(naming: 1))
        #expect(error?.code == .malformedReply)
        #expect(error?.message.contains("did not offer (it offered none)") == true, "\(error?.message ?? "")")
        #expect(agreement.agreed == nil)
    }

    @Test func aFrameNamingADictionaryNotAgreedIsAProtocolError() {
        var agreement = DictionaryAgreement()
        agreement.loginSent(LoginRequest(token: "t", lastSync: 0, compressionDictionaries: [1]))
        #expect(agreement.loginReplied(reply(naming: nil)) == nil)
        let error = agreement.refusal(of: push(Self.one))
        #expect(error?.message.contains("wire dictionary 1, but this link agreed none") == true, "\(error?.message ?? "")")
    }

    @Test func aNewLinkStartsWithNothingAgreed() {
        var agreement = DictionaryAgreement()
        agreement.loginSent(LoginRequest(token: "t", lastSync: 0, compressionDictionaries: [1]))
        _ = agreement.loginReplied(reply(naming: 1))
        agreement.reset()
        #expect(agreement.agreed == nil && agreement.offered.isEmpty)
        #expect(agreement.refusal(of: push(Self.one)) != nil)
    }
}
