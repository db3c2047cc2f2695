import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMismatch, takeApiAnswerMismatches } from "../../tests/support/openapi-answer-check";
import { startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";

describe.each(databaseKinds)("GET /api/openapi.json on %s", (kind) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers the valid OpenAPI 3.1 description to anyone, as JSON, with an ETag and 304 when unchanged", async () => {
    const response = await fetch(`${app.baseURL}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const etag = response.headers.get("etag");
    expect(etag).toMatch(/^"openapi-[\w-]+"$/);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toContain("/api/registration/register_seller");
    expect((await validate(document as Parameters<typeof validate>[0])).valid).toBe(true);

    const again = await fetch(`${app.baseURL}/api/openapi.json`, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("is what the answer check holds the tests' /api answers to: a wrong status or body is named", async () => {
    // The check itself, on answers no route gives: what a test would be failed with.
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const answer = { method: "GET", url: "/api/services/7", contentType: "application/json" };
    expect(describeMismatch({ ...answer, status: 200, body: json({ service: { id: 7 } }) })).toMatch(
      /^its body does not match the described schema: body\/service must have required property 'name'/,
    );
    expect(describeMismatch({ ...answer, status: 418, body: json({ errors: { form: "Teapot." } }) })).toBe(
      "status 418 is not listed for GET /api/services/{id} (listed: 200, 404)",
    );
    expect(describeMismatch({ ...answer, status: 404, body: json({ errors: { name: "No." } }) })).toMatch(
      /errors must NOT have additional properties/,
    );
    expect(
      describeMismatch({ ...answer, status: 404, body: json({ errors: { form: "Not found." } }) }),
    ).toBeUndefined();
    expect(describeMismatch({ ...answer, method: "PATCH", status: 200, body: json({}) })).toBe(
      "PATCH is not described for /api/services/{id}, and it answered 200, not 405",
    );
    expect(describeMismatch({ ...answer, url: "/api/nothing", status: 200, body: json({}) })).toBe(
      "no path of the description matches, and it answered 200, not 404",
    );
    expect(takeApiAnswerMismatches()).toEqual([]);
  });
});
