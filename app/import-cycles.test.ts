import madge from "madge";
import { describe, expect, it } from "vitest";

// Modules that import each other in a circle cannot be understood, tested or moved one at a time, and
// a circle of value imports can hand a module another's exports before they exist. Type-only imports
// count too: they are how the circles start.

describe("the app's imports", () => {
  it("go in no circle", async () => {
    const graph = await madge(["app", "db"], {
      fileExtensions: ["ts", "tsx"],
      tsConfig: "tsconfig.json",
      excludeRegExp: [/\.test\.tsx?$/, /\/\+types\//],
    });
    // The graph must have been read: the aliases resolved, the files found.
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(300);
    expect(graph.depends("db/schema/index.ts")).toContain("app/notifications/notifications.server.ts");
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
