import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { placeManualBid } from "~/auctions/bidding/bid-queue.server";
import { advanceAuctions } from "~/auctions/clock/auction-clock.server";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import { auctions } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../support/auction-fixtures";
import { startTestApp, type TestApp } from "../support/test-app";
import { submit } from "./account-helpers";
import { pagesOn } from "./app-pages";
import { browserForFile, type JavaScriptMode } from "./browser";

// Shared by the whole-auction browser tests (reverse and sealed): their app, sellers, the clock
// moved by hand, and the award.

type Catalogue = Awaited<ReturnType<typeof catalogueForAuctions>>;

export const mainText = async (page: Page) => (await page.locator("main").textContent()) ?? "";

/**
 * The app on PGlite with the demo catalogue's first service and area, started before the file's
 * tests (with `environment` added to its settings) and stopped after them; one Chromium for the file
 * and `open` for a page on the app.
 */
export function auctionAppForFile(environment: NodeJS.ProcessEnv = {}) {
  let app: TestApp | undefined;
  let catalogue: Catalogue | undefined;
  beforeAll(async () => {
    app = await startTestApp("pglite", environment);
    catalogue = await catalogueForAuctions(app.services.db);
  });
  afterAll(async () => {
    await app?.stop();
  });
  const started = (): { app: TestApp; catalogue: Catalogue } => {
    if (!app || !catalogue) throw new Error("the auction app has not started");
    return { app, catalogue };
  };
  const { browser } = browserForFile();
  return { started, open: pagesOn(browser, () => started().app.baseURL) };
}

/** Two sellers offering the catalogue's service in its area. */
export async function twoSellers(app: TestApp, catalogue: Catalogue, names: string[]) {
  const [first, second] = await Promise.all(
    names.map((name) =>
      createSeller(app.services.db, {
        name,
        serviceIds: [catalogue.serviceId],
        serviceAreaIds: [catalogue.serviceAreaId],
      }),
    ),
  );
  if (!first || !second) throw new Error("no sellers");
  return [first, second] as const;
}

/**
 * A buyer's open reverse auction (reserve $50,000.00, decrement $10.00, ending in 30 minutes) with
 * three invited sellers, named after `label`: alpha, and bravo and charlie, who can take turns
 * outbidding (a seller cannot beat its own lowest bid). `bid` places a seller's bid as if typed and
 * expects it accepted.
 */
export async function liveAuctionWithThreeSellers(app: TestApp, catalogue: Catalogue, label: string) {
  const db = app.services.db;
  const buyer = await createBuyer(db, `${label} Oil Ltd.`);
  const [alpha, bravo] = await twoSellers(app, catalogue, [`${label} Alpha Ltd.`, `${label} Bravo Inc.`]);
  const charlie = await createSeller(db, {
    name: `${label} Charlie Ltd.`,
    serviceIds: [catalogue.serviceId],
    serviceAreaIds: [catalogue.serviceAreaId],
  });
  const auction = await createAuctionRow(db, {
    owner: buyer,
    ...catalogue,
    sellers: [alpha, bravo, charlie],
    reserveCents: 5_000_000,
    decrement: { kind: "amount", value: 1_000 },
    endsAt: new Date(Date.now() + 30 * 60_000),
  });
  const bid = async (seller: Party, amountCents: number) => {
    const outcome = await placeManualBid(db, {
      auctionId: auction.id,
      organizationId: seller.organizationId,
      userId: seller.userId,
      amountCents,
    });
    expect(outcome.kind, JSON.stringify(outcome)).toBe("accepted");
  };
  return { buyer, alpha, bravo, charlie, auction, bid };
}

/** Bidding opens, as the clock would at the start time. */
export async function openBidding(app: TestApp, auctionId: number) {
  await app.services.db
    .update(auctions)
    .set({ startsAt: new Date(Date.now() - 1_000) })
    .where(eq(auctions.id, auctionId));
  await advanceAuctions(app.services);
}

/** The auction closes on time, as the clock would at the end time. */
export async function closeAuction(app: TestApp, auctionId: number, lotsSpanMinutes = 0) {
  // Lots close one after another (issue 31): the first lot's end goes back by their span, so the last has ended too.
  const ended = new Date(Date.now() - 1_000 - lotsSpanMinutes * 60_000);
  await moveAuctionTimes(app.services.db, auctionId, { startsAt: new Date(ended.getTime() - 60_000), endsAt: ended });
  await advanceAuctions(app.services);
}

/** The buyer awards the closed auction after a confirmation, and reads `awarded` on the page. */
export async function awardAuction(
  page: Page,
  mode: JavaScriptMode,
  auctionId: number,
  awarded: string,
  axe: (page: Page) => Promise<void>,
) {
  await page.goto(`/auctions/${auctionId}`);
  await submit(page, mode, page.getByRole("link", { name: "Award the auction" }), { clientSide: true });
  await page.getByRole("button", { name: "Award", exact: true }).waitFor();
  await axe(page);
  await submit(page, mode, page.getByRole("button", { name: "Award", exact: true }));
  await page.getByRole("button", { name: "Yes, award" }).waitFor();
  await submit(page, mode, page.getByRole("button", { name: "Yes, award" }));
  await expect.poll(() => mainText(page)).toContain(awarded);
  await axe(page);
}
