import { describe, expect, it } from "vitest";
import {
  ACCOUNTING_COLUMNS,
  accountingCsv,
  NETWORK_EXPORT_COLUMNS,
  networkExportCsv,
  networkExportFileName,
} from "./invoice-csv.server";
import { invoiceIssuer } from "./invoice-issuer";

// The two CSV layouts of docs/decisions/015-buyer-invoices.md, to the byte.

const issuedAt = new Date("2026-11-25T21:30:00.000Z");
const invoice = {
  number: "INV-000012",
  issuedAt,
  auctionId: 42,
  auctionTitle: 'Gravel, "3/4 crush"',
  billToName: "=Prairie Energy Ltd.",
  billToContact: "Alex Accounts",
  billToEmail: "ap@prairie.example",
  billToAddress: "100 Main St\nRed Deer AB  T4N 1A1\nCanada",
  billingPreference: "Cortex",
  deliveryState: "exported" as const,
  feeCents: 25_000,
  gstCents: 1_250,
  totalCents: 26_250,
  creditedCents: 10_000,
  creditedGstCents: 500,
  mailedAt: null,
  exportedAt: new Date("2026-11-26T08:00:00.000Z"),
  exportId: 3,
};

describe("the accounting CSV", () => {
  it("has the documented columns, amounts in dollars, the balance after credit notes, and defused cells", () => {
    expect(accountingCsv([invoice])).toBe(
      `${ACCOUNTING_COLUMNS.join(",")}\r\n` +
        `INV-000012,2026-11-25T21:30:00.000Z,42,"Gravel, ""3/4 crush""",'=Prairie Energy Ltd.,Cortex,Exported,250.00,12.50,262.50,100.00,5.00,157.50,,2026-11-26T08:00:00.000Z,3\r\n`,
    );
    expect(ACCOUNTING_COLUMNS).toEqual([
      "invoice_number",
      "issued_at_utc",
      "auction_number",
      "auction_title",
      "bill_to",
      "billing_preference",
      "state",
      "fee",
      "gst",
      "total",
      "credited",
      "credited_gst",
      "balance",
      "mailed_at_utc",
      "exported_at_utc",
      "export_number",
    ]);
  });

  it("is the header alone when nothing matches", () => {
    expect(accountingCsv([])).toBe(`${ACCOUNTING_COLUMNS.join(",")}\r\n`);
  });
});

describe("the Open Invoice and Cortex export file", () => {
  const issuer = invoiceIssuer({ GST_REGISTRATION_NUMBER: "123456789 RT0001" });

  it("has one line per invoice in the documented layout", () => {
    expect(networkExportCsv([invoice], issuer)).toBe(
      `${NETWORK_EXPORT_COLUMNS.join(",")}\r\n` +
        `INV-000012,2026-11-25,2026-12-25,CAD,Upstream Marketplace Ltd.,123456789 RT0001,'=Prairie Energy Ltd.,Alex Accounts,ap@prairie.example,"100 Main St, Red Deer AB  T4N 1A1, Canada",42,"Per-auction buyer fee, auction No. 42: Gravel, ""3/4 crush""",1,250.00,250.00,5.00,12.50,262.50,30\r\n`,
    );
  });

  it("is named after the network, the export's number and its UTC day", () => {
    expect(networkExportFileName("Open Invoice", 12, issuedAt)).toBe("open-invoice-export-000012-2026-11-25.csv");
    expect(networkExportFileName("Cortex", 7, new Date("2026-12-31T23:59:59Z"))).toBe(
      "cortex-export-000007-2026-12-31.csv",
    );
  });
});
