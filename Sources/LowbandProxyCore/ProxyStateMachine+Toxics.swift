package import LowbandShaper

/// Toxics: added to, changed in and removed from every open and future connection.
extension ProxyStateMachine {
    /// Adds a toxic to every open and future connection.
    package mutating func addToxic(_ toxic: Toxic, at now: ShaperInstant) throws(ProxyError) -> (Toxic, ProxyOutput) {
        let toxic = try toxic.validated()
        guard !toxics.contains(where: { $0.name == toxic.name }) else {
            throw ProxyError(.toxicExists, "toxic already exists: '\(toxic.name)'")
        }
        toxics.append(toxic)
        for number in order {
            guard let index = connections.index(forKey: number) else { continue }
            let stage = makeStage(toxic, at: now)
            connections.values[index][toxic.stream].toxics.append(stage)
        }
        step(now)
        return (toxic, takeOutput())
    }

    /// Changes a toxic's attributes and toxicity; missing attributes keep their values.
    package mutating func updateToxic(
        named name: String, attributes: [String: Int64], toxicity: Double?, at now: ShaperInstant
    ) throws(ProxyError) -> (Toxic, ProxyOutput) {
        guard let position = toxics.firstIndex(where: { $0.name == name }) else {
            throw ProxyError(.toxicNotFound, "toxic not found: '\(name)'")
        }
        var toxic = toxics[position]
        toxic.attributes.merge(attributes) { _, new in new }
        if let toxicity { toxic.toxicity = toxicity }
        toxic = try toxic.validated()
        let effect = try ToxicEffect(toxic)
        toxics[position] = toxic
        for number in order {
            guard let index = connections.index(forKey: number) else { continue }
            let active = roll(toxic.toxicity)
            connections.values[index][toxic.stream].toxics.update(named: name, effect: effect, active: active, at: now)
        }
        step(now)
        return (toxic, takeOutput())
    }

    package mutating func removeToxic(named name: String, at now: ShaperInstant) throws(ProxyError) -> ProxyOutput {
        guard let position = toxics.firstIndex(where: { $0.name == name }) else {
            throw ProxyError(.toxicNotFound, "toxic not found: '\(name)'")
        }
        let toxic = toxics.remove(at: position)
        for number in order {
            guard let index = connections.index(forKey: number) else { continue }
            connections.values[index][toxic.stream].toxics.remove(named: name, at: now, random: &random)
            drainToxics(number, toxic.stream, at: now)
        }
        step(now)
        return takeOutput()
    }

    /// Removes every toxic, last added first: what they held goes on to the link, in order.
    package mutating func removeAllToxics(at now: ShaperInstant) -> ProxyOutput {
        var output = ProxyOutput()
        for toxic in toxics.reversed() {
            // Each removal's output is kept: the bytes a toxic held are released by it.
            if let removed = try? removeToxic(named: toxic.name, at: now) { output.append(removed) }
        }
        output.append(takeOutput())
        return output
    }
}
