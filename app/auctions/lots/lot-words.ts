// How a lot is named in words (issue 31): an auction of one lot shows no lot vocabulary.

/** "Lot 2: Rig move", or "Lot 2" for a lot without a title. */
export const lotName = (lot: { position: number; title: string }) =>
  lot.title ? `Lot ${lot.position}: ${lot.title}` : `Lot ${lot.position}`;

/** `"Title"` for an auction of one lot; `"Title", Lot 2: Rig move` for a lot of several. */
export const lotOfAuction = (auctionTitle: string, lot: { position: number; title: string }, lotCount: number) =>
  lotCount > 1 ? `"${auctionTitle}", ${lotName(lot)}` : `"${auctionTitle}"`;
