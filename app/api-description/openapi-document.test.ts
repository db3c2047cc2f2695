import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { buildOpenApiDocument } from "./openapi-document";

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };

/** Every route of app/routes.ts as its full path, in OpenAPI's form (`/api/services/{id}`). */
function routePaths(entries: RouteEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path].filter(Boolean).join("/");
    return [
      { path: `/${path}`.replace(/:(\w+)/g, "{$1}"), file: entry.file },
      ...routePaths(entry.children ?? [], path),
    ];
  });
}

describe("the /api description (GET /api/openapi.json)", () => {
  const document = buildOpenApiDocument();

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it("describes every /api route of app/routes.ts (the catch-all aside), with every method the route answers", async () => {
    const apiRoutes = routePaths(routes as RouteEntry[]).filter(
      (route) => route.path.startsWith("/api/") && route.path !== "/api/*",
    );
    expect(apiRoutes.length).toBeGreaterThan(15);
    const described = document.paths as Record<string, Record<string, unknown>>;
    const missing: string[] = [];
    for (const route of apiRoutes) {
      const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as {
        loader?: unknown;
        action?: unknown;
      };
      const methods = described[route.path] ? Object.keys(described[route.path] ?? {}) : [];
      if (module.loader && !methods.includes("get")) missing.push(`GET ${route.path} (${route.file})`);
      if (module.action && !methods.some((method) => method !== "get")) {
        missing.push(`a write method of ${route.path} (${route.file})`);
      }
    }
    expect(missing, `not in the description:\n${missing.join("\n")}`).toEqual([]);
    // And nothing described that no route answers.
    expect(Object.keys(described).sort()).toEqual(apiRoutes.map((route) => route.path).sort());
  });

  it("gives every refusal the API's error shape, naming its fields", () => {
    // A JSON pointer's walk: the document's operations are plain JSON.
    const at = (value: unknown, ...keys: string[]) =>
      keys.reduce((node, key) => (node as Record<string, unknown>)[key], value) as Record<string, unknown>;
    const refusal = at(document.paths, "/api/account/login", "post", "responses", "401", "content", "application/json");
    expect(at(refusal, "schema", "properties", "errors").properties).toEqual({
      email: { type: "string" },
      password: { type: "string" },
      redirectTo: { type: "string" },
      form: { type: "string" },
    });
  });

  it("marks the catalogue writes as staff-only, by bearer token or session cookie", () => {
    const services = document.paths["/api/services"] as Record<string, { security?: unknown }>;
    expect(services.get?.security).toBeUndefined();
    expect(services.post?.security).toEqual([{ staffApiToken: [] }, { sessionCookie: [] }]);
    expect(document.components.securitySchemes.staffApiToken).toMatchObject({ type: "http", scheme: "bearer" });
  });
});
