import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { isOrganizationTypeCode, ORGANIZATION_TYPES, REGISTRATION_TYPES, ROLE_NAMES, Role } from "./roles";

const root = join(import.meta.dirname, "../..");

/** The application's own source (tests may state the stored codes as numbers). */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.includes("migrations"))
    .map((path) => join(folder, path));
}

// A role or organization type written as a number: compared (`user.role === 3`, `u.role = 1` in SQL,
// `eq(users.role, 1)`), given (`role: 1`) or typed (`organizationType: 2 | 4`).
const NUMERIC_ROLE = [
  /\b(?:role|organizationType|organization_type)\}?\s*(?:[!=]==?|<>|=|\bin\b)\s*\(?\s*\d/,
  /\d\s*[!=]==?\s*[\w.]*\b(?:role|organizationType)\b/,
  /\beq\([\w.]+\.(?:role|organizationType),\s*\d/,
  /\b(?:role|organizationType)\??:\s*\d/,
];

describe("roles", () => {
  it("are compared and written by name, never by number, in app/ and db/", () => {
    const found = [...sourceFiles("app"), ...sourceFiles("db")].flatMap((path) =>
      readFileSync(join(root, path), "utf8")
        .split("\n")
        .flatMap((line, index) =>
          NUMERIC_ROLE.some((pattern) => pattern.test(line))
            ? [`${relative(root, join(root, path))}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it("keep the stored codes (spec: 1 staff, 2 buyer, 3 seller, 4 consultant)", () => {
    expect(Role).toEqual({ Staff: 1, Buyer: 2, Seller: 3, Consultant: 4 });
    expect(ROLE_NAMES).toEqual({ 1: "Staff", 2: "Buyer", 3: "Seller", 4: "Consultant" });
    expect(ORGANIZATION_TYPES).toEqual([
      { code: 2, slug: "buyer", label: "Buyer" },
      { code: 3, slug: "seller", label: "Seller (Service Company)" },
      { code: 4, slug: "consultant", label: "Consultant (Auctioneer)" },
    ]);
    expect(REGISTRATION_TYPES).toEqual([
      { code: 2, label: "Buyer" },
      { code: 3, label: "Seller" },
      { code: 4, label: "Consultant" },
    ]);
    expect([0, 1, 2, 3, 4, 5].filter(isOrganizationTypeCode)).toEqual([2, 3, 4]);
  });
});
