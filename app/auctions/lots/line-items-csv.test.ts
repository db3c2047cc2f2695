import { describe, expect, it } from "vitest";
import type { LineItem } from "./line-items";
import { priceSheetCsv, readLineItemsCsv, readPriceSheetCsv } from "./line-items-csv.server";

// Line items from a buyer's spreadsheet and price sheets to and from a seller's (issue 31): each
// wrong row named as the spreadsheet numbers it, nothing taken until every row is right.

const hauling: LineItem[] = [
  { description: "Vacuum truck, hourly", unit: "hour", quantity: 40_000, ceilingCents: 18_500 },
  { description: "Mileage", unit: "km", quantity: 250_000, ceilingCents: null },
  { description: "Disposal, water", unit: "m³", quantity: 12_500, ceilingCents: null },
];

describe("a lot's line items from CSV", () => {
  it("reads description, unit, quantity and an optional ceiling, with or without a header", () => {
    const withHeader =
      '\uFEFFDescription,Unit,Quantity,Ceiling\n"Vacuum truck, hourly",hour,40,$185.00\nMileage,km,"250",\n\n,,,\n"Disposal, water",m³,12.5\n';
    expect(readLineItemsCsv(withHeader)).toEqual({ ok: true, value: hauling });
    expect(readLineItemsCsv('"Vacuum truck, hourly", hour ,40,185\r\n')).toEqual({ ok: true, value: [hauling[0]] });
  });

  it("names every wrong row as the spreadsheet numbers it, and takes none of them", () => {
    const text = [
      "description,unit,quantity",
      "Rig move,each,1",
      ",hour,2",
      "Fluids,m³,1.2345",
      "Cementing,job,0,abc",
    ].join("\n");
    expect(readLineItemsCsv(text)).toEqual({
      ok: false,
      problems: [
        { row: 3, message: "Please enter a description" },
        { row: 4, message: "Please enter a quantity above zero with at most three decimals, like 12.5" },
        { row: 5, message: "Please enter a quantity above zero with at most three decimals, like 12.5" },
        {
          row: 5,
          message: "Please enter the ceiling as a unit price in dollars and cents, like 185.00, or leave it empty",
        },
      ],
    });
  });

  it("refuses an empty file, more than 250 lines, and quotation marks left open", () => {
    expect(readLineItemsCsv("description,unit,quantity\n")).toEqual({
      ok: false,
      problems: [{ row: 1, message: "Please add at least one line item" }],
    });
    const many = Array.from({ length: 251 }, (_, index) => `Line ${index + 1},each,1`).join("\n");
    expect(readLineItemsCsv(many)).toEqual({
      ok: false,
      problems: [{ row: 251, message: "A lot has at most 250 line items" }],
    });
    const open = readLineItemsCsv('Rig move,each,1\n"Fluids,m³,2\n');
    expect(open.ok).toBe(false);
    if (!open.ok) expect(open.problems[0]?.message).toBe("This row is not valid CSV: check its quotation marks");
  });
});

describe("a seller's price sheet", () => {
  it("downloads with the lines and the seller's latest prices, and reads back the same prices", () => {
    const sheet = priceSheetCsv(hauling, [17_500, 325, 4_550]);
    expect(sheet).toBe(
      "line,description,unit,quantity,unit_price\r\n" +
        '1,"Vacuum truck, hourly",hour,40,175.00\r\n2,Mileage,km,250,3.25\r\n3,"Disposal, water",m³,12.5,45.50\r\n',
    );
    expect(readPriceSheetCsv(sheet, hauling)).toEqual({ ok: true, value: [17_500, 325, 4_550] });
    expect(priceSheetCsv(hauling).split("\r\n")[1]).toBe('1,"Vacuum truck, hourly",hour,40,');
  });

  it("finds lines by number in any order, and says which rows are wrong and which lines are missing", () => {
    expect(readPriceSheetCsv("unit_price,line\n3.25,2\n45.5,3\n175,1\n", hauling)).toEqual({
      ok: true,
      value: [17_500, 325, 4_550],
    });
    expect(readPriceSheetCsv("line,unit_price\n1,190.00\n1,180\n4,1\n", hauling)).toEqual({
      ok: false,
      problems: [
        { row: 2, message: "The unit price of line 1 may be at most $185.00" },
        { row: 3, message: "Line 1 is in the sheet twice" },
        { row: 4, message: "Please give a line number from 1 to 3" },
        { row: 5, message: "Please give a unit price for lines 2 and 3" },
      ],
    });
    expect(readPriceSheetCsv("line,unit_price\n1,abc\n2,1\n3,1\n", hauling)).toEqual({
      ok: false,
      problems: [{ row: 2, message: "Please enter the unit price of line 1 in dollars and cents, like 185.00" }],
    });
    expect(readPriceSheetCsv("line,price\n1,1\n", hauling)).toEqual({
      ok: false,
      problems: [{ row: 1, message: "Please keep the columns line and unit_price of the downloaded sheet" }],
    });
  });

  it("answers a sheet with more rows than the lot has lines in one message, however many there are", () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => `${index + 1},1.00`).join("\n");
    expect(readPriceSheetCsv(`line,unit_price\n${rows}\n`, hauling)).toEqual({
      ok: false,
      problems: [{ row: 5, message: "The lot has 3 lines: please keep one row per line and remove the rest" }],
    });
  });
});
