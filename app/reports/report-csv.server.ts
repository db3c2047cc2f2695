import { quantityText } from "~/auctions/lots/line-pricing";
import { csvResponse, csvText } from "~/shared/csv";
import { utcDay } from "~/shared/dates";
import { dollars } from "~/shared/money";
import { counted } from "~/shared/words";
import { lineSavingsOf, lotSavingsOf } from "./lot-savings";
import { dayIn } from "./report-filter";
import type { ReportRow } from "./reports.server";
import { basisPointsNumber, type ReportTotals, savingsOf, totalsBy, totalsOf } from "./savings";

// The reports' CSV files (issue 21), written by the one CSV writer (app/shared/csv.ts): amounts in dollars with two decimals and no symbol, percentages with two decimals
// and no sign, days in the reader's zone. Layouts documented in docs/decisions/021-savings-reports.md.

export const AUCTION_COLUMNS = [
  "auction_number",
  "title",
  "kind",
  "awarded_on",
  "reserve",
  "opening_price",
  "award_price",
  "savings",
  "savings_percent",
  "invited_sellers",
  "bidders",
] as const;

/** One line per awarded auction, then one "total" line over the period. */
export function auctionsCsv(rows: readonly ReportRow[], timeZone: string): string {
  const totals = totalsOf(rows);
  return csvText(AUCTION_COLUMNS, [
    ...rows.map((row) => {
      const { savingsCents, savingsBasisPoints } = savingsOf(row.reserveCents, row.awardCents);
      return [
        String(row.auctionId),
        row.title,
        row.kind,
        dayIn(row.awardedAt, timeZone),
        dollars(row.reserveCents),
        row.openingCents === null ? "" : dollars(row.openingCents),
        dollars(row.awardCents),
        dollars(savingsCents),
        basisPointsNumber(savingsBasisPoints),
        String(row.invitedCount),
        String(row.bidderCount),
      ];
    }),
    [
      "total",
      counted(totals.auctions, "auction", "auctions"),
      "",
      "",
      dollars(totals.reserveCents),
      "",
      dollars(totals.awardCents),
      dollars(totals.savingsCents),
      basisPointsNumber(totals.savingsBasisPoints),
      String(totals.invitedCount),
      String(totals.bidderCount),
    ],
  ]);
}

export const LOT_COLUMNS = [
  "auction_number",
  "title",
  "awarded_on",
  "lot",
  "lot_title",
  "reserve",
  "opening_price",
  "award_price",
  "savings",
  "savings_percent",
  "bidders",
] as const;

/**
 * One line per awarded lot of each auction of several lots (issue 31), in the auctions' order, then
 * the lots'. Its lines add up to that auction's line in `auctionsCsv`: an auction of several lots is
 * measured over its awarded lots only. An auction of one lot has no line here (its line in
 * `auctionsCsv` is the lot's).
 */
export function lotsCsv(rows: readonly ReportRow[], timeZone: string): string {
  return csvText(
    LOT_COLUMNS,
    rows
      .filter((row) => row.lotCount > 1)
      .flatMap((row) =>
        row.lots.map((lot) => {
          const { savingsCents, savingsBasisPoints } = lotSavingsOf(lot);
          return [
            String(row.auctionId),
            row.title,
            dayIn(row.awardedAt, timeZone),
            String(lot.position),
            lot.title,
            dollars(lot.reserveCents),
            lot.openingCents === null ? "" : dollars(lot.openingCents),
            dollars(lot.awardCents),
            dollars(savingsCents),
            basisPointsNumber(savingsBasisPoints),
            String(lot.bidderCount),
          ];
        }),
      ),
  );
}

export const LINE_COLUMNS = [
  "auction_number",
  "title",
  "awarded_on",
  "lot",
  "line",
  "description",
  "unit",
  "quantity",
  "ceiling",
  "unit_price",
  "ceiling_total",
  "award_total",
  "savings",
  "savings_percent",
] as const;

/**
 * One line per line with a ceiling of every awarded lot (issue 31): its quantity, ceiling and awarded
 * unit price, its totals at each (rounded as the line's total is), the savings and their percentage
 * of the total at the ceiling. `rows` read `withLines`.
 */
export function linesCsv(rows: readonly ReportRow[], timeZone: string): string {
  return csvText(
    LINE_COLUMNS,
    rows.flatMap((row) =>
      row.lots.flatMap((lot) =>
        lot.ceilingLines.map((line) => {
          const figures = lineSavingsOf(line);
          return [
            String(row.auctionId),
            row.title,
            dayIn(row.awardedAt, timeZone),
            String(lot.position),
            String(line.position),
            line.description,
            line.unit,
            quantityText(line.quantity),
            dollars(line.ceilingCents),
            dollars(line.unitCents),
            dollars(figures.ceilingTotalCents),
            dollars(figures.awardTotalCents),
            dollars(figures.savingsCents),
            basisPointsNumber(figures.savingsBasisPoints),
          ];
        }),
      ),
    ),
  );
}

export const MARKETPLACE_COLUMNS = [
  "grouping",
  "group",
  "auctions",
  "reserve",
  "award_price",
  "savings",
  "savings_percent",
  "invited_sellers",
  "bidders",
] as const;

const groupLine = (grouping: string, key: string, totals: ReportTotals) => [
  grouping,
  key,
  String(totals.auctions),
  dollars(totals.reserveCents),
  dollars(totals.awardCents),
  dollars(totals.savingsCents),
  basisPointsNumber(totals.savingsBasisPoints),
  String(totals.invitedCount),
  String(totals.bidderCount),
];

/** The marketplace's totals: by month (YYYY-MM in the reader's zone), category and area, then overall. */
export function marketplaceCsv(rows: readonly ReportRow[], timeZone: string): string {
  const lines: string[][] = [];
  for (const [grouping, keyOf] of groupings(timeZone)) {
    for (const { key, totals } of totalsBy(rows, keyOf)) lines.push(groupLine(grouping, key, totals));
  }
  lines.push(groupLine("total", "all", totalsOf(rows)));
  return csvText(MARKETPLACE_COLUMNS, lines);
}

export function groupings(timeZone: string): [string, (row: ReportRow) => string][] {
  return [
    ["month", (row) => dayIn(row.awardedAt, timeZone).slice(0, 7)],
    ["category", (row) => row.category],
    ["area", (row) => row.area],
  ];
}

/** The report as a download named for today: savings-report-2026-11-25.csv. */
export const reportResponse = (body: string, name: string) => csvResponse(body, `${name}-${utcDay(new Date())}.csv`);
