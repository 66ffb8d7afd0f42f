// HKK's table (envs/hkk/view.py): each side as a card table, the guard post facing the
// other side's guard post across the middle, then the reserve and the buildings and other
// cards beside them; the player (what an attack at the player hits), the hand and the piles
// in a strip at the edge. Items, enchantments, level-ups and body parts are drawn on their
// carriers (the page's `on`), the chain as a stack of cards while it is open. Every card is
// the generic piece element, so selecting, targets and clicks stay the page's; this file only
// lays them out and adds the touches below.
"use strict";

(() => {
  const BACK = ["reserve", "beside"];
  const EDGE = ["player", "hand", "deck", "discard", "void"];
  const NOW = "damage/life "; // the mark of a creature's figures as they are now

  // The kind of an area of a seat, from its id ("guard1" -> "guard").
  function areaKind(area) { return area.id.replace(/\d+$/, ""); }

  // The chain: its plays as a stack, the first played at the bottom, the last on top and
  // most in sight; each card says whose play it is and what it aims at.
  function drawChain(area, view, ctx) {
    const box = document.createElement("section");
    box.className = "area hkk-chain";
    box.dataset.area = area.id;
    const title = document.createElement("h3");
    title.textContent = area.title;
    const stack = document.createElement("ol");
    stack.className = "hkk-stack";
    stack.setAttribute("reversed", "");
    area.pieces.forEach((piece, index) => {
      const entry = document.createElement("li");
      entry.style.setProperty("--depth", String(area.pieces.length - 1 - index));
      const who = document.createElement("span");
      who.className = "hkk-chain-who";
      const player = piece.marks.player;
      who.textContent = player === ctx.observer ? "yours" : ctx.seatName(player);
      entry.append(who, ctx.pieceElement(piece, area));
      stack.prepend(entry);
    });
    box.append(title, stack);
    return box;
  }

  function drawArea(area, view, ctx) {
    return area.id === "chain" ? drawChain(area, view, ctx) : null;
  }

  // A seat's areas in three bands from the middle of the table out: the guard post (facing
  // the other side's), the reserve and the cards beside it, then the edge strip (player,
  // hand, piles) towards its player.
  function arrangeSeat(seatNode, bottom) {
    const areas = seatNode.querySelector(":scope > .seat-areas");
    if (!areas) return;
    const band = (kinds, name) => {
      const node = document.createElement("div");
      node.className = `hkk-band ${name}`;
      for (const kind of kinds) {
        const area = areas.querySelector(`:scope > [data-area^="${kind}"]`);
        if (area) node.append(area);
      }
      return node;
    };
    const bands = [band(["guard"], "hkk-field hkk-front"), band(BACK, "hkk-field"),
      band(EDGE, "hkk-edge")];
    areas.append(...(bottom ? bands : bands.reverse()));
  }

  // Passive cards are turned (HK-1.4); the figures a creature has now, beside its printed
  // ones, are drawn as a badge over its stats.
  function markCards(root) {
    for (const node of root.querySelectorAll(".piece.card")) {
      if (node.classList.contains("passive")) node.classList.add("hkk-turned");
      const now = [...node.querySelectorAll(":scope > .marks > .mark")]
        .find((mark) => mark.title.startsWith(NOW));
      if (now) {
        now.classList.add("hkk-now");
        now.textContent = now.title.slice(NOW.length);
        now.title = `damage/life now ${now.textContent}`;
      }
    }
  }

  function decorate(root, view, ctx) {
    root.classList.add("hkk");
    ctx.eachSeat(arrangeSeat);
    markCards(root);
  }

  Tabletop.registerGame("hkk", { drawArea, decorate });
})();
