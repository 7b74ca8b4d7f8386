// sudoku-lab replay: steps through recorded search events.
//
// The data (script#replay-data) is written by src/replay.rs; its module
// documentation describes the event arrays. This script replays events onto
// the board exactly as `trace::Position` does in Rust, and words them exactly
// as `trace::Event::describe`; tests/replay_browser.rs checks both in a
// headless browser. No network, no libraries: plain DOM and SVG.
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const N = data.side;
  const B = data.box_size;
  const CELLS = N * N;
  const SVG = "http://www.w3.org/2000/svg";
  const KINDS = ["row", "column", "box"];
  const EMPTY = 0, GIVEN = 1, PLACED = 2, FORCED = 3;
  const FILL_NAMES = ["empty", "given", "placed", "forced"];
  const COUNTERS = ["nodes", "placements", "backtracks", "probes", "guesses", "dead_ends", "forced", "depth"];

  // ---- Geometry and words (the same as board.rs and trace.rs) ----
  const rowOf = (c) => Math.floor(c / N);
  const colOf = (c) => c % N;
  const cellName = (c) => "r" + (rowOf(c) + 1) + "c" + (colOf(c) + 1);
  const unitName = (kind, i) => KINDS[kind] + " " + (i + 1);

  function unitCells(kind, i) {
    const out = [];
    for (let k = 0; k < N; k++) {
      if (kind === 0) out.push(i * N + k);
      else if (kind === 1) out.push(k * N + i);
      else {
        const origin = Math.floor(i / B) * B * N + (i % B) * B;
        out.push(origin + Math.floor(k / B) * N + (k % B));
      }
    }
    return out;
  }

  // The largest f(x) over a list, by a loop: `Math.max(...list)` passes every
  // element as an argument and overflows the call stack on long lists (it
  // broke pages above about 130,000 events).
  function maxOf(list, f, start) {
    let m = start;
    for (const x of list) { const v = f(x); if (v > m) m = v; }
    return m;
  }

  function bits(mask) {
    const out = [];
    for (let b = 0; b < 32; b++) if (mask & (1 << b)) out.push(b);
    return out;
  }

  const digitSet = (mask) => "{" + bits(mask).map((b) => b + 1).join(",") + "}";

  function digitList(mask) {
    const d = bits(mask).map((b) => String(b + 1));
    return d.length > 1 ? d.slice(0, -1).join(", ") + " and " + d[d.length - 1] : d.join("");
  }

  function chuteName(stack, i) {
    const what = stack ? "stack" : "band";
    const lines = stack ? "columns" : "rows";
    return what + " " + (i + 1) + " (" + lines + " " + (3 * i + 1) + "-" + (3 * i + 3) + ")";
  }

  // One event, decoded from its array.
  function decode(a) {
    const e = { kind: a[0], depth: a[1], dn: a[2], dp: a[3] };
    if (e.kind === 0) {
      Object.assign(e, { cell: a[4], digit: a[5], guess: a[6] === 1, branch: a[7] });
      if (e.branch === 1) e.digits = a[8];
      if (e.branch === 3) Object.assign(e, { digits: a[8], next: a[9], ties: a[10] });
      if (e.branch === 2) Object.assign(e, { unitKind: a[8], unit: a[9], places: a[10] });
    } else if (e.kind === 1) {
      Object.assign(e, { cell: a[4], digit: a[5] });
    } else if (e.kind === 2) {
      Object.assign(e, { cell: a[4], digit: a[5], reason: a[6] });
      if (e.reason === 2) Object.assign(e, { unitKind: a[7], unit: a[8] });
      if (e.reason === 3) Object.assign(e, { band: a[7], unitKind: a[8], unit: a[9] });
    } else if (e.kind === 3) {
      e.why = a[4];
      if (e.why === 1) e.cell = a[5];
      if (e.why === 2) Object.assign(e, { unitKind: a[5], unit: a[6], digit: a[7] });
      if (e.why === 3) Object.assign(e, { unitKind: a[5], unit: a[6], cell: a[7], digits: a[8] });
      if (e.why === 4) Object.assign(e, { stack: a[5] === 1, chute: a[6], digit: a[7] });
    }
    return e;
  }

  // The words of trace::Event::describe.
  function describe(e) {
    if (e.kind === 0) {
      let s = "place " + cellName(e.cell) + " = " + e.digit;
      if (e.branch === 1 || e.branch === 3) {
        if (bits(e.digits).length === 1) {
          s += "  (only candidate)";
        } else {
          s += "  (guess from " + digitSet(e.digits);
          if (e.branch === 1) s += ")";
          else if (e.next === 0 && e.ties === 0) s += "; the last empty cell)";
          else if (e.ties === 0) s += "; fewest: next best " + e.next + ")";
          else s += "; fewest, tied with " + e.ties + ": first in order)";
        }
      } else if (e.branch === 2) {
        const cells = unitCells(e.unitKind, e.unit).filter((_, i) => e.places & (1 << i)).map(cellName);
        s += cells.length === 1
          ? "  (only place for " + e.digit + " in " + unitName(e.unitKind, e.unit) + ")"
          : "  (guess: " + e.digit + " can go in " + cells.join(",") + " of " + unitName(e.unitKind, e.unit) + ")";
      } else if (e.guess) {
        s += "  (guess)";
      }
      return s;
    }
    if (e.kind === 1) return "undo  " + cellName(e.cell) + " = " + e.digit;
    if (e.kind === 2) {
      const why = e.reason === 1 ? "  (naked single)"
        : e.reason === 2 ? "  (hidden single in " + unitName(e.unitKind, e.unit) + ")"
        : e.reason === 3 ? "  (band filter: locked candidates in band " + (e.band + 1) + " leave one place in " + unitName(e.unitKind, e.unit) + ")"
        : "";
      return "force " + cellName(e.cell) + " = " + e.digit + why;
    }
    if (e.kind === 3) {
      let why = "the strategy gave no reason";
      if (e.why === 1) why = cellName(e.cell) + " has no candidate";
      if (e.why === 2) why = e.digit + " has no place in " + unitName(e.unitKind, e.unit);
      if (e.why === 3) {
        why = digitList(e.digits) + (bits(e.digits).length === 2 ? " both" : " all") + " need " +
          cellName(e.cell) + " in " + unitName(e.unitKind, e.unit);
      }
      if (e.why === 4) why = e.digit + " has no consistent place in " + chuteName(e.stack, e.chute);
      return "dead end: " + why;
    }
    return "solution";
  }

  // What the current event looked at: the candidate set, the unit, the failure.
  function detail(e, lane) {
    if (!e) return "Givens only: the search has not started.";
    if (e.kind === 0 && (e.branch === 1 || e.branch === 3)) {
      const ds = bits(e.digits).map((b) => b + 1);
      let why = "";
      if (e.branch === 3) {
        why = e.next === 0 && e.ties === 0
          ? " It was the last empty cell."
          : e.ties === 0
            ? " Why this cell: it had the fewest candidates, " + ds.length + "; the next best cell had " + e.next + "."
            : " Why this cell: " + (e.ties + 1) + " cells had the fewest candidates, " + ds.length + "; it is the first in reading order.";
      }
      return cellName(e.cell) + " had candidates " + digitSet(e.digits) + ": trying " + e.digit +
        " (" + ordinal(ds.indexOf(e.digit) + 1) + " of " + ds.length + ")." + why;
    }
    if (e.kind === 0 && e.branch === 2) {
      const cells = unitCells(e.unitKind, e.unit).filter((_, i) => e.places & (1 << i));
      return e.digit + " could go in " + cells.map(cellName).join(", ") + " (" +
        unitName(e.unitKind, e.unit) + "): trying " + cellName(e.cell) +
        " (" + ordinal(cells.indexOf(e.cell) + 1) + " of " + cells.length + ")";
    }
    if (e.kind === 0) return e.guess ? "A guess (the strategy does not list its options)." : "";
    if (e.kind === 1) {
      return lane.cleared > 1
        ? "Undone, with the " + (lane.cleared - 1) + " cell(s) forced since it was placed."
        : "Undone: the next candidate is tried, or the search backs up further.";
    }
    if (e.kind === 2 && e.reason === 1) return cellName(e.cell) + " has one candidate left: " + e.digit + ".";
    if (e.kind === 2 && e.reason === 3) {
      return "The digit's places in band " + (e.band + 1) + " must use one box per row (locked candidates): " +
        e.digit + " is left with one place in " + unitName(e.unitKind, e.unit) + ", " + cellName(e.cell) + ".";
    }
    if (e.kind === 2 && e.reason === 2) {
      return e.digit + " has one place left in " + unitName(e.unitKind, e.unit) + ": " + cellName(e.cell) + ".";
    }
    if (e.kind === 3) return "Nothing here can work: the search backs up.";
    if (e.kind === 4) {
      const same = lane.data.solution && lane.values.every((v, i) => v === lane.data.solution[i]);
      return "Every cell is filled" + (same ? " (the verified solution)." : ".");
    }
    return "";
  }

  function ordinal(k) {
    return k === 1 ? "1st" : k === 2 ? "2nd" : k === 3 ? "3rd" : k + "th";
  }

  // Cells to mark for an event: the current cell, a unit, what failed.
  function marks(e) {
    const m = { current: -1, unit: [], failed: [] };
    if (!e) return m;
    if (e.kind <= 2) m.current = e.cell;
    if ((e.kind === 0 && e.branch === 2) || (e.kind === 2 && e.reason >= 2)) m.unit = unitCells(e.unitKind, e.unit);
    if (e.kind === 3) {
      if (e.why === 1) m.failed = [e.cell];
      if (e.why === 2) m.failed = unitCells(e.unitKind, e.unit);
      if (e.why === 3) { m.unit = unitCells(e.unitKind, e.unit); m.failed = [e.cell]; m.current = e.cell; }
      if (e.why === 4) {
        for (let k = 0; k < 3; k++) m.failed.push(...unitCells(e.stack ? 1 : 0, 3 * e.chute + k));
      }
    }
    return m;
  }

  // ---- One strategy's replay ----
  class Lane {
    constructor(laneData, section) {
      this.data = laneData;
      this.section = section;
      this.events = laneData.events.map(decode);
      this.totals = Object.fromEntries(laneData.totals);
      this.buildBoard();
      this.buildStrips();
      this.reset();
    }

    reset() {
      this.values = data.givens.slice();
      this.fills = data.givens.map((v) => (v ? GIVEN : EMPTY));
      this.path = [];
      this.applied = 0;
      this.cleared = 0;
      this.count = { nodes: 0, placements: 0, backtracks: 0, probes: 0, guesses: 0, dead_ends: 0, forced: 0, depth: 0 };
    }

    fill(cell, digit, how) {
      this.values[cell] = digit;
      this.fills[cell] = how;
      this.path.push([cell, how]);
    }

    clear(cell) {
      if (this.fills[cell] !== GIVEN) {
        this.values[cell] = 0;
        this.fills[cell] = EMPTY;
      }
    }

    // trace::Position::apply, plus the counters.
    apply(e) {
      const c = this.count;
      c.nodes += e.dn;
      c.probes += e.dp;
      this.cleared = 0;
      if (e.kind === 0) {
        this.fill(e.cell, e.digit, PLACED);
        c.placements++;
        if (e.guess) c.guesses++;
      } else if (e.kind === 2) {
        this.fill(e.cell, e.digit, FORCED);
        c.forced++;
      } else if (e.kind === 1) {
        c.backtracks++;
        let found = false;
        while (this.path.length) {
          const [cell, how] = this.path.pop();
          this.clear(cell);
          this.cleared++;
          if (cell === e.cell && how === PLACED) { found = true; break; }
        }
        if (!found) this.clear(e.cell);
      } else if (e.kind === 3) {
        c.dead_ends++;
      }
      c.depth = c.placements - c.backtracks;
      this.applied++;
    }

    seek(n) {
      n = Math.max(0, Math.min(n, this.events.length));
      if (n < this.applied) this.reset();
      while (this.applied < n) this.apply(this.events[this.applied]);
    }

    current() {
      return this.applied > 0 ? this.events[this.applied - 1] : null;
    }

    buildBoard() {
      const table = document.createElement("table");
      table.className = "grid size-" + N;
      const caption = document.createElement("caption");
      caption.className = "visually-hidden";
      caption.textContent = this.data.strategy + ": the board (rows 1 to " + N + ")";
      table.appendChild(caption);
      this.cells = [];
      for (let r = 0; r < N; r++) {
        const tr = document.createElement("tr");
        for (let c = 0; c < N; c++) {
          const td = document.createElement("td");
          const i = r * N + c;
          td.dataset.cell = String(i);
          td.title = cellName(i);
          if (c % B === 0) td.classList.add("box-left");
          if (r % B === 0) td.classList.add("box-top");
          tr.appendChild(td);
          this.cells.push(td);
        }
        table.appendChild(tr);
      }
      this.section.querySelector(".board").appendChild(table);
      this.shown = new Array(CELLS).fill(null);
    }

    buildStrips() {
      const W = 600, H = 70;
      const events = this.events;
      let deepest = 1;
      for (const [, hi] of this.data.over_time) deepest = Math.max(deepest, hi);
      for (const e of events) deepest = Math.max(deepest, e.depth + 1);
      const y = (d) => (H - 2 - (d / deepest) * (H - 6)).toFixed(1);
      const strip = this.section.querySelector(".strip");
      // Depth after each kept event, min/max per pixel column.
      const kept = svg("svg", { viewBox: "0 0 " + W + " " + (H + 14), class: "kept", role: "img" });
      const label = events.length
        ? "Depth over the " + events.length + " events kept: deepest " + maxOf(events, (e) => e.depth, 0) + "."
        : "No events kept.";
      kept.appendChild(svg("title", {}, label));
      kept.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }));
      if (events.length) {
        const cols = Math.min(W, events.length);
        let d = "";
        for (let x = 0; x < cols; x++) {
          const from = Math.floor((x * events.length) / cols);
          const to = Math.max(from + 1, Math.floor(((x + 1) * events.length) / cols));
          let lo = Infinity, hi = -Infinity;
          for (let i = from; i < to; i++) { lo = Math.min(lo, events[i].depth); hi = Math.max(hi, events[i].depth); }
          const px = ((x + 0.5) * W) / cols;
          d += "M" + px.toFixed(1) + " " + y(lo) + "V" + (Number(y(hi)) - 1).toFixed(1);
        }
        kept.appendChild(svg("path", { d, class: "depth-line" }));
      }
      this.cursor = svg("line", { x1: 0, x2: 0, y1: 0, y2: H, class: "cursor" });
      kept.appendChild(this.cursor);
      kept.appendChild(svg("text", { x: 2, y: H + 12 }, "depth 0-" + deepest + " over the events kept"));
      strip.appendChild(kept);
      // The whole search, when it is longer than what is kept.
      const total = this.data.total_events;
      if (total > events.length && this.data.over_time.length) {
        const whole = svg("svg", { viewBox: "0 0 " + W + " " + (H + 14), class: "whole", role: "img" });
        whole.appendChild(svg("title", {}, "Depth over the whole search of " + total + " events, " +
          this.data.over_time_width + " events per column: shallowest and deepest."));
        whole.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }));
        const n = this.data.over_time.length;
        const width = this.data.over_time_width;
        let d = "";
        this.data.over_time.forEach(([lo, hi], k) => {
          const px = ((k * width + width / 2) / total) * W;
          d += "M" + Math.min(px, W).toFixed(1) + " " + y(lo) + "V" + (Number(y(hi)) - 1).toFixed(1);
        });
        whole.appendChild(svg("path", { d, class: "depth-band" }));
        const edge = (events.length / total) * W;
        whole.appendChild(svg("rect", { x: 0, y: 0, width: Math.max(edge, 1).toFixed(1), height: H, class: "kept-part" }));
        whole.appendChild(svg("text", { x: 2, y: H + 12 }, "whole search (" + n + " columns); shaded: the part kept"));
        strip.appendChild(whole);
      }
      // Nodes per depth, at most 100 bars.
      const hist = this.data.histogram;
      const bars = this.section.querySelector(".bars");
      const group = Math.max(1, Math.ceil(hist.length / 100));
      const sums = [];
      for (let i = 0; i < hist.length; i += group) sums.push([i, Math.min(i + group, hist.length) - 1, hist.slice(i, i + group).reduce((a, b) => a + b, 0)]);
      const top = maxOf(sums, (s) => s[2], 1);
      const h = svg("svg", { viewBox: "0 0 " + W + " " + (H + 14), role: "img" });
      h.appendChild(svg("title", {}, "Nodes per depth over the whole search, depths 0 to " + (hist.length - 1) + "."));
      const bw = W / Math.max(1, sums.length);
      for (const [lo, hi, n] of sums) {
        const bh = (n / top) * (H - 4);
        const bar = svg("rect", { x: (lo / group) * bw, y: H - bh, width: Math.max(bw * 0.85, 0.5), height: bh, class: "bar" });
        bar.appendChild(svg("title", {}, "depth " + (lo === hi ? lo : lo + "-" + hi) + ": " + n.toLocaleString("en") + " nodes"));
        h.appendChild(bar);
      }
      h.appendChild(svg("text", { x: 2, y: H + 12 }, "depth 0 → " + (hist.length - 1) + "; tallest bar " + top.toLocaleString("en") + " nodes"));
      bars.appendChild(h);
    }

    render() {
      const e = this.current();
      const m = marks(e);
      const unit = new Set(m.unit), failed = new Set(m.failed);
      for (let i = 0; i < CELLS; i++) {
        const state = this.values[i] + "/" + this.fills[i] + "/" + (i === m.current ? 1 : 0) +
          (unit.has(i) ? 1 : 0) + (failed.has(i) ? 1 : 0);
        if (this.shown[i] === state) continue;
        this.shown[i] = state;
        const td = this.cells[i];
        td.textContent = this.values[i] ? String(this.values[i]) : "";
        td.dataset.v = String(this.values[i]);
        td.dataset.fill = FILL_NAMES[this.fills[i]];
        td.classList.toggle("given", this.fills[i] === GIVEN);
        td.classList.toggle("placed", this.fills[i] === PLACED);
        td.classList.toggle("forced", this.fills[i] === FORCED);
        td.classList.toggle("current", i === m.current);
        td.classList.toggle("unit", unit.has(i));
        td.classList.toggle("failed", failed.has(i));
      }
      const s = this.section;
      s.dataset.step = String(this.applied);
      s.querySelector(".board table").classList.toggle("solved", !!e && e.kind === 4);
      const where = this.applied
        ? "step " + this.applied.toLocaleString("en") + " of " + this.events.length.toLocaleString("en") +
          (this.data.total_events > this.events.length ? " kept" : "") + " · at depth " + e.depth + ": "
        : "step 0: ";
      const p = s.querySelector(".event");
      p.textContent = "";
      p.appendChild(text("span", "where", where));
      p.appendChild(text("span", "what", e ? describe(e) : "start"));
      p.classList.toggle("dead", !!e && e.kind === 3);
      if (this.applied === this.events.length && this.events.length < this.data.total_events) {
        p.appendChild(text("span", "more", " — the search goes on for " +
          (this.data.total_events - this.events.length).toLocaleString("en") + " more events (not kept; see the totals)"));
      }
      s.querySelector(".options").textContent = detail(e, this);
      for (const name of COUNTERS) {
        const td = s.querySelector('tr[data-counter="' + name + '"] .now');
        if (td) td.textContent = this.count[name].toLocaleString("en");
      }
      const x = this.events.length ? ((this.applied - 0.5) / this.events.length) * 600 : 0;
      this.cursor.setAttribute("x1", Math.max(0, x).toFixed(1));
      this.cursor.setAttribute("x2", Math.max(0, x).toFixed(1));
    }
  }

  function svg(tag, attrs, content) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (content !== undefined) el.textContent = content;
    return el;
  }

  function text(tag, cls, content) {
    const el = document.createElement(tag);
    el.className = cls;
    el.textContent = content;
    return el;
  }

  // ---- The page: all lanes step together ----
  const lanes = data.lanes.map((l, i) => new Lane(l, document.querySelector('.lane[data-lane="' + i + '"]')));
  const longest = maxOf(lanes, (l) => l.events.length, 0);
  const $ = (id) => document.getElementById(id);
  const controls = $("controls");
  const input = $("step");
  const scrub = $("scrub");
  const playButton = $("play");
  const speed = $("speed");
  let step = 0;
  let timer = null;

  input.max = String(longest);
  scrub.max = String(longest);
  $("step-of").textContent = "of " + longest.toLocaleString("en") +
    (lanes.length > 1 ? " (searches step together; each stops at its own end)" : "");

  function setStep(n, fromHash) {
    n = Math.max(0, Math.min(Number.isFinite(n) ? Math.floor(n) : 0, longest));
    step = n;
    for (const lane of lanes) { lane.seek(n); lane.render(); }
    input.value = String(n);
    scrub.value = String(n);
    if (!fromHash) {
      try { history.replaceState(null, "", "#step=" + n); } catch (_) { /* file:// in some browsers */ }
    }
    if (n >= longest) pause();
  }

  function play() {
    if (timer !== null || longest === 0) return;
    if (step >= longest) setStep(0);
    const rate = Number(speed.value);
    const interval = Math.max(16, 1000 / rate);
    const per = Math.max(1, Math.round((rate * interval) / 1000));
    timer = setInterval(() => setStep(step + per), interval);
    playButton.textContent = "⏸ Pause";
    playButton.setAttribute("aria-label", "Pause");
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ Play";
    playButton.setAttribute("aria-label", "Play");
  }

  function toggle() { timer === null ? play() : pause(); }

  function changeSpeed(by) {
    const i = Math.max(0, Math.min(speed.options.length - 1, speed.selectedIndex + by));
    speed.selectedIndex = i;
    if (timer !== null) { pause(); play(); }
  }

  // Jumps: to the next step at which some search makes a guess, meets a dead
  // end, or finds its solution (the earliest over the searches shown).
  const IS = {
    guess: (e) => e.kind === 0 && e.guess,
    deadEnd: (e) => e.kind === 3,
    solution: (e) => e.kind === 4,
  };
  function nextStep(is) {
    let best = Infinity;
    for (const lane of lanes) {
      // events[i] is applied at step i + 1.
      for (let i = step; i < lane.events.length && i + 1 < best; i++) {
        if (is(lane.events[i])) { best = i + 1; break; }
      }
    }
    return best;
  }
  function jump(is) {
    const n = nextStep(is);
    if (n !== Infinity) { pause(); setStep(n); }
  }

  $("first").addEventListener("click", () => setStep(0));
  $("next-guess").addEventListener("click", () => jump(IS.guess));
  $("next-dead-end").addEventListener("click", () => jump(IS.deadEnd));
  $("next-solution").addEventListener("click", () => jump(IS.solution));
  $("back").addEventListener("click", () => setStep(step - 1));
  $("forward").addEventListener("click", () => setStep(step + 1));
  $("last").addEventListener("click", () => setStep(longest));
  playButton.addEventListener("click", toggle);
  speed.addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
  input.addEventListener("change", () => setStep(Number(input.value)));
  scrub.addEventListener("input", () => setStep(Number(scrub.value)));

  document.addEventListener("keydown", (ev) => {
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 100, PageUp: -100 };
    if (ev.key in moves) setStep(step + moves[ev.key]);
    else if (ev.key === "Home") setStep(0);
    else if (ev.key === "End") setStep(longest);
    else if (ev.key === " " || ev.key === "k") toggle();
    else if (ev.key === "g") jump(IS.guess);
    else if (ev.key === "d") jump(IS.deadEnd);
    else if (ev.key === "s") jump(IS.solution);
    else if (ev.key === "+" || ev.key === "=") changeSpeed(1);
    else if (ev.key === "-") changeSpeed(-1);
    else return;
    ev.preventDefault();
  });

  // `#step=N` opens the page at step N. `&keys=ArrowRight,ArrowLeft` then
  // presses those keys (what the browser test uses to drive the controls).
  function fromHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const n = Number(params.get("step"));
    setStep(Number.isFinite(n) ? n : 0, true);
    const keys = params.get("keys");
    if (keys) {
      for (const key of keys.split(",")) document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    }
  }

  window.addEventListener("hashchange", fromHash);
  controls.hidden = false;
  fromHash();
  document.body.dataset.ready = "1";
})();
