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
  const boxOf = (c) => Math.floor(rowOf(c) / B) * B + Math.floor(colOf(c) / B);
  // The tree view: rows opened at first, most rows before it folds back to
  // the current path, nodes shown at each end of a folded chain.
  const TREE_ROWS_AT_FIRST = 40, TREE_OPEN_MOST = 60, CHAIN_ENDS = 3;
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

  // counters::WAYS: way i puts the digit, in a band, in row r of the band
  // inside box WAYS[i][r] of the band; in a stack, in its box k (band k)
  // inside column WAYS[i][k] of the stack.
  const WAYS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

  // The three lines of a way, as trace::Event::describe names them, with
  // the cells each may hold the digit in ([name, cells]).
  function wayParts(stack, i, way) {
    const w = WAYS[way % WAYS.length];
    const out = [];
    for (let k = 0; k < 3; k++) {
      if (stack) {
        const col = 3 * i + w[k], box = 3 * k + i;
        out.push(["c" + (col + 1) + " in box " + (box + 1), [0, 1, 2].map((r) => (3 * k + r) * N + col)]);
      } else {
        const row = 3 * i + k, box = 3 * i + w[k];
        out.push(["r" + (row + 1) + " in box " + (box + 1), [0, 1, 2].map((c) => row * N + 3 * w[k] + c)]);
      }
    }
    return out;
  }

  // Way `way` is the nth of the node's `ways` (a mask over WAYS).
  const wayNth = (e) => bits(e.ways & ((1 << (e.way % WAYS.length)) - 1)).length + 1;

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
      if (e.why === 5) Object.assign(e, { unitKind: a[5], unit: a[6], inBox: a[7], digits: a[8] });
    } else if (e.kind === 5) {
      Object.assign(e, { stack: a[4] === 1, chute: a[5], digit: a[6], way: a[7], ways: a[8], guess: a[9] === 1 });
    } else if (e.kind === 6) {
      Object.assign(e, { stack: a[4] === 1, chute: a[5], digit: a[6], way: a[7] });
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
      if (e.why === 5) {
        why = digitList(e.digits) + " all need the 3 cells of " + unitName(e.unitKind, e.unit) + " in box " + (e.inBox + 1);
      }
      return "dead end: " + why;
    }
    if (e.kind === 5) {
      let s = "way   " + e.digit + " in " + chuteName(e.stack, e.chute) + ": " +
        wayParts(e.stack, e.chute, e.way).map((p) => p[0]).join(", ");
      if (e.guess) s += "  (guess: way " + wayNth(e) + " of " + bits(e.ways).length + ")";
      return s;
    }
    if (e.kind === 6) return "undo  way of " + e.digit + " in " + chuteName(e.stack, e.chute);
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
    if (e.kind === 5) {
      const n = bits(e.ways).length;
      return e.digit + " has " + n + " way" + (n === 1 ? "" : "s") + " through " + chuteName(e.stack, e.chute) +
        " (one box per " + (e.stack ? "column" : "row") + "): trying way " + wayNth(e) + " of " + n +
        ". No cell is written; " + e.digit + " is kept to the outlined cells, and the rules go on from there.";
    }
    if (e.kind === 6) {
      return lane.cleared > 0
        ? "The way is undone, with the " + lane.cleared + " cell(s) forced under it."
        : "The way is undone: the next way is tried, or the search backs up further.";
    }
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
      if (e.why === 5) {
        m.unit = unitCells(e.unitKind, e.unit);
        const box = new Set(unitCells(2, e.inBox));
        m.failed = m.unit.filter((c) => box.has(c));
      }
    }
    if (e.kind === 5) for (const [, cells] of wayParts(e.stack, e.chute, e.way)) m.unit.push(...cells);
    return m;
  }

  // ---- One strategy's replay ----
  class Lane {
    constructor(laneData, section) {
      this.data = laneData;
      this.section = section;
      this.events = laneData.events.map(decode);
      this.totals = Object.fromEntries(laneData.totals);
      // Nodes entered after the first k events (cnodes[0] = 0): what lanes
      // aligned by node are stepped by.
      this.cnodes = new Float64Array(this.events.length + 1);
      for (let i = 0; i < this.events.length; i++) this.cnodes[i + 1] = this.cnodes[i] + this.events[i].dn;
      this.buildTree();
      this.treeBox = section.querySelector(".tree-box");
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
      // Ways on the path (a way is a level of depth, not a placement).
      this.ways = 0;
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
          const entry = this.path.pop();
          if (entry === null) continue;
          const [cell, how] = entry;
          this.clear(cell);
          this.cleared++;
          if (cell === e.cell && how === PLACED) { found = true; break; }
        }
        if (!found) this.clear(e.cell);
      } else if (e.kind === 3) {
        c.dead_ends++;
      } else if (e.kind === 5) {
        // A way writes no cell: a mark on the path, cleared back to by its undo.
        this.path.push(null);
        this.ways++;
        if (e.guess) c.guesses++;
      } else if (e.kind === 6) {
        while (this.path.length) {
          const entry = this.path.pop();
          if (entry === null) break;
          this.clear(entry[0]);
          this.cleared++;
        }
        this.ways--;
      }
      c.depth = c.placements - c.backtracks + this.ways;
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

    // The most events whose nodes so far are at most n (binary search).
    stepAtNodes(n) {
      let lo = 0, hi = this.events.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.cnodes[mid] <= n) lo = mid; else hi = mid - 1;
      }
      return lo;
    }

    // Pencil marks: the digits no filled peer holds, per empty cell (a
    // mask, bit d-1 for digit d; 0 for a filled cell).
    candidates() {
      const rows = new Array(N).fill(0), cols = new Array(N).fill(0), boxes = new Array(N).fill(0);
      for (let i = 0; i < CELLS; i++) {
        const v = this.values[i];
        if (!v) continue;
        const bit = 1 << (v - 1);
        rows[rowOf(i)] |= bit;
        cols[colOf(i)] |= bit;
        boxes[boxOf(i)] |= bit;
      }
      const all = N >= 31 ? -1 : (1 << N) - 1;
      const out = new Array(CELLS);
      for (let i = 0; i < CELLS; i++) {
        out[i] = this.values[i] ? 0 : all & ~(rows[rowOf(i)] | cols[colOf(i)] | boxes[boxOf(i)]);
      }
      return out;
    }

    // The search tree of the events kept, as in trace::Tree: node 0 is the
    // root, each placement enters a child of the current node, an undo goes
    // back to its parent. Arrays, not objects: up to MAX_STEPS nodes.
    buildTree() {
      const t = { parent: [-1], step: [0], depth: [0], kids: [[]], leaf: [0], forced: [0], size: [], event: [null] };
      const at = new Int32Array(this.events.length + 1);
      const path = [0];
      this.events.forEach((e, i) => {
        const here = path[path.length - 1];
        if (e.kind === 0 || e.kind === 5) {
          const id = t.parent.length;
          t.parent.push(here); t.step.push(i + 1); t.depth.push(e.depth + 1);
          t.kids.push([]); t.leaf.push(0); t.forced.push(0); t.event.push(e);
          t.kids[here].push(id);
          path.push(id);
        } else if (e.kind === 1 || e.kind === 6) {
          if (path.length > 1) path.pop();
        } else if (e.kind === 2) t.forced[here]++;
        else if (e.kind === 3) t.leaf[here] = 1;
        else if (e.kind === 4) t.leaf[here] = 2;
        at[i + 1] = path[path.length - 1];
      });
      const n = t.parent.length;
      t.size = new Int32Array(n).fill(1);
      // Children come after their parent: sizes add up from the end.
      for (let id = n - 1; id > 0; id--) t.size[t.parent[id]] += t.size[id];
      t.at = at;
      this.tree = t;
      this.open = new Set();
      this.unfolded = new Set();
      this.treeShown = -1;
      this.resetOpen();
    }

    // Opens branch points breadth-first from the root while the rows stay few.
    resetOpen() {
      const t = this.tree;
      this.open.clear();
      let rows = 1;
      const queue = [0];
      while (queue.length && rows < TREE_ROWS_AT_FIRST) {
        const end = this.chainEnd(queue.shift());
        const kids = t.kids[end];
        if (kids.length < 2) continue;
        this.open.add(end);
        rows += kids.length;
        queue.push(...kids);
      }
    }

    chainEnd(id) {
      const kids = this.tree.kids;
      while (kids[id].length === 1) id = kids[id][0];
      return id;
    }

    // The current node's ancestors (itself included).
    ancestors(id) {
      const out = [];
      for (; id >= 0; id = this.tree.parent[id]) out.push(id);
      return out;
    }

    nodeLabel(id) {
      const t = this.tree;
      if (id === 0) return "start";
      const e = t.event[id];
      if (e.kind === 5) return e.digit + "@" + (e.stack ? "s" : "b") + (e.chute + 1) + " way " + wayNth(e);
      return cellName(e.cell) + "=" + e.digit;
    }

    nodeButton(id) {
      const t = this.tree;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "node";
      const e = t.event[id];
      if (e && e.guess) b.classList.add("guess");
      if (t.leaf[id] === 1) b.classList.add("dead");
      if (t.leaf[id] === 2) b.classList.add("sol");
      b.dataset.node = String(id);
      b.dataset.step = String(t.step[id]);
      let label = this.nodeLabel(id);
      if (t.forced[id]) label += " +" + t.forced[id];
      if (t.leaf[id] === 1) label += " ✗";
      if (t.leaf[id] === 2) label += " ✓";
      b.textContent = label;
      b.title = (id === 0 ? "the givens" : describe(e)) + " · depth " + t.depth[id] + " · step " + t.step[id] +
        (t.forced[id] ? " · " + t.forced[id] + " forced" : "") + " (click: show this position)";
      this.buttons.set(id, b);
      return b;
    }

    // One row: a chain of only children from `id`, folded in the middle
    // when long, then the branch point's children (when open).
    treeRow(id, li) {
      const t = this.tree;
      const chain = [id];
      while (t.kids[chain[chain.length - 1]].length === 1) chain.push(t.kids[chain[chain.length - 1]][0]);
      const row = document.createElement("div");
      row.className = "row";
      row.appendChild(text("span", "d", String(t.depth[id])));
      const show = chain.length > 2 * CHAIN_ENDS + 1 && !this.unfolded.has(id)
        ? [...chain.slice(0, CHAIN_ENDS), null, ...chain.slice(-CHAIN_ENDS)]
        : chain;
      show.forEach((n, k) => {
        if (k) row.appendChild(text("span", "arrow", "→"));
        if (n === null) {
          const fold = document.createElement("button");
          fold.type = "button";
          fold.className = "fold";
          fold.dataset.unfold = String(id);
          fold.textContent = "… " + (chain.length - 2 * CHAIN_ENDS) + " more …";
          fold.title = "Show every node of this chain (each had one child)";
          row.appendChild(fold);
        } else row.appendChild(this.nodeButton(n));
      });
      li.appendChild(row);
      const end = chain[chain.length - 1];
      const kids = t.kids[end];
      if (kids.length < 2) return;
      const open = this.open.has(end);
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "toggle";
      toggle.dataset.toggle = String(end);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      toggle.textContent = (open ? "▾ " : "▸ ") + kids.length + " branches, " + (t.size[end] - 1).toLocaleString("en") + " nodes below";
      row.appendChild(toggle);
      if (!open) return;
      const ul = document.createElement("ul");
      for (const k of kids) {
        const child = document.createElement("li");
        this.treeRow(k, child);
        ul.appendChild(child);
      }
      li.appendChild(ul);
    }

    renderTree() {
      const box = this.section.querySelector(".tree");
      if (!box) return;
      box.textContent = "";
      this.buttons = new Map();
      const ul = document.createElement("ul");
      const li = document.createElement("li");
      this.treeRow(0, li);
      ul.appendChild(li);
      box.appendChild(ul);
      this.treeShown = -1;
    }

    // Makes the current node visible (opening its branch points and the
    // chain that hides it) and marks it. Skipped while the tree is closed.
    followTree() {
      if (!this.treeBox || !this.treeBox.open) return;
      const t = this.tree;
      const here = t.at[this.applied];
      if (!this.buttons) this.renderTree();
      if (here === this.treeShown && this.buttons.has(here)) return;
      let changed = false;
      if (this.open.size > TREE_OPEN_MOST) { this.resetOpen(); this.unfolded.clear(); changed = true; }
      for (const a of this.ancestors(here)) {
        if (t.kids[a].length >= 2 && !this.open.has(a)) { this.open.add(a); changed = true; }
      }
      if (changed) this.renderTree();
      if (!this.buttons.has(here)) {
        // Hidden in a folded chain: unfold the chain that holds it.
        let first = here;
        while (first > 0 && t.kids[t.parent[first]].length === 1) first = t.parent[first];
        this.unfolded.add(first);
        this.renderTree();
      }
      this.markHere();
    }

    markHere() {
      if (!this.buttons) return;
      const here = this.tree.at[this.applied];
      const old = this.section.querySelector(".tree .here");
      if (old) { old.classList.remove("here"); old.removeAttribute("aria-current"); }
      const now = this.buttons.get(here);
      if (now) {
        now.classList.add("here");
        now.setAttribute("aria-current", "step");
        // Keep it in sight inside the tree's own scroll box (not the page's).
        const box = this.section.querySelector(".tree");
        if (box && (now.offsetTop < box.scrollTop || now.offsetTop > box.scrollTop + box.clientHeight - 20)) {
          box.scrollTop = Math.max(0, now.offsetTop - box.clientHeight / 2);
        }
      }
      this.treeShown = here;
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
      const cands = this.candidates();
      for (let i = 0; i < CELLS; i++) {
        const state = this.values[i] + "/" + this.fills[i] + "/" + (i === m.current ? 1 : 0) +
          (unit.has(i) ? 1 : 0) + (failed.has(i) ? 1 : 0) + "/" + cands[i];
        if (this.shown[i] === state) continue;
        this.shown[i] = state;
        const td = this.cells[i];
        td.textContent = this.values[i] ? String(this.values[i]) : "";
        if (!this.values[i]) td.appendChild(pencil(cands[i]));
        td.dataset.v = String(this.values[i]);
        td.dataset.cands = String(cands[i]);
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
      s.dataset.node = String(this.tree.at[this.applied]);
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

  // A cell's pencil marks: one slot per digit in a B×B grid, the digits
  // still possible written in, the others left blank.
  function pencil(mask) {
    const grid = document.createElement("span");
    grid.className = "pm";
    grid.setAttribute("aria-label", mask ? "candidates " + digitSet(mask) : "no candidate");
    for (let d = 0; d < N; d++) {
      const slot = document.createElement("span");
      if (mask & (1 << d)) slot.textContent = String(d + 1);
      grid.appendChild(slot);
    }
    return grid;
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
  const $ = (id) => document.getElementById(id);
  const controls = $("controls");
  const input = $("step");
  const scrub = $("scrub");
  const playButton = $("play");
  const speed = $("speed");
  const alignBox = $("align");
  const guideButton = $("guide");
  const guideNote = $("guide-note");
  const pencilBox = $("pencil");
  // Lanes step together by event ("events") or by nodes entered ("nodes":
  // each search after the same work, however many events it records per
  // node). Side by side, by nodes is the default.
  let mode = lanes.length > 1 ? "nodes" : "events";
  let pos = 0;
  // One lane shown at an exact event (a tree node clicked, a jump, a
  // teaching moment) while the others stay aligned by node; the next move
  // clears it.
  let pin = null;
  let timer = null;
  let guided = false;
  let moments = [];
  let shownMoment = -1;

  const end = () => mode === "events"
    ? maxOf(lanes, (l) => l.events.length, 0)
    : maxOf(lanes, (l) => l.cnodes[l.events.length], 0);
  // The position of a lane's step k (its first k events) in the current mode.
  const posOf = (lane, k) => (mode === "events" ? k : lane.cnodes[k]);
  function stepOf(lane, i) {
    if (pin && pin.lane === i) return pin.step;
    return mode === "events" ? pos : lane.stepAtNodes(pos);
  }

  function setLimits() {
    const longest = end();
    input.max = String(longest);
    scrub.max = String(longest);
    $("pos-name").textContent = mode === "events" ? "Step" : "Nodes";
    $("step-of").textContent = "of " + longest.toLocaleString("en") + (mode === "events" ? " events" : " nodes") +
      (lanes.length < 2 ? ""
        : mode === "events" ? " (searches step together by event; each stops at its own end)"
          : " (each search is shown after the same number of nodes: the same work)");
  }

  function show(n, fromHash, pinned) {
    const longest = end();
    n = Math.max(0, Math.min(Number.isFinite(n) ? Math.floor(n) : 0, longest));
    pos = n;
    pin = pinned || null;
    lanes.forEach((lane, i) => { lane.seek(stepOf(lane, i)); lane.render(); lane.followTree(); });
    input.value = String(n);
    scrub.value = String(n);
    document.body.dataset.align = mode;
    document.body.dataset.pos = String(n);
    if (!fromHash) {
      try { history.replaceState(null, "", "#" + (mode === "events" ? "step" : "nodes") + "=" + n); } catch (_) { /* file:// in some browsers */ }
    }
    if (n >= longest) pause();
  }

  function setStep(n, fromHash) {
    shownMoment = -1;
    show(n, fromHash, null);
  }

  function play() {
    const longest = end();
    if (timer !== null || longest === 0) return;
    if (pos >= longest) setStep(0);
    const rate = Number(speed.value);
    const interval = Math.max(16, 1000 / rate);
    const per = Math.max(1, Math.round((rate * interval) / 1000));
    timer = setInterval(() => advance(per), interval);
    playButton.textContent = "⏸ Pause";
    playButton.setAttribute("aria-label", "Pause");
  }

  // One tick of play: `by` steps on, or to the next teaching moment first
  // when guided.
  function advance(by) {
    if (guided) {
      const k = nextMoment();
      if (k >= 0 && moments[k].pos <= pos + by) { stopAt(k); return; }
    }
    setStep(pos + by);
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

  // ---- Teaching moments (the guided mode) ----
  // Per search, the first of each: why a cell was chosen, a guess, a dead
  // end, a backtrack, the solution; one sentence each, in search order.
  function momentText(kinds, e, lane, i) {
    const who = lane.data.strategy + ", ";
    if (kinds.includes("guess")) {
      let s = who + "first guess: ";
      if (e.branch === 1 || e.branch === 3) {
        s += cellName(e.cell) + " has " + bits(e.digits).length + " candidates " + digitSet(e.digits);
        if (e.branch === 3) {
          s += e.next === 0 && e.ties === 0 ? ", and it is the last empty cell"
            : e.ties === 0 ? ", the fewest on the board (the next best cell has " + e.next + ")"
              : ", the fewest, tied with " + e.ties + " other cell(s) (the first in reading order is taken)";
        }
        s += ", so the search tries " + e.digit + " and will come back for the others if it fails.";
      } else if (e.branch === 2) {
        s += e.digit + " can go in " + bits(e.places).length + " places of " + unitName(e.unitKind, e.unit) +
          ", so the search tries " + cellName(e.cell) + " and will come back for the others if it fails.";
      } else if (e.kind === 5) {
        s += e.digit + " has " + bits(e.ways).length + " ways through " + chuteName(e.stack, e.chute) +
          " (one box per " + (e.stack ? "column" : "row") + "), so the search keeps " + e.digit +
          " to one of them, writing no cell, and will come back for the others if it fails.";
      } else {
        s += "the search writes " + e.digit + " in " + cellName(e.cell) + " without knowing it is right, and will come back if it fails.";
      }
      return s;
    }
    if (kinds.includes("why")) {
      const k = bits(e.digits).length;
      const rivals = e.next === 0 && e.ties === 0 ? "it is the last empty cell"
        : e.ties === 0 ? "the next best cell has " + e.next
          : e.ties + " other cell(s) have as few and it is the first in reading order";
      return who + "why this cell: the search takes the empty cell with the fewest candidates, and " +
        cellName(e.cell) + (k === 1 ? " has only one, " + e.digit : " has " + k) + " (" + rivals + ")" +
        (k === 1 ? ", so it is filled with no choice to make." : ".");
    }
    if (kinds.includes("dead")) {
      return who + "first dead end: " + describe(e).replace(/^dead end: /, "") +
        ", so nothing below this point can work and the search must go back.";
    }
    if (kinds.includes("undo") && e.kind === 6) {
      return who + "first backtrack: the search undoes its way of " + e.digit + " in " + chuteName(e.stack, e.chute) +
        " (and every cell forced under it) and tries the next way there, or backs up further.";
    }
    if (kinds.includes("undo")) {
      return who + "first backtrack: the search undoes " + cellName(e.cell) + " = " + e.digit +
        " (and every cell filled after it) and tries the next option there, or backs up further.";
    }
    return who + "solution: every cell is filled and no rule is broken, after " +
      lane.cnodes[i + 1].toLocaleString("en") + " nodes and " + (i + 1).toLocaleString("en") + " events.";
  }

  function computeMoments() {
    moments = [];
    lanes.forEach((lane, li) => {
      const seen = new Set();
      lane.events.forEach((e, i) => {
        const kinds = [];
        const first = (kind, yes) => { if (yes && !seen.has(kind)) { seen.add(kind); kinds.push(kind); } };
        first("why", e.kind === 0 && e.branch === 3);
        first("guess", (e.kind === 0 || e.kind === 5) && e.guess);
        first("dead", e.kind === 3);
        first("undo", e.kind === 1 || e.kind === 6);
        first("solution", e.kind === 4);
        if (kinds.length) {
          moments.push({ lane: li, step: i + 1, pos: posOf(lane, i + 1), kinds, text: momentText(kinds, e, lane, i) });
        }
      });
    });
    moments.sort((a, b) => a.pos - b.pos || a.lane - b.lane || a.step - b.step);
  }

  // The next moment after the position shown (after the moment shown, when
  // several fall on the same position).
  function nextMoment() {
    const at = shownMoment >= 0 && moments[shownMoment].pos === pos ? shownMoment : -1;
    for (let k = 0; k < moments.length; k++) {
      if (moments[k].pos > pos || (at >= 0 && k > at && moments[k].pos === pos)) return k;
    }
    return -1;
  }

  function stopAt(k) {
    const m = moments[k];
    pause();
    show(m.pos, false, mode === "nodes" || lanes.length === 1 ? { lane: m.lane, step: m.step } : null);
    shownMoment = k;
    guideNote.hidden = false;
    guideNote.textContent = m.text;
    guideNote.dataset.kinds = m.kinds.join(" ");
    guideNote.dataset.lane = String(m.lane);
    document.body.dataset.moment = String(k);
  }

  function setGuided(on) {
    guided = on;
    guideButton.setAttribute("aria-pressed", on ? "true" : "false");
    guideNote.hidden = !on;
    if (on) {
      guideNote.textContent = "Guided: the replay plays and stops at each teaching moment (" + moments.length +
        " here) with a sentence; press play (space) to go on, n for the next moment.";
      guideNote.dataset.kinds = "";
      play();
    } else pause();
  }

  function nextMomentNow() {
    if (!guided) { guided = true; guideButton.setAttribute("aria-pressed", "true"); }
    const k = nextMoment();
    if (k >= 0) stopAt(k);
  }

  // Jumps: to the next step at which some search makes a guess, meets a dead
  // end, or finds its solution (the earliest over the searches shown).
  const IS = {
    guess: (e) => (e.kind === 0 || e.kind === 5) && e.guess,
    deadEnd: (e) => e.kind === 3,
    solution: (e) => e.kind === 4,
  };
  function nextEvent(is) {
    let best = null;
    lanes.forEach((lane, li) => {
      // events[i] is applied at step i + 1.
      for (let i = lane.applied; i < lane.events.length; i++) {
        if (is(lane.events[i])) {
          const p = posOf(lane, i + 1);
          if (best === null || p < best.pos) best = { pos: p, lane: li, step: i + 1 };
          break;
        }
      }
    });
    return best;
  }
  function jump(is) {
    const b = nextEvent(is);
    if (b === null) return;
    pause();
    shownMoment = -1;
    show(b.pos, false, mode === "nodes" ? { lane: b.lane, step: b.step } : null);
  }

  function setAlign(to) {
    const lane = lanes[0];
    const k = lane ? lane.applied : 0;
    mode = to;
    alignBox.value = mode;
    computeMoments();
    setLimits();
    setStep(lane ? posOf(lane, k) : 0);
  }

  function applyPencil() {
    $("lanes").classList.toggle("no-pencil", !pencilBox.checked);
  }

  $("first").addEventListener("click", () => setStep(0));
  $("next-guess").addEventListener("click", () => jump(IS.guess));
  $("next-dead-end").addEventListener("click", () => jump(IS.deadEnd));
  $("next-solution").addEventListener("click", () => jump(IS.solution));
  $("back").addEventListener("click", () => setStep(pos - 1));
  $("forward").addEventListener("click", () => setStep(pos + 1));
  $("last").addEventListener("click", () => setStep(end()));
  playButton.addEventListener("click", toggle);
  guideButton.addEventListener("click", () => setGuided(!guided));
  $("next-moment").addEventListener("click", nextMomentNow);
  speed.addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
  alignBox.addEventListener("change", () => setAlign(alignBox.value));
  pencilBox.addEventListener("change", applyPencil);
  input.addEventListener("change", () => setStep(Number(input.value)));
  scrub.addEventListener("input", () => setStep(Number(scrub.value)));

  // The tree views: a node shows its position (the board right after the
  // placement that entered it); toggles open and close branch points.
  $("lanes").addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("button");
    const section = b && b.closest(".lane");
    if (!section) return;
    const li = Number(section.dataset.lane);
    const lane = lanes[li];
    if (b.dataset.node !== undefined) {
      pause();
      shownMoment = -1;
      const k = Number(b.dataset.step);
      show(posOf(lane, k), false, mode === "nodes" ? { lane: li, step: k } : null);
    } else if (b.dataset.toggle !== undefined) {
      const id = Number(b.dataset.toggle);
      if (lane.open.has(id)) lane.open.delete(id); else lane.open.add(id);
      lane.renderTree();
      lane.markHere();
    } else if (b.dataset.unfold !== undefined) {
      lane.unfolded.add(Number(b.dataset.unfold));
      lane.renderTree();
      lane.markHere();
    }
  });
  for (const lane of lanes) lane.treeBox.addEventListener("toggle", () => lane.followTree());

  document.addEventListener("keydown", (ev) => {
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 100, PageUp: -100 };
    if (ev.key in moves) setStep(pos + moves[ev.key]);
    else if (ev.key === "Home") setStep(0);
    else if (ev.key === "End") setStep(end());
    else if (ev.key === " " || ev.key === "k") toggle();
    else if (ev.key === "g") jump(IS.guess);
    else if (ev.key === "d") jump(IS.deadEnd);
    else if (ev.key === "s") jump(IS.solution);
    else if (ev.key === "t") setGuided(!guided);
    else if (ev.key === "n") nextMomentNow();
    else if (ev.key === "p") { pencilBox.checked = !pencilBox.checked; applyPencil(); }
    else if (ev.key === "+" || ev.key === "=") changeSpeed(1);
    else if (ev.key === "-") changeSpeed(-1);
    else return;
    ev.preventDefault();
  });

  // `#step=N` opens the page at event N (lanes aligned by event), `#nodes=N`
  // after N nodes (aligned by node). Then, for tests and links: `pencil=0`
  // hides the pencil marks, `click=SELECTOR` clicks an element (a tree node)
  // and `keys=ArrowRight,g` presses keys, all through the page's own handlers.
  function fromHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (params.has("step")) mode = "events";
    else if (params.has("nodes")) mode = "nodes";
    alignBox.value = mode;
    computeMoments();
    setLimits();
    if (params.get("pencil") === "0") { pencilBox.checked = false; applyPencil(); }
    const n = Number(params.get(mode === "events" ? "step" : "nodes"));
    setStep(Number.isFinite(n) ? n : 0, true);
    const click = params.get("click");
    if (click) {
      let el = null;
      try { el = document.querySelector(click); } catch (_) { /* not a selector */ }
      document.body.dataset.clicked = el ? "1" : "0";
      if (el) el.click();
    }
    const keys = params.get("keys");
    if (keys) {
      for (const key of keys.split(",")) document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    }
  }

  $("align-choice").hidden = lanes.length < 2;
  window.addEventListener("hashchange", fromHash);
  controls.hidden = false;
  fromHash();
  document.body.dataset.ready = "1";
})();
