// Draws any game's view (envs/core/view.py: players, areas of pieces, moves) into the
// page, and the move log and result; the pages call drawTable with what the API sent.
"use strict";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

function drawPiece(piece, playable, onPick) {
  const classes = ["piece", ...piece.tags];
  if (piece.face_down) classes.push("face-down");
  if (playable) classes.push("playable");
  const node = el("div", { class: classes.join(" "), title: piece.detail, "data-piece": piece.id },
    piece.label);
  for (const [label, value] of Object.entries(piece.marks)) {
    node.append(el("span", { class: "mark", title: label }, `${label} ${value}`));
  }
  if (playable) node.addEventListener("click", () => onPick(piece.id));
  return node;
}

function drawArea(area, playable, onPick) {
  const box = el("div", { class: "area", "data-area": area.id }, el("h3", {}, area.title));
  if (area.layout === "grid") {
    const grid = el("div", { class: "grid" });
    grid.style.gridTemplateColumns = `repeat(${area.cols}, minmax(2.4em, auto))`;
    for (const piece of area.pieces) {
      const node = drawPiece(piece, playable.has(piece.id), onPick);
      node.style.gridRow = piece.cell[0] + 1;
      node.style.gridColumn = piece.cell[1] + 1;
      grid.append(node);
    }
    box.append(grid);
    return box;
  }
  const row = el("div", { class: "pieces" });
  for (const piece of area.pieces) row.append(drawPiece(piece, playable.has(piece.id), onPick));
  if (area.layout === "pile") row.append(el("span", { class: "pile-count" }, `${area.count} cards`));
  box.append(row);
  return box;
}

function drawPlayers(view) {
  const box = el("div", { class: "players" });
  for (const player of view.players) {
    const node = el("div", { class: "player" + (player.seat === view.to_move ? " to-move" : "") },
      el("strong", {}, player.name + " "));
    for (const [label, value] of Object.entries(player.counters)) {
      node.append(el("span", { class: "counter" }, `${label}: ${value}`));
    }
    box.append(node);
  }
  return box;
}

// The board: status, players and areas; pieces that some move names are clickable, and a
// click plays the move at once when only one move names the piece, else narrows the list.
function drawBoard(container, view, moves, onMove) {
  const byPiece = new Map();
  for (const move of moves) {
    for (const id of move.pieces) byPiece.set(id, [...(byPiece.get(id) || []), move]);
  }
  const onPick = (id) => {
    const named = byPiece.get(id);
    if (named.length === 1) onMove(named[0].action);
    else focusMoves(named.map((move) => move.action));
  };
  container.replaceChildren(el("div", { class: "status", id: "status" }, view.status),
    drawPlayers(view));
  for (const area of view.areas) container.append(drawArea(area, byPiece, onPick));
}

function focusMoves(actions) {
  for (const button of document.querySelectorAll(".moves button")) {
    button.classList.toggle("focus", actions.includes(Number(button.dataset.move)));
  }
}

function drawMoves(container, moves, onMove) {
  container.replaceChildren(...moves.map((move) => {
    const button = el("button", { "data-move": String(move.action) }, move.text);
    button.addEventListener("click", () => onMove(move.action));
    return button;
  }));
}

function drawLog(container, log, seats) {
  container.replaceChildren(...log.map((entry, index) => {
    const line = el("div", { class: index === log.length - 1 ? "last" : "" },
      `${seats[entry.mover] || "seat " + entry.mover}: ${entry.text}`);
    for (const event of entry.events) line.append(el("div", { class: "event" }, event));
    return line;
  }));
  container.scrollTop = container.scrollHeight;
}

function drawResult(container, result, seats) {
  if (!result) { container.replaceChildren(); container.hidden = true; return; }
  container.hidden = false;
  const returns = result.returns.map((value, seat) => `${seats[seat]}: ${value > 0 ? "+" : ""}${value}`);
  const stats = Object.entries(result.stats).map(([key, value]) => `${key} ${value}`);
  container.replaceChildren(el("strong", {}, "Game over. "), returns.join(", "),
    el("div", {}, stats.join(", ")));
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}
