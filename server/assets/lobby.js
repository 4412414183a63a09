// The lobby: pick a game, its options, seats and who plays each seat (a person or a bot),
// create the match and show each seat's link. Everything from the server is set as text.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  for (const c of children) e.append(c);
  return e;
}

function game() {
  return games.find((g) => g.id === $("game").value);
}

// Seat names: the game's when it names them, else p1, p2, ... as the engine names them.
function seatNames(g, n) {
  return Array.from({ length: n }, (_, i) => (g.seats.names || [])[i] || `p${i + 1}`);
}

function drawOptions() {
  const g = game();
  $("about").textContent = g.about || "";
  const seats = $("seats");
  seats.min = g.seats.min;
  seats.max = g.seats.max;
  if (!(seats.value >= g.seats.min && seats.value <= g.seats.max)) seats.value = g.seats.min;
  const opts = $("options");
  opts.replaceChildren(el("legend", {}, "Options"));
  for (const o of g.options) {
    opts.append(el("label", { title: o.about || "" }, `${o.name} `,
      el("input", { name: o.name, value: o.default })));
  }
  opts.hidden = !g.options.length;
  drawBots();
}

function drawBots() {
  const g = game();
  const bots = $("bots");
  bots.replaceChildren(el("legend", {}, "Who plays each seat"));
  for (const name of seatNames(g, Number($("seats").value))) {
    const pick = el("select", { name });
    for (const [value, label] of [["", "a person"], ["random", "bot: random"], ["greedy", "bot: greedy"], ["mcts:iters=200", "bot: mcts"]]) {
      pick.append(el("option", { value }, label));
    }
    bots.append(el("label", {}, `${name} `, pick));
  }
}

async function create(ev) {
  ev.preventDefault();
  const g = game();
  const options = {};
  for (const input of $("options").querySelectorAll("input")) {
    const o = g.options.find((x) => x.name === input.name);
    if (o && input.value !== String(o.default)) options[input.name] = input.value;
  }
  const bots = {};
  for (const pick of $("bots").querySelectorAll("select")) if (pick.value) bots[pick.name] = pick.value;
  const body = { game: g.id, seats: Number($("seats").value), options, bots };
  if ($("designer").checked) body.designer = true;
  const reply = await fetch("/api/matches", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const made = await reply.json();
  if (!reply.ok) { $("refusal").textContent = made.error; return; }
  if (made.designer) { location.href = made.designer; return; }
  $("refusal").textContent = "";
  const list = $("seat-links");
  list.replaceChildren(...made.seats.map((s) => el("li", {}, `${s.seat}: `,
    s.join ? el("a", { href: s.join, textContent: s.join }) : `bot ${s.bot}`)));
  Object.assign($("spectate"), { href: made.spectate, textContent: made.spectate });
  $("links").hidden = false;
}

async function start() {
  const offered = await (await fetch("/api/games")).json();
  games = offered.games;
  $("designer-pick").hidden = !offered.designer;
  for (const g of games) $("game").append(el("option", { value: g.id }, g.title || g.id));
  $("game").addEventListener("change", drawOptions);
  $("seats").addEventListener("change", drawBots);
  $("create").addEventListener("submit", create);
  drawOptions();
}
start();
