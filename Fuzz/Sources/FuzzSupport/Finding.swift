/// Stops the run with a finding: libFuzzer catches the trap, prints `message` with the stack
/// and saves the input as `crash-…` for the regression test.
public func finding(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz finding: \(message)", file: file, line: line)
}

/// A property every input must keep; a finding when it does not.
public func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { finding(message(), file: file, line: line) }
}
