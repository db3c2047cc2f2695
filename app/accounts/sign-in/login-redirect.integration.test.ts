import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, users } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { hashPassword } from "../password.server";

// Issue 17: /login?ref=… and the sign-in form's redirectTo never send anyone to another origin, in
// any spelling a browser resolves there (the full table is in safe-redirect.test.ts).

const ATTEMPTS = [
  "/.//evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "//evil.example",
  "/\\evil.example",
  "/\t/evil.example",
  " //evil.example",
  "javascript:alert(1)",
  "https://evil.example",
];

describe.each(databaseKinds)("redirects after sign-in on %s", (kind) => {
  let app: TestApp;
  let signedIn: ReturnType<typeof createClient>;
  const email = `redirect-${kind}@example.com`;

  /** Where a browser that requested `path` on our site goes next. */
  const followedOrigin = (location: string | null, path: string) => new URL(location ?? "", `${app.baseURL}${path}`);

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    const [organization] = await db
      .insert(organizations)
      .values({ name: "Redirect Drilling", organizationType: 2 })
      .returning();
    await db
      .insert(users)
      .values({ email, role: 2, organizationId: organization?.id, passwordHash: await hashPassword("buyer-password") });
    signedIn = createClient(app.baseURL);
    const response = await signedIn.request("/api/account/login", { json: { email, password: "buyer-password" } });
    expect(response.status).toBe(200);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it.each(ATTEMPTS)("sends a signed-in visitor of /login?ref=%j to a path on this site", async (ref) => {
    const path = `/login?ref=${encodeURIComponent(ref)}`;
    const response = await signedIn.request(path);
    expect(response.status).toBe(302);
    const location = response.headers.get("location");
    expect(location).toBe("/account");
    expect(followedOrigin(location, path).origin).toBe(app.baseURL);
  });

  it.each(ATTEMPTS)("signs in with redirectTo %j and stays on this site", async (redirectTo) => {
    const response = await createClient(app.baseURL).request("/login", {
      form: { email, password: "buyer-password", redirectTo },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/account");
  });

  it("never puts a refused ref into the sign-in form", async () => {
    for (const ref of ATTEMPTS) {
      const page = await createClient(app.baseURL).request(`/login?ref=${encodeURIComponent(ref)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain("evil.example");
    }
  });

  it("keeps a path on this site, resolved as the browser resolves it", async () => {
    const kept = await signedIn.request(`/login?ref=${encodeURIComponent("/auctions/1?x=1#y")}`);
    expect(kept.headers.get("location")).toBe("/auctions/1?x=1#y");
    const resolved = await signedIn.request(`/login?ref=${encodeURIComponent("/a/../account/users")}`);
    expect(resolved.headers.get("location")).toBe("/account/users");
  });
});
