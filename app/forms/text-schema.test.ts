import { describe, expect, it } from "vitest";
import { DISALLOWED_CHARACTERS, hasDisallowedCharacters, textField } from "./text-schema";

describe("the shared text type", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["BEL", "a\u0007"],
    ["escape", "\u001b[31m"],
    ["DEL", "a\u007f"],
    ["a C1 control", "a\u0085"],
    ["a lone high surrogate", "a\ud800b"],
    ["a lone low surrogate", "\udc00"],
    ["a newline in a single line", "a\nb"],
    ["a tab in a single line", "a\tb"],
  ])("refuses %s with the field message", (_case, value) => {
    const parsed = textField().safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([DISALLOWED_CHARACTERS]);
  });

  it("keeps tab, newline and carriage return in multi-line text, refusing the other controls", () => {
    expect(textField({ multiline: true }).parse("one\r\n\ttwo")).toBe("one\r\n\ttwo");
    expect(hasDisallowedCharacters("one\u0000", { multiline: true })).toBe(true);
  });

  it("accepts ordinary text in any script, emoji included, trimmed unless asked not to", () => {
    expect(textField().parse("  Café Ünïcode 石油 🛢️  ")).toBe("Café Ünïcode 石油 🛢️");
    expect(textField({ trim: false }).parse(" x ")).toBe(" x ");
  });

  it("reports the characters, not a length rule, when both fail", () => {
    const parsed = textField().min(5, "too short").safeParse("\u0000");
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([DISALLOWED_CHARACTERS]);
  });
});
