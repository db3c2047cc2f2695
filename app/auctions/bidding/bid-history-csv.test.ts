import { describe, expect, it } from "vitest";
import { bidHistoryCsv } from "./bid-history-csv.server";

describe("the bid history CSV", () => {
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

  it("names a lotted auction's lot and unit prices beside each bid", () => {
    const csv = bidHistoryCsv(
      [
        {
          id: 9,
          createdAt: new Date("2030-05-01T15:04:05.123Z"),
          seller: "Alpha",
          amountCents: 142_500,
          kind: "manual",
          triggeredByBidId: null,
          lot: "Lot 1: Hauling",
          unitCents: [10_000, 5_000, 300],
        },
      ],
      { lotted: true },
    );
    expect(csv).toBe(
      "bid_id,placed_at_utc,seller,lot,amount,unit_prices,kind,triggered_by_bid_id,entered_on_behalf_by,on_behalf_note\r\n" +
        "9,2030-05-01T15:04:05.123Z,Alpha,Lot 1: Hauling,1425.00,100.00;50.00;3.00,manual,,,\r\n",
    );
  });
});
