// Kaleva's table (envs/kaleva/view.py): the board as a board, five rows of squares between
// the two rows of card slots, file letters above and below, rank digits at both sides, as
// the view gives them (turned for the player of Bronze); discs as round discs in their
// colour. Every square and card is the generic piece element, so selecting, targets and
// clicks stay the page's; this file only lays them out and adds the discs.
"use strict";

(() => {
  // A label of the board's edge, placed on the CSS grid (rows and columns count from 1).
  function edgeLabel(text, row, col, kind) {
    const node = document.createElement("span");
    node.className = `kv-label kv-${kind}`;
    node.setAttribute("aria-hidden", "true");
    node.textContent = text;
    node.style.gridRow = row;
    node.style.gridColumn = col;
    return node;
  }

  // A square: light or dark by its place on the board, with a disc drawn on it if any.
  function squareElement(piece, area, ctx) {
    const node = ctx.pieceElement(piece, area);
    const [row, col] = piece.cell;
    node.classList.add("kv-square", (row + col) % 2 ? "kv-dark" : "kv-light");
    if (piece.tags.includes("disc")) {
      const disc = document.createElement("span");
      disc.className = "kv-disc";
      disc.setAttribute("aria-hidden", "true");
      node.append(disc);
    }
    return node;
  }

  // A card slot under its column: the generic card (or back), its value large.
  function slotElement(piece, area, ctx) {
    const node = ctx.pieceElement(piece, area);
    node.classList.add("kv-slot");
    if (piece.card) {
      const value = document.createElement("span");
      value.className = "kv-value";
      value.setAttribute("aria-hidden", "true");
      value.textContent = piece.label;
      node.prepend(value);
    }
    return node;
  }

  function drawBoard(area, view, ctx) {
    const box = document.createElement("section");
    box.className = "area layout-grid kv-board-area";
    box.dataset.area = area.id;
    const heading = document.createElement("h3");
    heading.textContent = area.title;
    const grid = document.createElement("div");
    grid.className = "kv-board";
    grid.style.gridTemplateColumns = `1.3em repeat(${area.cols}, minmax(0, 1fr)) 1.3em`;
    const rowLabels = area.row_labels || [];
    const colLabels = area.col_labels || [];
    colLabels.forEach((label, col) => {
      grid.append(edgeLabel(label, 1, col + 2, "file"), edgeLabel(label, area.rows + 2, col + 2, "file"));
    });
    rowLabels.forEach((label, row) => {
      if (!label) return;
      grid.append(edgeLabel(label, row + 2, 1, "rank"), edgeLabel(label, row + 2, area.cols + 2, "rank"));
    });
    for (const piece of area.pieces) {
      const node = piece.tags.includes("slot") ? slotElement(piece, area, ctx) : squareElement(piece, area, ctx);
      node.style.gridRow = piece.cell[0] + 2;
      node.style.gridColumn = piece.cell[1] + 2;
      grid.append(node);
    }
    box.append(heading, grid);
    return box;
  }

  Tabletop.registerGame("kaleva", {
    drawArea(area, view, ctx) {
      return area.id === "board" ? drawBoard(area, view, ctx) : null;
    },
  });
})();
