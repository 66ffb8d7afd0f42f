// Regicide's table (envs/regicide/view.py): the enemy large in the middle with its health,
// attack and shield; the castle and tavern as face-down piles beside it, the discard pile
// face up; the cards played against the enemy below it; hands as fans of cards. Pieces are
// the generic piece elements, so selecting, targets and clicks stay the page's.
"use strict";

(() => {

  function section(area, ...classes) {
    const box = el("section", { class: ["area", `layout-${area.layout}`, ...classes].join(" ") }, el("h3", {}, area.title));
    box.dataset.area = area.id;
    return box;
  }

  // One figure of the enemy: a big number with its word under it.
  function figure(kind, value, word) {
    const node = el("div", { class: `rg-figure rg-${kind}` }, el("b", {}, String(value)), el("span", {}, word));
    node.title = `${word} ${value}`;
    return node;
  }

  // The enemy card, large, with health left (and a bar), attack after shields, shield.
  function drawEnemy(area, view, ctx) {
    const box = section(area, "rg-enemy-area");
    const piece = area.pieces[0];
    if (!piece) {
      box.append(el("div", { class: "rg-no-enemy" }, "The castle is empty"));
      return box;
    }
    const stats = piece.card.stats;
    const [damage, health] = String(piece.marks.damage).split("/").map(Number);
    const bar = el("div", { class: "rg-health-bar" }, el("span", {}));
    bar.firstChild.style.width = `${Math.max(0, 100 * (1 - damage / health))}%`;
    bar.title = `health ${stats.health} of ${health}`;
    const card = ctx.pieceElement(piece, area);
    card.classList.add("rg-enemy");
    box.append(el("div", { class: "rg-enemy-row" }, card, el("div", { class: "rg-figures" },
      figure("health", `${stats.health}/${health}`, "health left"),
      figure("attack", stats.attack, "attack"),
      figure("shield", stats.shield, "shield"),
      figure("immune", piece.marks.immune, "immune to"), bar)));
    return box;
  }

  // A face-down pile: a few backs offset like a stack, the count, any known top face up.
  function drawStack(area, view, ctx) {
    const box = section(area, "rg-stack");
    const stack = el("div", { class: "rg-backs" });
    for (let i = 0; i < Math.min(4, Math.ceil(area.count / 8)); i++) stack.append(el("span", { class: "rg-back" }));
    for (const piece of area.pieces) stack.append(ctx.pieceElement(piece, area));
    box.append(stack, el("span", { class: "pile-count" }, area.count === 1 ? "1 card" : `${area.count} cards`));
    if (!area.count) box.classList.add("empty-area");
    return box;
  }

  // A hand as a fan: each card turned a little more than the last, overlapping.
  function drawHand(area, view, ctx) {
    const box = section(area, "rg-hand");
    const fan = el("div", { class: "rg-fan" });
    const n = area.pieces.length;
    area.pieces.forEach((piece, i) => {
      const card = ctx.pieceElement(piece, area);
      card.style.setProperty("--turn", `${(i - (n - 1) / 2) * Math.min(3, 18 / Math.max(n, 1))}deg`);
      fan.append(card);
    });
    if (!n) box.classList.add("empty-area");
    box.append(fan);
    return box;
  }

  const DRAWERS = { enemy: drawEnemy, castle: drawStack, tavern: drawStack };

  Tabletop.registerGame("regicide", {
    drawArea(area, view, ctx) {
      if (DRAWERS[area.id]) return DRAWERS[area.id](area, view, ctx);
      if (area.id.startsWith("hand")) return drawHand(area, view, ctx);
      return null;
    },
  });
})();
