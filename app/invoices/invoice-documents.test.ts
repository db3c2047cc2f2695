import { describe, expect, it } from "vitest";
import {
  pdfFonts,
  pdfStructureTypes,
  pdfText,
  pdfXmp,
  taggedPdfMarkers,
  unmarkedDrawing,
} from "../../tests/support/pdf-text";
import { invoiceAmounts } from "./invoice-amounts";
import { invoiceEmail } from "./invoice-email";
import { invoiceIssuer } from "./invoice-issuer";
import { type CreditNoteDocument, creditNotePdf, type InvoiceDocument, invoicePdf } from "./invoice-pdf.server";

const issuer = invoiceIssuer({
  INVOICE_ISSUER_NAME: "Upstream Marketplace Ltd.",
  INVOICE_ISSUER_ADDRESS: "555 4 Ave SW; Calgary AB  T2P 3E7",
  GST_REGISTRATION_NUMBER: "123456789 RT0001",
});

const amounts = invoiceAmounts(25_000);
const invoice: InvoiceDocument = {
  number: "INV-000007",
  issuedAt: new Date("2026-11-25T21:30:00Z"),
  auctionId: 42,
  auctionTitle: "Haul 40 loads of gravel",
  billToName: "Prairie Energy Ltd.",
  billToContact: "Alex Accounts",
  billToEmail: "ap@prairie.example",
  billToAddress: "100 Main St\nRed Deer AB  T4N 1A1\nCanada",
  billingPreference: "Email Invoice",
  feeCents: amounts.amountCents,
  gstCents: amounts.gstCents,
  totalCents: amounts.totalCents,
};

const creditNote: CreditNoteDocument = {
  number: "CN-000003",
  issuedAt: new Date("2026-12-01T10:00:00Z"),
  reason: "Fee charged twice",
  amountCents: 10_000,
  gstCents: 500,
  totalCents: 10_500,
  invoice,
};

describe("the invoice PDF", () => {
  it("has the issuer, number, date, bill-to, auction, the line, GST and total as text", async () => {
    const text = await pdfText(await invoicePdf(invoice, issuer));
    for (const expected of [
      "Invoice INV-000007",
      "Upstream Marketplace Ltd.",
      "555 4 Ave SW",
      "GST registration number: 123456789 RT0001",
      "Invoice date: 2026-11-25",
      "Auction: No. 42: Haul 40 loads of gravel",
      "Prairie Energy Ltd.",
      "Attention: Alex Accounts",
      "Red Deer AB T4N 1A1",
      "Per-auction buyer fee, auction No. 42",
      "$250.00",
      "GST 5%",
      "$12.50",
      "Total (CAD)",
      "$262.50",
      "Net 30 days",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("is tagged: marked, with a structure tree of headings, paragraphs and a table, its language and title", async () => {
    const pdf = await invoicePdf(invoice, issuer);
    expect(taggedPdfMarkers(pdf)).toEqual({
      marked: true,
      structTreeRoot: true,
      lang: "/Lang (en-CA)",
      displayTitle: true,
    });
    const types = await pdfStructureTypes(pdf);
    expect(types[0]).toBe("Title:Invoice INV-000007");
    for (const type of ["Document", "H1", "H2", "P", "Table", "TR", "TH", "TD"]) expect(types).toContain(type);
  });

  it("is the same bytes for the same invoice (made once, but never different if made again)", async () => {
    expect(Buffer.compare(await invoicePdf(invoice, issuer), await invoicePdf(invoice, issuer))).toBe(0);
  });
});

describe("the credit note PDF", () => {
  it("refers to the invoice and gives the credited amount, GST and total", async () => {
    const pdf = await creditNotePdf(creditNote, issuer);
    const text = await pdfText(pdf);
    for (const expected of [
      "Credit note CN-000003",
      "Credits invoice: INV-000007 of 2026-11-25",
      "GST registration number: 123456789 RT0001",
      "Fee charged twice",
      "$100.00",
      "$5.00",
      "$105.00",
      "Prairie Energy Ltd.",
    ]) {
      expect(text).toContain(expected);
    }
    expect(taggedPdfMarkers(pdf).marked).toBe(true);
  });
});

describe("the invoice and credit note PDFs as PDF/UA-1", () => {
  const documents = async () => ({
    invoice: await invoicePdf(invoice, issuer),
    creditNote: await creditNotePdf(creditNote, issuer),
  });
  const STANDARD_FONTS = /^(Courier|Helvetica|Times|Symbol|ZapfDingbats)/;

  it("embed every font they use (none of the standard fonts left to the viewer)", async () => {
    for (const pdf of Object.values(await documents())) {
      const fonts = pdfFonts(pdf);
      expect(fonts.map((font) => font.name.replace(/^[A-Z]{6}\+/, "")).sort()).toEqual([
        "DejaVuSans",
        "DejaVuSans-Bold",
      ]);
      for (const font of fonts) {
        expect(font).toMatchObject({ subtype: "Type0", embedded: true });
        // A subset (six-letter tag): only the glyphs used travel with the PDF.
        expect(font.name).toMatch(/^[A-Z]{6}\+/);
        expect(font.name.split("+")[1]).not.toMatch(STANDARD_FONTS);
      }
      expect(Buffer.from(pdf).toString("latin1")).toMatch(/\/FontFile2 \d+ 0 R/);
    }
  });

  it("say PDF/UA-1 and their title in the XMP metadata, and stay tagged with language and title", async () => {
    const { invoice: invoiceBytes, creditNote: creditNoteBytes } = await documents();
    expect(await pdfXmp(invoiceBytes)).toEqual({ pdfuaPart: "1", title: "Invoice INV-000007" });
    expect(await pdfXmp(creditNoteBytes)).toEqual({ pdfuaPart: "1", title: "Credit note CN-000003" });
    expect(taggedPdfMarkers(creditNoteBytes)).toEqual({
      marked: true,
      structTreeRoot: true,
      lang: "/Lang (en-CA)",
      displayTitle: true,
    });
  });

  it("draw nothing outside the structure tree or an artifact", async () => {
    for (const pdf of Object.values(await documents())) expect(await unmarkedDrawing(pdf)).toEqual([]);
  });

  it("print letters beyond Latin-1 with the font's own glyphs: the text reads back as written", async () => {
    const pdf = await invoicePdf(
      {
        ...invoice,
        billToName: "Łukasz Dvořák Énergie Ltée",
        billToContact: "Zoë Ødegård",
        billToAddress: "12 Rue Saint-Œuvre\nQuébec QC  G1R 4P5\nCanada",
      },
      issuer,
    );
    const text = await pdfText(pdf);
    for (const expected of [
      "Łukasz Dvořák Énergie Ltée",
      "Attention: Zoë Ødegård",
      "12 Rue Saint-Œuvre",
      "Québec QC",
    ]) {
      expect(text).toContain(expected);
    }
    // No glyph missing from the font (drawn as .notdef, read back as U+0000).
    expect(text).not.toContain("\u0000");
  });

  it("stay small: the font subsets keep each PDF under 100 KB", async () => {
    for (const pdf of Object.values(await documents())) expect(pdf.byteLength).toBeLessThan(100_000);
  });
});

describe("invoiceEmail", () => {
  it("is addressed to the accounting contact with the PDF attached, and sends nothing itself", async () => {
    const pdf = await invoicePdf(invoice, issuer);
    const email = invoiceEmail(invoice, pdf, { issuer, appUrl: "https://market.example/" });
    expect(email).toEqual({
      to: "ap@prairie.example",
      subject: "Invoice INV-000007 from Upstream Marketplace Ltd.: $262.50",
      text: expect.stringContaining("Attached is invoice INV-000007 of 2026-11-25 for Prairie Energy Ltd."),
      attachments: [{ name: "INV-000007.pdf", contentType: "application/pdf", contentBase64: pdf.toString("base64") }],
    });
    expect(email.text).toContain("Total due, GST included: $262.50.");
    expect(email.text).toContain("https://market.example/account/invoices");
    expect(email.text.startsWith("Hello Alex Accounts,")).toBe(true);
    expect(
      Buffer.from(email.attachments[0]?.contentBase64 ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("refuses an invoice with no address", () => {
    expect(() => invoiceEmail({ ...invoice, billToEmail: null }, new Uint8Array())).toThrow(/no e-mail address/);
  });
});
