import ArgumentParser
@testable import LowbandCLI
import Testing

/// Every option that takes `host:port` reads it with the one parser, and a bad value is refused
/// with an error that names the option and the text as typed.
@Suite struct AddressOptionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var option: String
        var text: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    private static let client = ["--token", "t", "--database", "d"]

    static let badValues: [Case] = [
        Case(arguments: ["server", "--listen", "127.0.0.1"], option: "--listen", text: "127.0.0.1"),
        Case(arguments: ["server", "--listen", "[::1]:70000"], option: "--listen", text: "[::1]:70000"),
        Case(arguments: ["proxy", "--listen", "::1:9000", "--upstream", "127.0.0.1:80"], option: "--listen", text: "::1:9000"),
        Case(arguments: ["proxy", "--upstream", "127.0.0.1:+80"], option: "--upstream", text: "127.0.0.1:+80"),
        Case(arguments: ["proxy", "--upstream", "127.0.0.1:0"], option: "--upstream", text: "127.0.0.1:0"),
        Case(arguments: ["proxy", "--api", "localhost"], option: "--api", text: "localhost"),
        Case(arguments: ["client", "--server", "x"] + client + ["flush"], option: "--server", text: "x"),
        Case(arguments: ["client", "--server", "[::1]:0"] + client + ["flush"], option: "--server", text: "[::1]:0"),
    ]

    @Test(arguments: badValues)
    func aBadAddressNamesTheOptionAndTheText(_ bad: Case) {
        let error = #expect(throws: (any Error).self) { try Lowband.parseAsRoot(bad.arguments) }
        let message = error.map { Lowband.message(for: $0) } ?? ""
        #expect(message.hasPrefix("\(bad.option): "), "\(message)")
        #expect(message.contains("'\(bad.text)'"), "\(message)")
    }

    @Test func goodAddressesAreAcceptedByEveryOption() throws {
        _ = try Lowband.parseAsRoot(["server", "--listen", "[::1]:0"])
        _ = try Lowband.parseAsRoot(["server", "--listen", ":8080"])
        _ = try Lowband.parseAsRoot(["proxy", "--listen", "[::1]:0", "--upstream", "localhost:8080", "--api", "127.0.0.1:0"])
        _ = try Lowband.parseAsRoot(["client", "--server", "[::1]:8080"] + Self.client + ["flush"])
    }
}
