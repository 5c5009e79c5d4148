import ArgumentParser
import Foundation
import LowbandProxy
import LowbandProxyCore

/// `lowband proxy --routes FILE --route PATTERN=ACTION`: the per-destination rules, read and
/// checked before anything listens.
extension ProxyCommand {
    /// The rules in order: the file's, then each `--route`.
    var routeRules: [ProxyRoute] {
        get throws {
            var rules: [ProxyRoute] = []
            if let routesFile {
                guard let data = FileManager.default.contents(atPath: routesFile) else {
                    throw ValidationError("--routes \(routesFile): the file cannot be read")
                }
                guard data.count <= Self.maximumRulesFileBytes else {
                    throw ValidationError("--routes \(routesFile): \(data.count) bytes; a rules file holds at most \(Self.maximumRulesFileBytes)")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw ValidationError("--routes \(routesFile): not UTF-8 text")
                }
                do {
                    rules += try RouteTable.parse(file: text, named: routesFile)
                } catch {
                    throw ValidationError("--routes \(error.message)")
                }
            }
            for text in route {
                do {
                    rules.append(try ProxyRoute(parsing: text))
                } catch {
                    throw ValidationError("--route \(error.message)")
                }
            }
            return rules
        }
    }

    /// The rules with their profiles loaded.
    var loadedRoutes: ProxyRoutes {
        get throws {
            do {
                return try ProxyRoutes(try routeRules)
            } catch let error as ProxyError {
                throw ValidationError("--route: \(error.message)")
            }
        }
    }

    /// A rules file is read whole: 1,000 rules of a long pattern each fit well under this.
    static let maximumRulesFileBytes = 1_000_000
}
