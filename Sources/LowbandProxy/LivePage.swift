/// The live page the control API serves at `/ui?token=…` (`lowband proxy` prints the address):
/// one self-contained HTML file, no external assets. It shows the device's link (up, or an
/// outage or handover and until when, the bytes in its queue each way, and on a profile with a
/// radio model the radio's state and the energy it drew), the open connections (destination, state, bytes each
/// way, what the proxy holds for them) each with a lane of its bytes over the last minute, the
/// throughput each way over the last minute, and the toxics; and it drives the proxy with the
/// same calls a script makes: switch profile or seed, "outage now" and "handover now" for N s,
/// add or remove a toxic, reset one connection, pause or resume the record. It follows the
/// proxy's event stream (`GET /proxies/{proxy}/events`) and lists connections every second;
/// every request carries the page's token in `X-Lowband-Token`, without which the API refuses
/// browsers.
enum LivePage {
    /// What the page shows before its scripts run, rendered by the server: the first proxy's
    /// profile, seed and link (up, or down and until when), its queue, and whether a record runs
    /// (the record's control is offered only then). A screenshot at load shows the link as it is.
    struct FirstView {
        var proxies: [String]
        var proxy: String?
        var profile: String
        var seed: UInt64
        var link: ProxyLinkState?
        var recording: Bool?

        /// The link badge's class and words, as the script writes them.
        var badge: (className: String, text: String) {
            guard let link, link.down else { return ("badge up", "link up") }
            let until = link.untilSeconds.map { String(format: " until %.1f s", $0) } ?? ""
            return ("badge down", (link.forced ?? "outage") + until)
        }

        /// The queue line, as the script writes it.
        var queue: String {
            guard let up = link?.queuedUpstreamBytes, let down = link?.queuedDownstreamBytes else { return "" }
            return "queue: up \(Self.bytes(up)), down \(Self.bytes(down))"
        }

        static func bytes(_ n: Int) -> String {
            n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : n >= 1_000 ? String(format: "%.1f KB", Double(n) / 1e3) : "\(n) B"
        }
    }

    /// The page with `view` rendered into it.
    static func html(_ view: FirstView) -> String {
        let options = view.proxies.map { name in "<option\(name == view.proxy ? " selected" : "")>\(escape(name))</option>" }.joined()
        let badge = view.badge
        return template
            .replacingOccurrences(of: #"<select id="proxy"></select>"#, with: #"<select id="proxy">"# + options + "</select>")
            .replacingOccurrences(of: #"<span id="link" class="badge up">link up</span>"#, with: #"<span id="link" class=""# + badge.className + #"">"# + escape(badge.text) + "</span>")
            .replacingOccurrences(of: #"<span id="profile"></span>"#, with: #"<span id="profile">"# + escape("\(view.profile), seed \(view.seed)") + "</span>")
            .replacingOccurrences(of: #"title="bytes waiting in the link's queue"></span>"#, with: #"title="bytes waiting in the link's queue">"# + escape(view.queue) + "</span>")
            .replacingOccurrences(
                of: #"<div id="record-box" hidden><button id="record" type="button">Pause record</button><span id="record-state"></span></div>"#,
                with: view.recording.map { paused in
                    #"<div id="record-box"><button id="record" type="button">"# + (paused ? "Resume record" : "Pause record") + #"</button><span id="record-state">"#
                        + (paused ? "record paused" : "recording") + "</span></div>"
                } ?? #"<div id="record-box" hidden><button id="record" type="button">Pause record</button><span id="record-state"></span></div>"#)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page as its scripts fill it in, before any state is rendered.
    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Lowband — live</title>
        <style>
        :root { color-scheme: light; --ink: #212121; --muted: #616161; --line: #e0e0e0; --up: #D55E00; --down: #0072B2; --dark: #424242; }
        body { font: 14px/1.4 system-ui, sans-serif; color: var(--ink); margin: 16px 24px; max-width: 1100px; }
        header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
        h1 { font-size: 20px; margin: 0 8px 0 0; }
        h2 { font-size: 15px; margin: 18px 0 6px; }
        .badge { padding: 2px 10px; border-radius: 12px; font-weight: 600; }
        .badge.up { background: #e8f5e9; color: #1b5e20; }
        .badge.down { background: var(--dark); color: #fff; }
        section.controls { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin-top: 12px; }
        section.controls > * { display: flex; gap: 6px; align-items: center; }
        input[type=number] { width: 5em; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); font-variant-numeric: tabular-nums; }
        td.number { text-align: right; }
        .lane { display: grid; grid-template-columns: 260px 1fr; align-items: center; gap: 8px; }
        .lane .label { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; color: var(--muted); }
        .lane svg { width: 100%; height: 16px; background: #fafafa; }
        .lane.dark svg { background: var(--dark); }
        #status { color: var(--muted); min-height: 1.4em; }
        #status.error { color: #C62828; }
        svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
        </style>
        </head>
        <body>
        <header>
          <h1>Lowband</h1>
          <label>proxy <select id="proxy"></select></label>
          <span id="link" class="badge up">link up</span>
          <span id="profile"></span>
          <span id="queue" title="bytes waiting in the link's queue"></span>
          <span id="radio" title="the device's radio: its state now, and the energy it has drawn since the link started"></span>
        </header>
        <section class="controls">
          <form id="switch"><label>profile <select id="profiles"></select></label><label>seed <input id="seed" type="number" min="0" step="1"></label><button>Switch</button></form>
          <div><input id="outage-seconds" type="number" value="5" min="0.1" max="3600" step="0.1" aria-label="seconds"> s
            <button id="outage" type="button">Outage now</button><button id="handover" type="button">Handover now</button></div>
          <div id="record-box" hidden><button id="record" type="button">Pause record</button><span id="record-state"></span></div>
        </section>
        <h2>Throughput, last minute</h2>
        <svg id="throughput" viewBox="0 0 600 110" width="100%" height="110" role="img" aria-label="bytes per second each way over the last minute"></svg>
        <h2>Connections</h2>
        <div id="lanes"></div>
        <table id="connections"><thead><tr><th>#</th><th>destination</th><th>state</th><th>up</th><th>down</th><th>held</th><th></th></tr></thead><tbody></tbody></table>
        <h2>Toxics</h2>
        <table id="toxics"><thead><tr><th>name</th><th>type</th><th>stream</th><th>toxicity</th><th>attributes</th><th></th></tr></thead><tbody></tbody></table>
        <form id="add-toxic" style="margin-top:6px;display:flex;gap:6px;flex-wrap:wrap">
          <input id="toxic-name" placeholder="name" required size="10">
          <select id="toxic-type"><option>latency</option><option>bandwidth</option><option>slow_close</option><option>timeout</option><option>reset_peer</option><option>slicer</option><option>limit_data</option></select>
          <select id="toxic-stream"><option>downstream</option><option>upstream</option></select>
          <input id="toxic-attributes" placeholder='{"latency": 500}' size="24">
          <input id="toxic-toxicity" type="number" min="0" max="1" step="0.1" value="1" aria-label="toxicity">
          <button>Add toxic</button>
        </form>
        <p id="status" role="status"></p>
        <script>
        "use strict";
        const token = new URLSearchParams(location.search).get("token") || "";
        const headers = { "X-Lowband-Token": token };
        const $ = (id) => document.getElementById(id);
        const state = { proxy: null, connections: [], link: { down: false }, seconds: new Map(), lanes: new Map(), outages: [], clock: { proxy: 0, wall: performance.now() }, paused: false, streamId: 0 };

        async function api(method, path, body) {
          const init = { method, headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" } };
          if (body !== undefined) init.body = JSON.stringify(body);
          const response = await fetch(path, init);
          const text = await response.text();
          if (!response.ok) {
            let message = text;
            try { message = JSON.parse(text).error || text; } catch (_) {}
            throw new Error(`${method} ${path}: ${response.status} ${message}`);
          }
          return text ? JSON.parse(text) : null;
        }
        function say(text, error) { $("status").textContent = text; $("status").className = error ? "error" : ""; }
        async function act(what, method, path, body) {
          try { const answer = await api(method, path, body); say(`${what}: ${method} ${path} → done`); await refresh(); return answer; }
          catch (error) { say(error.message, true); }
        }
        const p = () => `/proxies/${encodeURIComponent(state.proxy)}`;
        const nowMs = () => state.clock.proxy + (performance.now() - state.clock.wall);
        function bytes(n) { return n >= 1e6 ? (n / 1e6).toFixed(1) + " MB" : n >= 1e3 ? (n / 1e3).toFixed(1) + " KB" : n + " B"; }

        async function loadProxies() {
          const proxies = await api("GET", "/proxies");
          const names = Object.keys(proxies).sort();
          $("proxy").innerHTML = names.map((name) => `<option>${escape(name)}</option>`).join("");
          if (!state.proxy) state.proxy = $("proxy").value || null;
          if (!names.includes(state.proxy)) state.proxy = names[0] || null;
          $("proxy").value = state.proxy;
          const profiles = await api("GET", "/profiles");
          $("profiles").innerHTML = profiles.map((name) => `<option>${escape(name)}</option>`).join("");
        }
        function escape(text) { return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

        async function refresh() {
          if (!state.proxy) return;
          const [now, proxy, toxics] = await Promise.all([api("GET", p() + "/connections"), api("GET", p()), api("GET", p() + "/toxics")]);
          state.connections = now.connections;
          state.link = now.link;
          $("profile").textContent = `${proxy.profile || "perfect"}, seed ${proxy.seed ?? 0}`;
          if (document.activeElement !== $("profiles")) $("profiles").value = proxy.profile || "perfect";
          if (document.activeElement !== $("seed")) $("seed").value = proxy.seed ?? 0;
          $("toxics").tBodies[0].innerHTML = toxics.map((toxic) => `<tr><td>${escape(toxic.name)}</td><td>${escape(toxic.type)}</td><td>${escape(toxic.stream)}</td><td>${toxic.toxicity}</td><td>${escape(JSON.stringify(toxic.attributes))}</td><td><button data-toxic="${escape(toxic.name)}">Remove</button></td></tr>`).join("");
          render();
        }

        function render() {
          const link = state.link;
          const badge = $("link");
          badge.className = "badge " + (link.down ? "down" : "up");
          badge.textContent = link.down ? `${link.forced || "outage"}${link.until_s != null ? " until " + link.until_s.toFixed(1) + " s" : ""}` : "link up";
          $("queue").textContent = link.queued_upstream_bytes == null ? "" : `queue: up ${bytes(link.queued_upstream_bytes)}, down ${bytes(link.queued_downstream_bytes)}`;
          $("radio").textContent = link.radio_state == null ? "" : `radio ${link.radio_state}${link.radio_joules == null ? "" : ", " + link.radio_joules.toFixed(1) + " J"}`;
          const rows = state.connections.map((c) => `<tr data-number="${c.number}"><td>${c.number}</td><td>${escape(c.description)}</td><td class="state">${escape(c.state)}</td><td class="number up-bytes">${c.upstream_bytes}</td><td class="number down-bytes">${c.downstream_bytes}</td><td class="number">${bytes(c.buffered_bytes)}</td><td><button data-reset="${c.number}">Reset</button></td></tr>`);
          $("connections").tBodies[0].innerHTML = rows.join("");
          const end = nowMs(), start = end - 60000;
          const x = (ms) => Math.max(0, Math.min(600, (ms - start) / 100));
          const outageRects = state.outages.filter((o) => (o.end ?? end) > start).map((o) => `<rect class="outage" x="${x(o.start)}" y="0" width="${Math.max(1, x(o.end ?? end) - x(o.start))}" height="16" fill="#424242"/>`).join("");
          const lanes = [`<div class="lane link${link.down ? " dark" : ""}"><span class="label">link</span><svg viewBox="0 0 600 16" preserveAspectRatio="none">${outageRects}</svg></div>`];
          for (const c of state.connections) {
            const seconds = state.lanes.get(c.number) || new Map();
            const peak = Math.max(1, ...seconds.values());
            const bars = [...seconds].filter(([s]) => s * 1000 >= start).map(([s, n]) => `<rect x="${x(s * 1000)}" y="2" width="10" height="12" fill="#0072B2" fill-opacity="${(0.2 + 0.8 * n / peak).toFixed(2)}"/>`).join("");
            lanes.push(`<div class="lane${link.down ? " dark" : ""}" data-number="${c.number}"><span class="label">#${c.number} ${escape(c.description.split("→").pop().trim())}</span><svg viewBox="0 0 600 16" preserveAspectRatio="none">${bars}${outageRects}</svg></div>`);
          }
          $("lanes").innerHTML = lanes.join("");
          let peak = 1;
          const points = [];
          for (let s = Math.floor(start / 1000); s <= Math.floor(end / 1000); s++) {
            const v = state.seconds.get(s) || { up: 0, down: 0 };
            peak = Math.max(peak, v.up, v.down);
            points.push([s, v]);
          }
          const y = (n, sign) => 55 - sign * 50 * n / peak;
          const path = (key, sign) => "M" + points.map(([s, v]) => `${x(s * 1000).toFixed(1)},${y(v[key], sign).toFixed(1)}`).join("L");
          $("throughput").innerHTML = `${outageRects.replaceAll('height="16"', 'height="110"').replaceAll('fill="#424242"', 'fill="#424242" fill-opacity="0.2"')}<line x1="0" x2="600" y1="55" y2="55" stroke="#e0e0e0"/><path d="${path("up", 1)}" fill="none" stroke="#D55E00"/><path d="${path("down", -1)}" fill="none" stroke="#0072B2"/><text x="4" y="12">up ${bytes(peak)}/s</text><text x="4" y="106">down</text>`;
        }

        function onEvent(event) {
          state.clock = { proxy: event.time_ms, wall: performance.now() };
          const second = Math.floor(event.time_ms / 1000);
          switch (event.event) {
          case "deliver": {
            const entry = state.seconds.get(second) || { up: 0, down: 0 };
            entry[event.direction === "upstream" ? "up" : "down"] += event.bytes;
            state.seconds.set(second, entry);
            const lane = state.lanes.get(event.connection) || new Map();
            lane.set(second, (lane.get(second) || 0) + event.bytes);
            state.lanes.set(event.connection, lane);
            break;
          }
          case "outage-start": state.outages.push({ start: event.time_ms, end: null }); refresh(); break;
          case "outage-end": { const open = state.outages.find((o) => o.end === null); if (open) open.end = event.time_ms; refresh(); break; }
          case "open": case "close": case "link": case "toxic-added": case "toxic-updated": case "toxic-removed": refresh(); break;
          }
          for (const s of [...state.seconds.keys()]) if (s < second - 120) state.seconds.delete(s);
          scheduleRender();
        }
        let renderPending = false;
        function scheduleRender() { if (!renderPending) { renderPending = true; setTimeout(() => { renderPending = false; render(); }, 250); } }

        async function follow(id) {
          while (id === state.streamId) {
            try {
              const response = await fetch(p() + "/events", { headers });
              if (!response.ok) throw new Error(`events: ${response.status}`);
              const reader = response.body.getReader();
              const decoder = new TextDecoder();
              let buffer = "";
              while (id === state.streamId) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer += decoder.decode(value, { stream: true });
                let newline;
                while ((newline = buffer.indexOf("\n")) >= 0) {
                  const line = buffer.slice(0, newline);
                  buffer = buffer.slice(newline + 1);
                  if (line) onEvent(JSON.parse(line));
                }
              }
              reader.cancel().catch(() => {});
            } catch (error) { say(error.message, true); }
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }

        async function loadRecord() {
          try { const record = await api("GET", "/record"); state.paused = record.paused; $("record-box").hidden = false; }
          catch (_) { $("record-box").hidden = true; return; }
          $("record").textContent = state.paused ? "Resume record" : "Pause record";
          $("record-state").textContent = state.paused ? "record paused" : "recording";
        }

        $("switch").addEventListener("submit", (event) => { event.preventDefault(); act("switch", "POST", p() + "/profile", { profile: $("profiles").value, seed: Number($("seed").value) }); });
        $("outage").addEventListener("click", () => act("outage", "POST", p() + "/outage", { seconds: Number($("outage-seconds").value) }));
        $("handover").addEventListener("click", () => act("handover", "POST", p() + "/outage", { seconds: Number($("outage-seconds").value), kind: "handover" }));
        $("record").addEventListener("click", async () => { await act("record", "POST", "/record", { paused: !state.paused }); loadRecord(); });
        $("add-toxic").addEventListener("submit", (event) => {
          event.preventDefault();
          let attributes = {};
          try { attributes = $("toxic-attributes").value.trim() ? JSON.parse($("toxic-attributes").value) : {}; } catch (error) { say("attributes: " + error.message, true); return; }
          act("toxic", "POST", p() + "/toxics", { name: $("toxic-name").value, type: $("toxic-type").value, stream: $("toxic-stream").value, toxicity: Number($("toxic-toxicity").value), attributes });
        });
        document.addEventListener("click", (event) => {
          const target = event.target;
          if (target.dataset.toxic) act("remove toxic", "DELETE", p() + "/toxics/" + encodeURIComponent(target.dataset.toxic));
          if (target.dataset.reset) act("reset", "DELETE", p() + "/connections/" + target.dataset.reset);
        });
        $("proxy").addEventListener("change", () => { state.proxy = $("proxy").value; state.seconds.clear(); state.lanes.clear(); state.outages = []; state.streamId++; follow(state.streamId); refresh(); });

        (async () => {
          try { await loadProxies(); } catch (error) { say(error.message, true); return; }
          await loadRecord();
          await refresh().catch((error) => say(error.message, true));
          state.streamId++;
          follow(state.streamId);
          setInterval(() => refresh().catch((error) => say(error.message, true)), 1000);
          setInterval(render, 1000);
        })();
        </script>
        </body>
        </html>
        """#
}
