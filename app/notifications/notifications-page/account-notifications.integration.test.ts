import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "~db/schema";
import {
  createBuyer,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
  unique,
} from "../../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// /account/notifications through HTTP (issue 20): every notification of the signed-in user, newest
// first, 50 a page with "Newer"/"Older" links; /account shows the latest 20 and links to the rest.

const subjectOf = (n: number) => `Notice ${String(n).padStart(3, "0")}`;
/** The subjects of the notifications listed (not the page's data for hydration, which repeats them). */
const listed = (html: string) =>
  [...html.matchAll(/<li><time[^>]*>[^<]*<\/time>(.*?)<\/li>/g)].map((match) =>
    (match[1] ?? "").replaceAll(/<[^>]*>/g, "").replace(/^: /, ""),
  );
const shown = (html: string) =>
  listed(html).flatMap((subject) => (/^Notice \d{3}/.test(subject) ? [Number(subject.slice(7, 10))] : []));
const link = (html: string, name: string) =>
  new RegExp(`href="([^"]*)"[^>]*>${name}<`).exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => from - index);

describe.each(databaseKinds)("/account/notifications on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let other: Party;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    buyer = await createBuyer(db);
    other = await createBuyer(db, `Other ${unique()}`);
    // 120 for the buyer, oldest first, with the other user's in between (their ids interleave).
    const start = Date.UTC(2026, 0, 1);
    const rows: (typeof notifications.$inferInsert)[] = [];
    for (let n = 1; n <= 120; n += 1) {
      rows.push({
        userId: buyer.userId,
        kind: "closed",
        subject: subjectOf(n),
        text: "Closed.",
        createdAt: new Date(start + n * 60_000),
      });
      if (n % 10 === 0) {
        rows.push({
          userId: other.userId,
          kind: "closed",
          subject: `Someone else ${n}`,
          text: "Closed.",
          createdAt: new Date(start + n * 60_000),
        });
      }
    }
    await db.insert(notifications).values(rows);
    as = await signedInClients(() => createClient(app.baseURL), [buyer, other]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("sends visitors to sign in", async () => {
    const answer = await createClient(app.baseURL).request("/account/notifications?page=2");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toMatch(/^\/login\?ref=\/account\/notifications/);
  });

  it("pages through every notification of the user, 50 a page, newest first", async () => {
    const first = await (await as(buyer).request("/account/notifications")).text();
    expectIn(first, "<title>Notifications | Upstream Marketplace</title>");
    expectIn(first, '<nav aria-label="Pages of notifications"');
    expect(shown(first)).toEqual(range(120, 71));
    expect(link(first, "Newer")).toBeNull();
    expect(link(first, "Older")).toBe("/account/notifications?page=2");

    const second = await (await as(buyer).request("/account/notifications?page=2")).text();
    expect(shown(second)).toEqual(range(70, 21));
    expect(link(second, "Newer")).toBe("/account/notifications");
    expect(link(second, "Older")).toBe("/account/notifications?page=3");

    const last = await (await as(buyer).request("/account/notifications?page=3")).text();
    expect(shown(last)).toEqual(range(20, 1));
    expect(link(last, "Older")).toBeNull();
    expect(link(last, "Newer")).toBe("/account/notifications?page=2");

    for (const html of [first, second, last]) expectNotIn(html, "Someone else");
    const beyond = await (await as(buyer).request("/account/notifications?page=4")).text();
    expectIn(beyond, "No older notifications.");
    expect(link(beyond, "Newer")).toBe("/account/notifications?page=3");
  });

  it("shows only the user's own", async () => {
    const html = await (await as(other).request("/account/notifications")).text();
    expect(listed(html)).toEqual(range(12, 1).map((n) => `Someone else ${n * 10} (not e-mailed)`));
    expect(shown(html)).toEqual([]);
    expect(link(html, "Older")).toBeNull();
  });

  it("/account lists the latest 20 and links to all of them only when there are more", async () => {
    const account = await (await as(buyer).request("/account")).text();
    expect(shown(account)).toEqual(range(120, 101));
    expect(link(account, "All notifications")).toBe("/account/notifications");
    const fewer = await (await as(other).request("/account")).text();
    expectIn(fewer, "Someone else 120");
    expect(link(fewer, "All notifications")).toBeNull();
  });
});
