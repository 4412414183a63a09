// The match page: opens the match's WebSocket, says hello with the token from the link (none:
// a spectator) and draws whatever game the state message describes. Generic: grids, zones of
// cards, graphs, counters, bags, the log, the prompt. Legal actions are picked by clicking
// what their typed arguments name (a cell, a card, a node, a seat), by a button per action,
// or by typing the notation. Everything from the server is set as text, never as HTML.
"use strict";

const HIDDEN = 65535;
const matchId = location.pathname.split("/")[2];
const token = new URLSearchParams(location.search).get("token");
const $ = (id) => document.getElementById(id);
let socket = null;
let state = null;
let picked = []; // keys of the arguments clicked so far, in order
let retries = 0;
let layout = {}; // the game's layout hints, from the welcome: colours by seat, cell, card

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// ---- the socket ----

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/m/${matchId}/ws`);
  socket.onopen = () => {
    retries = 0;
    const hello = { type: "hello" };
    if (token) hello.token = token;
    if (state) hello.seq = state.seq;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (ev) => receive(JSON.parse(ev.data));
  socket.onclose = () => {
    $("turn").textContent = "disconnected; reconnecting…";
    retries += 1;
    setTimeout(connect, Math.min(10000, 500 * retries));
  };
}

function receive(msg) {
  if (msg.type === "welcome") {
    $("title").textContent = `Boardscript: ${msg.game}`;
    $("who").textContent = msg.seat ? `You play ${msg.seat}` : "Spectating";
    layout = msg.layout || {};
  } else if (msg.type === "state") {
    // An older state is a late one, except in a designer's match, which takes actions back.
    if (state && msg.seq < state.seq && !msg.designer) return;
    // A refusal was about the state it was sent in; a new state makes it moot.
    if (state && msg.seq !== state.seq) $("refusal").textContent = "";
    state = msg;
    // Arguments clicked so far stay picked while they still begin a legal action (another
    // seat's move may arrive between two clicks).
    if (!matching(picked).length) picked = [];
    draw();
  } else if (msg.type === "error") {
    // `stale`: the click was on a state that had just moved on; the new one is on its way.
    if (msg.code !== "stale") $("refusal").textContent = msg.message;
  } else if (msg.type === "ack") {
    $("refusal").textContent = "";
  }
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify(Object.assign({ type: "action", token }, action)));
}

function play(index) {
  picked = [];
  send({ option: index, seq: state.seq });
}

// ---- picking an action by its arguments ----

// What a typed argument names, as a key the drawn elements carry.
function argKey(a) {
  switch (a.kind) {
    case "cell": return `cell:${a.grid}:${a.x}:${a.y}`;
    case "column": return `column:${a.grid}:${a.x}`;
    case "cells": return `cell:${a.grid}:${a.x}:${a.y}`;
    case "node": return `node:${a.graph}:${a.node}`;
    case "card": case "piece": return a.card === undefined ? null : `card:${a.card}`;
    case "seat": return `seat:${a.seat}`;
    default: return null;
  }
}

// The keys of an action's clickable arguments (a `cells` word is two clicks: from, to).
function actionKeys(t) {
  const keys = [];
  for (const a of t.args || []) {
    const k = argKey(a);
    if (k === null) return null; // a word or number: not clickable, it has its button
    keys.push(k);
    if (a.kind === "cells") keys.push(`cell:${a.grid}:${a.to_x}:${a.to_y}`);
  }
  return keys.length ? keys : null;
}

function typedActions() {
  const d = state && state.decision;
  if (!d) return [];
  return (d.typed || []).map((t, i) => ({ index: i, keys: actionKeys(t) })).filter((t) => t.keys);
}

// Actions whose first clicked arguments are `keys`.
function matching(keys) {
  return typedActions().filter((t) => keys.every((k, i) => t.keys[i] === k));
}

// The keys an element stands for: a cell is also its column.
function elementKeys(e) {
  return (e.dataset.keys || "").split(" ").filter(Boolean);
}

function clicked(e) {
  for (const attempt of [picked, []]) {
    for (const key of elementKeys(e)) {
      const keys = attempt.concat([key]);
      const found = matching(keys);
      if (!found.length) continue;
      const done = found.filter((t) => t.keys.length === keys.length);
      if (found.length === 1 && done.length === 1) return play(done[0].index);
      picked = keys;
      return highlight();
    }
  }
  $("refusal").textContent = "Nothing to play there.";
}

// Marks what may be clicked next, and what was clicked.
function highlight() {
  const next = new Set(matching(picked).map((t) => t.keys[picked.length]).filter(Boolean));
  for (const e of document.querySelectorAll("[data-keys]")) {
    const keys = elementKeys(e);
    e.classList.toggle("pickable", keys.some((k) => next.has(k)));
    e.classList.toggle("picked", keys.some((k) => picked.includes(k)));
  }
  // Clicks that name several whole actions (`move 3`, `careful 3`): their buttons decide.
  const whole = new Set(picked.length ? matching(picked).filter((t) => t.keys.length === picked.length).map((t) => t.index) : []);
  for (const b of document.querySelectorAll("#actions button")) {
    b.classList.toggle("candidate", whole.has(Number(b.dataset.option)));
  }
}

function clickable(e, keys) {
  e.dataset.keys = keys.join(" ");
  e.addEventListener("click", () => clicked(e));
  return e;
}

// ---- drawing ----

function draw() {
  const v = state.view.state;
  const names = v.seats || [];
  const mine = state.decision !== null && state.decision !== undefined;
  const turn = $("turn");
  if (state.outcome) turn.textContent = `Over: ${state.outcome.text}`;
  else if (mine) turn.textContent = `Your turn (${state.seat})`;
  else turn.textContent = `Waiting for ${state.deciding.join(", ")}`;
  turn.classList.toggle("mine", mine && !state.outcome);
  turn.dataset.deciding = state.deciding.join(" ");

  const board = $("board");
  board.replaceChildren();
  for (const g of v.grids || []) board.append(drawGrid(g));
  for (const g of v.graphs || []) board.append(drawGraph(g));
  const zones = drawZones(v, names);
  if (zones.childElementCount) board.append(zones);

  $("numbers").replaceChildren(drawNumbers(v, names));
  drawAsk();
  const log = $("log");
  log.replaceChildren(...(state.log || []).map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
  $("text").textContent = state.text || "";
  drawOver();
  highlight();
}

function drawGrid(g) {
  const wrap = el("section", { class: "grid-wrap" }, el("h3", {}, g.name));
  const hex = g.shape === "hex";
  const grid = el("div", { class: hex ? "grid hex" : "grid", "data-grid": g.name });
  grid.style.gridTemplateColumns = `repeat(${g.width * (hex ? 2 : 1) + (hex ? g.height : 0)}, ${hex ? 23 : 44}px)`;
  for (let y = g.height - 1; y >= 0; y--) {
    for (let x = 0; x < g.width; x++) {
      const sym = g.cells[y * g.width + x];
      const symbol = (g.symbols || [])[sym] ?? String(sym);
      const colour = hint("cells", symbol) || (g.colors || [])[sym] || "";
      const cell = el("button", {
        class: "cell", type: "button", title: `${String.fromCharCode(97 + x)}${y + 1}`,
        "data-x": x, "data-y": y, "data-symbol": symbol,
      });
      if (colour) cell.append(Object.assign(el("span", { class: "disc" }), { style: `background:${cssColour(colour)}` }));
      else if (sym !== 0) cell.textContent = symbol;
      if (hex) {
        // A rhombus of hexagons: each row up shifts half a cell to the right.
        cell.style.gridRow = String(g.height - y);
        cell.style.gridColumn = `${2 * x + (g.height - 1 - y) + 1} / span 2`;
      }
      grid.append(clickable(cell, [`cell:${g.name}:${x}:${y}`, `column:${g.name}:${x}`]));
    }
  }
  wrap.append(grid);
  return wrap;
}

// The colour the game's layout gives `key` in `table` (`seats`, `cells`, `cards`), if any.
function hint(table, key) {
  const t = layout[table];
  return t && Object.prototype.hasOwnProperty.call(t, key) ? t[key] : "";
}

// Only a plain colour word or hex code reaches the style.
function cssColour(c) {
  return /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]+)$/.test(c) ? c : "gray";
}

function nodeName(n) {
  return typeof n === "string" ? n : n.name;
}

// Where the game places each node, from 0 to 1 across and down: a node's own `x`, `y`, or
// the graph's node state `x`, `y` in thousandths (node values are whole numbers); null for
// a node without both.
// Where each node of graph `g` sits, from 0 to 1 (null: not placed): the game's layout hints
// (`[layout.nodes.<graph>]`, thousandths), else node values `x` and `y` the rules keep
// (thousandths too).
function placements(g) {
  const column = (key) => ((g.node_state || []).find((c) => c.key === key) || {}).values || [];
  const xs = column("x"), ys = column("y");
  const hinted = (layout.nodes || {})[g.name] || {};
  return g.nodes.map((node, i) => {
    const at = hinted[nodeName(node)];
    if (Array.isArray(at) && at.length === 2) return [at[0] / 1000, at[1] / 1000];
    if (typeof xs[i] === "number" && typeof ys[i] === "number") return [xs[i] / 1000, ys[i] / 1000];
    return null;
  });
}

function drawGraph(g) {
  const wrap = el("section", { class: "graph-wrap" }, el("h3", {}, g.name));
  const n = g.nodes.length;
  const size = Math.max(320, Math.min(720, 60 * Math.sqrt(n) * 2));
  const r = size / 2 - 30;
  const placed = placements(g);
  // A graph the game places is drawn wider than high (boards are), else on a circle.
  const wide = n > 0 && placed.every((p) => p !== null);
  const [width, height] = wide ? [Math.round(size * 1.6), size] : [size, size];
  const pos = placed.map((p, i) => {
    if (p) return [30 + Math.min(1, Math.max(0, p[0])) * (width - 60), 30 + Math.min(1, Math.max(0, p[1])) * (height - 60)];
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    return [size / 2 + r * Math.cos(a), size / 2 + r * Math.sin(a)];
  });
  const s = svg("svg", { class: "graph", width, height, viewBox: `0 0 ${width} ${height}`, "data-graph": g.name });
  (g.edges || []).forEach((ns, a) => ns.forEach((b) => {
    if (b > a) s.append(svg("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1] }));
  }));
  g.nodes.forEach((node, i) => {
    const name = nodeName(node);
    const mark = (g.symbols || [])[(g.marks || [])[i]];
    const grp = svg("g", { "data-node": name });
    grp.append(svg("circle", { cx: pos[i][0], cy: pos[i][1], r: 16 }));
    const label = svg("text", { x: pos[i][0], y: pos[i][1] + 4 });
    label.textContent = mark && mark !== "." ? `${name} ${mark}` : name;
    grp.append(label);
    s.append(clickable(grp, [`node:${g.name}:${name}`]));
  });
  wrap.append(s);
  return wrap;
}

function drawCard(v, id) {
  if (id === HIDDEN) return el("div", { class: "card back", title: "face down", "data-card": "hidden" });
  const entry = (v.cards || [])[id] || { name: "?", props: {} };
  const props = Object.entries(entry.props || {})
    .filter(([k, val]) => typeof val !== "object" && String(val) !== entry.name)
    .map(([k, val]) => (val === true ? k : `${k} ${val}`)).join(", ");
  const card = el("button", { class: "card", type: "button", "data-card": id, "data-name": entry.name },
    el("b", {}, entry.name), el("small", {}, props));
  const colour = hint("cards", entry.name);
  if (colour) card.style.borderColor = cssColour(colour);
  return clickable(card, [`card:${id}`]);
}

function drawZones(v, names) {
  const wrap = el("section", { class: "zones" });
  for (const z of v.zones || []) {
    if (!z.cards.length) continue;
    const owner = z.owner === null || z.owner === undefined ? "" : ` (${names[z.owner]})`;
    const row = el("div", { class: "zone", "data-zone": z.name, "data-owner": z.owner ?? "" },
      el("span", { class: "label" }, `${z.name}${owner}`));
    const hidden = z.cards.filter((c) => c === HIDDEN).length;
    if (hidden > 8) {
      // A long face-down pile: one back and its count.
      row.append(drawCard(v, HIDDEN), el("span", {}, `×${hidden}`));
      for (const c of z.cards) if (c !== HIDDEN) row.append(drawCard(v, c));
    } else {
      for (const c of z.cards) row.append(drawCard(v, c));
    }
    wrap.append(row);
  }
  return wrap;
}

function drawNumbers(v, names) {
  const frag = document.createDocumentFragment();
  const rows = [];
  const seatCounters = v.seat_counters || [];
  names.forEach((name, i) => {
    const c = Object.entries(seatCounters[i] || {}).map(([k, n]) => `${k} ${n}`).join(", ");
    const seat = clickable(el("td", {}, name), [`seat:${i}`]);
    const colour = hint("seats", name);
    if (colour) seat.prepend(Object.assign(el("span", { class: "swatch" }), { style: `background:${cssColour(colour)}` }));
    const out = (v.turn && v.turn.eliminated && v.turn.eliminated[i]) ? " (out)" : "";
    rows.push(el("tr", { "data-seat": name }, seat, el("td", {}, c + out)));
  });
  frag.append(el("h2", {}, "Seats"), el("table", { class: "numbers" }, ...rows));
  const counters = Object.entries(v.counters || {});
  if (counters.length) {
    frag.append(el("h2", {}, "Counters"), el("table", { class: "numbers" },
      ...counters.map(([k, n]) => el("tr", {}, el("td", {}, k), el("td", {}, String(n))))));
  }
  const bags = v.bags || [];
  if (bags.length) {
    frag.append(el("h2", {}, "Bags"), el("table", { class: "numbers" }, ...bags.map((b) => {
      const total = b.kinds.reduce((sum, [, n]) => sum + n, 0);
      const open = b.visibility === "all" ? ": " + b.kinds.map(([k, n]) => `${k} ${n}`).join(", ") : "";
      return el("tr", {}, el("td", {}, b.name), el("td", {}, `${total}${open}`));
    })));
  }
  return frag;
}

function drawAsk() {
  const d = state.decision;
  const q = d && d.prompt ? d.prompt : state.question;
  $("prompt").textContent = q || "";
  const actions = $("actions");
  actions.replaceChildren();
  $("typed").hidden = !d;
  if (!d) return;
  d.options.forEach((text, i) => {
    const b = el("button", { type: "button", "data-option": i }, text);
    b.addEventListener("click", () => play(i));
    actions.append(b);
  });
}

function drawOver() {
  const o = state.outcome;
  $("over").hidden = !o;
  if (!o) return;
  const won = state.seat && o.winners.includes(state.seat);
  const lead = state.seat ? (won ? "You win. " : "You do not win. ") : "";
  $("result").textContent = lead + o.text;
}

$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("notation").value.trim();
  if (text) send({ action: text });
  $("notation").value = "";
});
$("close").addEventListener("click", () => { $("over").hidden = true; });
connect();
