extension LivePage {
    /// The page's script: follows the proxy's events, lists its connections every second, and
    /// makes the API calls its controls stand for. Its formats match ``FirstView``'s.
    static let script = #"""
        "use strict";
        const token = new URLSearchParams(location.search).get("token") || "";
        const headers = { "X-Lowband-Token": token };
        const $ = (id) => document.getElementById(id);
        const state = { proxy: $("proxy").value || null, connections: [], link: { down: false }, seconds: new Map(), lanes: new Map(), outages: [], clock: { proxy: 0, wall: performance.now() }, paused: $("record-state") ? $("record-state").textContent === "record paused" : false, streamId: 0 };

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
        function escape(text) { return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }
        // Sizes in decimal units, as the profiles write them (1 KB = 1000 B); rates in bit/s.
        function bytes(n) { return n >= 1e6 ? (n / 1e6).toFixed(1) + " MB" : n >= 1e3 ? (n / 1e3).toFixed(1) + " KB" : n + " B"; }
        const trim = (text) => text.endsWith(".0") ? text.slice(0, -2) : text;
        function queue(queued, limit) {
          const [scale, unit] = limit >= 1e6 ? [1e6, "MB"] : limit >= 1e3 ? [1e3, "KB"] : [1, "B"];
          const number = (n) => scale === 1 ? String(n) : trim((n / scale).toFixed(1));
          return `${number(queued)} of ${number(limit)} ${unit}`;
        }
        function rate(bitsPerSecond) {
          const n = Math.round(bitsPerSecond);
          return n >= 1e6 ? trim((n / 1e6).toFixed(1)) + " Mbit/s" : n >= 1e3 ? trim((n / 1e3).toFixed(1)) + " kbit/s" : n + " bit/s";
        }
        function badge(link) {
          if (link.down) return ["badge down", `${link.forced || "outage"}${link.until_s != null ? " until " + link.until_s.toFixed(1) + " s" : ""}`];
          if (link.partitioned && link.partitioned.length) return ["badge partition", "partition: " + link.partitioned.map((d) => d === "upstream" ? "uplink" : "downlink").join(", ")];
          return ["badge up", "link up"];
        }

        async function loadProxies() {
          const proxies = await api("GET", "/proxies");
          const names = Object.keys(proxies).sort();
          if (!names.includes(state.proxy)) state.proxy = names[0] || null;
          $("proxy").innerHTML = names.map((name) => `<option${name === state.proxy ? " selected" : ""}>${escape(name)}</option>`).join("");
          const profiles = await api("GET", "/profiles");
          const chosen = $("profiles").value;
          $("profiles").innerHTML = profiles.map((name) => `<option${name === chosen ? " selected" : ""}>${escape(name)}</option>`).join("");
        }

        async function refresh() {
          if (!state.proxy) return;
          const [now, proxy, toxics] = await Promise.all([api("GET", p() + "/connections"), api("GET", p()), api("GET", p() + "/toxics")]);
          state.connections = now.connections;
          state.link = now.link;
          const profile = proxy.profile || "perfect";
          $("profile").textContent = `${profile}, seed ${proxy.seed ?? 0}`;
          $("profile-name").textContent = profile;
          if (document.activeElement !== $("profiles")) $("profiles").value = profile;
          if (document.activeElement !== $("seed")) $("seed").value = proxy.seed ?? 0;
          if ($("frames")) {
            const stats = await api("GET", "/stats");
            for (const [id, lane] of [["down", stats.downstream], ["up", stats.upstream]]) {
              $(id + "-offered").textContent = lane.offered_frames;
              $(id + "-delivered").textContent = lane.delivered_frames;
              $(id + "-delivered-bytes").textContent = bytes(lane.delivered_bytes);
              $(id + "-dropped").textContent = lane.dropped_frames;
              const causes = Object.keys(lane.dropped).sort();
              $(id + "-causes").textContent = causes.length ? causes.map((cause) => `${cause} ${lane.dropped[cause]}`).join(", ") : "none";
            }
          }
          $("toxics").tBodies[0].innerHTML = toxics.length === 0 ? `<tr><td colspan="6" class="empty">no toxics: add one below</td></tr>`
            : toxics.map((toxic) => `<tr><td>${escape(toxic.name)}</td><td>${escape(toxic.type)}</td><td>${escape(toxic.stream)}</td><td>${toxic.toxicity}</td><td>${escape(JSON.stringify(toxic.attributes))}</td><td><button class="button small" data-toxic="${escape(toxic.name)}">Remove</button></td></tr>`).join("");
          render();
        }

        // Bits per second over the last complete second, each way; null until the event stream
        // has been followed for one whole second.
        function lastSecond() {
          if (state.followedSince == null || performance.now() - state.followedSince < 2000) return null;
          const entry = state.seconds.get(Math.floor(nowMs() / 1000) - 1) || { up: 0, down: 0 };
          return { up: entry.up * 8, down: entry.down * 8 };
        }

        function renderFigures(link) {
          const last = lastSecond();
          for (const [id, figures, queued, bits, name] of [["down", link.downlink, link.queued_downstream_bytes, last && last.down, "downlink"], ["up", link.uplink, link.queued_upstream_bytes, last && last.up, "uplink"]]) {
            $(id + "-rate").textContent = figures ? figures.rate : "–";
            $(id + "-delay").textContent = figures ? figures.delay : "–";
            $(id + "-loss").textContent = figures ? figures.loss : "–";
            $(id + "-queue-limit").textContent = figures ? figures.queue : "–";
            $(id + "-throughput").textContent = last ? rate(bits) : "–";
            $(id + "-queue").textContent = figures && queued != null ? queue(queued, figures.queue_bytes) : "";
            $(id + "-queue-fill").style.width = figures && queued != null && figures.queue_bytes > 0 ? Math.min(100, Math.floor(queued * 100 / figures.queue_bytes)) + "%" : "0%";
            $("legend-" + id).textContent = `${name} ${last ? rate(bits) : "–"} (last 1 s)`;
          }
          $("held").textContent = link.held_bytes == null ? "" : `held by the proxy: ${bytes(link.held_bytes)}`;
          $("radio").textContent = link.radio_state == null ? "" : `radio ${link.radio_state}${link.radio_joules == null ? "" : ", " + link.radio_joules.toFixed(1) + " J"}`;
        }

        // The throughput chart: both directions on one axis in bit/s, the profile's rates dashed.
        function renderChart(start, end, outages) {
          // As wide as it is drawn, so its text keeps its size.
          const width = Math.max(320, Math.round($("throughput").getBoundingClientRect().width) || 640);
          $("throughput").setAttribute("viewBox", `0 0 ${width} 170`);
          const [left, right, top, bottom] = [70, width - 14, 10, 140];
          const x = (ms) => left + (right - left) * Math.max(0, Math.min(60000, ms - start)) / 60000;
          const points = [];
          let peak = 0;
          // Only the whole seconds the page has followed: before that it saw nothing, not zero.
          const seen = state.followedSince == null ? end : end - (performance.now() - state.followedSince);
          for (let s = Math.max(Math.floor(start / 1000), Math.ceil(seen / 1000)); s < Math.floor(end / 1000); s++) {
            const v = state.seconds.get(s) || { up: 0, down: 0 };
            points.push([s, v.up * 8, v.down * 8]);
            peak = Math.max(peak, v.up * 8, v.down * 8);
          }
          const rates = [["down", state.link.downlink], ["up", state.link.uplink]].filter(([, f]) => f && f.bits_per_second);
          for (const [, f] of rates) peak = Math.max(peak, f.bits_per_second);
          const step = Math.pow(10, Math.floor(Math.log10(Math.max(peak, 1000))));
          const scale = [1, 2, 2.5, 5, 10].map((m) => m * step).find((v) => v >= peak * 1.05) || 10 * step;
          const y = (bits) => bottom - (bottom - top) * bits / scale;
          const parts = [];
          for (const o of outages) parts.push(`<rect class="outage" x="${x(o.start).toFixed(1)}" y="${top}" width="${Math.max(1, x(o.end ?? end) - x(o.start)).toFixed(1)}" height="${bottom - top}" fill="#3b4048" fill-opacity="0.18"/>`);
          for (let i = 0; i <= 4; i++) {
            const v = scale * i / 4;
            parts.push(`<line x1="${left}" x2="${right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${i === 0 ? "#8b949e" : "#e3e6ea"}"/><text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${rate(v)}</text>`);
          }
          for (const seconds of [60, 45, 30, 15, 0]) {
            const at = x(end - seconds * 1000);
            parts.push(`<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${bottom}" y2="${bottom + 4}" stroke="#8b949e"/><text x="${at.toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${seconds === 0 ? "now" : "−" + seconds + " s"}</text>`);
          }
          const colour = { down: "#0072B2", up: "#D55E00" };
          for (const [key, f] of rates) parts.push(`<line class="rate ${key}" x1="${left}" x2="${right}" y1="${y(f.bits_per_second).toFixed(1)}" y2="${y(f.bits_per_second).toFixed(1)}" stroke="${colour[key]}" stroke-dasharray="5 4" stroke-opacity="0.7"/>`);
          const path = (index) => points.length === 0 ? "" : "M" + points.map((pt) => `${x(pt[0] * 1000 + 500).toFixed(1)},${y(pt[index]).toFixed(1)}`).join("L");
          parts.push(`<path class="series up" d="${path(1)}" fill="none" stroke="${colour.up}" stroke-width="1.5"/><path class="series down" d="${path(2)}" fill="none" stroke="${colour.down}" stroke-width="1.5"/>`);
          $("throughput").innerHTML = parts.join("");
        }

        function render() {
          const link = state.link;
          const [className, text] = badge(link);
          $("link").className = className;
          $("link").textContent = text;
          renderFigures(link);
          const rows = state.connections.map((c) => `<tr data-number="${c.number}"><td>${c.number}</td><td>${escape(c.description)}</td><td class="state">${escape(c.state)}</td><td class="number up-bytes">${bytes(c.upstream_bytes)}</td><td class="number down-bytes">${bytes(c.downstream_bytes)}</td><td class="number">${bytes(c.buffered_bytes)}</td><td><button class="button small" data-reset="${c.number}">Reset</button></td></tr>`);
          // A packet link (lowband shell) has frames in place of connections.
          if ($("connections")) $("connections").tBodies[0].innerHTML = rows.length ? rows.join("") : `<tr><td colspan="7" class="empty">no open connections</td></tr>`;
          const end = nowMs(), start = end - 60000;
          const x = (ms) => Math.max(0, Math.min(600, (ms - start) / 100));
          const outages = state.outages.filter((o) => (o.end ?? end) > start);
          const outageRects = outages.map((o) => `<rect class="outage" x="${x(o.start)}" y="0" width="${Math.max(1, x(o.end ?? end) - x(o.start))}" height="16" fill="#3b4048"/>`).join("");
          const lanes = [`<div class="lane link${link.down ? " dark" : ""}"><span class="label">link</span><svg viewBox="0 0 600 16" preserveAspectRatio="none">${outageRects}</svg></div>`];
          for (const c of state.connections) {
            const seconds = state.lanes.get(c.number) || new Map();
            const peak = Math.max(1, ...seconds.values());
            const bars = [...seconds].filter(([s]) => s * 1000 >= start).map(([s, n]) => `<rect x="${x(s * 1000)}" y="2" width="10" height="12" fill="#0072B2" fill-opacity="${(0.2 + 0.8 * n / peak).toFixed(2)}"/>`).join("");
            lanes.push(`<div class="lane${link.down ? " dark" : ""}" data-number="${c.number}"><span class="label">#${c.number} ${escape(c.description.split("→").pop().trim())}</span><svg viewBox="0 0 600 16" preserveAspectRatio="none">${bars}${outageRects}</svg></div>`);
          }
          if ($("lanes")) $("lanes").innerHTML = lanes.join("");
          renderChart(start, end, outages);
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
          case "open": case "close": case "link": case "partition": case "heal": case "toxic-added": case "toxic-updated": case "toxic-removed": refresh(); break;
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
              if (state.followedSince == null) state.followedSince = performance.now();
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

        // The record's switch is on the page only while a record runs.
        function showRecord(paused) {
          state.paused = paused;
          $("record").textContent = paused ? "Resume record" : "Pause record";
          $("record-state").textContent = paused ? "record paused" : "recording";
          $("record-state").className = "dot " + (paused ? "off" : "on");
        }
        if ($("record")) $("record").addEventListener("click", async () => { const answer = await act("record", "POST", "/record", { paused: !state.paused }); if (answer) showRecord(answer.paused); });

        $("switch").addEventListener("submit", (event) => { event.preventDefault(); act("switch", "POST", p() + "/profile", { profile: $("profiles").value, seed: Number($("seed").value) }); });
        $("outage").addEventListener("click", () => act("outage", "POST", p() + "/outage", { seconds: Number($("outage-seconds").value) }));
        $("handover").addEventListener("click", () => act("handover", "POST", p() + "/outage", { seconds: Number($("outage-seconds").value), kind: "handover" }));
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
        $("proxy").addEventListener("change", () => { state.proxy = $("proxy").value; state.followedSince = null; state.seconds.clear(); state.lanes.clear(); state.outages = []; state.streamId++; follow(state.streamId); refresh(); });

        (async () => {
          try { await loadProxies(); } catch (error) { say(error.message, true); return; }
          await refresh().catch((error) => say(error.message, true));
          state.streamId++;
          follow(state.streamId);
          setInterval(() => refresh().catch((error) => say(error.message, true)), 1000);
          setInterval(render, 1000);
        })();
        """#
}
