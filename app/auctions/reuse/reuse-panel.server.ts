import type { Database } from "~db/database.server";
import type { AuctionRow } from "../auction-rules";
import type { Viewer } from "../auction-views.server";
import { copyOrigin } from "./auction-copy.server";

// What the auction page shows of issue 21: the practice banner, the copy button (the auction's own
// side only) and, on a copied draft, where it came from and which sellers were left out.

export async function reuseOf(db: Database, auction: AuctionRow, viewer: Viewer) {
  const owner = viewer.kind === "owner";
  return {
    practice: auction.practice,
    mayCopy: owner && !auction.practice,
    copiedFrom: owner && auction.status === "draft" ? await copyOrigin(db, auction) : null,
  };
}

export type Reuse = Awaited<ReturnType<typeof reuseOf>>;
