// Draws any game's view (envs/core/view.py) as a table: the other seats' areas at the top,
// shared areas in the middle, the viewer's at the bottom; cards as cards, boards as boards;
// moves made on the pieces (source, then target). The table and replay pages call
// Tabletop.drawTable with what the API sent. A game may add its own drawing
// (web/static/games/<game>.js) through Tabletop.registerGame; no rules live here.
"use strict";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") {
      node.setAttribute(key, value);
    } else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// Classes the page gives pieces itself; a game's tag of the same name is not copied, so a
// style hint can never pass for a move's target or the selection.
const OWN_CLASSES = new Set(["piece", "card", "face-down", "playable", "target", "selected",
  "last-move", "attachments", "card-back"]);

const Tabletop = (() => {
  const games = {};
  // The drawn table's state: the view, who looks, how to play, and what is selected.
  const table = { view: null, you: null, play: null, replay: false, selected: null,
    nodes: new Map(), pieces: new Map(), root: null };

  function registerGame(name, drawer) { games[name] = drawer; }

  function seatName(seat) {
    const player = table.view && table.view.players.find((p) => p.seat === seat);
    return player ? player.name : `seat ${seat}`;
  }

  function faceText(piece) {
    const card = piece.card;
    if (!card) return [piece.label, piece.detail].filter(Boolean).join(": ");
    const parts = [card.name, card.kind];
    if (card.cost !== null && card.cost !== undefined) parts.push(`cost ${card.cost}`);
    const stats = Object.entries(card.stats).map(([k, v]) => `${k} ${v}`).join(", ");
    if (stats) parts.push(stats);
    if (card.keywords.length) parts.push(card.keywords.join(", "));
    if (card.text) parts.push(card.text);
    const marks = Object.entries(piece.marks).map(([k, v]) => `${k} ${v}`).join(", ");
    if (marks) parts.push(`now: ${marks}`);
    return parts.join(". ");
  }

  // A card's face in short form: cost, name, kind, stats, keywords, text (clipped).
  function cardElement(piece) {
    const card = piece.card;
    const top = el("div", { class: "card-top" }, el("span", { class: "card-name" }, card.name));
    if (card.cost !== null && card.cost !== undefined) {
      top.append(el("span", { class: "card-cost", title: `cost ${card.cost}` }, String(card.cost)));
    }
    const face = el("div", { class: "card-face" }, top, el("span", { class: "card-kind" }, card.kind));
    const stats = el("span", { class: "card-stats" });
    for (const [label, value] of Object.entries(card.stats)) {
      stats.append(el("span", { class: "stat", title: label }, `${label} ${value}`));
    }
    face.append(stats, el("span", { class: "card-keywords" }, card.keywords.join(", ")),
      el("span", { class: "card-text" }, card.text));
    return face;
  }

  function tagClasses(piece) {
    return piece.tags.map((tag) => String(tag).replace(/[^\w-]/g, "-"))
      .filter((tag) => tag && !OWN_CLASSES.has(tag));
  }

  // The generic element of a piece: a card, a card back or a token with its label; marks as
  // badges; data-piece, aria-label and the click, key and hover handling of the table.
  function pieceElement(piece) {
    const classes = ["piece", ...tagClasses(piece)];
    if (piece.card) classes.push("card");
    if (piece.face_down) classes.push("face-down");
    const full = faceText(piece);
    const node = el("div", { class: classes.join(" "), "data-piece": piece.id, title: full,
      "aria-label": piece.card ? `${piece.label}: ${full}` : full || piece.label });
    if (piece.card) node.append(cardElement(piece));
    else if (piece.face_down) {
      node.append(el("span", { class: "card-back" },
        piece.label.startsWith("?") ? "" : piece.label));
    } else node.append(el("span", { class: "piece-label" }, piece.label));
    const marks = Object.entries(piece.marks);
    if (marks.length) {
      node.append(el("span", { class: "marks" }, ...marks.map(([label, value]) =>
        el("span", { class: "mark", title: `${label} ${value}` }, `${label} ${value}`))));
    }
    node.addEventListener("click", (event) => { event.stopPropagation(); pick(piece.id); });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(piece.id); }
    });
    if (piece.card) {
      node.tabIndex = 0;
      node.addEventListener("mouseenter", () => showDetail(piece));
      node.addEventListener("focus", () => showDetail(piece));
    }
    table.nodes.set(piece.id, node);
    return node;
  }

  function showDetail(piece) {
    const panel = detailPanel();
    const card = piece.card;
    const rows = [el("button", { class: "close", type: "button", "aria-label": "close",
      onclick: () => { panel.hidden = true; } }, "×"),
    el("h4", {}, card.name, card.cost !== null && card.cost !== undefined
      ? el("span", { class: "card-cost" }, String(card.cost)) : null),
    el("div", { class: "card-kind" }, card.kind)];
    const stats = Object.entries(card.stats).map(([k, v]) => `${k} ${v}`).join(" · ");
    if (stats) rows.push(el("div", { class: "card-stats" }, stats));
    if (card.keywords.length) rows.push(el("div", { class: "card-keywords" }, card.keywords.join(", ")));
    if (card.text) rows.push(el("p", { class: "card-text" }, card.text));
    const marks = Object.entries(piece.marks).map(([k, v]) => `${k} ${v}`).join(" · ");
    if (marks) rows.push(el("div", { class: "marks-line" }, `On it now: ${marks}`));
    if (piece.detail && piece.detail !== card.text) rows.push(el("p", { class: "detail" }, piece.detail));
    panel.replaceChildren(...rows);
    panel.hidden = false;
  }

  function detailPanel() {
    let panel = document.getElementById("card-detail");
    if (!panel) {
      panel = el("div", { id: "card-detail", role: "status", "aria-live": "polite" });
      panel.hidden = true;
      document.body.append(panel);
    }
    return panel;
  }

  // ----- layout ----------------------------------------------------------------------

  function gridArea(area, box) {
    const rowLabels = area.row_labels || null;
    const colLabels = area.col_labels || null;
    const grid = el("div", { class: "grid" + (rowLabels ? " has-row-labels" : "") });
    const offset = rowLabels ? 2 : 1;
    grid.style.gridTemplateColumns = (rowLabels ? "1.4em " : "")
      + `repeat(${area.cols}, minmax(0, 1fr))`;
    grid.style.maxWidth = `${area.cols * 7 + (rowLabels ? 1.4 : 0)}em`;
    if (colLabels) {
      colLabels.forEach((label, col) => {
        for (const row of [1, area.rows + 2]) {
          const node = el("span", { class: "grid-label col-label", "aria-hidden": "true" }, label);
          node.style.gridRow = row;
          node.style.gridColumn = col + offset;
          grid.append(node);
        }
      });
    }
    const rowOffset = colLabels ? 2 : 1;
    if (rowLabels) {
      rowLabels.forEach((label, row) => {
        const node = el("span", { class: "grid-label row-label", "aria-hidden": "true" }, label);
        node.style.gridRow = row + rowOffset;
        node.style.gridColumn = 1;
        grid.append(node);
      });
    }
    for (const piece of area.pieces) {
      const node = pieceElement(piece, area);
      if (piece.cell) {
        node.style.gridRow = piece.cell[0] + rowOffset;
        node.style.gridColumn = piece.cell[1] + offset;
      }
      grid.append(node);
    }
    box.append(grid);
  }

  // A pile takes little room: its count, its top card, the rest behind a disclosure; the
  // pieces a move names stay in sight.
  function pileArea(area, box) {
    box.classList.add("pile");
    const named = new Set(movePieces());
    const top = area.pieces[area.pieces.length - 1];
    const row = el("div", { class: "pieces" });
    const rest = [];
    for (const piece of area.pieces) {
      if (piece === top || named.has(piece.id)) row.append(pieceElement(piece, area));
      else rest.push(piece);
    }
    if (!area.pieces.length && area.count > 0) {
      row.append(el("div", { class: "pile-back", "aria-hidden": "true" }));
    }
    row.append(el("span", { class: "pile-count" }, area.count === 1 ? "1 card" : `${area.count} cards`));
    box.append(row);
    if (rest.length) {
      const more = el("details", { class: "pile-more" }, el("summary", {}, `${rest.length} more`));
      more.append(el("div", { class: "pieces" }, ...rest.map((piece) => pieceElement(piece, area))));
      box.append(more);
    }
  }

  function areaElement(area) {
    const box = el("section", { class: `area layout-${area.layout}`, "data-area": area.id },
      el("h3", {}, area.title));
    if (!area.pieces.length && !(area.layout === "pile" && area.count > 0)) {
      box.classList.add("empty-area");
    }
    if (area.layout === "grid") gridArea(area, box);
    else if (area.layout === "pile") pileArea(area, box);
    else box.append(el("div", { class: "pieces" }, ...area.pieces.map((p) => pieceElement(p, area))));
    return box;
  }

  function playerElement(player, view) {
    const node = el("div", { class: "player" + (player.seat === view.to_move ? " to-move" : ""),
      "data-seat": String(player.seat) }, el("strong", {}, player.name));
    if (player.seat === table.you) node.append(el("span", { class: "you" }, " (you)"));
    for (const [label, value] of Object.entries(player.counters)) {
      node.append(el("span", { class: "counter" }, el("span", { class: "counter-label" }, label),
        " ", el("b", {}, String(value))));
    }
    return node;
  }

  // Which seat is drawn at the bottom: the viewer's, or seat 0 for a spectator.
  function bottomSeat(view) { return view.observer === null ? 0 : view.observer; }

  function drawZones(view, drawer, ctx) {
    const bottom = bottomSeat(view);
    const top = el("div", { class: "zone-top" });
    const middle = el("div", { class: "zone-middle" });
    const bottomZone = el("div", { class: "zone-bottom" });
    const seats = new Map();
    for (const player of view.players) {
      const seat = el("div", { class: "seat", "data-seat": String(player.seat) },
        playerElement(player, view));
      seats.set(player.seat, seat);
      (player.seat === bottom ? bottomZone : top).append(seat);
    }
    for (const area of view.areas) {
      const own = drawer.drawArea ? drawer.drawArea(area, view, ctx) : null;
      const node = own || areaElement(area);
      const seat = area.owner === null ? null : seats.get(area.owner);
      (seat || middle).append(node);
    }
    for (const seat of seats.values()) {
      const areas = el("div", { class: "seat-areas" });
      areas.append(...[...seat.children].slice(1));
      seat.append(areas);
    }
    return [top, middle, bottomZone];
  }

  // For a game's decorate: `arrange(seat, bottom)` on each seat's element, `bottom` true for
  // the one drawn at the bottom, so every game lays its seats out from the same rule.
  function eachSeat(arrange) {
    const bottom = bottomSeat(table.view);
    for (const seat of table.root.querySelectorAll(".seat")) {
      arrange(seat, Number(seat.dataset.seat) === bottom);
    }
  }

  // For a game's decorate: `decorate(node, piece)` on each drawn piece's element, in the
  // view's order, so a game restyles pieces without looking their elements up itself.
  function eachPieceNode(decorate) {
    for (const area of table.view.areas) {
      for (const piece of area.pieces) {
        const node = table.nodes.get(piece.id);
        if (node) decorate(node, piece);
      }
    }
  }

  // A piece with `on` is drawn on its carrier (an item on the creature that holds it).
  function attachPieces(view) {
    for (const area of view.areas) {
      for (const piece of area.pieces) {
        const node = table.nodes.get(piece.id);
        const carrier = piece.on && table.nodes.get(piece.on);
        if (!node || !carrier || carrier === node) continue;
        let holder = carrier.querySelector(":scope > .attachments");
        if (!holder) holder = carrier.appendChild(el("div", { class: "attachments" }));
        node.classList.add("attached");
        holder.append(node);
      }
    }
  }

  // ----- moves on the pieces ---------------------------------------------------------

  function moves() { return table.view ? table.view.moves : []; }
  function movePieces() {
    return moves().flatMap((m) => (m.source !== null ? [m.source] : m.target !== null ? [m.target] : []));
  }
  function movesFrom(id) { return moves().filter((m) => m.source === id); }
  function movesInto(id) { return moves().filter((m) => m.source === null && m.target === id); }

  function pieceName(id) {
    const piece = table.pieces.get(id);
    if (!piece) return id;
    if (piece.card) return piece.card.name;
    return piece.face_down ? "that card" : (piece.label || id);
  }

  function why(text) {
    const node = document.getElementById("why");
    if (node) node.textContent = text;
  }

  function choose(list) {
    const box = document.getElementById("choices");
    if (!box) return;
    box.replaceChildren(...list.map((move) => moveButton(move)));
    box.hidden = list.length === 0;
  }

  function moveButton(move, text = move.text) {
    const button = el("button", { type: "button", "data-action": String(move.action),
      "aria-label": `move: ${move.text}` }, text);
    button.addEventListener("click", () => playMove(move));
    button.addEventListener("mouseenter", () => hint(move.pieces, true));
    button.addEventListener("mouseleave", () => hint(move.pieces, false));
    return button;
  }

  function hint(ids, on) {
    for (const id of ids) {
      const node = table.nodes.get(id);
      if (node) node.classList.toggle("hinted", on);
    }
  }

  function playMove(move) {
    select(null);
    if (table.play) table.play(move.action);
  }

  function select(id) {
    table.selected = id;
    for (const node of table.nodes.values()) node.classList.remove("selected", "target");
    choose([]);
    for (const button of document.querySelectorAll("#moves button")) button.classList.remove("focus");
    if (id === null) return;
    table.nodes.get(id)?.classList.add("selected");
    const from = movesFrom(id);
    for (const move of from) {
      if (move.target !== null && move.target !== id) table.nodes.get(move.target)?.classList.add("target");
    }
    for (const button of document.querySelectorAll("#moves button")) {
      button.classList.toggle("focus", from.some((m) => String(m.action) === button.dataset.action));
    }
    // Moves of this piece that no other piece finishes: listed as choices.
    choose([...from.filter((m) => m.target === null || m.target === id), ...movesInto(id)]);
    why(`${pieceName(id)} selected: ${from.some((m) => m.target !== null && m.target !== id)
      ? "pick a marked target" : "pick a move"}`);
  }

  function refuse(id) {
    if (table.replay) return why("This is a replay: watch only");
    if (table.you === null || !table.play) return why("Spectators watch only");
    if (table.view.to_move === null) return why("The game is over");
    if (table.view.to_move !== table.you || !moves().length) return why("It is not your turn");
    if (table.selected !== null) {
      return why(`${pieceName(id)} is not a target of ${pieceName(table.selected)}`);
    }
    return why(`Nothing to do with ${pieceName(id)} now`);
  }

  // Whether a click on `id` does something to the game now (select, play, choose).
  function actionable(id) {
    const selected = table.selected;
    if (selected !== null && (id === selected || movesFrom(selected).some((m) => m.target === id))) {
      return true;
    }
    return movesFrom(id).length > 0 || movesInto(id).length > 0;
  }

  function pick(id) {
    const piece = table.pieces.get(id);
    if (piece && piece.card) showDetail(piece);
    // A click on an attached piece that nothing names is a click on its carrier.
    if (piece && piece.on && !actionable(id) && table.pieces.has(piece.on)) return pick(piece.on);
    const selected = table.selected;
    if (selected !== null) {
      if (id === selected) { select(null); why(""); return; }
      const into = movesFrom(selected).filter((m) => m.target === id);
      if (into.length === 1) return playMove(into[0]);
      if (into.length > 1) {
        choose(into);
        return why(`${into.length} moves of ${pieceName(selected)} to ${pieceName(id)}: pick one`);
      }
    }
    const from = movesFrom(id);
    const into = movesInto(id);
    if (from.length === 1 && from[0].target === null && !into.length) return playMove(from[0]);
    if (from.length) return select(id);
    if (into.length === 1) return playMove(into[0]);
    if (into.length > 1) {
      select(null);
      choose(into);
      return why(`${into.length} moves to ${pieceName(id)}: pick one`);
    }
    refuse(id);
  }

  function markPlayable() {
    for (const id of new Set(movePieces())) {
      const node = table.nodes.get(id);
      if (!node) continue;
      node.classList.add("playable");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      const count = movesFrom(id).length + movesInto(id).length;
      node.setAttribute("aria-label", `${node.getAttribute("aria-label")} (${count} move${count === 1 ? "" : "s"})`);
    }
  }

  function markLastMoves(view) {
    for (const last of view.last_moves) {
      for (const id of last.pieces) table.nodes.get(id)?.classList.add("last-move");
    }
    const box = document.getElementById("last-moves");
    if (!box) return;
    box.replaceChildren(...view.last_moves.map((last) => el("div", { class: "last-line",
      "data-seat": String(last.seat) }, el("strong", {}, seatName(last.seat)), `: ${last.text}`)));
    box.hidden = view.last_moves.length === 0;
  }

  function drawActions(view) {
    const box = document.getElementById("actions");
    if (!box) return;
    const buttons = view.moves.filter((m) => m.source === null && m.target === null);
    box.replaceChildren(...buttons.map((move) => moveButton(move)));
    box.hidden = buttons.length === 0;
  }

  // The notation list, grouped by the piece a move starts from (its label heads the group).
  function drawMoveList(view) {
    const box = document.getElementById("moves");
    if (!box) return;
    const groups = new Map();
    for (const move of view.moves) {
      const key = move.source !== null ? move.source : move.target !== null ? move.target : "";
      groups.set(key, [...(groups.get(key) || []), move]);
    }
    box.replaceChildren(...[...groups].map(([id, list]) => el("div", { class: "move-group" },
      el("span", { class: "move-group-name" }, id === "" ? "other" : pieceName(id)),
      ...list.map((move) => moveButton(move)))));
  }

  function drawHead(view) {
    const you = table.you;
    const turn = view.to_move === null ? "Game over"
      : view.to_move === you ? "Your turn" : `${seatName(view.to_move)}'s turn`;
    return el("div", { class: "table-head" },
      el("span", { id: "turn", class: view.to_move === you && you !== null ? "yours" : "" }, turn),
      el("span", { id: "phase", hidden: !view.phase }, view.phase),
      el("span", { id: "status" }, view.status));
  }

  // Draws `view` into `container`: the head (turn, phase, status) and the table; also fills
  // #actions, #choices, #moves and #last-moves when the page has them. `you` is the seat the
  // page plays (null: a spectator); `play(action)` plays a move (null: nothing can be
  // played); `replay` says the table is a replay's.
  function drawTable(container, view, { you = null, play = null, replay = false } = {}) {
    if (you === null) play = null;
    const active = document.activeElement;
    const focused = active && active.dataset && active.matches(":focus-visible")
      ? active.dataset.piece : undefined;
    Object.assign(table, { view, you, play, replay, selected: null, nodes: new Map(),
      pieces: new Map() });
    for (const area of view.areas) for (const piece of area.pieces) table.pieces.set(piece.id, piece);
    const drawer = games[view.game] || {};
    const ctx = { pieceElement, cardElement, areaElement, seatName, eachSeat, eachPieceNode,
      observer: view.observer };
    const root = el("div", { id: "table", class: `table game-${view.game}` }, ...drawZones(view, drawer, ctx));
    // The page's bar (#why, #choices, #actions) goes between the head and the table.
    container.replaceChildren(drawHead(view), ...document.querySelectorAll(".bar"), root);
    table.root = root;
    attachPieces(view);
    if (play) markPlayable();
    markLastMoves(view);
    drawActions(play ? view : { moves: [] });
    drawMoveList(play ? view : { moves: [] });
    choose([]);
    if (drawer.decorate) drawer.decorate(root, view, ctx);
    // A keyboard player keeps their place when the table is drawn anew.
    if (focused !== undefined && table.nodes.get(focused)?.tabIndex >= 0) table.nodes.get(focused).focus();
  }

  // Loads the game's own drawing (web/static/games/<game>.js and .css), once; resolves when
  // the script has run or failed to load: a game without one is drawn by the generic table.
  const loading = {};
  function loadGame(game) {
    if (!loading[game]) {
      const style = el("link", { rel: "stylesheet", href: `/static/games/${game}.css` });
      document.head.append(style);
      loading[game] = new Promise((resolve) => {
        const script = el("script", { src: `/static/games/${game}.js` });
        script.onload = resolve;
        script.onerror = resolve;
        document.head.append(script);
      });
    }
    return loading[game];
  }

  return { registerGame, drawTable, loadGame, seatName, games };
})();
window.Tabletop = Tabletop;

function drawLog(container, log, seats) {
  container.replaceChildren(...log.map((entry, index) => {
    const line = el("div", { class: index === log.length - 1 ? "last" : "" },
      `${seats[entry.mover] || "seat " + entry.mover}: ${entry.text}`);
    for (const event of entry.events) line.append(el("div", { class: "event" }, event));
    return line;
  }));
  container.scrollTop = container.scrollHeight;
}

// The result banner: the outcome in the game's words, once the game is over.
function drawResult(container, view) {
  if (!view || view.outcome === null || view.outcome === undefined) {
    container.replaceChildren();
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const over = /^game over/i.test(view.outcome) ? "" : "Game over. ";
  container.replaceChildren(el("strong", {}, over), view.outcome);
}

// An API error carrying the HTTP status (0: no answer at all, the server is unreachable).
class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(error.message, 0);
  }
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok) {
    const message = (data && (data.detail || data.error)) || response.statusText;
    throw new ApiError(typeof message === "string" ? message : JSON.stringify(message), response.status);
  }
  return data;
}
