import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { faqEntries } from "./content/faq-entries";
import { describeResults as liveDescribe, matchesQuery } from "./faq-live-search.js";
import { describeResults, searchFaq } from "./faq-search";

// The first visit's live-search script (plain JS, issue 20) must find and say what the server does.

/** Words and pieces of the FAQ's own text, in any case, with spaces around: the queries people type. */
const fromTheText = faqEntries.flatMap((entry) => [entry.question, ...entry.answer]).join(" ");
const query = fc.oneof(
  fc.string(),
  fc
    .tuple(
      fc.nat(fromTheText.length - 1),
      fc.integer({ min: 1, max: 12 }),
      fc.boolean(),
      fc.constantFrom("", " ", "  "),
    )
    .map(([start, length, upper, pad]) => {
      const piece = fromTheText.slice(start, start + length);
      return `${pad}${upper ? piece.toUpperCase() : piece}${pad}`;
    }),
);

describe("faq-live-search.js", () => {
  it("matches the same entries as the server's search", () => {
    fc.assert(
      fc.property(query, (typed) => {
        const live = faqEntries.filter((entry) => matchesQuery([entry.question, ...entry.answer], typed));
        expect(live).toEqual(searchFaq(faqEntries, typed));
      }),
      { numRuns: 500 },
    );
    for (const typed of ["", "   ", "wcb", "WCB", "RESERVE price", "xylophone zebra"]) {
      const live = faqEntries.filter((entry) => matchesQuery([entry.question, ...entry.answer], typed));
      expect(live).toEqual(searchFaq(faqEntries, typed));
    }
  });

  it("says the result count in the same words", () => {
    for (const total of [1, 10, faqEntries.length]) {
      for (let count = 0; count <= total; count++)
        expect(liveDescribe(count, total)).toBe(describeResults(count, total));
    }
  });
});
