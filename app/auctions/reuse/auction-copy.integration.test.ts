import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auctionBidRequirements,
  auctionDocuments,
  auctionInvitations,
  auctions,
  evaluationCriteria,
  registrations,
  sellerRegistrations,
} from "~db/schema";
import {
  auctionRow,
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  offering,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { NO_LONGER_APPROVED, NOT_ELIGIBLE, NOT_PREQUALIFIED } from "./auction-copy.server";

// "Copy to a new auction" (issue 21): the terms, documents, sealed-bid list, evaluation settings and
// criteria and the sellers still eligible go to a new draft with new dates; the sellers left out are
// named with why on the draft's page. Only the auction's own side may copy.

describe.each(databaseKinds)("copying an auction on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let consultant: Party;
  let otherBuyer: Party;
  let alpha: Party;
  let lapsed: Party;
  let gone: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Foothills Energy Ltd.");
    consultant = await createBuyer(db, "Prairie Evaluations Inc.", 4);
    otherBuyer = await createBuyer(db, "Other Energy Ltd.");
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Hauling Ltd.", ...offers });
    lapsed = await createSeller(db, { name: "Lapsed Insurance Co.", ...offers });
    gone = await createSeller(db, { name: "Gone Away Ltd.", ...offers });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, consultant, otherBuyer, alpha, lapsed, gone]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;

  it("copies terms, documents and the sellers still eligible to a new draft; names the rest", async () => {
    const source = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      status: "closed",
      startsAt: new Date(Date.now() - 3 * 3_600_000),
      endsAt: new Date(Date.now() - 3_600_000),
      decrement: { kind: "percent", value: 250 },
      softClose: { window: 3, extension: 4, cap: 30 },
      sellers: [alpha, lapsed, gone],
      evaluatorOrganizationId: consultant.organizationId,
      priceWeightPercent: 70,
      technicalPassMark: 60,
    });
    await db()
      .insert(auctionDocuments)
      .values({
        auctionId: source.id,
        fileName: "scope.txt",
        contentType: "text/plain",
        sizeBytes: 5,
        content: Buffer.from("scope"),
      });
    // Since the old auction: one seller's insurance lapsed, another is no longer approved.
    const [lapsedRegistration] = await db()
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.organizationId, lapsed.organizationId));
    await db()
      .update(sellerRegistrations)
      .set({ inCommercialGeneralExpiry: "2020-01-01" })
      .where(eq(sellerRegistrations.registrationId, lapsedRegistration?.id ?? 0));
    await db()
      .update(registrations)
      .set({ status: "rejected" })
      .where(eq(registrations.organizationId, gone.organizationId));

    const page = await (await as(buyer).request(`/auctions/${source.id}`)).text();
    expectIn(page, "Copy to a new auction");
    expectIn(page, `action="/auctions/${source.id}/copy"`);

    const answer = await as(buyer).request(`/auctions/${source.id}/copy`, { form: {} });
    expect(answer.status).toBe(302);
    const location = answer.headers.get("location") ?? "";
    const copyId = Number(/\/auctions\/(\d+)\?done=copied$/.exec(location)?.[1]);
    expect(copyId).toBeGreaterThan(source.id);

    const copy = await auctionRow(db(), copyId);
    expect(copy).toMatchObject({
      status: "draft",
      organizationId: buyer.organizationId,
      copiedFromAuctionId: source.id,
      practice: false,
      title: source.title,
      description: source.description,
      serviceId: source.serviceId,
      serviceAreaId: source.serviceAreaId,
      reserveCents: source.reserveCents,
      softCloseWindowMinutes: 3,
      softCloseExtensionMinutes: 4,
      softCloseCapMinutes: 30,
      evaluatorOrganizationId: consultant.organizationId,
      priceWeightPercent: 70,
      technicalPassMark: 60,
      bidCount: 0,
      closedAt: null,
    });
    expect(copy.lots).toMatchObject([
      { position: 1, title: "", decrementKind: "percent", decrementValue: 250, bidCount: 0, lowestCents: null },
    ]);
    // New dates, in the future, as long as the old auction.
    expect(copy.startsAt.getTime()).toBeGreaterThan(Date.now());
    expect(copy.scheduledEndsAt.getTime() - copy.startsAt.getTime()).toBe(2 * 3_600_000);

    const documents = await db()
      .select({ fileName: auctionDocuments.fileName, content: auctionDocuments.content })
      .from(auctionDocuments)
      .where(eq(auctionDocuments.auctionId, copyId));
    expect(documents.map((row) => [row.fileName, Buffer.from(row.content).toString()])).toEqual([
      ["scope.txt", "scope"],
    ]);
    const invited = await db()
      .select({ organizationId: auctionInvitations.organizationId, alias: auctionInvitations.alias })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.auctionId, copyId));
    expect(invited).toEqual([{ organizationId: alpha.organizationId, alias: "Seller A" }]);

    const draftPage = await (await as(buyer).request(location)).text();
    expectIn(draftPage, `A copy of auction ${source.id}`);
    expectIn(draftPage, `href="/auctions/${copyId}/edit"`);
    expectIn(draftPage, `Lapsed Insurance Co.: ${NOT_ELIGIBLE}`);
    expectIn(draftPage, `Gone Away Ltd.: ${NO_LONGER_APPROVED}`);
    expectNotIn(draftPage, "Alpha Hauling Ltd.:");
    // The old auction is untouched.
    expect((await auctionRow(db(), source.id)).status).toBe("closed");
  });

  it("copies a sealed auction's document list and criteria; invited sellers need pre-qualification again", async () => {
    const source = await createAuctionRow(db(), {
      owner: consultant,
      ...catalogue,
      kind: "sealed",
      status: "draft",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 2 * 86_400_000),
      sellers: [alpha],
    });
    await db()
      .insert(auctionBidRequirements)
      .values([
        { auctionId: source.id, name: "Price schedule", sortOrder: 0 },
        { auctionId: source.id, name: "Safety plan", sortOrder: 1 },
      ]);
    await db()
      .insert(evaluationCriteria)
      .values([
        { auctionId: source.id, name: "Experience", weight: 60, sortOrder: 0 },
        { auctionId: source.id, name: "Equipment", weight: 40, sortOrder: 1 },
      ]);
    // A consultant running the auction copies it like a buyer.
    const answer = await as(consultant).request(`/auctions/${source.id}/copy`, { form: {} });
    expect(answer.status).toBe(302);
    const copyId = Number(/\/auctions\/(\d+)/.exec(answer.headers.get("location") ?? "")?.[1]);
    const requirements = await db()
      .select({ name: auctionBidRequirements.name })
      .from(auctionBidRequirements)
      .where(eq(auctionBidRequirements.auctionId, copyId))
      .orderBy(asc(auctionBidRequirements.sortOrder));
    expect(requirements.map((row) => row.name)).toEqual(["Price schedule", "Safety plan"]);
    const criteria = await db()
      .select({ name: evaluationCriteria.name, weight: evaluationCriteria.weight })
      .from(evaluationCriteria)
      .where(eq(evaluationCriteria.auctionId, copyId))
      .orderBy(asc(evaluationCriteria.sortOrder));
    expect(criteria).toEqual([
      { name: "Experience", weight: 60 },
      { name: "Equipment", weight: 40 },
    ]);
    expect((await auctionRow(db(), copyId)).kind).toBe("sealed");
    const [{ invited } = { invited: -1 }] = await db()
      .select({ invited: count() })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.auctionId, copyId));
    expect(invited).toBe(0);
    expectIn(
      await (await as(consultant).request(`/auctions/${copyId}`)).text(),
      `Alpha Hauling Ltd.: ${NOT_PREQUALIFIED}`,
    );
  });

  it("lets only the auction's own side copy it, and copies nothing otherwise", async () => {
    const source = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      status: "open",
      sellers: [alpha],
      evaluatorOrganizationId: consultant.organizationId,
    });
    const total = async () => (await db().select({ n: count() }).from(auctions))[0]?.n;
    const before = await total();
    expect((await as(alpha).request(`/auctions/${source.id}/copy`, { form: {} })).status).toBe(404);
    expect((await as(otherBuyer).request(`/auctions/${source.id}/copy`, { form: {} })).status).toBe(404);
    expect((await as(consultant).request(`/auctions/${source.id}/copy`, { form: {} })).status).toBe(403);
    expect((await as("staff").request(`/auctions/${source.id}/copy`, { form: {} })).status).toBe(403);
    expect(await total()).toBe(before);
    // The button is the owner's only.
    expectNotIn(await (await as(alpha).request(`/auctions/${source.id}`)).text(), "Copy to a new auction");
    expectNotIn(await (await as("staff").request(`/auctions/${source.id}`)).text(), "Copy to a new auction");
    // An open auction copies too.
    expect((await as(buyer).request(`/auctions/${source.id}/copy`, { form: {} })).status).toBe(302);
    expect(await total()).toBe((before ?? 0) + 1);
  });
});
