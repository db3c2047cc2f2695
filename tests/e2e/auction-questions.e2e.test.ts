import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { QUESTION_MESSAGES } from "~/auctions/questions/question-schema";
import { createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { PDF } from "../support/document-samples";
import { errorAlert, expectAlertFocused, expectFieldMessage, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml } from "./browser";

// Issue 21's questions in Chromium, JavaScript on and off: an invited seller asks on the auction page
// (an empty question is answered at the field), the buyer publishes the answer for every invited
// seller, and the other seller reads it without learning who asked. axe on every screen; the server's
// HTML through the W3C validator.

const { started, open } = auctionAppForFile();

const questionsText = async (page: Page) => (await page.locator("#questions-section").textContent()) ?? "";

async function scheduledAuction(mode: string) {
  const { app, catalogue } = started();
  const buyer = await createBuyer(app.services.db, `Prairie Oil Questions ${mode} Ltd.`);
  const names = [`Alpha Questions ${mode} Ltd.`, `Bravo Questions ${mode} Inc.`];
  const [alpha, bravo] = await twoSellers(app, catalogue, names);
  const auction = await createAuctionRow(app.services.db, {
    owner: buyer,
    ...catalogue,
    status: "scheduled",
    startsAt: new Date(Date.now() + 86_400_000),
    endsAt: new Date(Date.now() + 2 * 86_400_000),
    sellers: [alpha, bravo],
  });
  return { buyer, alpha, bravo, names, auctionId: auction.id };
}

describe.each(javaScriptModes)("auction questions with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("a seller asks, the buyer publishes the answer, the other seller reads it without the asker", {
    timeout: 180_000,
  }, async () => {
    const { buyer, alpha, bravo, names, auctionId } = await scheduledAuction(mode);

    // Alpha asks; an empty question is answered at the field first.
    const alphaPage = await open(mode);
    await signInAs(alphaPage, mode, alpha);
    await alphaPage.goto(`/auctions/${auctionId}`);
    await alphaPage.getByRole("heading", { name: "Questions and answers" }).waitFor();
    await axe(alphaPage);
    await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Send the question" }), { clientSide: true });
    await expectFieldMessage(alphaPage, alphaPage.getByLabel("Your question"), QUESTION_MESSAGES.question);
    await expectAlertFocused(alphaPage);
    await axe(alphaPage);
    await alphaPage.getByLabel("Your question").fill("Which gate do the trucks use?");
    await alphaPage
      .getByLabel("Attachment")
      .setInputFiles({ name: "Gate photo.pdf", mimeType: "application/pdf", buffer: PDF });
    await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Send the question" }));
    await expect.poll(() => mainText(alphaPage)).toContain("Your question has been sent to the buyer.");
    expect(await questionsText(alphaPage)).toContain("Which gate do the trucks use?");
    expect(await errorAlert(alphaPage).count()).toBe(0);
    await axe(alphaPage);

    // The buyer sees who asked and publishes the answer for every invited seller.
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto(`/auctions/${auctionId}`);
    await buyerPage.getByRole("heading", { name: "Questions and answers" }).waitFor();
    const asked = await questionsText(buyerPage);
    expect(asked).toContain("Which gate do the trucks use?");
    expect(asked).toContain(names[0]);
    await axe(buyerPage);
    await buyerPage.getByLabel("Your answer").fill("The north gate, off Range Road 12.");
    await buyerPage.getByLabel("Every invited seller, with the question (the asker is never named)").check();
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Send the answer" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The answer has been sent.");
    expect(await questionsText(buyerPage)).toContain("answered for every invited seller");
    await axe(buyerPage);

    // Bravo reads the question and the answer, with nothing that says who asked.
    const bravoPage = await open(mode);
    await signInAs(bravoPage, mode, bravo);
    await bravoPage.goto(`/auctions/${auctionId}`);
    await bravoPage.getByRole("heading", { name: "Questions and answers" }).waitFor();
    const read = await questionsText(bravoPage);
    expect(read).toContain("Which gate do the trucks use?");
    expect(read).toContain("The north gate, off Range Road 12.");
    expect(read).not.toContain("Seller A");
    expect(read).not.toContain("Gate photo.pdf");
    expect(await bravoPage.content()).not.toContain(names[0]);
    await axe(bravoPage);
  });
});

describe("auction questions without the app's scripts", () => {
  it("has valid HTML on the seller's, the buyer's and the other seller's screens", { timeout: 120_000 }, async () => {
    const { buyer, alpha, bravo, auctionId } = await scheduledAuction("html");
    const pages: Record<string, string> = {};
    const alphaPage = await open("no-js");
    await signInAs(alphaPage, "no-js", alpha);
    await alphaPage.goto(`/auctions/${auctionId}`);
    pages["seller-ask"] = await alphaPage.content();
    await submit(alphaPage, "no-js", alphaPage.getByRole("button", { name: "Send the question" }));
    await errorAlert(alphaPage).waitFor();
    pages["seller-error"] = await alphaPage.content();
    await alphaPage.getByLabel("Your question").fill("Is there a wash bay on site?");
    await submit(alphaPage, "no-js", alphaPage.getByRole("button", { name: "Send the question" }));
    pages["seller-asked"] = await alphaPage.content();

    const buyerPage = await open("no-js");
    await signInAs(buyerPage, "no-js", buyer);
    await buyerPage.goto(`/auctions/${auctionId}`);
    pages["buyer-answer-form"] = await buyerPage.content();
    await buyerPage.getByLabel("Your answer").fill("Yes, at the north gate.");
    await buyerPage.getByLabel("Only the seller who asked").check();
    await submit(buyerPage, "no-js", buyerPage.getByRole("button", { name: "Send the answer" }));
    pages["buyer-answered"] = await buyerPage.content();
    await submit(
      buyerPage,
      "no-js",
      buyerPage.getByRole("button", { name: "Publish this answer to every invited seller" }),
    );
    expect(await mainText(buyerPage)).toContain("The answer is now shown to every invited seller.");

    const bravoPage = await open("no-js");
    await signInAs(bravoPage, "no-js", bravo);
    await bravoPage.goto(`/auctions/${auctionId}/questions`);
    expect(await questionsText(bravoPage)).toContain("Yes, at the north gate.");
    pages["other-seller"] = await bravoPage.content();
    expect(await validateHtml(pages)).toEqual([]);
  });
});
