import { readdirSync, readFileSync } from "node:fs";
import madge from "madge";
import { describe, expect, it } from "vitest";

// A feature is a top-level folder of app/. Two features that import each other both ways cannot be
// understood, changed or moved one without the other: either something in one belongs to the other,
// or it belongs to neither and goes to the shared machinery. A pair that must stay says why in a
// decision record (docs/decisions/025-feature-boundaries.md), one table row each: | `a` and `b` | why |.

/** Folders every feature may import: they are no feature, and import none where it can be avoided. */
const SHARED = new Set([
  "api",
  "errors",
  "forms",
  "health",
  "layout",
  "platform",
  "server",
  "sessions",
  "shared",
  "styles",
]);
/** Builds the app out of its features (the services every request gets, the workers): it imports them. */
const COMPOSITION = new Set(["server"]);

const DECISIONS = "docs/decisions";
const allowedRow = /^\|\s*`([a-z-]+)` and `([a-z-]+)`\s*\|\s*(\S.*?)\s*\|\s*$/;

function allowedPairs(): string[] {
  const pairs: string[] = [];
  for (const name of readdirSync(DECISIONS).filter((file) => file.endsWith(".md"))) {
    for (const line of readFileSync(`${DECISIONS}/${name}`, "utf8").split("\n")) {
      const row = allowedRow.exec(line);
      if (row?.[1] && row[2]) pairs.push([row[1], row[2]].sort().join(" and "));
    }
  }
  return pairs.sort();
}

const folderOf = (file: string) => {
  const parts = file.split("/");
  return parts[0] === "app" && parts.length > 2 ? parts[1] : undefined;
};

describe("the app's features", () => {
  it("do not import each other both ways, but for the pairs a decision record explains", async () => {
    const graph = await madge(["app", "db"], {
      fileExtensions: ["ts", "tsx"],
      tsConfig: "tsconfig.json",
      excludeRegExp: [/\.test\.tsx?$/, /\/\+types\//],
    });
    const imports = graph.obj();
    // The graph must have been read: the aliases resolved, the files found.
    expect(Object.keys(imports).length).toBeGreaterThan(300);
    expect(imports["app/routes.ts"]).toBeDefined();

    // Imports from one folder into another, counted file by file.
    const counts = new Map<string, number>();
    for (const [file, targets] of Object.entries(imports)) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (!from || !to || from === to) continue;
        counts.set(`${from} ${to}`, (counts.get(`${from} ${to}`) ?? 0) + 1);
      }
    }
    const count = (from: string, to: string) => counts.get(`${from} ${to}`) ?? 0;
    const features = [...new Set([...counts.keys()].flatMap((key) => key.split(" ")))]
      .filter((folder) => !SHARED.has(folder))
      .sort();
    expect(features).toContain("accounts");
    expect(features).toContain("auctions");

    const bothWays: string[] = [];
    const report: string[] = [];
    for (const [index, a] of features.entries()) {
      for (const b of features.slice(index + 1)) {
        if (count(a, b) === 0 || count(b, a) === 0) continue;
        bothWays.push(`${a} and ${b}`);
        report.push(`${a} and ${b}: ${count(a, b)} and ${count(b, a)} imports`);
      }
    }
    console.info(`Features importing each other both ways:\n${report.join("\n") || "(none)"}`);
    // A pair no longer importing both ways leaves the record too, so that it stays true.
    expect(bothWays, report.join("\n")).toEqual(allowedPairs());

    // Shared machinery imports no feature (but for the module that composes the app).
    const sharedIntoFeatures = [...counts.keys()].filter((key) => {
      const [from = "", to = ""] = key.split(" ");
      return SHARED.has(from) && !COMPOSITION.has(from) && !SHARED.has(to);
    });
    expect(sharedIntoFeatures).toEqual([]);
  }, 60_000);
});
