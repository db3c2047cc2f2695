import { eq, sql } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { formatCents } from "~/shared/money";
import { type OnBehalfEffect, users } from "~db/schema";
import { auctionLink } from "../auction-notices.server";
import { userLabel } from "./entered-by.server";

// The seller's notice of a bid or minimum entered on their behalf (issue 21, decision 020). The round
// that took it stores it in `bid_effects` (round-write.server.ts); the fold of those rows
// (bid-notices.server.ts) sends it here, in the transaction that deletes them: never lost, sent once.

async function enteredByLabel(executor: NoticeExecutor, userId: number): Promise<string> {
  const [row] = await executor
    .select({ label: userLabel(sql`${userId}::int`) })
    .from(users)
    .where(eq(users.id, userId));
  return row?.label ?? "the auctioneer";
}

/**
 * A notification to the seller's users and its e-mail queued in the durable outbox, both in
 * `executor`'s transaction (notifications.server.ts). Not optional: it binds them.
 */
export async function tellSellerOnBehalf(
  services: MessageServices,
  /** `named`: the auction as the notice names it, with its lot on an auction of several (lot-words.ts). */
  auction: { id: number; title: string; named: string },
  effect: OnBehalfEffect,
  executor: NoticeExecutor,
) {
  const enteredBy = await enteredByLabel(executor, effect.userId);
  const what =
    effect.what === "bid"
      ? effect.unitCents
        ? `a bid of ${formatCents(effect.amountCents)} in total (unit prices, line by line: ${effect.unitCents.map(formatCents).join(", ")})`
        : `a bid of ${formatCents(effect.amountCents)}`
      : `your secret minimum to ${formatCents(effect.amountCents)} (we bid for you down to it)`;
  await notifyOrganizations(
    services,
    [effect.sellerId],
    {
      kind: "bid-on-behalf",
      auctionId: auction.id,
      subject: `${effect.what === "bid" ? "Bid entered" : "Minimum set"} on your behalf: ${auction.title}`,
      lines: [
        `${enteredBy} entered ${what} on your behalf in ${auction.named}.`,
        `Their note: ${effect.note}`,
        "Bids are binding. If you did not ask for this, contact the auctioneer at once.",
        "",
        auctionLink(services, auction.id),
      ],
    },
    executor,
  );
}
