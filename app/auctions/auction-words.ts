import { counted, countedInWords, pluralOf } from "~/shared/words";

// The auctions' count-bearing sentences (issue 32), each built once from app/shared/words.ts so that
// pages, e-mails and refusals say "1 line", "one lot", "2 sealed bids were" alike; tested with 0, 1
// and 2 in auction-words.test.ts.

/** "2 sealed bids received", "1 sealed bid received", "0 sealed bids received". */
export const sealedReceivedText = (received: number) => `${counted(received, "sealed bid", "sealed bids")} received`;

/** The deadline notice to the buyer: how many sealed bids came in. */
export const sealedReceivedNotice = (received: number) =>
  received === 0
    ? "No sealed bid was received."
    : `${counted(received, "sealed bid", "sealed bids")} ${pluralOf(received, "was", "were")} received and can now be opened.`;

/** "The lot's 2 lines: …" / "The lot's line: …": a lot's unit-price table caption. */
export const lotLinesCaption = (lines: number, what: string) =>
  `${pluralOf(lines, "The lot's line", `The lot's ${counted(lines, "line", "lines")}`)}: ${what}`;

/** A lot's bid without a unit price for every line, refused in the same words everywhere. */
export const unitPricesMissingMessage = (lines: number) =>
  pluralOf(
    lines,
    "Please enter a unit price for the lot's line",
    `Please enter a unit price for each of the lot's ${counted(lines, "line", "lines")}`,
  );

/** The award form's note on lots nobody bid on: "" for none. */
export const unbidLotsText = (unbid: number) =>
  unbid > 0
    ? ` Nobody bid on ${countedInWords(unbid, "lot", "lots")}: ${pluralOf(unbid, "it cannot", "they cannot")} be awarded.`
    : "";

/** The winner's e-mail: "this lot" or "these lots". */
export const awardedLotsPhrase = (lots: number) => pluralOf(lots, "this lot", "these lots");

/** The evaluation-complete e-mail's count: "(1 seller evaluated)", "(2 sellers evaluated)". */
export const evaluatedText = (sellers: number) => `(${counted(sellers, "seller", "sellers")} evaluated)`;

/** A report's note on a lotted auction: "1 of its 3 lots was awarded", "2 of its 3 lots were awarded". */
export const awardedOfLotsText = (awarded: number, lotCount: number) =>
  `${awarded} of its ${counted(lotCount, "lot", "lots")} ${pluralOf(awarded, "was", "were")} awarded`;
