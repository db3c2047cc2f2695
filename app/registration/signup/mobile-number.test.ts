import { describe, expect, it } from "vitest";
import { formatMobileNumber, normalizeMobileNumber } from "./mobile-number";

describe("normalizeMobileNumber", () => {
  it.each([
    ["780-555-1234", "+17805551234"],
    ["780.555.1234", "+17805551234"],
    ["7805551234", "+17805551234"],
    ["(780) 555-1234", "+17805551234"],
    ["(780)555-1234", "+17805551234"],
    ["+1 780-555-1234", "+17805551234"],
    ["1-780-555-1234", "+17805551234"],
    ["+17805551234", "+17805551234"],
    [" 780 555 1234 ", "+17805551234"],
    ["+44 791-112-3456", "+447911123456"],
    ["+1234 555-234-5678", "+12345552345678"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeMobileNumber(input)).toBe(expected);
  });

  it.each([
    "",
    "555-1234",
    "780-555-123",
    "780-555-12345",
    "+12345 780-555-1234",
    "780--555-1234",
    "abc-def-ghij",
    "180-555-1234",
    "780-155-1234",
    "+0 780-555-1234",
    "780/555/1234",
  ])("rejects %j", (input) => {
    expect(normalizeMobileNumber(input)).toBeUndefined();
  });
});

describe("formatMobileNumber", () => {
  it("formats North American numbers and leaves others in E.164", () => {
    expect(formatMobileNumber("+17805551234")).toBe("+1 (780) 555-1234");
    expect(formatMobileNumber("+447911123456")).toBe("+447911123456");
  });
});
