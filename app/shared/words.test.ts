import { describe, expect, it } from "vitest";
import { softCloseText } from "~/auctions/auction-page/auction-terms";
import { describeSoftClose } from "~/auctions/auction-rules";
import {
  awardedLotsPhrase,
  awardedOfLotsText,
  evaluatedText,
  lotLinesCaption,
  sealedReceivedNotice,
  sealedReceivedText,
  unbidLotsText,
  unitPricesMissingMessage,
} from "~/auctions/auction-words";
import { formatBytes } from "~/auctions/documents/document-types";
import { lineRefusalMessage } from "~/auctions/lots/lot-messages";
import { chartSummary, type PriceChartData } from "~/auctions/price-chart/price-chart-geometry";
import { SEALED_MESSAGES } from "~/auctions/sealed/sealed-bid-messages";
import { groupAnnouncement } from "~/catalogue/pickers/picker-selection";
import { formatInZone } from "~/platform/zoned-time";
import { describeResults as liveDescribeResults } from "~/public-pages/faq-live-search.js";
import { describeResults } from "~/public-pages/faq-search";
import {
  capitalized,
  counted,
  countedInWords,
  describeWait,
  howOften,
  inDays,
  listOfWords,
  ordinal,
  pluralOf,
  timeRange,
} from "./words";

describe("ordinal", () => {
  it("says 1st, 2nd, 3rd, 4th, and the teens and twenties right", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });
});

describe("listOfWords", () => {
  it("joins one, two or more items as a sentence does", () => {
    expect([["2"], ["2", "3"], ["2", "3", "5"]].map(listOfWords)).toEqual(["2", "2 and 3", "2, 3 and 5"]);
  });
});

/** What `words` says of 0, 1 and 2. */
const zeroOneTwo = (words: (n: number) => string) => [0, 1, 2].map(words);

describe("counted words", () => {
  it("count by the language's rules: 0 bids, 1 bid, 2 bids", () => {
    expect(zeroOneTwo((n) => counted(n, "bid", "bids"))).toEqual(["0 bids", "1 bid", "2 bids"]);
    expect(zeroOneTwo((n) => counted(n, "try", "tries"))).toEqual(["0 tries", "1 try", "2 tries"]);
    expect(zeroOneTwo((n) => pluralOf(n, "was", "were"))).toEqual(["were", "was", "were"]);
    expect(counted(1.5, "day", "days")).toBe("1.5 days");
  });

  it("say 'no' and 'one' in running text", () => {
    expect(zeroOneTwo((n) => countedInWords(n, "lot", "lots"))).toEqual(["no lots", "one lot", "2 lots"]);
    expect(capitalized(countedInWords(1, "bid", "bids"))).toBe("One bid");
  });

  it("say how often and how far off", () => {
    expect([0, 1, 2, 3].map(howOften)).toEqual(["never", "once", "2 times", "3 times"]);
    expect(zeroOneTwo(inDays)).toEqual(["today", "tomorrow", "in 2 days"]);
  });

  it("say how long to wait, never less than a minute", () => {
    expect([0, 60, 61, 120].map(describeWait)).toEqual(["1 minute", "1 minute", "2 minutes", "2 minutes"]);
  });
});

describe("timeRange", () => {
  const edmonton = (iso: string) => formatInZone(iso, "America/Edmonton");

  it("says one time when both ends read the same, a span otherwise", () => {
    // Two bids 20 seconds apart read as the same minute: "at", never "between 1:58 and 1:58".
    const same = timeRange("2026-11-25T20:58:10Z", "2026-11-25T20:58:30Z", edmonton);
    expect(same).toBe(`at ${edmonton("2026-11-25T20:58:10Z")}`);
    expect(same).toMatch(/^at .*1:58/);
    const apart = timeRange("2026-11-25T20:58:10Z", "2026-11-25T21:03:00Z", edmonton);
    expect(apart).toMatch(/^between .*1:58.* and .*2:03/);
  });

  it("works on any value its format reads", () => {
    const minute = (ms: number) => `${Math.floor(ms / 60_000)} min`;
    expect(timeRange(0, 59_000, minute)).toBe("at 0 min");
    expect(timeRange(0, 60_000, minute)).toBe("between 0 min and 1 min");
  });
});

// Every count- or time-bearing message of the app, built with 0, 1 and 2 (issue 32).
describe("the messages that show a count", () => {
  it("soft close: minutes", () => {
    const softClose = (n: number) =>
      describeSoftClose({ softCloseWindowMinutes: n, softCloseExtensionMinutes: n, softCloseCapMinutes: n });
    expect(zeroOneTwo((n) => softClose(n) ?? "none")).toEqual([
      "none",
      "a bid in the last minute moves the end 1 minute later, at most 1 minute in all",
      "a bid in the last 2 minutes moves the end 2 minutes later, at most 2 minutes in all",
    ]);
    const terms = { softCloseWindowMinutes: 1, softCloseExtensionMinutes: 2, softCloseCapMinutes: 10 };
    expect(softCloseText({ ...terms, sellerView: "rank" } as Parameters<typeof softCloseText>[0])).toBe(
      "A new lowest bid in the last minute moves the end 2 minutes later, at most 10 minutes in all.",
    );
    expect(softCloseText({ ...terms, softCloseWindowMinutes: 0 } as Parameters<typeof softCloseText>[0])).toBe(
      "None: bidding ends at the scheduled time.",
    );
  });

  it("sealed bids received", () => {
    expect(zeroOneTwo(sealedReceivedText)).toEqual([
      "0 sealed bids received",
      "1 sealed bid received",
      "2 sealed bids received",
    ]);
    expect(zeroOneTwo(sealedReceivedNotice)).toEqual([
      "No sealed bid was received.",
      "1 sealed bid was received and can now be opened.",
      "2 sealed bids were received and can now be opened.",
    ]);
  });

  it("a lot's lines", () => {
    expect(zeroOneTwo((n) => lotLinesCaption(n, "enter a unit price for each"))).toEqual([
      "The lot's 0 lines: enter a unit price for each",
      "The lot's line: enter a unit price for each",
      "The lot's 2 lines: enter a unit price for each",
    ]);
    const missing = [
      "Please enter a unit price for each of the lot's 0 lines",
      "Please enter a unit price for the lot's line",
      "Please enter a unit price for each of the lot's 2 lines",
    ];
    expect(zeroOneTwo(unitPricesMissingMessage)).toEqual(missing);
    expect(zeroOneTwo(SEALED_MESSAGES.pricesMissing)).toEqual(missing);
    expect(zeroOneTwo((expected) => lineRefusalMessage({ reason: "wrong-line-count", expected }))).toEqual(missing);
  });

  it("lots awarded and not bid on", () => {
    expect(zeroOneTwo(unbidLotsText)).toEqual([
      "",
      " Nobody bid on one lot: it cannot be awarded.",
      " Nobody bid on 2 lots: they cannot be awarded.",
    ]);
    expect([1, 2].map(awardedLotsPhrase)).toEqual(["this lot", "these lots"]);
    expect(zeroOneTwo((n) => awardedOfLotsText(n, 2))).toEqual([
      "0 of its 2 lots were awarded",
      "1 of its 2 lots was awarded",
      "2 of its 2 lots were awarded",
    ]);
  });

  it("sellers evaluated", () => {
    expect(zeroOneTwo(evaluatedText)).toEqual([
      "(0 sellers evaluated)",
      "(1 seller evaluated)",
      "(2 sellers evaluated)",
    ]);
  });

  it("the pickers' announcements", () => {
    const nouns = ["city", "cities"] as const;
    expect(zeroOneTwo((n) => groupAnnouncement("Alberta", "all", n, n, nouns))).toEqual([
      "Alberta: all 0 cities selected.",
      "Alberta: its one city selected.",
      "Alberta: all 2 cities selected.",
    ]);
    expect(groupAnnouncement("Alberta", "none", 0, 2, nouns)).toBe("Alberta: no cities selected.");
    expect(zeroOneTwo((n) => groupAnnouncement("Alberta", "some", n, 3, nouns))).toEqual([
      "Alberta: 0 of 3 cities selected.",
      "Alberta: 1 of 3 cities selected.",
      "Alberta: 2 of 3 cities selected.",
    ]);
  });

  it("FAQ results, on the server and in the browser alike", () => {
    const expected = ["No results found.", "1 question found.", "2 questions found."];
    expect(zeroOneTwo((n) => describeResults(n, 10))).toEqual(expected);
    expect(zeroOneTwo((n) => liveDescribeResults(n, 10))).toEqual(expected);
    expect([1, 2].map((n) => describeResults(n, n))).toEqual(["Showing all 1 question.", "Showing all 2 questions."]);
    expect([1, 2].map((n) => liveDescribeResults(n, n))).toEqual([
      "Showing all 1 question.",
      "Showing all 2 questions.",
    ]);
  });

  it("file sizes", () => {
    expect(zeroOneTwo(formatBytes)).toEqual(["0 bytes", "1 byte", "2 bytes"]);
  });
});

describe("the price chart's summary", () => {
  const START = Date.parse("2026-11-25T20:00:00Z");
  const iso = (ms: number) => new Date(ms).toISOString();
  const edmonton = (at: string) => formatInZone(at, "America/Edmonton");
  const chart = (overrides: Partial<PriceChartData>): PriceChartData => ({
    startMs: START,
    endMs: START + 3_600_000,
    steps: [
      [START + 118 * 60_000, 900_000],
      [START + 118 * 60_000 + 20_000, 800_000],
    ],
    points: [],
    series: [],
    pointCount: 2,
    extensions: [],
    firstAt: iso(START + 118 * 60_000),
    lastAt: iso(START + 118 * 60_000 + 20_000),
    audience: "full",
    ...overrides,
  });

  it("says 'at' for two bids in the same minute, 'between' for bids minutes apart", () => {
    const sameMinute = chartSummary(chart({}), edmonton);
    expect(sameMinute).toBe(
      `Lowest price fell from $9,000.00 to $8,000.00 over 2 bids at ${edmonton(iso(START + 118 * 60_000))}; end never extended.`,
    );
    expect(sameMinute).not.toContain("between");
    const apart = chartSummary(chart({ lastAt: iso(START + 123 * 60_000) }), edmonton);
    expect(apart).toContain(
      `between ${edmonton(iso(START + 118 * 60_000))} and ${edmonton(iso(START + 123 * 60_000))}`,
    );
  });

  it("counts bids and extensions with 0, 1 and 2", () => {
    const summary = (n: number, audience: "full" | "seller") =>
      chartSummary(
        chart({ pointCount: n, audience, extensions: Array.from({ length: n }, () => [0, 1, 2] as const) }),
        () => "[t]",
      );
    expect(zeroOneTwo((n) => summary(n, "full"))).toEqual([
      "Lowest price fell from $9,000.00 to $8,000.00 over 0 bids at [t]; end never extended.",
      "Lowest price fell from $9,000.00 to $8,000.00 over 1 bid at [t]; end extended once.",
      "Lowest price fell from $9,000.00 to $8,000.00 over 2 bids at [t]; end extended 2 times.",
    ]);
    expect(zeroOneTwo((n) => summary(n, "seller"))).toEqual([
      "Lowest price fell from $9,000.00 to $8,000.00 at [t]; you placed 0 bids; end never extended.",
      "Lowest price fell from $9,000.00 to $8,000.00 at [t]; you placed 1 bid; end extended once.",
      "Lowest price fell from $9,000.00 to $8,000.00 at [t]; you placed 2 bids; end extended 2 times.",
    ]);
  });
});
