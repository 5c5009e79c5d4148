import LowbandSoak
import Testing

/// The soak's chaos schedule: fixed by the seed, within the documented ranges, proxy restarts
/// between server kills.
@Suite struct SoakPlanTests {
    private func plan(seed: UInt64) -> SoakPlan {
        SoakPlan(
            clients: 20, messages: 1000, seed: seed, profile: "flapping", clientKillEvery: .seconds(30), serverKills: 3,
            serverKillEvery: .seconds(60), proxyRestarts: 2, deadline: .seconds(1800))
    }

    private func draws(_ plan: SoakPlan) -> (kills: [Duration], victims: [Int], downtimes: [Duration], server: [Duration], proxy: [Duration]) {
        var chaos = SoakPlan.Chaos(plan: plan)
        let kills = (0 ..< 50).map { _ in chaos.nextClientKill(every: plan.clientKillEvery) }
        let victims = (0 ..< 50).map { _ in chaos.victim(of: plan.clients) }
        let downtimes = (0 ..< 50).map { _ in chaos.downtime(0.5, 2) }
        return (kills, victims, downtimes, chaos.serverKillTimes, chaos.proxyRestartTimes)
    }

    @Test func theSeedFixesEveryDecision() {
        let first = draws(plan(seed: 9))
        let again = draws(plan(seed: 9))
        let other = draws(plan(seed: 10))
        #expect(first.kills == again.kills && first.victims == again.victims && first.downtimes == again.downtimes)
        #expect(first.server == again.server && first.proxy == again.proxy)
        #expect(first.kills != other.kills || first.victims != other.victims)
    }

    @Test func drawsStayInTheirRanges() {
        let plan = plan(seed: 3)
        let drawn = draws(plan)
        #expect(drawn.kills.allSatisfy { $0 >= .seconds(15) && $0 <= .seconds(45) }, "0.5–1.5× the mean of 30 s")
        #expect(drawn.victims.allSatisfy { (0 ..< plan.clients).contains($0) })
        #expect(drawn.downtimes.allSatisfy { $0 >= .milliseconds(500) && $0 <= .seconds(2) })
        #expect(drawn.server.count == 3 && drawn.server == drawn.server.sorted())
        #expect(drawn.proxy.count == 2)
        // Each proxy restart falls between two server kills' nominal times, so one never masks the other.
        for (index, time) in drawn.proxy.enumerated() {
            #expect(time >= .seconds(60) * (Double(index) + 0.5) * 0.9 && time <= .seconds(60) * (Double(index) + 0.5) * 1.1)
        }
    }
}
