import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISALLOWED_CHARACTERS } from "~/forms/text-schema";
import routeConfig from "~/routes";
import { registrations } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
  TEST_STAFF,
  TEST_STAFF_ENV,
} from "../support/auction-fixtures";
import { accessTokenThroughSteps } from "../support/registration-steps";
import { createClient, startTestApp, type TestApp } from "../support/test-app";
import { databaseKinds } from "../support/test-database";

// Every route that takes a write, as app/routes.ts lists it (a route counts when its module exports
// `action`, so a new route is covered without editing this file), is sent malformed bodies signed
// out and signed in as each role: none may answer 5xx, none may write a row. Then a form with NUL
// in its fields, built from the page's own form, at every page, and NUL in a JSON body at every
// /api call: no 5xx, and nothing written by a refused request (checked request by request). Last,
// NUL, invalid UTF-8 and nonsense in every path parameter and in the query every loader reads.
// Each request goes on a connection of its own. Rows are compared by a checksum of every table.
//
// Tables a refused request may legitimately write, left out of the comparison: `sessions` (a
// signed-in request renews its session whatever it asks) and the throttles' counters
// (`rate_limits` and any table named like it: a refused sign-in attempt still counts). Everything
// else in the public schema, outbox messages included (a refused request sends nothing), must stay
// as it was.
const WRITABLE_BY_REFUSALS = /^(sessions|.*rate_limit.*|.*throttle.*)$/;

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] };
type WriteRoute = { path: string; file: string; api: boolean };

/** The routes whose module exports `name` (`action` or `loader`). */
function routesExporting(name: string, entries: RouteEntry[], parent = ""): WriteRoute[] {
  const exported = new RegExp(
    `^export\\s+(?:async\\s+)?(?:function|const|let)\\s+${name}\\b|^export\\s*\\{[^}]*\\b${name}\\b`,
    "m",
  );
  return entries.flatMap((entry) => {
    const joined = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own: WriteRoute[] = [];
    if (exported.test(readFileSync(path.resolve("app", entry.file), "utf8"))) {
      own.push({ path: `/${joined}`, file: entry.file, api: joined === "api" || joined.startsWith("api/") });
    }
    return [...own, ...routesExporting(name, entry.children ?? [], joined)];
  });
}

const ROUTES = routesExporting("action", routeConfig as RouteEntry[]);
/** Every route that answers GET, for NUL in its parameters and query. */
const READ_ROUTES = routesExporting("loader", routeConfig as RouteEntry[]).filter((route) => !route.path.includes("*"));
/** Every query parameter a loader reads (grep searchParams in app/), each with a NUL. */
const NUL_QUERY = "?session_id=%00&parent=%00&type=%00&status=%00&ref=%00&done=%00&profile=%00&q=%00&seller=%00";

type Probe = { method: string; headers: Record<string, string>; body: Uint8Array | string; name: string };

const oversized = `probe=${"x".repeat(1_100_000)}`;
/** Bodies no client of ours sends; each must be refused (3xx to sign in, or 4xx). */
const MALFORMED: Probe[] = [
  {
    name: "garbage multipart",
    method: "POST",
    headers: { "content-type": "multipart/form-data; boundary=probe" },
    body: '--probe\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--nope',
  },
  {
    name: "JSON to a page, JSON object of the wrong shape to /api",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"probe":[1,{"x":true}]}',
  },
  { name: "truncated JSON", method: "POST", headers: { "content-type": "application/json" }, body: '{"name": ' },
  { name: "no Content-Type", method: "POST", headers: {}, body: "name=probe&email=probe%40example.com" },
  { name: "text/plain", method: "POST", headers: { "content-type": "text/plain" }, body: "name=probe" },
  {
    name: "invalid UTF-8",
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff, 0xfe, 0xc3, 0x28]),
  },
  {
    name: "over 1 MB",
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: oversized,
  },
];

type Client = ReturnType<typeof createClient>;

/**
 * One request on a connection of its own (node:http, no keep-alive): an early answer to a body the
 * server did not read must not leave a reused connection to the next probe.
 */
function send(
  client: Client | undefined,
  pathname: string,
  probe: Omit<Probe, "name">,
  baseURL: string,
): Promise<{ status: number; text: string; signedOut: boolean }> {
  const headers: Record<string, string | number> = {
    ...probe.headers,
    "content-length": Buffer.byteLength(probe.body),
  };
  if (client?.cookies.size) {
    headers.cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  return new Promise((resolve) => {
    const outgoing = httpRequest(
      `${baseURL}${pathname}`,
      { method: probe.method, headers, agent: false },
      (response) => {
        // A live event stream never ends: its status is the answer.
        if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
          response.destroy();
          resolve({ status: response.statusCode ?? 0, text: "", signedOut: false });
          return;
        }
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const cookies = [response.headers["set-cookie"] ?? []].flat();
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            // Signing out clears the session cookie: the role signs in again after it.
            signedOut: cookies.some((cookie) => /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)),
          });
        });
      },
    );
    // No answer at all (a reset connection) is a failure too: status 0. The server may answer (a
    // redirect to sign in, a 413) before the body is all sent and close: that answer counts.
    outgoing.on("error", (error) => resolve({ status: 0, text: String(error), signedOut: false }));
    outgoing.end(probe.body);
  });
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) {
    results.push(...(await Promise.all(items.slice(start, start + width).map(work))));
  }
  return results;
}

const decodeEntities = (value: string) =>
  value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)) {
    const [, name = "", value = ""] = match;
    found[name.toLowerCase()] = decodeEntities(value);
  }
  return found;
}

const TEXT_TYPES = new Set(["text", "email", "tel", "search", "url", "password", ""]);

/**
 * The post forms of a page that submit to the page itself, each as the fields a browser would send
 * with NUL added: to text fields only (`textOnly`: the other fields keep valid values, so the text
 * reaches whatever stores it) or to every field.
 */
function nulForms(html: string, pathname: string, textOnly: boolean): URLSearchParams[] {
  const forms: URLSearchParams[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const formAttributes = attributes(match[1] ?? "");
    if ((formAttributes.method ?? "get").toLowerCase() !== "post") continue;
    const action = formAttributes.action;
    if (action && new URL(action, "http://x").pathname !== pathname) continue;
    const inner = match[2] ?? "";
    const body = new URLSearchParams();
    const nul = (value: string) => `${value || "Probe"}\u0000`;
    const seenRadios = new Set<string>();
    for (const tag of inner.matchAll(/<input\b[^>]*>/g)) {
      const input = attributes(tag[0]);
      const name = input.name;
      const type = (input.type ?? "").toLowerCase();
      if (!name || type === "file" || type === "submit") continue;
      if (type === "radio") {
        if (seenRadios.has(name)) continue;
        seenRadios.add(name);
      } else if (type === "checkbox" && !("checked" in input)) continue;
      const value = input.value ?? "";
      body.append(
        name,
        TEXT_TYPES.has(type) || !textOnly ? nul(type === "email" && !value ? "probe@example.com" : value) : value,
      );
    }
    for (const select of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const name = attributes(select[1] ?? "").name;
      if (!name) continue;
      const options = [...(select[2] ?? "").matchAll(/<option\b([^>]*)>/g)].map((option) =>
        attributes(option[1] ?? ""),
      );
      const chosen = options.find((option) => "selected" in option) ?? options.find((option) => option.value);
      body.append(name, textOnly ? (chosen?.value ?? "") : nul(chosen?.value ?? ""));
    }
    for (const area of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
      const name = attributes(area[1] ?? "").name;
      if (name) body.append(name, nul(decodeEntities(area[2] ?? "").trim()));
    }
    const button = [...inner.matchAll(/<button\b([^>]*)>/g)].map((tag) => attributes(tag[1] ?? "")).find((b) => b.name);
    if (button?.name) body.append(button.name, textOnly ? (button.value ?? "") : nul(button.value ?? ""));
    forms.push(body);
  }
  return forms.slice(0, 6);
}

/** Every field of every API payload named in interfaces.md, each with a NUL. */
const API_NUL_BODY = Object.fromEntries(
  [
    "name",
    "organizationName",
    "organizationType",
    "mobileNumber",
    "verificationCode",
    "accessToken",
    "reg_access_token",
    "email",
    "password",
    "passwordResetToken",
    "newPassword",
    "timezone",
    "city",
    "province",
    "country",
    "cost_account_code",
    "parent",
  ].map((name) => [name, `Probe\u0000`]),
);

describe.each(databaseKinds)("malformed bodies at every action on %s", (kind) => {
  let app: TestApp;
  type Role = { role: string; client: Client | undefined; signIn?: () => Promise<Client> };
  let clients: Role[];
  let params: Record<string, string>;
  let tablesChecksum: () => Promise<Map<string, string>>;

  const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
    [...after].filter(([table, sum]) => before.get(table) !== sum).map(([table]) => table);

  /** The route's path with its parameters filled with rows that exist. */
  function fill(route: WriteRoute): string {
    return route.path.replace(/:(\w+)/g, (_whole, name: string) => {
      if (name === "id") {
        if (route.path.includes("service-areas") || route.path.includes("service_areas")) return params.areaId ?? "1";
        if (route.path.includes("services")) return params.serviceId ?? "1";
        return params.registrationId ?? "1";
      }
      return params[name] ?? "1";
    });
  }

  beforeAll(async () => {
    // With the webhook's secret, its signature check is swept too (a body without one is a 400).
    app = await startTestApp(kind, { ...TEST_STAFF_ENV, STRIPE_WEBHOOK_SECRET: "whsec_malformed_bodies_sweep" });
    const { db } = app.services;
    const catalogue = await catalogueForAuctions(db);
    const buyer = await createBuyer(db);
    const seller = await createSeller(db, {
      serviceIds: [catalogue.serviceId],
      serviceAreaIds: [catalogue.serviceAreaId],
    });
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller], status: "open" });
    const [registration] = await db.select({ id: registrations.id }).from(registrations).limit(1);
    const accessToken = await accessTokenThroughSteps(app, {
      organizationType: 2,
      mobileNumber: "+14035550177",
      clientAddress: "10.77.0.1",
      name: "Probe",
      organizationName: "Probe Ltd.",
    });
    params = {
      auctionId: String(auction.id),
      registrationId: String(registration?.id ?? 1),
      accessToken,
      mobileNumber: "+14035550177",
      passwordResetToken: "probe-token",
      setPasswordToken: "probe-token",
      changeToken: "probe-token",
      documentId: "1",
      bidId: "1",
    };
    const signIn = async (party: Pick<Party, "email" | "password">) => {
      const client = createClient(app.baseURL);
      const answer = await client.request("/login", { form: { email: party.email, password: party.password } });
      expect(answer.status).toBe(302);
      return client;
    };
    clients = [{ role: "signed out", client: undefined }];
    for (const [role, party] of [
      ["staff", TEST_STAFF],
      ["buyer", buyer],
      ["seller", seller],
    ] as const) {
      clients.push({ role, client: await signIn(party), signIn: () => signIn(party) });
    }
    // Catalogue rows of their own (made as staff do), since a NUL probe that is accepted (a delete
    // confirms nothing) may remove them.
    const staff = clients[1]?.client as Client;
    const created = await staff.request("/api/services", { json: { name: "Probe service" } });
    params.serviceId = String(((await created.json()) as { service: { id: number } }).service.id);
    const createdArea = await staff.request("/api/service_areas", { json: { city: "Probeville", province: "AB" } });
    params.areaId = String(((await createdArea.json()) as { serviceArea: { id: number } }).serviceArea.id);

    const tables = (await db.execute<{ tablename: string }>(
      sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
    )) as unknown as { rows?: { tablename: string }[] } & { tablename: string }[];
    const names = (tables.rows ?? [...tables])
      .map((row) => row.tablename)
      .filter((name) => !WRITABLE_BY_REFUSALS.test(name));
    const query = names
      .map(
        (name) =>
          `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as s from public."${name}" x`,
      )
      .join(" union all ");
    tablesChecksum = async () => {
      const result = (await db.execute<{ t: string; s: string }>(sql.raw(query))) as unknown as {
        rows?: { t: string; s: string }[];
      } & { t: string; s: string }[];
      return new Map((result.rows ?? [...result]).map((row) => [row.t, row.s]));
    };
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("lists the routes that take writes from app/routes.ts", () => {
    expect(ROUTES.length).toBeGreaterThan(30);
    expect(ROUTES.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        "/login",
        "/staff/services/new",
        "/auctions/new",
        "/api/services",
        "/api/registration/register_seller",
      ]),
    );
  });

  // Minutes, not seconds, on a busy machine: a few thousand requests (nothing in them waits on time).
  const MANY_REQUESTS = { timeout: 600_000 };

  it(
    "refuses every malformed body, signed out and as each role, with a 3xx or 4xx and writes nothing",
    MANY_REQUESTS,
    async () => {
      const before = await tablesChecksum();
      const attempts = ROUTES.flatMap((route) =>
        clients.flatMap(({ role, client }) =>
          MALFORMED.flatMap((probe) =>
            // An API item also takes PUT (its DELETE carries no body, so no body of it is read).
            (route.api && route.path.includes(":") ? ["POST", "PUT"] : ["POST"]).map((method) => ({
              route,
              role,
              client,
              probe: { ...probe, method },
            })),
          ),
        ),
      );
      const answers = await inBatches(attempts, 8, async (attempt) => {
        const answer = await send(attempt.client, fill(attempt.route), attempt.probe, app.baseURL);
        return { ...attempt, ...answer };
      });
      const wrong = answers
        .filter((answer) => answer.status < 300 || answer.status >= 500)
        .map(
          (answer) =>
            `${answer.probe.method} ${answer.route.path} (${answer.role}, ${answer.probe.name}): ${answer.status}`,
        );
      expect(wrong).toEqual([]);
      // An /api refusal has the API's error shape.
      for (const answer of answers.filter((entry) => entry.route.api && entry.status >= 400)) {
        expect(JSON.parse(answer.text), `${answer.route.path} ${answer.probe.name}`).toHaveProperty("errors");
      }
      // A page refusal of the body itself is explained, never shown as a failure of ours.
      const refusedPage = answers.find((answer) => !answer.route.api && answer.status === 415);
      expect(refusedPage?.text).toContain("Request not accepted");
      expect(changedTables(before, await tablesChecksum())).toEqual([]);
    },
  );

  it(
    "never answers 5xx to NUL in form fields or JSON values, and a refusal writes nothing",
    MANY_REQUESTS,
    async () => {
      const problems: string[] = [];
      let before = await tablesChecksum();
      for (const entry of clients) {
        const { role } = entry;
        for (const route of ROUTES) {
          const client = entry.client;
          const pathname = fill(route);
          const bodies: { body: string; headers: Record<string, string> }[] = [];
          if (route.api) {
            bodies.push({ body: JSON.stringify(API_NUL_BODY), headers: { "content-type": "application/json" } });
            bodies.push({
              body: new URLSearchParams(API_NUL_BODY).toString(),
              headers: { "content-type": "application/x-www-form-urlencoded" },
            });
          } else {
            const page = client ? await client.request(pathname) : await createClient(app.baseURL).request(pathname);
            const html = page.status === 200 ? await page.text() : "";
            const forms = [...nulForms(html, pathname, true), ...nulForms(html, pathname, false)];
            if (forms.length === 0) forms.push(new URLSearchParams({ name: "Probe\u0000", intent: "Probe\u0000" }));
            for (const form of forms) {
              bodies.push({ body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
            }
          }
          for (const { body, headers } of bodies) {
            const answer = await send(client, pathname, { method: "POST", headers, body }, app.baseURL);
            const after = await tablesChecksum();
            const changed = changedTables(before, after);
            before = after;
            // Signing out is an action too: the role signs in again for the routes after it.
            if (answer.signedOut && entry.signIn) entry.client = await entry.signIn();
            if (answer.status < 100 || answer.status >= 500)
              problems.push(`${route.path} (${role}): ${answer.status} for ${body.slice(0, 200)}`);
            if (answer.status >= 400 && changed.length) {
              problems.push(`${route.path} (${role}): refused with ${answer.status} but wrote ${changed.join(", ")}`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it(
    "never answers 5xx to NUL, invalid UTF-8 or nonsense in a path parameter or a query, and writes nothing",
    MANY_REQUESTS,
    async () => {
      const before = await tablesChecksum();
      const withParameters = ROUTES.filter((route) => route.path.includes(":"));
      const attempts = [
        ...withParameters.flatMap((route) =>
          ["%00", "1%00", "%FF%FE", "..%2F..", "1e3", "-1", "99999999999"].flatMap((value) =>
            clients.flatMap(({ role, client }) =>
              ["GET", "POST"].map((method) => ({
                route,
                role,
                client,
                method,
                pathname: route.path.replace(/:\w+/g, value),
              })),
            ),
          ),
        ),
        ...READ_ROUTES.flatMap((route) =>
          clients.map(({ role, client }) => ({
            route,
            role,
            client,
            method: "GET",
            pathname: fill(route) + NUL_QUERY,
          })),
        ),
      ];
      const answers = await inBatches(attempts, 8, async (attempt) => ({
        ...attempt,
        ...(await send(
          attempt.client,
          attempt.pathname,
          attempt.method === "GET"
            ? { method: "GET", headers: {}, body: "" }
            : { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" },
          app.baseURL,
        )),
      }));
      const wrong = answers
        .filter((answer) => answer.status < 200 || answer.status >= 500)
        .map((answer) => `${answer.method} ${answer.pathname} (${answer.role}): ${answer.status}`);
      expect(wrong).toEqual([]);
      expect(changedTables(before, await tablesChecksum())).toEqual([]);
    },
  );

  it("answers NUL and other control characters in a field that passes otherwise with the field's message", async () => {
    const staff = clients[1]?.client as Client;
    const json = (pathname: string, body: unknown) =>
      staff.request(pathname, { json: body }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { errors?: Record<string, string> },
      }));
    const before = await tablesChecksum();
    for (const name of ["Seismic\u0000", "Seismic\u0007", "Seis\nmic", "Seismic\u007f", "Seismic\ud800"]) {
      expect(await json("/api/services", { name, parent: null })).toEqual({
        status: 400,
        body: { errors: { name: DISALLOWED_CHARACTERS } },
      });
    }
    expect(await json("/api/service_areas", { city: "Nisku\u0000", province: "AB" })).toEqual({
      status: 400,
      body: { errors: { city: DISALLOWED_CHARACTERS } },
    });
    // JSON true (or 1.5, or "0x2") is not an id: it was stored as parent 1.
    for (const parent of [true, 1.5, "0x2", [1]]) {
      const answer = await json("/api/services", { name: "Seismic", parent });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.errors ?? {})).toEqual(["parent"]);
    }
    const requested = await createClient(app.baseURL).request("/api/registration/request_code", {
      json: { name: "Dana\u0000", organizationName: "Foothills", organizationType: 2, mobileNumber: "403-555-0188" },
    });
    expect(requested.status).toBe(400);
    expect(((await requested.json()) as { errors: Record<string, string> }).errors.name).toBe(DISALLOWED_CHARACTERS);
    const setup = await createClient(app.baseURL).request("/api/account/setup_account", {
      json: { passwordResetToken: "probe", newPassword: "secret-1", timezone: "America/Edmonton\u0000" },
    });
    expect(setup.status).toBe(400);

    // A page: the message at the field and in the error summary, what was typed kept.
    const page = await staff.request("/staff/services/new", { form: { name: "Seismic\u0001", parent: "" } });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(`href="#service-name">${DISALLOWED_CHARACTERS}</a>`);
    expect(html).toMatch(/id="service-name"[^>]*value="Seismic/);
    expect(changedTables(before, await tablesChecksum())).toEqual([]);
  });
});
