import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { bidHistoryCsv } from "../bidding/bid-history-csv.server";
import { ownBidHow } from "../bidding/own-bids-table";
import { mayEnterOnBehalf } from "./on-behalf-rules";
import {
  AMOUNT_MISSING,
  CALL_TIME_FORMAT,
  CALLER_MISSING,
  CHOOSE_A_LOT,
  callTimeAllowed,
  onBehalfNote,
  onBehalfSchema,
  UNIT_PRICE_FORMAT,
} from "./on-behalf-schema";

// Who may bid on a seller's behalf, the form's checks, the note and how the bid reads (issue 21).

const consultantRun = { evaluatorOrganizationId: null };
const evaluated = { evaluatorOrganizationId: 9 };

describe("who may enter a bid on a seller's behalf", () => {
  it("lets the consultant, the buyer without a consultant, and staff; nobody else", () => {
    expect(mayEnterOnBehalf({ role: 1 }, { kind: "staff" }, evaluated)).toBe(true);
    expect(mayEnterOnBehalf({ role: 4 }, { kind: "owner", organizationId: 1 }, consultantRun)).toBe(true);
    expect(mayEnterOnBehalf({ role: 4 }, { kind: "evaluator", organizationId: 9 }, evaluated)).toBe(true);
    expect(mayEnterOnBehalf({ role: 2 }, { kind: "owner", organizationId: 1 }, consultantRun)).toBe(true);
    expect(mayEnterOnBehalf({ role: 2 }, { kind: "owner", organizationId: 1 }, evaluated)).toBe(false);
    expect(mayEnterOnBehalf({ role: 3 }, { kind: "seller", organizationId: 5 }, consultantRun)).toBe(false);
  });
});

describe("the on-behalf form", () => {
  const form = (changes: Record<string, string> = {}) => {
    const data = new FormData();
    const fields = { seller: "3", what: "bid", amount: "9,000.50", caller: " Sam ", calledAt: "14:05", ...changes };
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return parseWithZod(data, { schema: onBehalfSchema });
  };

  it("takes the seller, the amount in cents and the call", () => {
    const submission = form();
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value).toMatchObject({ seller: 3, what: "bid", amount: 900_050, caller: "Sam" });
    }
  });

  it("names each missing or malformed field", () => {
    const submission = form({ caller: "", calledAt: "2pm", amount: "0" });
    if (submission.status !== "error") throw new Error("the form was taken");
    expect(submission.error?.caller).toEqual([CALLER_MISSING]);
    expect(submission.error?.calledAt).toEqual([CALL_TIME_FORMAT]);
    expect(submission.error?.amount?.[0]).toMatch(/dollars and cents/);
  });

  it("takes a lot and a unit price per line instead of the amount for a bid on a lot priced by lines", () => {
    const submission = form({ amount: "", lot: "12", pricing: "lines", "prices[0]": "100.00", "prices[1]": "0" });
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value).toMatchObject({ lot: 12, amount: undefined, prices: ["100.00", "0"] });
    }
    // A minimum is still an amount; a lot that is not an id and a price that is not one are named.
    const minimum = form({ amount: "", what: "minimum", lot: "12", pricing: "lines" });
    expect(minimum.status === "error" && minimum.error?.amount).toEqual([AMOUNT_MISSING]);
    const odd = form({ lot: "0x10", "prices[0]": "-5", "prices[1]": "1e9" });
    if (odd.status !== "error") throw new Error("the form was taken");
    expect(odd.error?.lot).toEqual([CHOOSE_A_LOT]);
    expect(odd.error?.["prices[0]"]).toEqual([UNIT_PRICE_FORMAT]);
    expect(odd.error?.["prices[1]"]).toEqual([UNIT_PRICE_FORMAT]);
  });

  it("takes a call time up to 12 hours back on the clock face, never ahead", () => {
    const now = new Date("2030-05-01T06:03:00Z"); // 00:03 in Edmonton (MDT)
    expect(callTimeAllowed("00:03", now, "America/Edmonton")).toBe(true);
    expect(callTimeAllowed("23:58", now, "America/Edmonton")).toBe(true);
    expect(callTimeAllowed("12:10", now, "America/Edmonton")).toBe(true);
    expect(callTimeAllowed("12:00", now, "America/Edmonton")).toBe(false);
    expect(callTimeAllowed("00:10", now, "America/Edmonton")).toBe(false);
  });

  it("keeps who phoned and when in the note", () => {
    expect(onBehalfNote({ caller: "Sam", calledAt: "14:05", details: " Line down " }, "America/Edmonton")).toBe(
      "Phoned by Sam at 14:05 (America/Edmonton): Line down",
    );
    expect(onBehalfNote({ caller: "Sam", calledAt: "14:05" }, "UTC")).toBe("Phoned by Sam at 14:05 (UTC)");
  });
});

describe("a bid entered on a seller's behalf", () => {
  it("says so in the seller's list and in the CSV, with formulas defused", () => {
    const bid = { number: 1, amountCents: 100, kind: "manual" as const, createdAt: "2030-05-01T00:00:00Z" };
    expect(ownBidHow({ ...bid, enteredBy: null, onBehalfNote: null })).toBe("By you");
    expect(ownBidHow({ ...bid, enteredBy: "Jo Doe (Prairie Ltd.)", onBehalfNote: "Phoned by Sam" })).toBe(
      "Entered on your behalf by Jo Doe (Prairie Ltd.) (Phoned by Sam)",
    );
    const csv = bidHistoryCsv([
      {
        id: 1,
        createdAt: new Date("2030-05-01T00:00:00Z"),
        seller: "A",
        amountCents: 100,
        kind: "manual",
        triggeredByBidId: null,
        enteredBy: "Jo Doe (Prairie Ltd.)",
        onBehalfNote: "=Phoned by Sam",
      },
    ]);
    expect(csv.split("\r\n")[1]).toBe(
      "1,2030-05-01T00:00:00.000Z,A,1.00,manual,,Jo Doe (Prairie Ltd.),'=Phoned by Sam",
    );
  });
});
