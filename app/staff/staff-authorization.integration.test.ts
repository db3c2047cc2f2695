import type { RouteConfigEntry } from "@react-router/dev/routes";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import routes from "~/routes";
import { registrationDecisions, serviceAreas, services, users } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";

// The authorization matrix (issue 8): every staff page, read from app/routes.ts so a new one cannot be
// missed, and every catalogue write of the API, refuse visitors and buyers, sellers and consultants,
// and write nothing.

/** Every path under /staff in the route config, with each parameter filled in. */
function staffPaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent : [parent, entry.path].filter(Boolean).join("/");
    const own = path.startsWith("staff") ? [`/${path.replace(/:[a-zA-Z]+/g, "1")}`] : [];
    return [...own, ...staffPaths(entry.children ?? [], path)];
  });
}

const STAFF_API_WRITES = [
  { method: "POST", path: "/api/services" },
  { method: "PUT", path: "/api/services/1" },
  { method: "DELETE", path: "/api/services/1" },
  { method: "POST", path: "/api/service_areas" },
  { method: "PUT", path: "/api/service_areas/1" },
  { method: "DELETE", path: "/api/service_areas/1" },
] as const;

const ROLES = [
  { role: 2, name: "buyer" },
  { role: 3, name: "seller" },
  { role: 4, name: "consultant" },
] as const;

describe("who may use the staff pages and the catalogue writes", () => {
  let app: TestApp;
  const clients = new Map<string, ReturnType<typeof createClient>>();
  const paths = staffPaths(routes);

  beforeAll(async () => {
    app = await startTestApp("pglite");
    for (const { role, name } of ROLES) {
      const email = `${name}@matrix.example`;
      await app.services.db.insert(users).values({ email, role, passwordHash: await hashPassword("matrix-password") });
      const client = createClient(app.baseURL);
      const signedIn = await client.request("/login", { form: { email, password: "matrix-password" } });
      expect(signedIn.status).toBe(302);
      clients.set(name, client);
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function rowCounts() {
    const { db } = app.services;
    const [[serviceCount], [areaCount], [decisionCount]] = await Promise.all([
      db.select({ n: count() }).from(services),
      db.select({ n: count() }).from(serviceAreas),
      db.select({ n: count() }).from(registrationDecisions),
    ]);
    return [serviceCount?.n, areaCount?.n, decisionCount?.n];
  }

  it("knows every staff page", () => {
    expect(paths).toEqual(expect.arrayContaining(["/staff", "/staff/services", "/staff/registrations/1"]));
    expect(paths.length).toBeGreaterThan(10);
  });

  it("sends visitors to sign in, from every staff page, for reading and for posting", async () => {
    const before = await rowCounts();
    for (const path of paths) {
      for (const method of ["GET", "POST"] as const) {
        const response = await createClient(app.baseURL).request(path, {
          method,
          form: method === "POST" ? { intent: "approve", confirm: "yes", name: "Intruder" } : undefined,
        });
        expect(response.status, `${method} ${path}`).toBe(302);
        expect(response.headers.get("location"), `${method} ${path}`).toBe(`/login?ref=${path}`);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.each(ROLES)("refuses a signed-in $name every staff page with 403", async ({ name }) => {
    const client = clients.get(name);
    const before = await rowCounts();
    for (const path of paths) {
      expect((await client?.request(path))?.status, `GET ${path}`).toBe(403);
      const posted = await client?.request(path, { form: { intent: "approve", confirm: "yes", name: "Intruder" } });
      expect(posted?.status, `POST ${path}`).toBe(403);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("answers catalogue writes from visitors with 401 and from other roles with 403, writing nothing", async () => {
    const before = await rowCounts();
    const body = { name: "Intruder", cost_account_code: "1", parent: null, city: "X", province: 1, country: "CA" };
    for (const { method, path } of STAFF_API_WRITES) {
      const visitor = await createClient(app.baseURL).request(path, { method, json: body });
      expect(visitor.status, `visitor ${method} ${path}`).toBe(401);
      for (const { name } of ROLES) {
        const response = await clients.get(name)?.request(path, { method, json: body });
        expect(response?.status, `${name} ${method} ${path}`).toBe(403);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });
});
