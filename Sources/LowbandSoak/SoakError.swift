/// Why a soak could not run to its audit: a process that would not start or keeps failing, a
/// log it cannot write, clients still sending at the deadline.
package struct SoakError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
