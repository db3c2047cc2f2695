import { describe, expect, it } from "vitest";
import { bidHistoryCsv, csvCell } from "./bid-history-csv.server";
import { dollars } from "~/shared/money";

describe("the bid history CSV", () => {
  it("quotes as RFC 4180 asks", () => {
    expect(csvCell("Roughneck Services Ltd.")).toBe("Roughneck Services Ltd.");
    expect(csvCell("Smith, Jones & Co")).toBe('"Smith, Jones & Co"');
    expect(csvCell('The "Best" Rigs')).toBe('"The ""Best"" Rigs"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  it("defuses cells a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvCell("+1-403-555-0100")).toBe("'+1-403-555-0100");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tTabbed")).toBe("'\tTabbed");
    expect(csvCell("\rReturn")).toBe('"\'\rReturn"');
    expect(csvCell("Ltd = fine")).toBe("Ltd = fine");
  });

  it("has the header, then one CRLF line per bid", () => {
    const csv = bidHistoryCsv([
      {
        id: 7,
        createdAt: new Date("2030-05-01T15:04:05.123Z"),
        seller: "A, B",
        amountCents: 990_000,
        kind: "manual",
        triggeredByBidId: null,
      },
      {
        id: 8,
        createdAt: new Date("2030-05-01T15:04:05.123Z"),
        seller: "=cmd",
        amountCents: 980_050,
        kind: "auto",
        triggeredByBidId: 7,
      },
    ]);
    expect(csv).toBe(
      "bid_id,placed_at_utc,seller,amount,kind,triggered_by_bid_id,entered_on_behalf_by,on_behalf_note\r\n" +
        '7,2030-05-01T15:04:05.123Z,"A, B",9900.00,manual,,,\r\n' +
        "8,2030-05-01T15:04:05.123Z,'=cmd,9800.50,auto,7,,\r\n",
    );
  });
});
