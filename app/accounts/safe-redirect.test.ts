import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/account", "/account"],
    ["/faq?q=wcb#fees", "/faq?q=wcb#fees"],
    ["/staff/services", "/staff/services"],
  ])("keeps the path %s", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "https://evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/%0A/evil.example".replace("%0A", "\n"),
    "javascript:alert(1)",
    "evil.example",
    "",
    undefined,
    null,
    42,
  ])("refuses %j", (to) => {
    expect(safeRedirect(to)).toBe("/account");
  });
});
