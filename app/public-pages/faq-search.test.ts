import { describe, expect, it } from "vitest";
import { faqEntries } from "./content/faq-entries";
import { describeResults, searchFaq } from "./faq-search";

describe("searchFaq", () => {
  it("shows every entry for an empty or blank search", () => {
    expect(searchFaq(faqEntries, "")).toEqual(faqEntries);
    expect(searchFaq(faqEntries, "   ")).toEqual(faqEntries);
  });

  it("matches case-insensitively in questions and answers", () => {
    const lower = searchFaq(faqEntries, "wcb");
    expect(lower.length).toBeGreaterThan(0);
    expect(searchFaq(faqEntries, "WCB")).toEqual(lower);
    expect(searchFaq(faqEntries, "  Wcb ")).toEqual(lower);
  });

  it("finds nothing for text that is not there", () => {
    expect(searchFaq(faqEntries, "zebra crossing")).toEqual([]);
    expect(describeResults(0, faqEntries.length)).toBe("No results found.");
  });

  it("describes the result count for screen readers", () => {
    expect(describeResults(1, 10)).toBe("1 question found.");
    expect(describeResults(3, 10)).toBe("3 questions found.");
    expect(describeResults(10, 10)).toBe("Showing all 10 questions.");
  });
});

describe("the FAQ states every claim of the specification", () => {
  const text = faqEntries.flatMap((entry) => [entry.question, ...entry.answer]).join("\n");
  it.each([
    ["prescreening on safety, insurance and WCB", /prescreen/i],
    ["WCB", /WCB/],
    ["bids cannot be retracted", /retract/i],
    ["identities hidden", /identit/i],
    ["auto-bid to a secret minimum", /secret minimum/i],
    ["first to enter a minimum owns it", /first seller/i],
    ["reserve price is the buyer's maximum", /reserve price/i],
    ["closed-bid auctions with documents", /closed-bid/i],
    ["bid list seen by buyer and auctioneer only", /bid list/i],
    ["buyers choose invited sellers", /invite/i],
    ["seller signup fee", /\$108\.15/],
    ["monthly seller charge", /\$11\.55/],
    ["buyers pay per auction", /per-auction fee/i],
  ])("%s", (_claim, pattern) => {
    expect(text).toMatch(pattern);
  });
});
