// Gold & Dust's table (envs/gold_and_dust/view.py): each side as a battlefield, its first
// row towards the middle, then its second row, then the Hero with its artifacts, deck and
// graveyard, and the hand at the edge; so the opponent's hand is at the very top and the
// viewer's at the very bottom (GD-5.1). Cards show their cost as gold and dust coins in the
// corner and a unit's attack, armour and HP now at the bottom. Pieces are the generic
// piece elements, so selecting, targets and clicks stay the page's.
"use strict";

(() => {

  // The bands of a side, from the middle of the table outwards.
  const BANDS = [
    ["gd-line gd-front", ["front"]],
    ["gd-line gd-back", ["back"]],
    ["gd-command", ["hero", "artifacts", "deck", "graveyard"]],
    ["gd-edge", ["hand"]],
  ];

  // Lay a side's areas out in bands: outwards from the middle, so reversed for the top.
  function arrangeSeat(seat, bottom) {
    const areas = seat.querySelector(".seat-areas");
    if (!areas) return;
    const byPrefix = new Map([...areas.children].map((node) =>
      [node.dataset.area.replace(/\d+$/, ""), node]));
    const bands = BANDS.map(([classes, prefixes]) => {
      const band = el("div", { class: `gd-band ${classes}` });
      for (const prefix of prefixes) if (byPrefix.has(prefix)) band.append(byPrefix.get(prefix));
      return band;
    });
    areas.replaceChildren(...(bottom ? bands : bands.reverse()));
  }

  // "4 gold 1 dust" as coins; the words stay in the title.
  function coins(cost) {
    const gold = /(\d+) gold/.exec(cost);
    const dust = /(\d+) dust/.exec(cost);
    const made = [];
    if (gold) made.push(el("span", { class: "gd-coin gd-gold" }, gold[1]));
    if (dust) made.push(el("span", { class: "gd-coin gd-dust" }, dust[1]));
    if (!made.length) made.push(el("span", { class: "gd-coin gd-free" }, "0"));
    return made;
  }

  const SYMBOLS = { attack: "atk", armour: "arm", HP: "♥" };

  // A card's figures now: the marks of the same name replace the printed stats (and are
  // dropped as badges); a figure that differs from the print is marked up or down.
  function liveStats(node, piece) {
    const card = piece.card;
    for (const stat of node.querySelectorAll(".card-stats .stat")) {
      const label = stat.title;
      const now = label in piece.marks ? String(piece.marks[label]) : String(card.stats[label]);
      const printed = String(card.stats[label]);
      stat.replaceChildren(el("span", { class: "gd-symbol" }, SYMBOLS[label] || label), " ", now);
      stat.classList.add(`gd-stat-${label}`);
      if (label in piece.marks && now.split("/")[0] !== printed) {
        const lower = parseInt(now, 10) < parseInt(printed, 10);
        stat.classList.add(lower ? "gd-down" : "gd-up");
      }
    }
    for (const mark of node.querySelectorAll(":scope > .marks > .mark")) {
      const label = mark.title.replace(/ [^ ]+$/, "");
      if (label in card.stats) mark.remove();
    }
  }

  function decorateCard(node, piece) {
    const cost = node.querySelector(".card-cost");
    if (cost) cost.replaceChildren(...coins(piece.card.cost));
    liveStats(node, piece);
    const kind = piece.card.kind.split(" ");
    node.classList.add(`gd-${kind[0]}`, `gd-kind-${kind[kind.length - 1]}`);
  }

  function decorate(root, view, ctx) {
    root.classList.add("gd");
    ctx.eachSeat(arrangeSeat);
    ctx.eachPieceNode((node, piece) => { if (piece.card) decorateCard(node, piece); });
  }

  Tabletop.registerGame("gold_and_dust", { decorate });
})();
