import Foundation
import LowbandBasics
import LowbandShaper

extension ScenarioOptions {
    /// The options of a `lowband run` command as `lowband run` and `lowband explore` print it
    /// (`lowband run --scenario crowd --profile edge --seed 17 --clients 5 --duration 600s
    /// --virtual-time --faults reset,app-kill`): how a failing seed becomes a regression test in
    /// one step.
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` naming the word it cannot read.
    package init(reproducing command: String, searchPath: [String]? = nil) throws(ScenarioError) {
        var words = CommandWords.split(command)[...]
        if words.first == "lowband" { words = words.dropFirst() }
        if words.first == "run" { words = words.dropFirst() }
        var scenario = ScenarioName.pushToVisible
        var profileName = "edge"
        var seed: UInt64 = 1
        var clients: Int?
        var duration: Duration?
        var virtualTime = false
        var faults = FaultPlan.none
        var without: String?
        var only: String?
        func value(_ option: String) throws(ScenarioError) -> String {
            guard let next = words.popFirst() else { throw ScenarioError(.invalidOptions, "\(option) has no value in '\(command)'") }
            return next
        }
        while let word = words.popFirst() {
            switch word {
            case "--scenario": scenario = try ScenarioName(parsing: try value(word))
            case "--profile": profileName = try value(word)
            case "--seed":
                let text = try value(word)
                guard let parsed = UInt64(text) else { throw ScenarioError(.invalidOptions, "--seed '\(text)' is not a seed") }
                seed = parsed
            case "--clients":
                let text = try value(word)
                guard let parsed = Int(text) else { throw ScenarioError(.invalidOptions, "--clients '\(text)' is not a number") }
                clients = parsed
            case "--duration":
                let text = try value(word)
                do {
                    duration = try DurationText.parse(text)
                } catch {
                    throw ScenarioError(.invalidOptions, "--duration: \(error)")
                }
            case "--virtual-time": virtualTime = true
            case "--faults": faults = try FaultPlan(parsing: try value(word))
            case "--without-faults": without = try value(word)
            case "--only-faults": only = try value(word)
            default: throw ScenarioError(.invalidOptions, "'\(word)' is not an option this reads in '\(command)'")
            }
        }
        faults.played = try FaultSelection(without: without, only: only)
        let profile: NetworkProfile
        do {
            profile = try searchPath.map { try NetworkProfile.load(named: profileName, searchPath: $0) } ?? NetworkProfile.load(named: profileName)
        } catch {
            throw ScenarioError(.invalidOptions, "profile \(profileName): \(error)")
        }
        self.init(
            scenario: scenario, profile: profile, profileName: profileName, seed: seed,
            clients: clients ?? (scenario == .crowd ? 10 : 1), duration: duration, virtualTime: virtualTime, command: command, faults: faults)
    }
}
