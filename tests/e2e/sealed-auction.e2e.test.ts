import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { auctionBidRequirements, auctions, evaluationCriteria, evaluationScores } from "~db/schema";
import { auctionRow, createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { PDF } from "../support/document-samples";
import { HAULING, HAULING_AND_CEMENTING } from "../support/lot-fixtures";
import { errorAlertText, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, awardAuction, closeAuction, mainText, openBidding, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml, waitForAppIfShipped } from "./browser";

// A whole sealed-bid auction in Chromium (issue 10), with JavaScript off and on: the buyer writes it
// with two required documents, a consultant to evaluate and a 60/40 price/technical weighting; the
// consultant sets the criteria before bids open; two sellers send sealed bids with their documents
// (one replaces its bid); nobody sees a bid before the deadline; afterwards the buyer and the
// consultant see them side by side, the consultant scores them and completes the evaluation, and
// the buyer awards the best-ranked bid, which is not the cheapest. axe on every screen.

const { started, open } = auctionAppForFile();

const pdf = (name: string) => ({ name, mimeType: "application/pdf", buffer: PDF });

describe.each(javaScriptModes)("a sealed-bid auction with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("runs from the buyer's terms through sealed bids and evaluation to the award", { timeout: 240_000 }, async () => {
    const { app, catalogue } = started();
    const buyer = await createBuyer(app.services.db, `Sealed Oil ${mode} Ltd.`);
    const consultantName = `Ridge Evaluation ${mode} Inc.`;
    const consultant = await createBuyer(app.services.db, consultantName, 4);
    const sellerNames = [`Cheap Hauling ${mode} Ltd.`, `Solid Trucking ${mode} Inc.`];
    const [cheap, solid] = await twoSellers(app, catalogue, sellerNames);
    const title = `Sealed supervision ${mode}`;

    // The buyer: a sealed auction with its documents, evaluator and weights.
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto("/auctions/new");
    await buyerPage.getByLabel(/Sealed bids: one bid each/).check();
    // With JavaScript only the chosen kind's fields show; without it every field does, each saying its kind.
    const decrement = buyerPage.getByLabel("Minimum decrement (CAD)");
    if (mode === "js") await expect.poll(() => decrement.isVisible()).toBe(false);
    else expect(await decrement.isVisible()).toBe(true);
    await axe(buyerPage);
    await buyerPage.getByLabel("Title").fill(title);
    await buyerPage.getByLabel("Description").fill("Wellsite supervision for a 3-well pad.");
    await buyerPage.getByLabel("Service category").selectOption(String(catalogue.serviceId));
    await buyerPage.getByLabel("Service area").selectOption(String(catalogue.serviceAreaId));
    await buyerPage.getByLabel("Reserve price (CAD)").fill("80000");
    await buyerPage.getByLabel("Documents each bid must carry").fill("Price schedule\nTechnical proposal");
    await buyerPage.getByLabel("Who evaluates the bids").selectOption({ label: consultantName });
    await buyerPage.getByLabel("Weight of price in the ranking (%)").fill("60");
    await buyerPage.getByLabel(/Technical pass mark/).fill("50");
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save draft and choose sellers" }));
    await expect.poll(() => buyerPage.url()).toMatch(/\/auctions\/\d+\/sellers/);
    const auctionId = Number(/\/auctions\/(\d+)\//.exec(buyerPage.url())?.[1]);
    for (const name of sellerNames) await buyerPage.getByLabel(new RegExp(name)).check();
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Invite the chosen sellers" }));
    await expect.poll(() => mainText(buyerPage)).toContain("Seller B");

    // The consultant sets the criteria before bids open.
    const consultantPage = await open(mode);
    await signInAs(consultantPage, mode, consultant);
    await defineCriteria(consultantPage, mode, auctionId);
    await axe(consultantPage);

    await buyerPage.goto(`/auctions/${auctionId}`);
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Publish and e-mail the invited sellers" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The auction is published");
    await openBidding(app, auctionId);

    // Each seller accepts the terms and sends a sealed bid with its documents; Cheap replaces its bid.
    const sellerPages: Page[] = [];
    for (const [seller, amount, prefix] of [
      [cheap, "60000", "cheap"],
      [solid, "70000", "solid"],
    ] as const) {
      const page = await open(mode);
      sellerPages.push(page);
      await signInAs(page, mode, seller);
      await page.goto(`/auctions/${auctionId}`);
      await submit(page, mode, page.getByRole("button", { name: "I accept these terms" }));
      await page.getByRole("button", { name: "Send my sealed bid" }).waitFor();
      await axe(page);
      // Without a document the form answers at the field, the amount kept.
      await page.getByLabel("Your bid (CAD)").fill(amount);
      await page.getByLabel("Price schedule").setInputFiles(pdf(`${prefix}-schedule.pdf`));
      await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
      await expect.poll(() => mainText(page)).toContain("Please attach the Technical proposal");
      await axe(page);
      expect(await page.getByLabel("Your bid (CAD)").inputValue()).toBe(amount);
      await page.getByLabel("Price schedule").setInputFiles(pdf(`${prefix}-schedule.pdf`));
      await page.getByLabel("Technical proposal").setInputFiles(pdf(`${prefix}-proposal.pdf`));
      await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
      await expect.poll(() => mainText(page)).toContain("Your sealed bid has been received");
      await axe(page);
    }
    const [cheapPage, solidPage] = sellerPages as [Page, Page];
    await cheapPage.getByLabel("Your bid (CAD)").fill("59000");
    await submit(cheapPage, mode, cheapPage.getByRole("button", { name: "Replace my sealed bid" }));
    await expect.poll(() => mainText(cheapPage)).toContain("$59,000.00");

    // Before the deadline: the buyer and the consultant learn only how many bids came.
    for (const page of [buyerPage, consultantPage]) {
      await page.goto(`/auctions/${auctionId}`);
      const text = await mainText(page);
      expect(text).toContain("2 sealed bids received");
      for (const secret of ["$59,000.00", "$70,000.00", "cheap-proposal", "solid-proposal"]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(await solidPage.content()).not.toContain("$59,000.00");

    // The deadline passes: every bid side by side, with its documents.
    await closeAuction(app, auctionId);
    await buyerPage.goto(`/auctions/${auctionId}`);
    const opened = await mainText(buyerPage);
    for (const text of [...sellerNames, "$59,000.00", "$70,000.00", "cheap-proposal.pdf", "solid-schedule.pdf"]) {
      expect(opened).toContain(text);
    }
    await axe(buyerPage);
    if (mode === "no-js") {
      expect(await validateHtml({ opened: await buyerPage.content() })).toEqual([]);
    }

    // The consultant scores both bids and completes the evaluation.
    await scoreAndComplete(consultantPage, mode, auctionId, sellerNames, axe);
    if (mode === "no-js") {
      expect(await validateHtml({ evaluation: await consultantPage.content() })).toEqual([]);
    }

    // The buyer awards the best-ranked bid (Solid: better technically, 60/40), which is not the cheapest.
    await awardAuction(buyerPage, mode, auctionId, `Awarded to ${sellerNames[1]} at $70,000.00`, axe);
    await solidPage.goto(`/auctions/${auctionId}`);
    expect(await mainText(solidPage)).toContain("You won this auction");
    for (const page of [buyerPage, consultantPage, ...sellerPages]) await page.context().close();
  });
});

/** The consultant's criteria: Safety record (weight 50) and Method (weight 50). */
async function defineCriteria(page: Page, mode: "js" | "no-js", auctionId: number) {
  await page.goto(`/auctions/${auctionId}/evaluation`);
  for (const name of ["Safety record", "Method"]) {
    await page.getByLabel("Criterion").fill(name);
    await page.getByLabel("Weight").fill("50");
    await submit(page, mode, page.getByRole("button", { name: "Add criterion" }));
    await expect.poll(() => mainText(page)).toContain(name);
  }
}

/** Scores the cheap bid 4/10 and the solid one 9/10 on both criteria, then completes the evaluation. */
async function scoreAndComplete(
  page: Page,
  mode: "js" | "no-js",
  auctionId: number,
  sellerNames: string[],
  axe: (page: Page) => Promise<void>,
) {
  await page.goto(`/auctions/${auctionId}/evaluation`);
  // A score out of range is answered at its field.
  const first = page.getByRole("group", { name: sellerNames[0] ?? "" });
  await first.getByLabel("Score for Method").fill("12");
  await submit(page, mode, first.getByRole("button", { name: "Save scores" }));
  await expect.poll(() => mainText(page)).toContain("Please enter a whole number from 0 to 10");
  await axe(page);
  for (const [name, score] of [
    [sellerNames[0] ?? "", "4"],
    [sellerNames[1] ?? "", "9"],
  ] as const) {
    const group = page.getByRole("group", { name });
    for (const criterion of ["Safety record", "Method"]) {
      await group.getByLabel(`Score for ${criterion}`).fill(score);
    }
    await submit(page, mode, group.getByRole("button", { name: "Save scores" }));
    await expect.poll(() => mainText(page)).toContain(`Scores saved for ${name}`);
  }
  await submit(page, mode, page.getByRole("button", { name: "Mark the evaluation complete" }));
  await submit(page, mode, page.getByRole("button", { name: /Yes, mark it complete/ }));
  await expect.poll(() => mainText(page)).toContain("The evaluation is complete");
  await axe(page);
}

// A sealed auction's price schedule in Chromium, with JavaScript on and off (issue 31): the buyer
// gives the sealed auction's one lot its line items (pasted as CSV, no decrement asked); two sellers
// send a unit price per line with their documents (with JavaScript the total shows as they type;
// without it, in "Your sealed bid" once sent), one first over a line's ceiling; after the deadline
// the buyer reads the schedules side by side, line by line. axe on every screen with JavaScript,
// the validator on the new pages without.

describe.each(javaScriptModes)("a sealed auction's price schedule with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("is set up by the buyer, priced line by line by the sellers and compared after the deadline", {
    timeout: 120_000,
  }, async () => {
    const { app, catalogue } = started();
    const db = app.services.db;
    const buyer = await createBuyer(db, `Sealed Schedule ${mode} Ltd.`);
    const [alphaName, bravoName] = [`Alpha Sched ${mode} Ltd.`, `Bravo Sched ${mode} Inc.`];
    const [alpha, bravo] = await twoSellers(app, catalogue, [alphaName, bravoName]);

    // The buyer: a sealed draft's lot takes line items; no decrement, no gap between closings.
    const draft = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      status: "draft",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 90_000_000),
    });
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto(`/auctions/${draft.id}/lots`);
    await waitForAppIfShipped(buyerPage);
    expect(await mainText(buyerPage)).toContain("Give each lot line items");
    expect(await buyerPage.getByRole("link", { name: "Add a lot" }).count()).toBe(1);
    expect(await buyerPage.getByLabel("Minutes between lots' closings").count()).toBe(0);
    await axe(buyerPage);
    const lotsHtml = mode === "no-js" ? await buyerPage.content() : "";
    await submit(buyerPage, mode, buyerPage.getByRole("link", { name: "Edit Lot 1" }), { clientSide: true });
    await buyerPage.getByLabel("Name of the lot").waitFor();
    await waitForAppIfShipped(buyerPage);
    expect(await buyerPage.getByLabel("Minimum decrement (CAD)").count()).toBe(0);
    await axe(buyerPage);
    const lotHtml = mode === "no-js" ? await buyerPage.content() : "";
    await buyerPage.getByLabel("Name of the lot").fill("Hauling");
    await buyerPage.getByLabel("Reserve for the lot's total (CAD)").fill("2000.00");
    await buyerPage
      .getByLabel("Or paste the line items from a spreadsheet (CSV)")
      .fill(
        "description,unit,quantity,ceiling_unit_price\nVacuum truck,hour,10,\nMileage,km,2.5,\nDisposal,m³,100,4.00",
      );
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save the lot" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The lot was saved.");
    await axe(buyerPage);
    expect((await auctionRow(db, draft.id)).lots[0]?.lineCount).toBe(3);

    // An open sealed auction of that schedule, with one required document.
    const auction = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      reserveCents: 200_000,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo],
      lots: [{ title: "", reserveCents: 200_000, decrementKind: "percent", decrementValue: 100, lines: HAULING }],
    });
    await db.insert(auctionBidRequirements).values({ auctionId: auction.id, name: "Technical proposal", sortOrder: 0 });

    const sellerPages: Page[] = [];
    let formHtml = "";
    let refusedHtml = "";
    for (const [seller, prices, total] of [
      [alpha, ["100.00", "50.00", "3.00"], "$1,425.00"],
      [bravo, ["90.00", "50.00", "3.50"], "$1,375.00"],
    ] as const) {
      const page = await open(mode);
      sellerPages.push(page);
      await signInAs(page, mode, seller);
      await page.goto(`/auctions/${auction.id}`);
      await waitForAppIfShipped(page);
      await submit(page, mode, page.getByRole("link", { name: /Enter your price schedule/ }), { clientSide: true });
      await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").waitFor();
      await waitForAppIfShipped(page);
      await axe(page);
      if (mode === "no-js" && !formHtml) formHtml = await page.content();
      await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").fill(prices[0]);
      await page.getByLabel("Unit price, line 2: Mileage, per km").fill(prices[1]);
      if (seller === bravo) {
        // Over the ceiling of $4.00: the line's own message, the prices kept, nothing sent.
        await page.getByLabel("Unit price, line 3: Disposal, per m³").fill("4.50");
        await page.getByLabel("Technical proposal").setInputFiles(pdf("bravo-proposal.pdf"));
        await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
        await expect
          .poll(() => errorAlertText(page))
          .toContain("Line 3: the unit price cannot be more than the ceiling of $4.00");
        expect(await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").inputValue()).toBe(prices[0]);
        await axe(page);
        if (mode === "no-js") refusedHtml = await page.content();
      }
      await page.getByLabel("Unit price, line 3: Disposal, per m³").fill(prices[2]);
      if (mode === "js") await expect.poll(() => mainText(page)).toContain(`Total: ${total}`);
      await page.getByLabel("Technical proposal").setInputFiles(pdf("proposal.pdf"));
      await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
      await expect.poll(() => mainText(page)).toContain("Your sealed bid has been received");
      expect(await mainText(page)).toContain(total);
      await axe(page);
    }

    // Before the deadline the buyer reads no price; after it, the schedules side by side.
    await buyerPage.goto(`/auctions/${auction.id}`);
    expect(await mainText(buyerPage)).not.toContain("$1,375.00");
    await closeAuction(app, auction.id);
    await buyerPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(buyerPage);
    const text = await mainText(buyerPage);
    expect(text).toContain("The price schedules side by side, line by line, lowest total first");
    expect(text).toContain("$900.00");
    expect(text.indexOf(bravoName)).toBeLessThan(text.indexOf(alphaName));
    await axe(buyerPage);
    const schedulesHtml = mode === "no-js" ? await buyerPage.content() : "";
    // The award page shows them above the choice.
    await buyerPage.goto(`/auctions/${auction.id}/award`);
    await waitForAppIfShipped(buyerPage);
    expect(await mainText(buyerPage)).toContain("The price schedules side by side, line by line, lowest total first");
    await axe(buyerPage);
    if (mode === "no-js") {
      expect(
        await validateHtml({
          sealedLots: lotsHtml,
          sealedLot: lotHtml,
          sealedBid: formHtml,
          sealedRefused: refusedHtml,
          schedules: schedulesHtml,
          award: await buyerPage.content(),
        }),
      ).toEqual([]);
    }
    for (const page of [buyerPage, ...sellerPages]) await page.context().close();
  });
});

// A sealed auction of two lots in Chromium, with JavaScript on and off (issue 31): "Hauling" priced
// line by line and "Cementing" as one amount. One seller bids on both lots (with JavaScript, each
// lot's total shows as the prices are typed); the other first over Cementing's reserve, then on
// Hauling alone. After the deadline the buyer reads each lot's schedules side by side and splits the
// award: each lot to its lowest bid, with what every lot to one seller would cost beside it. axe on
// every screen with JavaScript, the validator on the new pages without.

describe.each(javaScriptModes)("a sealed auction of two lots with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("takes bids on some lots or all, shows each lot's schedules and splits the award", {
    timeout: 120_000,
  }, async () => {
    const { app, catalogue } = started();
    const db = app.services.db;
    const buyer = await createBuyer(db, `Sealed Lots ${mode} Ltd.`);
    const [alphaName, bravoName] = [`Alpha Lots ${mode} Ltd.`, `Bravo Lots ${mode} Inc.`];
    const [alpha, bravo] = await twoSellers(app, catalogue, [alphaName, bravoName]);
    const auction = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo],
      lots: HAULING_AND_CEMENTING,
    });
    await db.insert(auctionBidRequirements).values({ auctionId: auction.id, name: "Technical proposal", sortOrder: 0 });
    // One criterion, scored and completed by hand once the deadline passes: the ranking lot by lot.
    const [criterion] = await db
      .insert(evaluationCriteria)
      .values({ auctionId: auction.id, name: "Equipment", weight: 100, sortOrder: 0 })
      .returning();
    if (!criterion) throw new Error("no criterion");
    const price = (page: Page, line: string) => page.getByLabel(`Unit price, ${line}, Lot 1: Hauling`);
    const cementing = (page: Page) => page.getByLabel("Your bid on Lot 2: Cementing (CAD)");

    const sellerPages: Page[] = [];
    const pages: Record<string, string> = {};
    for (const [seller, prices, amount] of [
      [alpha, ["100.00", "50.00", "3.00"], "4400.00"],
      [bravo, ["90.00", "50.00", "3.50"], ""],
    ] as const) {
      const page = await open(mode);
      sellerPages.push(page);
      await signInAs(page, mode, seller);
      await page.goto(`/auctions/${auction.id}`);
      await waitForAppIfShipped(page);
      await submit(page, mode, page.getByRole("link", { name: /Bid on the lots and send your sealed bid/ }), {
        clientSide: true,
      });
      await price(page, "line 1: Vacuum truck, per hour").waitFor();
      await waitForAppIfShipped(page);
      await axe(page);
      if (mode === "no-js" && !pages.sealedLotsBid) pages.sealedLotsBid = await page.content();
      if (seller === bravo) {
        // Over the lot's own reserve: refused at its field, what was typed kept, nothing sent.
        await cementing(page).fill("6000");
        await page.getByLabel("Technical proposal").setInputFiles(pdf("bravo-proposal.pdf"));
        await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
        await expect
          .poll(() => errorAlertText(page))
          .toContain("Your bid on Lot 2: Cementing cannot be higher than its reserve price of $5,000.00");
        expect(await cementing(page).inputValue()).toBe("6000");
        await axe(page);
        if (mode === "no-js") pages.sealedLotsRefused = await page.content();
      }
      if (seller === bravo) {
        // Bravo sends Hauling's filled-in price sheet instead of typing its prices (rows in any order).
        await page.getByLabel("Or attach Lot 1: Hauling's filled-in price sheet (CSV, optional)").setInputFiles({
          name: "hauling.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(`line,unit_price\n3,${prices[2]}\n1,${prices[0]}\n2,${prices[1]}\n`),
        });
      } else {
        await price(page, "line 1: Vacuum truck, per hour").fill(prices[0]);
        await price(page, "line 2: Mileage, per km").fill(prices[1]);
        await price(page, "line 3: Disposal, per m³").fill(prices[2]);
        if (mode === "js") await expect.poll(() => mainText(page)).toContain("Total of Lot 1: Hauling: $1,425.00");
      }
      await cementing(page).fill(amount);
      await page.getByLabel("Technical proposal").setInputFiles(pdf("proposal.pdf"));
      await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
      await expect.poll(() => mainText(page)).toContain("Your sealed bid has been received");
      const sent = await mainText(page);
      expect(sent).toContain("Your bid, lot by lot");
      if (seller === bravo) {
        expect(sent).toContain("Not bid on");
        expect(sent).toContain("$1,375.00");
      }
      await axe(page);
    }

    // After the deadline: each lot's schedules side by side, lowest first.
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await closeAuction(app, auction.id);
    await buyerPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(buyerPage);
    const text = await mainText(buyerPage);
    expect(text).toContain("Lot 1: Hauling: the price schedules side by side, line by line, lowest total first");
    expect(text).toContain("Lot 2: Cementing: the price schedules side by side, line by line, lowest total first");
    const hauling = text.slice(text.indexOf("Lot 1: Hauling: the price"), text.indexOf("Lot 2: Cementing: the price"));
    expect(hauling.indexOf(bravoName)).toBeLessThan(hauling.indexOf(alphaName));
    await axe(buyerPage);
    if (mode === "no-js") pages.sealedLotsOpened = await buyerPage.content();

    // The evaluation ranks each lot on its own: Alpha, alone on Cementing, is first there.
    await db.insert(evaluationScores).values(
      [alpha, bravo].map((seller, index) => ({
        criterionId: criterion.id,
        organizationId: seller.organizationId,
        score: 6 + 2 * index,
      })),
    );
    await db.update(auctions).set({ evaluationCompletedAt: new Date() }).where(eq(auctions.id, auction.id));
    await buyerPage.goto(`/auctions/${auction.id}/evaluation`);
    await waitForAppIfShipped(buyerPage);
    const ranking = await mainText(buyerPage);
    expect(ranking).toContain("Each lot is ranked on its own");
    const lotRanking = (name: string) => buyerPage.getByRole("region", { name: `The ranking of ${name}` });
    expect(await lotRanking("Lot 1: Hauling").getByRole("row").nth(1).innerText()).toContain(bravoName);
    expect(await lotRanking("Lot 2: Cementing").getByRole("row").count()).toBe(2);
    await axe(buyerPage);
    if (mode === "no-js") pages.sealedLotsRanked = await buyerPage.content();
    await buyerPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(buyerPage);

    // The award: lot by lot against every lot to Alpha, side by side; each lot to its lowest bid.
    await submit(buyerPage, mode, buyerPage.getByRole("link", { name: "Award the auction" }), { clientSide: true });
    await buyerPage.getByRole("button", { name: "Review the award" }).waitFor();
    await waitForAppIfShipped(buyerPage);
    const award = await mainText(buyerPage);
    expect(award).toContain("Lot 2: Cementing: the price schedules side by side");
    // With criteria the award follows the ranking (here by price alone: price counts for 100 %).
    expect(award).toContain("Each lot to its best-ranked bid");
    expect(award).toContain("$5,775.00");
    expect(award).toContain(`Every lot to ${alphaName}`);
    expect(award).toContain("$5,825.00");
    await axe(buyerPage);
    if (mode === "no-js") pages.sealedLotsAward = await buyerPage.content();
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Review the award" }));
    await buyerPage.getByRole("button", { name: "Yes, award" }).waitFor();
    const asked = await mainText(buyerPage);
    expect(asked).toContain(`Lot 1: Hauling: ${bravoName} at $1,375.00`);
    expect(asked).toContain(`Lot 2: Cementing: ${alphaName} at $4,400.00`);
    await axe(buyerPage);
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Yes, award" }));
    await expect.poll(() => mainText(buyerPage)).toContain("Awarded lot by lot");
    expect(await mainText(buyerPage)).toContain(`Lot 1: Hauling: ${bravoName} at $1,375.00.`);
    await axe(buyerPage);
    const [alphaPage, bravoPage] = sellerPages as [Page, Page];
    await bravoPage.goto(`/auctions/${auction.id}`);
    expect(await mainText(bravoPage)).toContain("You won lots of this auction");
    expect(await mainText(bravoPage)).toContain("Lot 1: Hauling");
    await alphaPage.goto(`/auctions/${auction.id}`);
    expect(await mainText(alphaPage)).toContain("You won lots of this auction");
    if (mode === "no-js") {
      pages.sealedLotsAwarded = await buyerPage.content();
      expect(await validateHtml(pages)).toEqual([]);
    }
    for (const page of [buyerPage, ...sellerPages]) await page.context().close();
  });
});
