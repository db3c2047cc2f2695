import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { serviceAreas, services, users } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { createApiToken } from "./api-tokens.server";

type Json = Record<string, unknown>;

describe.each(databaseKinds)("catalogue API on %s", (kind) => {
  let app: TestApp;
  let token: string;
  let staffId: number;
  const asStaff = (path: string, init: { method?: string; json?: unknown } = {}) =>
    createClient(app.baseURL).request(path, { ...init, headers: { authorization: `Bearer ${token}` } });
  const body = async (response: Response) => (await response.json()) as Json;

  beforeAll(async () => {
    app = await startTestApp(kind, { SEED_STAFF_EMAIL: "staff@example.com", SEED_STAFF_PASSWORD: "staff-password" });
    const [staff] = await app.services.db.select().from(users).where(eq(users.email, "staff@example.com"));
    staffId = staff?.id ?? 0;
    token = await createApiToken(app.services.db, { userId: staffId, name: "tests", lifetimeDays: 30 });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("seeds a demo catalogue of oil-patch services and service areas at start", async () => {
    const [serviceCount] = await app.services.db.select({ n: count() }).from(services);
    const [areaCount] = await app.services.db.select({ n: count() }).from(serviceAreas);
    expect(serviceCount?.n).toBeGreaterThan(40);
    expect(areaCount?.n).toBeGreaterThan(30);
  });

  describe("reads are public", () => {
    it("lists services, filters by parent, and gets one", async () => {
      const all = (await body(await fetch(`${app.baseURL}/api/services`))).services as Json[];
      const top = all.filter((service) => service.parent === null);
      expect(top.length).toBeGreaterThan(5);
      expect(Object.keys(all[0] ?? {}).sort()).toEqual(["cost_account_code", "id", "name", "parent"]);
      const children = (await body(await fetch(`${app.baseURL}/api/services?parent=${top[0]?.id}`))).services as Json[];
      expect(children.length).toBeGreaterThan(0);
      expect(children.every((child) => child.parent === top[0]?.id)).toBe(true);
      const tops = (await body(await fetch(`${app.baseURL}/api/services?parent=null`))).services as Json[];
      expect(tops).toHaveLength(top.length);
      const one = await body(await fetch(`${app.baseURL}/api/services/${top[0]?.id}`));
      expect(one).toEqual({ service: top[0] });
    });

    it("answers the service checkboxes as a three-level tree", async () => {
      const response = await fetch(`${app.baseURL}/api/service_checkboxes`);
      expect(response.status).toBe(200);
      const tree = (await body(response)).services as (Json & { children: (Json & { children: Json[] })[] })[];
      expect(tree.length).toBeGreaterThan(5);
      expect(tree.every((group) => group.parent === null && Array.isArray(group.children))).toBe(true);
      expect(tree.some((group) => group.children.some((sub) => sub.children.length > 0))).toBe(true);
    });

    it("answers the service area checkboxes with their provinces", async () => {
      const answer = await body(await fetch(`${app.baseURL}/api/service_area_checkboxes`));
      const areas = answer.serviceAreas as { id: number; city: string; province: number }[];
      const provinces = answer.serviceAreaProvinces as { id: number; code: string; name: string }[];
      expect(provinces.map((province) => province.code).sort()).toEqual(["AB", "BC", "SK"]);
      expect(areas.find((area) => area.city === "Grande Prairie")?.province).toBe(
        provinces.find((province) => province.code === "AB")?.id,
      );
    });

    it("serves the checkboxes with an ETag and answers 304 when unchanged", async () => {
      const first = await fetch(`${app.baseURL}/api/service_area_checkboxes`);
      const etag = first.headers.get("etag");
      expect(etag).toBeTruthy();
      const again = await fetch(`${app.baseURL}/api/service_area_checkboxes`, {
        headers: { "if-none-match": etag ?? "" },
      });
      expect(again.status).toBe(304);
    });

    it.each(["/api/services/999999", "/api/services/abc", "/api/services/0", "/api/service_areas/99999999999"])(
      "answers 404 JSON for %s",
      async (path) => {
        const response = await fetch(`${app.baseURL}${path}`);
        expect(response.status).toBe(404);
        expect(await body(response)).toEqual({ errors: { form: "Not found." } });
      },
    );

    it("refuses a parent filter that is not an id", async () => {
      expect((await fetch(`${app.baseURL}/api/services?parent=drilling`)).status).toBe(400);
    });
  });

  describe("writes need staff", () => {
    it("answers 401 without a session or token, and with a revoked, unknown or expired token", async () => {
      const anonymous = await createClient(app.baseURL).request("/api/services", { json: { name: "X" } });
      expect(anonymous.status).toBe(401);
      expect(await body(anonymous)).toEqual({ errors: { form: "Sign in as staff or send a staff API token." } });
      const bogus = await createClient(app.baseURL).request("/api/services", {
        json: { name: "X" },
        headers: { authorization: "Bearer umk_not-a-real-token" },
      });
      expect(bogus.status).toBe(401);
      const expired = await createApiToken(app.services.db, { userId: staffId, name: "old", lifetimeDays: -1 });
      const withExpired = await createClient(app.baseURL).request("/api/services", {
        json: { name: "X" },
        headers: { authorization: `Bearer ${expired}` },
      });
      expect(withExpired.status).toBe(401);
    });

    it("answers 403 to a signed-in buyer", async () => {
      await app.services.db
        .insert(users)
        .values({ email: `buyer-${kind}@example.com`, role: 2, passwordHash: await hashPassword("buyer-password") });
      const buyer = createClient(app.baseURL);
      await buyer.request("/api/account/login", {
        json: { email: `buyer-${kind}@example.com`, password: "buyer-password" },
      });
      const response = await buyer.request("/api/services", { json: { name: "Buyer's service" } });
      expect(response.status).toBe(403);
      const [row] = await app.services.db.select().from(services).where(eq(services.name, "Buyer's service"));
      expect(row).toBeUndefined();
    });

    it("accepts a staff session as well as a token", async () => {
      const staff = createClient(app.baseURL);
      await staff.request("/api/account/login", { json: { email: "staff@example.com", password: "staff-password" } });
      const response = await staff.request("/api/service_areas", { json: { city: "Whitehorse Test", province: "YU" } });
      expect(response.status).toBe(201);
    });
  });

  describe("service round trip", () => {
    it("creates, reads, updates and deletes, with every rule", async () => {
      const created = await asStaff("/api/services", {
        json: { name: "Seismic", cost_account_code: "6900", parent: null },
      });
      expect(created.status).toBe(201);
      const seismic = (await body(created)).service as Json;
      expect(seismic).toMatchObject({ name: "Seismic", cost_account_code: "6900", parent: null });

      const sub = (await body(await asStaff("/api/services", { json: { name: "3D Acquisition", parent: seismic.id } })))
        .service as Json;
      const subSub = await asStaff("/api/services", {
        json: { name: "Vibroseis", parent: sub.id, cost_account_code: "" },
      });
      expect(subSub.status).toBe(201);
      const vibroseis = (await body(subSub)).service as Json;
      expect(vibroseis.cost_account_code).toBeNull();

      const tooDeep = await asStaff("/api/services", { json: { name: "Too deep", parent: vibroseis.id } });
      expect(tooDeep.status).toBe(400);
      expect((await body(tooDeep)).errors).toEqual({
        parent: "Services go three levels deep at most (top group, sub-service, sub-sub-service).",
      });

      const duplicate = await asStaff("/api/services", { json: { name: "3d acquisition", parent: seismic.id } });
      expect(duplicate.status).toBe(409);
      expect((await body(duplicate)).errors).toEqual({
        name: "A service with this name already exists under the same parent.",
      });

      const sameNameElsewhere = await asStaff("/api/services", { json: { name: "3D Acquisition", parent: null } });
      expect(sameNameElsewhere.status).toBe(201);

      const missingParent = await asStaff("/api/services", { json: { name: "Orphan", parent: 987654 } });
      expect(missingParent.status).toBe(400);
      expect((await body(missingParent)).errors).toEqual({ parent: "Please choose an existing parent service" });

      const cycle = await asStaff(`/api/services/${seismic.id}`, {
        method: "PUT",
        json: { name: "Seismic", parent: sub.id },
      });
      expect(cycle.status).toBe(400);
      const self = await asStaff(`/api/services/${seismic.id}`, {
        method: "PUT",
        json: { name: "Seismic", parent: seismic.id },
      });
      expect(self.status).toBe(400);

      // Moving a two-level subtree under a sub-service would make it four deep.
      const otherTop = (await body(await asStaff("/api/services", { json: { name: "Geophysics" } }))).service as Json;
      const otherSub = (
        await body(await asStaff("/api/services", { json: { name: "Processing", parent: otherTop.id } }))
      ).service as Json;
      const tooDeepMove = await asStaff(`/api/services/${sub.id}`, {
        method: "PUT",
        json: { name: "3D Acquisition", parent: otherSub.id },
      });
      expect(tooDeepMove.status).toBe(400);

      const moved = await asStaff(`/api/services/${sub.id}`, {
        method: "PUT",
        json: { name: "3D Acquisition", cost_account_code: "6910", parent: otherTop.id },
      });
      expect(moved.status).toBe(200);
      expect((await body(moved)).service).toMatchObject({ id: sub.id, parent: otherTop.id, cost_account_code: "6910" });

      const withChildren = await asStaff(`/api/services/${sub.id}`, { method: "DELETE" });
      expect(withChildren.status).toBe(409);
      expect((await body(withChildren)).errors).toEqual({
        form: "This service has sub-services. Delete or move them first.",
      });

      const deleted = await asStaff(`/api/services/${vibroseis.id}`, { method: "DELETE" });
      expect(deleted.status).toBe(204);
      expect((await fetch(`${app.baseURL}/api/services/${vibroseis.id}`)).status).toBe(404);
      expect((await asStaff(`/api/services/${vibroseis.id}`, { method: "DELETE" })).status).toBe(404);
      expect((await asStaff("/api/services/999999", { method: "PUT", json: { name: "Nope" } })).status).toBe(404);
    });

    it("shows a change in the checkboxes at once on this machine", async () => {
      const before = JSON.stringify(await body(await fetch(`${app.baseURL}/api/service_checkboxes`)));
      expect(before).not.toContain("Helicopter Support");
      await asStaff("/api/services", { json: { name: "Helicopter Support" } });
      const after = JSON.stringify(await body(await fetch(`${app.baseURL}/api/service_checkboxes`)));
      expect(after).toContain("Helicopter Support");
    });

    it("accepts form-encoded bodies", async () => {
      const response = await createClient(app.baseURL).request("/api/services", {
        form: { name: "Snubbing Test", cost_account_code: "6999", parent: "" },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(201);
    });
  });

  describe("service area round trip", () => {
    it("creates, reads, updates and deletes, with every rule", async () => {
      const created = await asStaff("/api/service_areas", {
        json: { city: "Turner Valley", province: "AB", country: "CA" },
      });
      expect(created.status).toBe(201);
      const area = (await body(created)).serviceArea as Json;
      expect(area).toMatchObject({ city: "Turner Valley", country: "CA" });
      expect(typeof area.province).toBe("number");

      const duplicate = await asStaff("/api/service_areas", {
        json: { city: "turner valley", province: area.province },
      });
      expect(duplicate.status).toBe(409);
      expect((await body(duplicate)).errors).toEqual({ city: "This city is already a service area in that province." });

      const sameCityOtherProvince = await asStaff("/api/service_areas", {
        json: { city: "Turner Valley", province: "SK" },
      });
      expect(sameCityOtherProvince.status).toBe(201);

      expect((await asStaff("/api/service_areas", { json: { city: "Nowhere", province: "ZZ" } })).status).toBe(400);
      expect(
        (await asStaff("/api/service_areas", { json: { city: "Boise", province: "AB", country: "US" } })).status,
      ).toBe(400);
      expect((await asStaff("/api/service_areas", { json: { province: "AB" } })).status).toBe(400);

      const updated = await asStaff(`/api/service_areas/${area.id}`, {
        method: "PUT",
        json: { city: "Black Diamond", province: "AB" },
      });
      expect(updated.status).toBe(200);
      expect(((await body(updated)).serviceArea as Json).city).toBe("Black Diamond");
      expect(await body(await fetch(`${app.baseURL}/api/service_areas/${area.id}`))).toEqual({
        serviceArea: { ...area, city: "Black Diamond" },
      });

      expect((await asStaff(`/api/service_areas/${area.id}`, { method: "DELETE" })).status).toBe(204);
      expect((await asStaff(`/api/service_areas/${area.id}`, { method: "DELETE" })).status).toBe(404);
    });
  });

  describe("bad requests are 4xx, never 5xx, and write nothing", () => {
    it.each([
      ["malformed JSON", '{"name": '],
      ["an array", "[1,2]"],
      ["a number", "42"],
      ["wrong types", { name: 42, cost_account_code: { x: 1 }, parent: "top" }],
      ["a huge parent id", { name: "Huge", parent: 1e20 }],
      ["a negative parent id", { name: "Negative", parent: -3 }],
    ])("POST /api/services with %s", async (_case, payload) => {
      const response = await asStaff("/api/services", { json: payload });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(Object.keys(((await body(response)).errors as Json) ?? {}).length).toBeGreaterThan(0);
    });

    it("refuses bodies over 1 MB", async () => {
      const response = await asStaff("/api/services", { json: { name: "x".repeat(1_200_000) } });
      expect(response.status).toBe(413);
    });

    it("answers arbitrary JSON with 201 or a 4xx, and a 4xx writes nothing", async () => {
      const rowCount = async () => (await app.services.db.select({ n: count() }).from(services))[0]?.n ?? 0;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue(),
            fc.record(
              {
                name: fc.oneof(fc.string(), fc.jsonValue()),
                cost_account_code: fc.jsonValue(),
                parent: fc.jsonValue(),
              },
              { requiredKeys: [] },
            ),
          ),
          async (payload) => {
            const before = await rowCount();
            const response = await asStaff("/api/services", { json: JSON.stringify(payload) ?? "null" });
            expect(response.status).toBeLessThan(500);
            const after = await rowCount();
            expect(after).toBe(response.status === 201 ? before + 1 : before);
          },
        ),
        { numRuns: 60 },
      );
    });
  });
});
