// Kult's table (envs/kult/view.py): each seat's Mystic Cross drawn as a cross, the four Scene
// stations around the Hub (the Arcanum on it) and the Cast column beside (KU-1.1), its hand
// at the edge of the table and its piles beside the cross; Population tokens as counters on
// the cards, the Hub and the Pool; the colours a card needs as coloured keys in its corner;
// Influences on what they lie on. Pieces are the generic piece elements, so selecting,
// targets and clicks stay the page's.
"use strict";

(() => {

  const COLOURS = ["Skull", "Eye", "Rose", "Crescent", "Hourglass"];

  // "Skullx2 Eye" as coloured keys (a letter each, the word in the title).
  function keys(text) {
    const made = [];
    for (const word of String(text).split(" ")) {
      const [colour, times] = word.split("x");
      if (!COLOURS.includes(colour)) return [el("span", { class: "ku-key ku-free" }, text)];
      for (let i = 0; i < Number(times || 1); i++) {
        const key = el("span", { class: `ku-key ku-${colour.toLowerCase()}` }, colour[0]);
        key.title = colour;
        made.push(key);
      }
    }
    return made;
  }

  // A mark "tokens N" as N counters (the mark itself is dropped).
  function tokens(node, count) {
    const mark = [...node.querySelectorAll(":scope > .marks > .mark")]
      .find((each) => each.title.startsWith("tokens "));
    if (mark) mark.remove();
    const box = el("span", { class: "ku-tokens" });
    box.title = `${count} Population token${count === 1 ? "" : "s"}`;
    box.setAttribute("aria-label", box.title);
    for (let i = 0; i < Math.min(count, 12); i++) box.append(el("span", { class: "ku-token" }));
    if (count > 12 || count === 0) box.append(el("span", { class: "ku-token-count" }, String(count)));
    return box;
  }

  // A card's combat value now (its mark) in place of the printed one, up or down.
  function liveCombat(node, piece) {
    const stat = [...node.querySelectorAll(".card-stats .stat")].find((s) => s.title === "combat");
    if (!stat || !("combat" in piece.marks)) return;
    const now = Number(piece.marks.combat);
    const printed = Number(piece.card.stats.combat);
    stat.textContent = `combat ${now}`;
    if (now !== printed) stat.classList.add(now > printed ? "ku-up" : "ku-down");
    const mark = [...node.querySelectorAll(":scope > .marks > .mark")]
      .find((each) => each.title.startsWith("combat "));
    if (mark) mark.remove();
  }

  function decoratePiece(node, piece) {
    if (piece.card) {
      const cost = node.querySelector(".card-cost");
      if (cost && piece.card.cost !== null) cost.replaceChildren(...keys(piece.card.cost));
      for (const stat of node.querySelectorAll(".card-stats .stat")) {
        const label = stat.title;
        if (label === "gives" || label === "keys") {
          stat.replaceChildren(`${label} `, ...keys(piece.card.stats[label]));
        }
      }
      liveCombat(node, piece);
      node.classList.add(`ku-${piece.card.kind}`);
    }
    const count = Number(piece.marks.tokens || 0);
    const station = /^cross\d+\/(\w+)$/.exec(piece.id);
    if (station) {
      node.prepend(el("div", { class: "ku-station-line" }, el("span", { class: "ku-station" }, station[1]),
        count ? tokens(node, count) : ""));
    } else if (piece.id.startsWith("hub") || piece.id === "pool") node.append(tokens(node, count));
    // An Influence drawn on this piece needs no badge naming it as well.
    if (piece.marks.influences && node.querySelector(":scope > .attachments")) {
      const mark = [...node.querySelectorAll(":scope > .marks > .mark")]
        .find((each) => each.title.startsWith("influences "));
      if (mark) mark.remove();
    }
  }

  // A seat: the cross with its piles beside it, the hand at the edge of the table (the top
  // for the seats across, the bottom for the viewer).
  function arrangeSeat(seat, bottom) {
    const areas = seat.querySelector(".seat-areas");
    if (!areas) return;
    const byPrefix = new Map([...areas.children].map((node) =>
      [node.dataset.area.replace(/\d+$/, ""), node]));
    const piles = el("div", { class: "ku-piles" });
    for (const prefix of ["hubcard", "deck", "discard", "influences"]) {
      if (byPrefix.has(prefix)) piles.append(byPrefix.get(prefix));
    }
    const board = el("div", { class: "ku-band ku-board" }, byPrefix.get("cross") || "", piles);
    const edge = el("div", { class: "ku-band ku-edge" }, byPrefix.get("hand") || "");
    areas.replaceChildren(...(bottom ? [board, edge] : [edge, board]));
  }

  function decorate(root, view, ctx) {
    root.classList.add("ku");
    ctx.eachSeat(arrangeSeat);
    ctx.eachPieceNode(decoratePiece);
    // Influences are drawn on what they lie on: their own area is left without pieces.
    for (const box of root.querySelectorAll('[data-area^="influences"]')) {
      box.hidden = !box.querySelector(".piece");
    }
  }

  Tabletop.registerGame("kult", { decorate });
})();
