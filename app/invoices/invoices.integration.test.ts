import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditNotes, invoiceExports, invoices, outboxMessages } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
  signedInClients,
  TEST_STAFF,
  TEST_STAFF_ENV,
} from "../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../tests/support/html";
import { closedAuctionWithBid, createInvoicedBuyer, type InvoicedBuyer } from "../../tests/support/invoice-fixtures";
import { pdfText, taggedPdfMarkers } from "../../tests/support/pdf-text";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { ACCOUNTING_COLUMNS, NETWORK_EXPORT_COLUMNS } from "./invoice-csv.server";
import { markEmailed } from "./invoice-delivery.server";
import { invoiceEmail } from "./invoice-email";
import { invoiceIssuer } from "./invoice-issuer";

// Buyer invoices through the HTTP app (issue 19): an award issues exactly one invoice in its
// transaction, numbered without gaps even when awards race; only the buyer's organization and staff
// download it; staff filter, export for accounting, mark posted invoices mailed, export the
// e-invoicing networks' files (kept, marked exported in the same transaction) and issue credit notes
// that never exceed what remains.

const GST = "987654321 RT0001";

describe.each(databaseKinds)("buyer invoices on %s", (kind) => {
  let app: TestApp;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let emailBuyer: InvoicedBuyer;
  let mailBuyer: InvoicedBuyer;
  let openBuyer: InvoicedBuyer;
  let cortexBuyer: InvoicedBuyer;
  let otherBuyer: Party;
  let seller: Party;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, { ...TEST_STAFF_ENV, GST_REGISTRATION_NUMBER: GST });
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    emailBuyer = await createInvoicedBuyer(db, "Email Invoice", "Foothills Energy Ltd.");
    mailBuyer = await createInvoicedBuyer(db, "Mail Invoice", "Paper Trail Resources Inc.", {
      accountingContact: false,
    });
    openBuyer = await createInvoicedBuyer(db, "Open Invoice", "Open Wells Corp.");
    cortexBuyer = await createInvoicedBuyer(db, "Cortex", "Cortex Petroleum Ltd.");
    otherBuyer = await createBuyer(db, "Nosy Neighbour Oil Ltd.");
    seller = await createSeller(db, {
      name: "Alpha Hauling Ltd.",
      serviceIds: [catalogue.serviceId],
      serviceAreaIds: [catalogue.serviceAreaId],
    });
    as = await signedInClients(
      () => createClient(app.baseURL),
      [emailBuyer, mailBuyer, openBuyer, cortexBuyer, otherBuyer, seller],
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const invoiceOf = async (auctionId: number) => db().select().from(invoices).where(eq(invoices.auctionId, auctionId));
  const award = async (buyer: Party) => {
    const { auction, award: form } = await closedAuctionWithBid(db(), buyer, seller, catalogue);
    const answer = await as(buyer).request(`/auctions/${auction.id}/award`, { form });
    expect(answer.status).toBe(302);
    const [invoice] = await invoiceOf(auction.id);
    if (!invoice) throw new Error("no invoice");
    return { auction, invoice, form };
  };

  it("issues one invoice per award, in the buyer's preference, and none on a repeated award", async () => {
    const { auction, invoice, form } = await award(emailBuyer);
    expect(invoice).toMatchObject({
      number: expect.stringMatching(/^INV-\d{6}$/),
      organizationId: emailBuyer.organizationId,
      auctionTitle: auction.title,
      billToName: "Foothills Energy Ltd.",
      billToContact: "Alex Accounts",
      billToEmail: emailBuyer.accountingEmail,
      billToAddress: "100 Main St\nRed Deer AB  T4N 1A1\nCanada",
      billingPreference: "Email Invoice",
      feeCents: 25_000,
      gstCents: 1_250,
      totalCents: 26_250,
      // Queued with the award (the durable queue delivers it): handed over, so "emailed".
      deliveryState: "emailed",
      emailedAt: expect.any(Date),
    });
    const again = await as(emailBuyer).request(`/auctions/${auction.id}/award`, { form });
    expect(again.status).toBe(409);
    expect(await invoiceOf(auction.id)).toHaveLength(1);

    // The e-mail was queued in the award's transaction, the PDF attached (the dev outbox keeps it).
    const email = invoiceEmail(invoice, invoice.pdf, { issuer: invoiceIssuer(app.services.env) });
    expect(email.to).toBe(emailBuyer.accountingEmail);
    const sent = (await app.services.messaging.listOutbox()).filter((message) => message.to === email.to);
    expect(sent.map((message) => message.subject)).toContain(email.subject);
    const [queued] = await db()
      .select({ kind: outboxMessages.kind, attachments: outboxMessages.attachments })
      .from(outboxMessages)
      .where(eq(outboxMessages.subject, email.subject));
    expect(queued?.kind).toBe("invoice");
    expect(queued?.attachments?.[0]?.contentBase64).toBe(invoice.pdf.toString("base64"));
    // Once only.
    expect(await markEmailed(db(), invoice.id)).toBe(false);
    expect((await invoiceOf(auction.id))[0]).toMatchObject({ deliveryState: "emailed", emailedAt: expect.any(Date) });

    // The kept PDF: tagged, with the totals and the GST number from the configuration.
    expect(taggedPdfMarkers(invoice.pdf).marked).toBe(true);
    const text = await pdfText(invoice.pdf);
    for (const expected of [invoice.number, "$250.00", "$12.50", "$262.50", GST, "Foothills Energy Ltd."]) {
      expect(text).toContain(expected);
    }
  });

  it("starts each preference in its own state; the primary contact stands in for a missing accounting one", async () => {
    expect((await award(mailBuyer)).invoice).toMatchObject({
      deliveryState: "to_mail",
      billToContact: "Pat Primary",
      billToEmail: mailBuyer.email,
    });
    expect((await award(openBuyer)).invoice.deliveryState).toBe("to_export");
    expect((await award(cortexBuyer)).invoice.deliveryState).toBe("to_export");
    // An organization without a profile on file is posted (staff see "No address on file").
    expect((await award(otherBuyer)).invoice).toMatchObject({
      billingPreference: "Mail Invoice",
      billToAddress: "No address on file",
    });
  });

  it("numbers invoices without a gap or a repeat when awards race", async () => {
    const buyers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => createInvoicedBuyer(db(), "Email Invoice", `Racing Buyer ${index}`)),
    );
    const clients = await signedInClients(() => createClient(app.baseURL), buyers);
    const auctions = await Promise.all(buyers.map((buyer) => closedAuctionWithBid(db(), buyer, seller, catalogue)));
    // Each auction awarded twice at once: one award each stands, one invoice each.
    const answers = await Promise.all(
      auctions.flatMap(({ auction, award: form }, index) => {
        const buyer = buyers[index] as Party;
        return [0, 1].map(() => clients(buyer).request(`/auctions/${auction.id}/award`, { form }));
      }),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(8);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(8);
    const all = await db()
      .select({ sequence: invoices.sequence, number: invoices.number })
      .from(invoices)
      .orderBy(asc(invoices.sequence));
    expect(all.map((row) => row.sequence)).toEqual(all.map((_, index) => index + 1));
    expect(all.map((row) => row.number)).toEqual(all.map((_, index) => `INV-${String(index + 1).padStart(6, "0")}`));
  });

  it("lets only the buyer's organization and staff download a PDF; everyone else gets a 404", async () => {
    const { invoice } = await award(emailBuyer);
    const path = `/account/invoices/${invoice.number}.pdf`;
    for (const client of [as(emailBuyer), as("staff")]) {
      const answer = await client.request(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/pdf");
      expect(answer.headers.get("content-disposition")).toBe(`attachment; filename="${invoice.number}.pdf"`);
      expect(Buffer.compare(Buffer.from(await answer.arrayBuffer()), invoice.pdf)).toBe(0);
    }
    for (const party of [otherBuyer, seller, mailBuyer]) expect((await as(party).request(path)).status).toBe(404);
    const visitor = await createClient(app.baseURL).request(path);
    expect(visitor.status).toBe(302);
    for (const nonsense of ["INV-999999.pdf", "INV-1.pdf", `${invoice.number}`, `${invoice.number}.txt`, "..%2F.pdf"]) {
      expect((await as(emailBuyer).request(`/account/invoices/${nonsense}`)).status).toBe(404);
    }
  });

  it("lists the organization's invoices and credit notes, newest first, on /account/invoices, linked from /account", async () => {
    expectIn(await (await as(openBuyer).request("/account")).text(), 'href="/account/invoices"');
    const { invoice } = await award(openBuyer);
    const credit = await as("staff").request(`/staff/invoices/${invoice.number}`, {
      form: { intent: "credit-note", amount: "50.00", reason: "Goodwill" },
    });
    expect(credit.status).toBe(302);
    const html = await (await as(openBuyer).request("/account/invoices")).text();
    const [note] = await db().select().from(creditNotes).where(eq(creditNotes.invoiceId, invoice.id));
    if (!note) throw new Error("no credit note");
    expectIn(html, `Credit note ${note.number}`);
    expectIn(html, `Invoice ${invoice.number}`);
    expect(html.indexOf(`Credit note ${note.number}`)).toBeLessThan(html.indexOf(`Invoice ${invoice.number}`));
    expectIn(html, `href="/account/invoices/${note.number}.pdf"`);
    expectIn(html, "−$52.50");
    expectIn(html, "$262.50");
    expectIn(html, "To export (Open Invoice)");
    expectNotIn(html, "Foothills Energy");
    const notePdf = await as(openBuyer).request(`/account/invoices/${note.number}.pdf`);
    expect(notePdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await notePdf.arrayBuffer()));
    for (const expected of [note.number, invoice.number, "Goodwill", "$50.00", "$2.50", "$52.50"]) {
      expect(text).toContain(expected);
    }
    expect((await as("staff").request("/account/invoices")).status).toBe(403);
    expect((await as(otherBuyer).request(`/account/invoices/${note.number}.pdf`)).status).toBe(404);
  });

  it("filters the staff list by state and preference, and exports the filtered list as CSV", async () => {
    expect((await as(emailBuyer).request("/staff/invoices")).status).toBe(403);
    expect((await as(emailBuyer).request("/staff/invoices.csv")).status).toBe(403);
    const page = await (await as("staff").request("/staff/invoices?state=to_mail&preference=Mail+Invoice")).text();
    expectIn(page, "Paper Trail Resources Inc.");
    expectNotIn(page, "Foothills Energy Ltd.");
    expectIn(page, '<option value="to_mail" selected="">To mail</option>');
    const csv = await as("staff").request("/staff/invoices.csv?preference=Email+Invoice");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(ACCOUNTING_COLUMNS.join(","));
    const expected = await db().select().from(invoices).where(eq(invoices.billingPreference, "Email Invoice"));
    expect(lines).toHaveLength(expected.length + 1);
    for (const line of lines.slice(1)) {
      expect(line).toMatch(
        /^INV-\d{6},\d{4}-\d\d-\d\dT[\d:.]+Z,\d+,[^,]+,[^,]+,Email Invoice,(To be e-mailed|E-mailed),250\.00,12\.50,262\.50,0\.00,0\.00,262\.50,,,$/,
      );
    }
    // Nonsense filters are no filter; never a 5xx.
    expect((await as("staff").request("/staff/invoices?state=bogus&preference=%00&page=-1")).status).toBe(200);
  });

  it("marks a Mail Invoice invoice mailed once, by staff only", async () => {
    const { invoice } = await award(mailBuyer);
    const path = `/staff/invoices/${invoice.number}`;
    expectIn(await (await as("staff").request(path)).text(), "Mark as mailed");
    expect((await as(mailBuyer).request(path, { form: { intent: "mark-mailed" } })).status).toBe(403);
    const marked = await as("staff").request(path, { form: { intent: "mark-mailed" } });
    expect(marked.status).toBe(302);
    expect(marked.headers.get("location")).toBe(`${path}?done=mailed`);
    const [row] = await invoiceOf(invoice.auctionId);
    expect(row).toMatchObject({ deliveryState: "mailed", mailedByUserId: expect.any(Number) });
    expect(row?.mailedAt).toBeInstanceOf(Date);
    const again = await as("staff").request(path, { form: { intent: "mark-mailed" } });
    expect(again.status).toBe(409);
    expectIn(await again.text(), `${invoice.number} is already marked mailed.`);
    const { invoice: emailed } = await award(emailBuyer);
    const wrong = await as("staff").request(`/staff/invoices/${emailed.number}`, { form: { intent: "mark-mailed" } });
    expect(wrong.status).toBe(409);
    expect((await invoiceOf(emailed.auctionId))[0]?.deliveryState).toBe("emailed");
  });

  it("exports each network's waiting invoices once, marks them exported, and serves the same file again", async () => {
    await award(cortexBuyer);
    const waiting = await db().select().from(invoices).where(eq(invoices.deliveryState, "to_export"));
    const cortexWaiting = waiting.filter((row) => row.billingPreference === "Cortex");
    const exported = await as("staff").request("/staff/invoices", { form: { intent: "export", network: "Cortex" } });
    expect(exported.status).toBe(302);
    const exportId = Number(new URL(exported.headers.get("location") ?? "", app.baseURL).searchParams.get("export"));
    const page = await (await as("staff").request(`/staff/invoices?done=exported&export=${exportId}`)).text();
    expectIn(page, `${cortexWaiting.length} Cortex invoice`);
    const file = await as("staff").request(`/staff/invoices/exports/${exportId}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(
      /^attachment; filename="cortex-export-\d{6}-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const body = await file.text();
    const lines = body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(NETWORK_EXPORT_COLUMNS.join(","));
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(cortexWaiting.map((row) => row.number).sort());
    expect(lines[1]).toContain(`,CAD,Upstream Marketplace Ltd.,${GST},Cortex Petroleum Ltd.,Alex Accounts,`);
    expect(lines[1]).toMatch(/,1,250\.00,250\.00,5\.00,12\.50,262\.50,30$/);
    // Marked in the same transaction, open invoice ones untouched; the same file again.
    const after = await db().select().from(invoices).where(eq(invoices.billingPreference, "Cortex"));
    expect(after.every((row) => row.deliveryState === "exported" && row.exportId === exportId)).toBe(true);
    expect(
      (await db().select().from(invoices).where(eq(invoices.billingPreference, "Open Invoice"))).every(
        (row) => row.deliveryState === "to_export",
      ),
    ).toBe(true);
    expect(await (await as("staff").request(`/staff/invoices/exports/${exportId}`)).text()).toBe(body);
    // Nothing left to export: refused, no empty file.
    const empty = await as("staff").request("/staff/invoices", { form: { intent: "export", network: "Cortex" } });
    expect(empty.status).toBe(409);
    expectIn(await empty.text(), "There are no Cortex invoices waiting to be exported.");
    expect(await db().select().from(invoiceExports).where(eq(invoiceExports.network, "Cortex"))).toHaveLength(1);
    // Two exports at once never carry the same invoice.
    await award(openBuyer);
    const racing = await Promise.all(
      [0, 1].map(() => as("staff").request("/staff/invoices", { form: { intent: "export", network: "Open Invoice" } })),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([302, 409]);
    expect((await as(seller).request(`/staff/invoices/exports/${exportId}`)).status).toBe(403);
    expect((await as("staff").request("/staff/invoices/exports/99999")).status).toBe(404);
  });

  it("issues credit notes up to what remains, refusing at the field with the typed values kept", async () => {
    const { invoice } = await award(emailBuyer);
    const path = `/staff/invoices/${invoice.number}`;
    const empty = await as("staff").request(path, { form: { intent: "credit-note", amount: "", reason: "" } });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expectIn(emptyHtml, "Please enter the amount to credit, before GST");
    expectIn(emptyHtml, "Please enter the reason for the credit note");
    expectIn(emptyHtml, 'href="#credit-note-amount"');
    const over = await as("staff").request(path, {
      form: { intent: "credit-note", amount: "250.01", reason: "Typed reason stays" },
    });
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expectIn(overHtml, `The amount is more than remains to credit on ${invoice.number}: at most $250.00 before GST`);
    expectIn(overHtml, 'value="250.01"');
    expectIn(overHtml, "Typed reason stays</textarea>");
    expectIn(overHtml, 'aria-describedby="credit-note-amount-hint credit-note-amount-error"');
    const nonsense = await as("staff").request(path, { form: { intent: "credit-note", amount: "ten", reason: "x" } });
    expect(nonsense.status).toBe(400);
    expectIn(await nonsense.text(), "Please enter an amount in dollars and cents, like 12500.00");

    for (const amount of ["100.00", "149.99"]) {
      const issued = await as("staff").request(path, { form: { intent: "credit-note", amount, reason: "Split" } });
      expect(issued.status).toBe(302);
    }
    const notes = await db()
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id))
      .orderBy(asc(creditNotes.sequence));
    expect(notes.map((note) => [note.amountCents, note.gstCents, note.totalCents])).toEqual([
      [10_000, 500, 10_500],
      [14_999, 750, 15_749],
    ]);
    const lastCent = await as("staff").request(path, { form: { intent: "credit-note", amount: "0.02", reason: "x" } });
    expect(lastCent.status).toBe(400);
    expectIn(await lastCent.text(), "at most $0.01 before GST");
    // The last cent takes the rest of the GST: the notes add up to the invoice exactly.
    expect(
      (await as("staff").request(path, { form: { intent: "credit-note", amount: "0.01", reason: "x" } })).status,
    ).toBe(302);
    const all = await db().select().from(creditNotes).where(eq(creditNotes.invoiceId, invoice.id));
    expect(all.reduce((sum, note) => sum + note.totalCents, 0)).toBe(invoice.totalCents);
    const full = await as("staff").request(path, { form: { intent: "credit-note", amount: "0.01", reason: "x" } });
    expect(full.status).toBe(400);
    expectIn(await full.text(), `${invoice.number} has been credited in full: nothing remains to credit.`);
    const numbers = (
      await db().select({ sequence: creditNotes.sequence }).from(creditNotes).orderBy(asc(creditNotes.sequence))
    ).map((row) => row.sequence);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    expect(
      (await as(emailBuyer).request(path, { form: { intent: "credit-note", amount: "1.00", reason: "x" } })).status,
    ).toBe(403);
    expect((await as("staff").request("/staff/invoices/INV-999999")).status).toBe(404);
    expect((await as("staff").request("/staff/invoices/CN-000001")).status).toBe(404);
  });

  it("pages the buyer's list and the staff list 50 at a time, with an Older link", async () => {
    const buyer = await createInvoicedBuyer(db(), "Mail Invoice", "Many Auctions Ltd.");
    const auctions = [];
    for (let index = 0; index < 51; index += 1) {
      auctions.push(await createAuctionRow(db(), { owner: buyer, ...catalogue, status: "closed" }));
    }
    // Written in one statement (numbers far above the others'): this is about the lists, and a long
    // pause here would leave fetch's kept-alive connections to be closed under it by the server.
    const [sample] = await db().select().from(invoices).limit(1);
    if (!sample) throw new Error("no invoice to copy");
    const { id: _id, ...copy } = sample;
    await db()
      .insert(invoices)
      .values(
        auctions.map((auction, index) => ({
          ...copy,
          number: `INV-${900_000 + index}`,
          sequence: 900_000 + index,
          auctionId: auction.id,
          auctionTitle: auction.title,
          organizationId: buyer.organizationId,
          billingPreference: "Mail Invoice" as const,
          deliveryState: "to_mail" as const,
          emailedAt: null,
          mailedAt: null,
          mailedByUserId: null,
          exportedAt: null,
          exportId: null,
          issuedAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
        })),
      );
    const client = createClient(app.baseURL);
    await client.request("/login", { form: { email: buyer.email, password: buyer.password } });
    const first = await (await client.request("/account/invoices")).text();
    expect(first.match(/<th scope="row">Invoice INV-/g)).toHaveLength(50);
    expectIn(first, 'href="/account/invoices?page=2"');
    expectIn(first, ">Older</a>");
    const second = await (await client.request("/account/invoices?page=2")).text();
    expect(second.match(/<th scope="row">Invoice INV-/g)).toHaveLength(1);
    expectNotIn(second, ">Older</a>");
    expectIn(second, ">Newer</a>");
    // The oldest is on the last page.
    const [oldest] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.organizationId, buyer.organizationId))
      .orderBy(asc(invoices.issuedAt))
      .limit(1);
    expectIn(second, `Invoice ${oldest?.number}`);
    const staff = createClient(app.baseURL);
    await staff.request("/login", { form: TEST_STAFF });
    const staffFirst = await (await staff.request("/staff/invoices?state=to_mail")).text();
    expectIn(staffFirst, 'href="/staff/invoices?state=to_mail&amp;page=2"');
    const staffSecond = await (await staff.request("/staff/invoices?state=to_mail&page=2")).text();
    expectIn(staffSecond, 'href="/staff/invoices?state=to_mail"');
  });
});
