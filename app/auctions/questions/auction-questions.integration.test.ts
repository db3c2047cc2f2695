import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureStaffUser } from "~/accounts/staff/staff.server";
import { auctionEvents, auctionQuestions, auctions, notifications, organizations, outboxMessages } from "~db/schema";
import {
  auctionRow,
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { EXE, PDF } from "../../../tests/support/document-samples";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { HAULING_AND_CEMENTING } from "../../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES } from "../documents/document-types";
import { updateAuctionTerms } from "../lifecycle/auction-terms.server";
import { QUESTION_MAX, QUESTION_MESSAGES } from "./question-schema";

// Questions and answers over HTTP (issue 21): only an invited seller asks, from publication until
// bidding closes; only the auction's side (and its evaluating consultant) answers; a seller reads its
// own questions and the published ones without ever learning who asked them; staff read everything.

type Client = ReturnType<typeof createClient>;
const STAFF = { email: "questions-staff@example.com", password: "questions-staff-password" };

describe.each(databaseKinds)("auction questions on %s", (kind) => {
  let app: TestApp;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let buyer: Party;
  let consultant: Party;
  let asker: Party;
  let rival: Party;
  let outsiderSeller: Party;
  let owner: Client;
  let evaluator: Client;
  let askerClient: Client;
  let rivalClient: Client;
  let outsider: Client;
  let staff: Client;

  async function signedIn(party: { email: string; password: string }) {
    const client = createClient(app.baseURL);
    const response = await client.request("/login", { form: { email: party.email, password: party.password } });
    expect(response.status).toBe(302);
    return client;
  }

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db);
    consultant = await createBuyer(db, "Evaluating Consultants Ltd", 4);
    const offers = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    asker = await createSeller(db, offers);
    rival = await createSeller(db, offers);
    outsiderSeller = await createSeller(db, offers);
    await ensureStaffUser(db, STAFF.email, STAFF.password);
    [owner, evaluator, askerClient, rivalClient, outsider, staff] = await Promise.all([
      signedIn(buyer),
      signedIn(consultant),
      signedIn(asker),
      signedIn(rival),
      signedIn(outsiderSeller),
      signedIn(STAFF),
    ]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const auctionWith = (options: Partial<Parameters<typeof createAuctionRow>[1]> = {}) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      status: "scheduled",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 2 * 86_400_000),
      sellers: [asker, rival],
      evaluatorOrganizationId: consultant.organizationId,
      ...options,
    });
  const path = (auctionId: number) => `/auctions/${auctionId}/questions`;

  function ask(
    client: Client,
    auctionId: number,
    question: string,
    file?: { name: string; bytes: Buffer },
    lot?: string,
  ) {
    const form = new FormData();
    form.set("intent", "ask");
    form.set("question", question);
    if (lot !== undefined) form.set("lot", lot);
    form.set("attachment", file ? new File([new Uint8Array(file.bytes)], file.name) : new File([], ""));
    return client.request(path(auctionId), { multipart: form });
  }
  const answer = (client: Client, auctionId: number, questionId: number, fields: Record<string, string>) =>
    client.request(path(auctionId), {
      form: { intent: "answer", questionId: String(questionId), audience: "asker", ...fields },
    });
  const questionsOf = (auctionId: number) =>
    db().select().from(auctionQuestions).where(eq(auctionQuestions.auctionId, auctionId)).orderBy(auctionQuestions.id);
  const noticesOf = (party: Party, auctionId: number, noticeKind: "question" | "answer" | "terms-changed") =>
    db()
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, party.userId),
          eq(notifications.auctionId, auctionId),
          eq(notifications.kind, noticeKind),
        ),
      );
  const html = async (client: Client, url: string) => {
    const response = await client.request(url);
    expect(response.status, url).toBe(200);
    return response.text();
  };

  it("lets an invited seller ask with a file, tells the buyer's side, and shows the asker to them only", async () => {
    const auction = await auctionWith();
    const response = await ask(askerClient, auction.id, "Is the lease road open in May?", {
      name: "Road map.pdf",
      bytes: PDF,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${path(auction.id)}?done=asked`);
    const [stored] = await questionsOf(auction.id);
    expect(stored).toMatchObject({
      organizationId: asker.organizationId,
      askedByUserId: asker.userId,
      question: "Is the lease road open in May?",
      attachmentName: "Road map.pdf",
      attachmentType: "application/pdf",
      answer: null,
      publishedAt: null,
    });
    // The buyer's users and the evaluating consultant's are told, each with an e-mail queued.
    expect(await noticesOf(buyer, auction.id, "question")).toHaveLength(1);
    expect(await noticesOf(consultant, auction.id, "question")).toHaveLength(1);
    expect(await noticesOf(rival, auction.id, "question")).toHaveLength(0);
    const mails = await db().select().from(outboxMessages).where(eq(outboxMessages.to, buyer.email));
    expect(mails.some((mail) => mail.subject === `New question: ${auction.title}`)).toBe(true);

    // The buyer's page names the asker and offers an answer form; so does the evaluator's.
    for (const client of [owner, evaluator]) {
      const page = await html(client, `/auctions/${auction.id}`);
      expectIn(page, "Is the lease road open in May?");
      expectIn(page, "(Seller A)");
      expectIn(page, `id="answer-${stored?.id}-answer"`);
      expectIn(page, `href="${path(auction.id)}/${stored?.id}/attachment"`);
    }
    // Staff read it, with who asked, but have no form.
    const staffPage = await html(staff, path(auction.id));
    expectIn(staffPage, "Is the lease road open in May?");
    expectIn(staffPage, "(Seller A)");
    expectNotIn(staffPage, `id="answer-${stored?.id}-answer"`);
    // The asker sees its own question; the rival sees nothing of it, not even its id.
    const askerPage = await html(askerClient, `/auctions/${auction.id}`);
    expectIn(askerPage, "Is the lease road open in May?");
    const rivalPage = await html(rivalClient, `/auctions/${auction.id}`);
    expectNotIn(rivalPage, "lease road");
    expectNotIn(rivalPage, `/questions/${stored?.id}`);
    // The file: the buyer's side, staff and the asker download it; the rival gets a 404.
    for (const client of [owner, evaluator, staff, askerClient]) {
      const download = await client.request(`${path(auction.id)}/${stored?.id}/attachment`);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toContain("attachment");
    }
    expect((await rivalClient.request(`${path(auction.id)}/${stored?.id}/attachment`)).status).toBe(404);
  });

  it("takes a question posted without an attachment part at all (a script's multipart body)", async () => {
    const auction = await auctionWith();
    const form = new FormData();
    form.set("intent", "ask");
    form.set("question", "Is the camp open in winter?");
    const response = await askerClient.request(path(auction.id), { multipart: form });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${path(auction.id)}?done=asked`);
    const [stored] = await questionsOf(auction.id);
    expect(stored).toMatchObject({ question: "Is the camp open in winter?", attachmentName: null });
  });

  it("lets only an invited seller ask, from publication until bidding closes", async () => {
    const auction = await auctionWith();
    expect((await ask(owner, auction.id, "Buyer asking")).status).toBe(403);
    expect((await ask(staff, auction.id, "Staff asking")).status).toBe(403);
    expect((await ask(evaluator, auction.id, "Evaluator asking")).status).toBe(403);
    expect((await ask(outsider, auction.id, "Not invited")).status).toBe(404);

    const draft = await auctionWith({ status: "draft" });
    expect((await ask(askerClient, draft.id, "Draft?")).status).toBe(404);

    const open = await auctionWith({ status: "open", startsAt: new Date(Date.now() - 60_000) });
    expect((await ask(askerClient, open.id, "While open?")).status).toBe(302);

    const closed = await auctionWith({
      status: "open",
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 60_000),
    });
    const cancelled = await auctionWith();
    await db()
      .update(auctions)
      .set({ status: "cancelled", cancelledAt: new Date() })
      .where(eq(auctions.id, cancelled.id));
    for (const shut of [closed, cancelled]) {
      const refused = await ask(askerClient, shut.id, "Too late?");
      expect(refused.status).toBe(409);
      expectIn(await refused.text(), QUESTION_MESSAGES.closedForQuestions);
      // The page says so instead of offering the form.
      const page = await html(askerClient, `/auctions/${shut.id}`);
      expectNotIn(page, 'id="ask-question"');
    }
    expect(await questionsOf(draft.id)).toHaveLength(0);
    expect(await questionsOf(closed.id)).toHaveLength(0);
    expect(await questionsOf(cancelled.id)).toHaveLength(0);
    expect(await questionsOf(auction.id)).toHaveLength(0);
  });

  it("refuses the questions of a practice auction (issue 21) as for a seller not invited, and stores nothing", async () => {
    const started = await askerClient.request("/auctions/practice", { form: {} });
    expect(started.status).toBe(302);
    const practiceId = Number(/^\/auctions\/(\d+)$/.exec(started.headers.get("location") ?? "")?.[1]);
    expect((await auctionRow(db(), practiceId)).practice).toBe(true);
    // Its seller sees the auction, but not its questions page, and may neither ask nor answer.
    expect((await askerClient.request(`/auctions/${practiceId}`)).status).toBe(200);
    expect((await askerClient.request(path(practiceId))).status).toBe(404);
    expect((await ask(askerClient, practiceId, "Is this real?")).status).toBe(404);
    expect((await answer(askerClient, practiceId, 1, { answer: "No" })).status).toBe(404);
    const publish = { form: { intent: "publish", questionId: "1" } };
    expect((await askerClient.request(path(practiceId), publish)).status).toBe(404);
    // Nobody else sees the auction at all.
    expect((await staff.request(path(practiceId))).status).toBe(404);
    expect((await ask(rivalClient, practiceId, "Me too?")).status).toBe(404);
    expect(await questionsOf(practiceId)).toHaveLength(0);
    const events = await db().select().from(auctionEvents).where(eq(auctionEvents.auctionId, practiceId));
    expect(events.filter((event) => event.kind.startsWith("question") || event.kind.startsWith("answer"))).toEqual([]);
  });

  it("answers bad input at the field, with what was typed, and stores nothing", async () => {
    const auction = await auctionWith();
    const empty = await ask(askerClient, auction.id, "   ");
    expect(empty.status).toBe(400);
    const emptyPage = await empty.text();
    expectIn(emptyPage, 'id="ask-question-error"');
    expectIn(emptyPage, `<a href="#ask-question">${QUESTION_MESSAGES.question}</a>`);

    const long = "x".repeat(QUESTION_MAX + 1);
    const tooLong = await ask(askerClient, auction.id, long);
    expect(tooLong.status).toBe(400);
    const tooLongPage = await tooLong.text();
    expectIn(tooLongPage, QUESTION_MESSAGES.questionTooLong);
    expectIn(tooLongPage, long);

    const disguised = await ask(askerClient, auction.id, "See the file", { name: "setup.pdf", bytes: EXE });
    expect(disguised.status).toBe(400);
    const disguisedPage = await disguised.text();
    expectIn(disguisedPage, 'id="ask-attachment-error"');
    expectIn(disguisedPage, "See the file");
    const wrongType = await ask(askerClient, auction.id, "See the file", { name: "setup.exe", bytes: EXE });
    expect(wrongType.status).toBe(400);
    expectIn(await wrongType.text(), DOCUMENT_MESSAGES.type);

    const tooBig = await ask(askerClient, auction.id, "Big file", {
      name: "big.pdf",
      bytes: Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES + 70 * 1024)]),
    });
    expect(tooBig.status).toBe(413);
    expectIn(await tooBig.text(), `<a href="#ask-attachment">${DOCUMENT_MESSAGES.tooBig}</a>`);

    const control = await ask(askerClient, auction.id, "Bad \u0000 text");
    expect(control.status).toBe(400);
    const noIntent = await askerClient.request(path(auction.id), { form: { question: "?" } });
    expect(noIntent.status).toBe(400);
    expect(await questionsOf(auction.id)).toHaveLength(0);

    // The buyer's answer: empty, too long, no audience, an unknown question.
    await ask(askerClient, auction.id, "A real question");
    const [question] = await questionsOf(auction.id);
    if (!question) throw new Error("no question");
    const blank = await answer(owner, auction.id, question.id, { answer: " " });
    expect(blank.status).toBe(400);
    expectIn(await blank.text(), `<a href="#answer-${question.id}-answer">${QUESTION_MESSAGES.answer}</a>`);
    const noAudience = await owner.request(path(auction.id), {
      form: { intent: "answer", questionId: String(question.id), answer: "Yes" },
    });
    expect(noAudience.status).toBe(400);
    expectIn(await noAudience.text(), `<a href="#answer-${question.id}-audience-0">${QUESTION_MESSAGES.audience}</a>`);
    const unknown = await answer(owner, auction.id, 2_000_000_000, { answer: "Yes" });
    expect(unknown.status).toBe(404);
    const otherAuction = await auctionWith();
    expect((await answer(owner, otherAuction.id, question.id, { answer: "Yes" })).status).toBe(404);
    const [unchanged] = await questionsOf(auction.id);
    expect(unchanged?.answer).toBeNull();
  });

  it("lets only the buyer's side answer; a private answer reaches the asker alone", async () => {
    const auction = await auctionWith();
    await ask(askerClient, auction.id, "Private question about the rig");
    const [question] = await questionsOf(auction.id);
    if (!question) throw new Error("no question");
    expect((await answer(askerClient, auction.id, question.id, { answer: "I answer myself" })).status).toBe(403);
    expect((await answer(rivalClient, auction.id, question.id, { answer: "Rival answers" })).status).toBe(403);
    expect((await answer(staff, auction.id, question.id, { answer: "Staff answers" })).status).toBe(403);
    expect((await answer(outsider, auction.id, question.id, { answer: "Outsider" })).status).toBe(404);

    const answered = await answer(evaluator, auction.id, question.id, { answer: "Rig on site from 7 a.m." });
    expect(answered.status).toBe(302);
    expect(answered.headers.get("location")).toBe(`${path(auction.id)}?done=answered`);
    const [stored] = await questionsOf(auction.id);
    expect(stored).toMatchObject({
      answer: "Rig on site from 7 a.m.",
      answeredByUserId: consultant.userId,
      publishedAt: null,
    });
    // Once only.
    const again = await answer(owner, auction.id, question.id, { answer: "Second answer" });
    expect(again.status).toBe(409);
    expectIn(await again.text(), QUESTION_MESSAGES.answered);

    expect(await noticesOf(asker, auction.id, "answer")).toHaveLength(1);
    expect(await noticesOf(rival, auction.id, "answer")).toHaveLength(0);
    expectIn(await html(askerClient, `/auctions/${auction.id}`), "Rig on site from 7 a.m.");
    const rivalPage = await html(rivalClient, path(auction.id));
    expectNotIn(rivalPage, "Rig on site");
    expectNotIn(rivalPage, "Private question");

    // Published later: every other invited seller reads it and is told, without the asker.
    const published = await owner.request(path(auction.id), {
      form: { intent: "publish", questionId: String(question.id) },
    });
    expect(published.status).toBe(302);
    expect(await noticesOf(rival, auction.id, "answer")).toHaveLength(1);
    expect(await noticesOf(asker, auction.id, "answer")).toHaveLength(1);
    expectIn(await html(rivalClient, path(auction.id)), "Rig on site from 7 a.m.");
    // Staff may not publish.
    expect(
      (await staff.request(path(auction.id), { form: { intent: "publish", questionId: String(question.id) } })).status,
    ).toBe(403);
  });

  it("publishes an answer to every invited seller without naming the asker", async () => {
    const auction = await auctionWith();
    await ask(askerClient, auction.id, "Which gate do trucks use?", { name: "Gate photo.pdf", bytes: PDF });
    await ask(askerClient, auction.id, "Second, unanswered question");
    const [question, unanswered] = await questionsOf(auction.id);
    if (!question || !unanswered) throw new Error("no questions");
    const answered = await answer(owner, auction.id, question.id, {
      answer: "The north gate; the terms now say so.",
      audience: "everyone",
      termsChanged: "yes",
    });
    expect(answered.status).toBe(302);
    const [stored] = await questionsOf(auction.id);
    expect(stored?.publishedAt).not.toBeNull();
    expect(stored?.termsChanged).toBe(true);
    expect(await noticesOf(asker, auction.id, "answer")).toHaveLength(1);
    const [rivalNotice] = await noticesOf(rival, auction.id, "answer");
    expect(rivalNotice?.text).toContain("Which gate do trucks use?");
    expect(rivalNotice?.text).not.toContain("Seller A");
    expect(await noticesOf(outsiderSeller, auction.id, "answer")).toHaveLength(0);

    const rivalPage = await html(rivalClient, `/auctions/${auction.id}`);
    expectIn(rivalPage, "Which gate do trucks use?");
    expectIn(rivalPage, "The north gate; the terms now say so.");
    expectIn(rivalPage, "The terms were changed because of this question.");
    // Nothing that tells who asked: no alias, no organization, no file, no unpublished question.
    expectNotIn(rivalPage, "Gate photo.pdf");
    expectNotIn(rivalPage, "Second, unanswered question");
    expectNotIn(rivalPage, `/questions/${unanswered.id}`);
    const [askerName] = await db()
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, asker.organizationId));
    expectNotIn(rivalPage, askerName?.name ?? "never");
    expect((await rivalClient.request(`${path(auction.id)}/${question.id}/attachment`)).status).toBe(404);

    // The buyer's page lists the unanswered question first.
    const ownerPage = await html(owner, path(auction.id));
    expect(ownerPage.indexOf("Second, unanswered question")).toBeLessThan(
      ownerPage.indexOf("Which gate do trucks use?"),
    );
  });

  it("tells every invited seller what changed when a published auction's terms change", async () => {
    const auction = await auctionWith();
    const draft = await auctionWith({ status: "draft" });
    const terms = (row: typeof auction) => ({
      kind: row.kind,
      title: row.title,
      description: row.description,
      serviceId: row.serviceId,
      serviceAreaId: row.serviceAreaId,
      reserveCents: row.reserveCents,
      decrementKind: row.lots[0]?.decrementKind ?? "amount",
      decrementValue: row.lots[0]?.decrementValue ?? 0,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      softCloseWindowMinutes: row.softCloseWindowMinutes,
      softCloseExtensionMinutes: row.softCloseExtensionMinutes,
      softCloseCapMinutes: row.softCloseCapMinutes,
      evaluatorOrganizationId: row.evaluatorOrganizationId,
      priceWeightPercent: row.priceWeightPercent,
      technicalPassMark: row.technicalPassMark,
      requirements: [],
    });
    const actor = { userId: buyer.userId, organizationId: buyer.organizationId };
    // Nothing a seller reads changed: nobody is told.
    expect((await updateAuctionTerms(app.services, auction.id, actor, terms(auction))).kind).toBe("done");
    expect(await noticesOf(asker, auction.id, "terms-changed")).toHaveLength(0);

    const changed = await updateAuctionTerms(app.services, auction.id, actor, {
      ...terms(auction),
      reserveCents: 900_000,
    });
    expect(changed.kind).toBe("done");
    for (const seller of [asker, rival]) {
      const [notice] = await noticesOf(seller, auction.id, "terms-changed");
      expect(notice?.text).toContain("Reserve price: $10,000.00 → $9,000.00");
    }
    expect(await noticesOf(outsiderSeller, auction.id, "terms-changed")).toHaveLength(0);
    // A draft's sellers have not seen it yet: nobody is told.
    await updateAuctionTerms(app.services, draft.id, actor, { ...terms(draft), reserveCents: 800_000 });
    expect(await noticesOf(asker, draft.id, "terms-changed")).toHaveLength(0);
  });

  it("takes a question about one lot of an auction of several, and says which lot to everyone who reads it", async () => {
    const auction = await auctionWith({ lots: HAULING_AND_CEMENTING });
    const [hauling, cementing] = (await auctionRow(db(), auction.id)).lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const other = await auctionWith({ lots: HAULING_AND_CEMENTING });
    const otherLot = (await auctionRow(db(), other.id)).lots[0];

    // The form offers the whole auction or each lot.
    const form = await html(askerClient, path(auction.id));
    expectIn(form, '<option value="">The whole auction</option>');
    expectIn(form, `<option value="${cementing.id}">Lot 2: Cementing</option>`);

    // Another auction's lot, or no id at all: refused at the field, nothing saved, the question kept.
    for (const lot of [String(otherLot?.id), "lot two"]) {
      const refused = await ask(askerClient, auction.id, "Is cement supplied?", undefined, lot);
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expectIn(page, QUESTION_MESSAGES.lot);
      expectIn(page, "Is cement supplied?");
    }
    expect(await questionsOf(auction.id)).toHaveLength(0);

    expect((await ask(askerClient, auction.id, "Is cement supplied?", undefined, String(cementing.id))).status).toBe(
      302,
    );
    expect((await ask(askerClient, auction.id, "Any site visit?", undefined, "")).status).toBe(302);
    const [aboutLot, aboutAll] = await questionsOf(auction.id);
    expect(aboutLot?.lotId).toBe(cementing.id);
    expect(aboutAll?.lotId).toBeNull();
    const [told] = await noticesOf(buyer, auction.id, "question");
    expect(told?.text).toContain(", Lot 2: Cementing:");

    // The buyer's side reads which lot; a published answer tells every other seller too.
    expectIn(await html(owner, path(auction.id)), "About Lot 2: Cementing");
    if (!aboutLot) throw new Error("no question");
    expect(
      (await answer(owner, auction.id, aboutLot.id, { answer: "Yes, Class G.", audience: "everyone" })).status,
    ).toBe(302);
    const [rivalNotice] = await noticesOf(rival, auction.id, "answer");
    expect(rivalNotice?.text).toContain("Question about Lot 2: Cementing:");
    expectIn(await html(rivalClient, path(auction.id)), "About Lot 2: Cementing");
    // An auction of one lot asks nothing of the kind.
    expectNotIn(await html(askerClient, path((await auctionWith()).id)), "The whole auction");
  });
});
