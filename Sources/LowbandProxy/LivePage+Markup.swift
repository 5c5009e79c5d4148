extension LivePage {
    /// The page's body with `view` filled in; the script keeps the same elements up to date.
    static func markup(_ view: FirstView) -> String {
        let proxies = view.proxies.map { "<option\($0 == view.proxy ? " selected" : "")>\(escape($0))</option>" }.joined()
        let profiles = (view.profiles.contains(view.profile) ? view.profiles : [view.profile] + view.profiles)
            .map { "<option\($0 == view.profile ? " selected" : "")>\(escape($0))</option>" }.joined()
        let badge = view.badge
        let held = view.link?.heldBytes.map { "held by the proxy: \(bytes($0))" } ?? ""
        let radio = view.link?.radioState.map { state in "radio \(state)" + (view.link?.radioJoules.map { String(format: ", %.1f J", $0) } ?? "") } ?? ""
        return """
            <header class="bar">
              <div class="brand">Lowband <span>live</span></div>
              <label class="field">proxy <select id="proxy">\(proxies)</select></label>
              <span id="link" class="\(badge.className)">\(escape(badge.text))</span>
              <span id="profile" class="profile">\(escape("\(view.profile), seed \(view.seed)"))</span>
              \(recordBox(view.recording))
            </header>
            <main>
            <div class="top">
            <section class="card" aria-labelledby="link-title">
              <h2 id="link-title">Link <small>the profile's figures, and what the link does now</small></h2>
              <table class="figures">
                <thead>
                  <tr><th></th><th colspan="4" class="group">profile <span id="profile-name">\(escape(view.profile))</span></th><th colspan="2" class="group now">now</th></tr>
                  <tr><th></th><th>rate</th><th>delay <small>one way</small></th><th>loss</th><th>queue</th><th class="now">throughput <small>last 1 s</small></th><th>link queue</th></tr>
                </thead>
                <tbody>
                  \(figuresRow("down", "downlink", view.link?.downlink, queue: view.queue(.downstream), percent: view.queuePercent(.downstream)))
                  \(figuresRow("up", "uplink", view.link?.uplink, queue: view.queue(.upstream), percent: view.queuePercent(.upstream)))
                </tbody>
              </table>
              <p class="aside"><span id="held" title="bytes the proxy holds for all connections: in toxics, waiting for room in the link's queue, in it, crossing its delay, not yet written">\(held)</span>
                <span id="radio" title="the device's radio: its state now, and the energy it has drawn since the link started">\(escape(radio))</span></p>
            </section>
            <section class="card controls" aria-labelledby="controls-title">
              <h2 id="controls-title">Controls</h2>
              <form id="switch" class="row"><label class="field">profile <select id="profiles">\(profiles)</select></label>
                <label class="field">seed <input id="seed" type="number" min="0" step="1" value="\(view.seed)"></label><button class="button primary">Switch</button></form>
              <div class="row"><label class="field">for <input id="outage-seconds" type="number" value="5" min="0.1" max="3600" step="0.1" aria-label="seconds"> s</label>
                <button id="outage" type="button" class="button danger">Outage now</button><button id="handover" type="button" class="button">Handover now</button></div>
              <p id="status" role="status"></p>
            </section>
            </div>
            <section class="card" aria-labelledby="throughput-title">
              <h2 id="throughput-title">Throughput <small>bits per second each way, 1 s bins, last 60 s; dashed: the profile's rate</small></h2>
              <div class="legend"><span class="key down"></span><span id="legend-down">downlink</span><span class="key up"></span><span id="legend-up">uplink</span><span class="key outage"></span><span>link down</span></div>
              <svg id="throughput" viewBox="0 0 640 170" width="100%" height="170" role="img" aria-label="bits per second each way over the last minute"><text x="320" y="85" text-anchor="middle">each way's throughput is drawn here from the proxy's events, a second after the page opened</text></svg>
            </section>
            \(view.frames.map(framesCard) ?? connectionsCard(view.connections))
            <section class="card" aria-labelledby="toxics-title">
              <h2 id="toxics-title">Toxics</h2>
              <table id="toxics" class="list"><thead><tr><th>name</th><th>type</th><th>stream</th><th>toxicity</th><th>attributes</th><th></th></tr></thead><tbody></tbody></table>
              <form id="add-toxic" class="row">
                <input id="toxic-name" placeholder="name" required size="10" aria-label="name">
                <select id="toxic-type" aria-label="type">\(view.toxicTypes.map { "<option>\(escape($0))</option>" }.joined())</select>
                <select id="toxic-stream" aria-label="stream"><option>downstream</option><option>upstream</option></select>
                <input id="toxic-attributes" placeholder='{"latency": 500}' size="24" aria-label="attributes (JSON)">
                <label class="field">toxicity <input id="toxic-toxicity" type="number" min="0" max="1" step="0.1" value="1"></label>
                <button class="button">Add toxic</button>
              </form>
            </section>
            </main>
            """
    }

    /// The record's switch, or nothing when no record runs (`lowband proxy` without `--record`:
    /// `/record` answers 404, so no control is offered).
    private static func recordBox(_ recording: Bool?) -> String {
        guard let paused = recording else { return "" }
        return #"<div id="record-box" class="record"><span id="record-state" class="dot "#
            + (paused ? "off" : "on") + #"">"# + (paused ? "record paused" : "recording") + #"</span><button id="record" type="button" class="button">"#
            + (paused ? "Resume record" : "Pause record") + "</button></div>"
    }

    private static func connectionsCard(_ connections: [ProxyConnection]) -> String {
        """
        <section class="card" aria-labelledby="connections-title">
          <h2 id="connections-title">Connections <small>bytes over the last 60 s, one lane each</small></h2>
          <div id="lanes"></div>
          <table id="connections" class="list"><thead><tr><th>#</th><th>destination</th><th>state</th><th class="number">up</th><th class="number">down</th><th class="number">held</th><th></th></tr></thead><tbody>\(connectionRows(connections))</tbody></table>
        </section>
        """
    }

    /// A packet link's frames each way (`lowband shell`), in place of connections: the script
    /// fills the same cells from `GET /stats`.
    private static func framesCard(_ frames: FirstView.Frames) -> String {
        """
        <section class="card" aria-labelledby="frames-title">
          <h2 id="frames-title">Frames <small>every packet of the command, each way: delivered, and dropped with the cause</small></h2>
          <table id="frames" class="list"><thead><tr><th></th><th class="number">offered</th><th class="number">delivered</th><th class="number">bytes delivered</th><th class="number">dropped</th><th>causes</th></tr></thead><tbody>
          \(framesRow("down", "downlink", frames.downstream))
          \(framesRow("up", "uplink", frames.upstream))
          </tbody></table>
        </section>
        """
    }

    /// `loss 3, queue-full 2`, as the script writes it; `none` without drops.
    static func causes(_ dropped: [String: Int]) -> String {
        dropped.isEmpty ? "none" : dropped.keys.sorted().map { "\($0) \(dropped[$0]!)" }.joined(separator: ", ")
    }

    private static func framesRow(_ id: String, _ name: String, _ lane: FirstView.Frames.Lane) -> String {
        #"<tr><th>\#(name)</th><td id="\#(id)-offered" class="number">\#(lane.offeredFrames)</td><td id="\#(id)-delivered" class="number">\#(lane.deliveredFrames)</td>"#
            + #"<td id="\#(id)-delivered-bytes" class="number">\#(bytes(lane.deliveredBytes))</td><td id="\#(id)-dropped" class="number">\#(lane.dropped.values.reduce(0, +))</td>"#
            + #"<td id="\#(id)-causes">\#(escape(causes(lane.dropped)))</td></tr>"#
    }

    /// The connections' rows, as the script writes them.
    private static func connectionRows(_ connections: [ProxyConnection]) -> String {
        guard !connections.isEmpty else { return #"<tr><td colspan="7" class="empty">no open connections</td></tr>"# }
        return connections.map { c in
            #"<tr data-number="\#(c.number)"><td>\#(c.number)</td><td>\#(escape(c.description))</td><td class="state">\#(escape(c.state))</td>"#
                + #"<td class="number up-bytes">\#(bytes(c.upstreamBytes))</td><td class="number down-bytes">\#(bytes(c.downstreamBytes))</td>"#
                + #"<td class="number">\#(bytes(c.bufferedBytes))</td><td><button class="button small" data-reset="\#(c.number)">Reset</button></td></tr>"#
        }.joined()
    }

    private static func figuresRow(_ id: String, _ name: String, _ figures: ProxyLinkFigures?, queue: String, percent: Int) -> String {
        func cell(_ key: String, _ text: String?) -> String { #"<td id="\#(id)-\#(key)">\#(escape(text ?? "–"))</td>"# }
        return #"<tr id="row-\#(id)"><th>\#(name)</th>"# + cell("rate", figures?.rate) + cell("delay", figures?.delay) + cell("loss", figures?.loss)
            + cell("queue-limit", figures?.queue) + #"<td id="\#(id)-throughput" class="now">–</td>"#
            + #"<td><span id="\#(id)-queue">\#(queue)</span><span class="meter"><span id="\#(id)-queue-fill" style="width:\#(percent)%"></span></span></td></tr>"#
    }
}
