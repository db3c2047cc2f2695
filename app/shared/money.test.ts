import { describe, expect, it } from "vitest";
import { dollars, formatCents, money, parseDollars } from "./money";

describe("formatCents", () => {
  it("formats cents as $0,0.00", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(700)).toBe("$7.00");
    expect(formatCents(1035)).toBe("$10.35");
    expect(formatCents(20000)).toBe("$200.00");
    expect(formatCents(21735)).toBe("$217.35");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
  });

  it("refuses fractions of a cent", () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
});

describe("dollars", () => {
  it("writes dollars with two decimals and no symbol", () => {
    expect(dollars(0)).toBe("0.00");
    expect(dollars(5)).toBe("0.05");
    expect(dollars(123_456)).toBe("1234.56");
    expect(dollars(1_250_050)).toBe("12500.50");
    expect(dollars(900_000_000_00)).toBe("900000000.00");
    expect(dollars(-5)).toBe("-0.05");
  });
});

describe("parseDollars", () => {
  it.each([
    ["12500", 1_250_000],
    ["12,500.50", 1_250_050],
    ["$12500", 1_250_000],
    ["$ 12500.5", 1_250_050],
    [" 0.05 ", 5],
  ])("reads %j", (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(["", "nine", "12.505", "1,2500", "-5", "12e3", "99999999999999999"])("refuses %j", (text) => {
    expect(parseDollars(text)).toBeNull();
  });
});

describe("money fields", () => {
  const field = money("Please enter the reserve price", { max: 100_000 });

  it("takes an amount in range, in cents", () => {
    expect(field.parse("1,000.00")).toBe(100_000);
  });

  it.each([
    ["", "Please enter the reserve price"],
    ["ten", "Please enter an amount in dollars and cents, like 12500.00"],
    ["1000.01", "Please enter an amount between $0.01 and $1,000.00"],
  ])("refuses %j with the product's message", (text, message) => {
    expect(field.safeParse(text).error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});
