// The designer's page: each seat's own match page side by side (the match page itself, in a
// frame, drawn by board.js: what each player would see, playable from its column), and the
// designer's socket: the log of every seat, the whole state as JSON, undo and redo, and what
// the last reload of the rules said. Everything from the server is set as text.
"use strict";

const matchId = location.pathname.split("/")[2];
const key = new URLSearchParams(location.search).get("key");
const $ = (id) => document.getElementById(id);
let socket = null;
let retries = 0;
let seq = 0;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  for (const c of children) e.append(c);
  return e;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/designer/${matchId}/ws`);
  socket.onopen = () => {
    retries = 0;
    socket.send(JSON.stringify({ type: "hello", key }));
  };
  socket.onmessage = (ev) => receive(JSON.parse(ev.data));
  socket.onclose = () => {
    $("status").textContent = "disconnected; reconnecting…";
    retries += 1;
    setTimeout(connect, Math.min(10000, 500 * retries));
  };
}

function receive(msg) {
  if (msg.type === "welcome") welcome(msg);
  else if (msg.type === "designer") draw(msg);
  else if (msg.type === "error") $("refusal").textContent = msg.message;
  else if (msg.type === "ack") $("refusal").textContent = "";
}

// One column per seat: its match page joined with its token (a bot's seat: a note), and
// one for spectators. Made once: the frames keep their own sockets.
function welcome(msg) {
  $("title").textContent = `Boardscript designer: ${msg.game}`;
  const options = Object.entries(msg.options || {}).map(([k, v]) => `${k}=${v}`).join(" ");
  $("setup").textContent = `seed ${msg.seed}` + (options ? `, options ${options}` : "");
  const seats = $("seats");
  if (seats.childElementCount) return;
  for (const s of msg.seats) {
    const column = el("section", { className: "seat-column" }, el("h2", {}, s.seat));
    column.dataset.seat = s.seat;
    if (s.token) {
      const src = `/m/${matchId}?token=${encodeURIComponent(s.token)}`;
      column.append(el("iframe", { src, title: `${s.seat}'s page` }));
    } else {
      column.append(el("p", { className: "bot" }, `played by the bot ${s.bot}`));
    }
    seats.append(column);
  }
  const spectator = el("section", { className: "seat-column" }, el("h2", {}, "spectator"),
    el("iframe", { src: `/m/${matchId}`, title: "a spectator's page" }));
  spectator.dataset.seat = "";
  seats.append(spectator);
}

function draw(msg) {
  seq = msg.seq;
  const who = msg.outcome ? `over: ${msg.outcome}` : `deciding: ${msg.deciding.join(", ")}`;
  $("status").textContent = `${msg.seq} action(s); ${who}`;
  $("undo").disabled = msg.seq === 0;
  $("actions").replaceChildren(...msg.actions.map((a) => el("li", {}, `${a.seat}: ${a.action}`)));
  $("state").textContent = JSON.stringify(msg.state, null, 2);
  const reload = $("reload");
  reload.hidden = !msg.reload;
  if (msg.reload) {
    reload.textContent = msg.reload.text;
    reload.className = msg.reload.ok ? "ok" : "failed";
  }
}

function send(type) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type }));
}

$("undo").addEventListener("click", () => send("undo"));
$("redo").addEventListener("click", () => send("redo"));
connect();
