import { CsvError, parse } from "csv-parse/sync";
import { csvText } from "~/shared/csv";
import { dollars, formatCents, parseDollars } from "~/shared/money";
import { counted, listOfWords, pluralOf } from "~/shared/words";
import { LINE_ITEM_COLUMNS, type LineItem, lineItemProblems, MAX_LINES_PER_LOT } from "./line-items";
import { MAX_CENTS, parseQuantity, quantityText } from "./line-pricing";

// Line items in and out of spreadsheets (issue 31). A buyer pastes or uploads a lot's lines
// (description, unit, quantity, and optionally a ceiling on the unit price); a seller downloads a
// lot's price sheet and uploads it with a unit price on every line. Every row that is wrong gets its
// own message naming the row as a spreadsheet numbers it, and nothing is taken until all are right.

export type RowProblem = { row: number; message: string };
export type CsvOutcome<T> = { ok: true; value: T } | { ok: false; problems: RowProblem[] };

export const PRICE_SHEET_COLUMNS = ["line", "description", "unit", "quantity", "unit_price"] as const;

/** A filled-in price sheet of 250 lines is some 30 KB: far more is not one. */
export const MAX_PRICE_SHEET_BYTES = 600_000;
export const PRICE_SHEET_TOO_LARGE =
  "This file is too large to be a price sheet: please send the downloaded sheet with its unit_price column filled in";

/** The rows of a CSV text with the line each starts on; a malformed file is one problem at its row. */
function rowsOf(text: string): CsvOutcome<{ row: number; cells: string[] }[]> {
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return { ok: true, value: records.map(({ record, info }) => ({ row: info.lines, cells: record })) };
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = (error as CsvError & { lines?: number }).lines ?? 1;
    return { ok: false, problems: [{ row, message: "This row is not valid CSV: check its quotation marks" }] };
  }
}

/** Whether a first row names the columns rather than giving a line (its quantity is not a number). */
const isHeader = (cells: readonly string[], quantityColumn: number) =>
  parseQuantity(cells[quantityColumn] ?? "") === null && /[a-z]/i.test(cells.join(""));

/** A lot's line items from CSV: description, unit, quantity, and an optional ceiling on the unit price. */
export function readLineItemsCsv(text: string): CsvOutcome<LineItem[]> {
  const parsed = rowsOf(text);
  if (!parsed.ok) return parsed;
  const rows = parsed.value;
  if (rows[0] && isHeader(rows[0].cells, 2)) rows.shift();
  if (rows.length === 0) return { ok: false, problems: [{ row: 1, message: "Please add at least one line item" }] };
  if (rows.length > MAX_LINES_PER_LOT) {
    return {
      ok: false,
      problems: [
        { row: rows[MAX_LINES_PER_LOT]?.row ?? 1, message: `A lot has at most ${MAX_LINES_PER_LOT} line items` },
      ],
    };
  }
  const problems: RowProblem[] = [];
  const items: LineItem[] = [];
  for (const { row, cells } of rows) {
    const [description = "", unit = "", quantityCell = "", ceilingCell = ""] = cells;
    const messages = lineItemProblems(description, unit, quantityCell, ceilingCell);
    if (cells.length > LINE_ITEM_COLUMNS.length)
      messages.push("Please give at most four columns: description, unit, quantity and ceiling");
    if (messages.length > 0) {
      problems.push(...messages.map((message) => ({ row, message })));
      continue;
    }
    items.push({
      description,
      unit,
      quantity: parseQuantity(quantityCell) as number,
      ceilingCents: ceilingCell === "" ? null : (parseDollars(ceilingCell) as number),
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: items };
}

/** A lot's price sheet to fill in: its lines, and the seller's latest unit prices where they have some. */
export function priceSheetCsv(lines: readonly LineItem[], unitCents?: readonly number[]): string {
  return csvText(
    PRICE_SHEET_COLUMNS,
    lines.map((line, index) => [
      String(index + 1),
      line.description,
      line.unit,
      quantityText(line.quantity),
      unitCents?.[index] === undefined ? "" : dollars(unitCents[index] as number),
    ]),
  );
}

/**
 * A filled-in price sheet: a unit price for every line of the lot, found by the line's number (so the
 * rows may be sorted); the other columns are the seller's to keep or drop.
 */
export function readPriceSheetCsv(text: string, lines: readonly LineItem[]): CsvOutcome<number[]> {
  const parsed = rowsOf(text);
  if (!parsed.ok) return parsed;
  const rows = parsed.value;
  const header = rows[0]?.cells.map((cell) => cell.toLowerCase().replaceAll(" ", "_"));
  const lineColumn = header?.indexOf("line") ?? -1;
  const priceColumn = header?.indexOf("unit_price") ?? -1;
  if (lineColumn < 0 || priceColumn < 0) {
    return {
      ok: false,
      problems: [{ row: 1, message: "Please keep the columns line and unit_price of the downloaded sheet" }],
    };
  }
  // One row per line: more cannot all be right, and a message per extra row would bury the one that matters.
  const extra = rows[lines.length + 1];
  if (extra) {
    const message = `The lot has ${counted(lines.length, "line", "lines")}: please keep one row per line and remove the rest`;
    return { ok: false, problems: [{ row: extra.row, message }] };
  }
  const problems: RowProblem[] = [];
  const unitCents: (number | undefined)[] = lines.map(() => undefined);
  for (const { row, cells } of rows.slice(1)) {
    const line = Number.parseInt(cells[lineColumn] ?? "", 10);
    if (!/^\d+$/.test(cells[lineColumn] ?? "") || line < 1 || line > lines.length) {
      problems.push({ row, message: `Please give a line number from 1 to ${lines.length}` });
      continue;
    }
    if (unitCents[line - 1] !== undefined) {
      problems.push({ row, message: `Line ${line} is in the sheet twice` });
      continue;
    }
    const cents = parseDollars(cells[priceColumn] ?? "");
    const ceiling = lines[line - 1]?.ceilingCents ?? null;
    if (cents === null || cents > MAX_CENTS) {
      problems.push({ row, message: `Please enter the unit price of line ${line} in dollars and cents, like 185.00` });
    } else if (ceiling !== null && cents > ceiling) {
      problems.push({ row, message: `The unit price of line ${line} may be at most ${formatCents(ceiling)}` });
    }
    unitCents[line - 1] = cents ?? -1;
  }
  const missing = unitCents.flatMap((cents, index) => (cents === undefined ? [index + 1] : []));
  if (missing.length > 0) {
    const named = `${pluralOf(missing.length, "line", "lines")} ${listOfWords(missing.map(String))}`;
    problems.push({ row: (rows.at(-1)?.row ?? 1) + 1, message: `Please give a unit price for ${named}` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: unitCents as number[] };
}
