import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { provinces, serviceAreas, services, users } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";

// The staff catalogue pages as a browser without JavaScript uses them: plain form posts. Every
// client mistake is a 4xx with the message in the page, never a 5xx, and writes nothing.

describe.each(databaseKinds)("staff catalogue pages on %s", (kind) => {
  let app: TestApp;
  let staff: ReturnType<typeof createClient>;
  const serviceCount = async () => (await app.services.db.select({ n: count() }).from(services))[0]?.n ?? 0;
  const idOf = async (name: string) =>
    (await app.services.db.select({ id: services.id }).from(services).where(eq(services.name, name)))[0]?.id;

  beforeAll(async () => {
    app = await startTestApp(kind, { SEED_STAFF_EMAIL: "staff@example.com", SEED_STAFF_PASSWORD: "staff-password" });
    staff = createClient(app.baseURL);
    const signedIn = await staff.request("/login", {
      form: { email: "staff@example.com", password: "staff-password" },
    });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("sends visitors to sign in and refuses other roles", async () => {
    const visitor = await createClient(app.baseURL).request("/staff/services/new");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?ref=/staff/services/new");
    const anonymousPost = await createClient(app.baseURL).request("/staff/services/new", { form: { name: "X" } });
    expect(anonymousPost.status).toBe(302);

    await app.services.db
      .insert(users)
      .values({ email: `buyer-${kind}@example.com`, role: 2, passwordHash: await hashPassword("buyer-password") });
    const buyer = createClient(app.baseURL);
    await buyer.request("/login", { form: { email: `buyer-${kind}@example.com`, password: "buyer-password" } });
    expect((await buyer.request("/staff/api-tokens")).status).toBe(403);
    const before = await serviceCount();
    expect((await buyer.request("/staff/services/new", { form: { name: "Buyer's own" } })).status).toBe(403);
    expect(await serviceCount()).toBe(before);
  });

  it("adds a service, showing each refusal at its field with what was typed", async () => {
    const before = await serviceCount();
    const empty = await staff.request("/staff/services/new", {
      form: { name: " ", cost_account_code: "7", parent: "" },
    });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain('href="#service-name">Please enter a name</a>');
    expect(emptyHtml).toMatch(/name="cost_account_code" value="7"/);

    const duplicate = await staff.request("/staff/services/new", { form: { name: "DRILLING", parent: "" } });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain("A service with this name already exists under the same parent.");

    const conventional = await idOf("Conventional rigs");
    const tooDeep = await staff.request("/staff/services/new", {
      form: { name: "Deep", parent: String(conventional) },
    });
    expect(tooDeep.status).toBe(400);
    expect(await tooDeep.text()).toContain("Services go three levels deep at most");
    expect(await serviceCount()).toBe(before);

    const created = await staff.request("/staff/services/new", {
      form: { name: "Seismic", cost_account_code: "900", parent: "" },
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/staff/services?done=created");
    expect(await serviceCount()).toBe(before + 1);
    expect(await (await staff.request("/staff/services?done=created")).text()).toContain("Service added.");
  });

  it("edits a service and refuses a cycle", async () => {
    const drilling = await idOf("Drilling");
    const rigs = await idOf("Drilling rigs");
    const cycle = await staff.request(`/staff/services/${drilling}/edit`, {
      form: { name: "Drilling", cost_account_code: "100", parent: String(rigs) },
    });
    expect(cycle.status).toBe(400);
    expect(await cycle.text()).toContain("A service cannot be placed under itself or one of its own sub-services.");
    const renamed = await staff.request(`/staff/services/${rigs}/edit`, {
      form: { name: "Drilling rigs and crews", cost_account_code: "100.10", parent: String(drilling) },
    });
    expect(renamed.status).toBe(302);
    expect(await idOf("Drilling rigs and crews")).toBe(rigs);
  });

  it("asks before deleting, and says why a service with sub-services stays", async () => {
    const drilling = await idOf("Drilling");
    const confirm = await staff.request(`/staff/services/${drilling}/delete`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Delete <strong>Drilling</strong>?");
    const refused = await staff.request(`/staff/services/${drilling}/delete`, { form: {} });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This service has sub-services. Delete or move them first.");
    const bits = await idOf("Drill bits");
    expect((await staff.request(`/staff/services/${bits}/delete`, { form: {} })).status).toBe(302);
    expect(await idOf("Drill bits")).toBeUndefined();
  });

  it.each([
    ["GET", "/staff/services/999999/edit"],
    ["GET", "/staff/services/abc/delete"],
    ["POST", "/staff/services/999999/edit"],
    ["POST", "/staff/services/999999/delete"],
    ["POST", "/staff/service-areas/0/delete"],
    ["GET", "/staff/service-areas/99999999999/edit"],
  ])("answers %s %s with 404", async (method, path) => {
    const response = await staff.request(path, method === "POST" ? { form: { name: "X" } } : {});
    expect(response.status).toBe(404);
  });

  it("adds, edits and deletes a service area with its errors", async () => {
    const [alberta] = await app.services.db.select().from(provinces).where(eq(provinces.code, "AB"));
    const missing = await staff.request("/staff/service-areas/new", { form: { city: "", province: "" } });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain("Please enter a city");
    expect(missingHtml).toContain("Please choose a province");
    expect((await staff.request("/staff/service-areas/new", { form: { city: "X", province: "987654" } })).status).toBe(
      400,
    );
    const duplicate = await staff.request("/staff/service-areas/new", {
      form: { city: "grande prairie", province: String(alberta?.id) },
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain("This city is already a service area in that province.");
    const created = await staff.request("/staff/service-areas/new", {
      form: { city: "Turner Valley", province: String(alberta?.id) },
    });
    expect(created.status).toBe(302);
    const [area] = await app.services.db.select().from(serviceAreas).where(eq(serviceAreas.city, "Turner Valley"));
    expect(area?.countryCode).toBe("CA");
    const edited = await staff.request(`/staff/service-areas/${area?.id}/edit`, {
      form: { city: "Black Diamond", province: String(alberta?.id) },
    });
    expect(edited.status).toBe(302);
    expect((await staff.request(`/staff/service-areas/${area?.id}/delete`, { form: {} })).status).toBe(302);
  });

  it("creates an API token, shown once, and revokes it", async () => {
    const missing = await staff.request("/staff/api-tokens", { form: { name: "", lifetimeDays: "7" } });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain("Please enter a name for the token");
    expect(missingHtml).toContain("Please choose how long the token lasts");

    const created = await staff.request("/staff/api-tokens", { form: { name: "Import", lifetimeDays: "30" } });
    expect(created.status).toBe(200);
    const token = /umk_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(token).not.toBe("");
    expect(await (await staff.request("/staff/api-tokens")).text()).not.toContain(token);
    const bearer = { authorization: `Bearer ${token}` };
    const write = () =>
      createClient(app.baseURL).request("/api/services", {
        json: { name: `Via token ${Math.random()}` },
        headers: bearer,
      });
    expect((await write()).status).toBe(201);

    const id = /name="tokenId" value="(\d+)"/.exec(await (await staff.request("/staff/api-tokens")).text())?.[1];
    expect((await staff.request("/staff/api-tokens", { form: { intent: "revoke", tokenId: "abc" } })).status).toBe(302);
    expect((await staff.request("/staff/api-tokens", { form: { intent: "revoke", tokenId: String(id) } })).status).toBe(
      302,
    );
    expect((await write()).status).toBe(401);
  });

  it("expands a province ticked without JavaScript to all its cities", async () => {
    const [alberta] = await app.services.db.select().from(provinces).where(eq(provinces.code, "AB"));
    const albertaCities = await app.services.db
      .select({ id: serviceAreas.id })
      .from(serviceAreas)
      .where(eq(serviceAreas.provinceId, alberta?.id ?? 0));
    const response = await staff.request("/staff/pickers", {
      form: { serviceAreaProvinces: String(alberta?.id), serviceAreas: "junk" },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`${albertaCities.length}(<!-- -->)? service areas`));
    for (const { id } of albertaCities) {
      expect(html).toMatch(new RegExp(`name="serviceAreas" checked="" value="${id}"`));
    }
    expect(html).toContain(`name="serviceAreaProvincesTicked" value="${alberta?.id}"`);
  });

  it("answers arbitrary form posts with a redirect or a 4xx, never a 5xx", async () => {
    const field = fc.oneof(fc.string(), fc.constantFrom("", "0", "-1", "1e99", "null", "9999999999", "1"));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: field, cost_account_code: field, parent: field, city: field, province: field }),
        fc.constantFrom("/staff/services/new", "/staff/service-areas/new", "/staff/pickers", "/staff/api-tokens"),
        async (form, path) => {
          const response = await staff.request(path, { form });
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });
});
