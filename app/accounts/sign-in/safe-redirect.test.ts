import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

// The check must hold for the URL as a browser resolves the Location we send: each answer is
// resolved here against our origin and must stay on it. Spellings from open-redirect cheat sheets.

const OUR_ORIGIN = "https://our.example";
const resolvedOrigin = (location: string) => new URL(location, OUR_ORIGIN).origin;
/** A test name: the spelling as JSON, long ones cut short. */
const named = (to: unknown): [string, unknown] => {
  const json = JSON.stringify(to) ?? String(to);
  return [json.length > 60 ? `${json.slice(0, 40)}… (${json.length} characters)` : json, to];
};

describe("safeRedirect", () => {
  it.each([
    ["/account", "/account"],
    ["/auctions/1?x=1#y", "/auctions/1?x=1#y"],
    ["/faq?q=wcb#fees", "/faq?q=wcb#fees"],
    ["/staff/services", "/staff/services"],
    ["/login?ref=/account", "/login?ref=/account"],
    ["/account/users?done=invited", "/account/users?done=invited"],
    ["  /account\t", "/account"],
    ["/a/../account", "/account"],
    ["/%2f/evil.example", "/%2f/evil.example"],
    ["/%5c/evil.example", "/%5c/evil.example"],
    ["/@evil.example", "/@evil.example"],
    ["/／evil.example", "/%EF%BC%8Fevil.example"],
  ])("keeps the path %j as %j", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  const C0 = (code: number) => String.fromCharCode(code);
  const attempts: unknown[] = [
    // Dot segments and encoded dots that resolve to "//host".
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/.%2e//evil.example",
    "/././/evil.example",
    // Scheme-relative, with slashes and backslashes in every mix.
    "//evil.example",
    "///evil.example",
    "////evil.example/account",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    // Tabs, newlines and controls that the URL parser removes.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\t\\evil.example",
    " //evil.example",
    `${C0(0)}//evil.example`,
    `${C0(31)}//evil.example`,
    `${C0(11)}/${C0(12)}/evil.example`.replace(C0(12), "\t"),
    " \t\n//evil.example ",
    // Other schemes and absolute URLs.
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "https://evil.example",
    "HTTPS://evil.example/account",
    "http:evil.example",
    "http:/evil.example",
    "https:\\\\evil.example",
    "//evil.example@our.example",
    "https://our.example@evil.example",
    // Not a path at all.
    "evil.example",
    "@evil.example",
    "／／evil.example",
    "\uff0f/evil.example",
    "%2f%2fevil.example",
    "%09//evil.example",
    "",
    "   ",
    // Too long to carry around.
    `/${"a".repeat(5000)}`,
    `/.//${"a".repeat(3000)}.example`,
    undefined,
    null,
    42,
    ["/account"],
  ];

  it.each(attempts.map(named))("refuses %s", (_name, to) => {
    expect(safeRedirect(to)).toBe("/account");
  });

  it.each(
    [
      ...attempts,
      "/%09/evil.example",
      "/%0a/evil.example",
      "/%5C%5Cevil.example",
      "/a\u0000b",
      "/\u2215\u2215evil.example",
      "/?next=//evil.example",
      "/#//evil.example",
    ].map(named),
  )("answers %s with a path on our origin that reads the same again", (_name, to) => {
    const location = safeRedirect(to);
    expect(resolvedOrigin(location)).toBe(OUR_ORIGIN);
    expect(location).toMatch(/^\/(?![/\\])/);
    // Plain ASCII with no controls: what a Location header can carry unchanged.
    expect(location).toMatch(/^[\u0021-\u007e]+$/);
    // Reading the answer again gives the answer: nothing is left for a second resolution to change.
    expect(safeRedirect(location, "/fallback")).toBe(location);
  });
});
