import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeManualBid } from "~/auctions/bidding/bid-queue.server";
import { openDatabase } from "~db/database.server";
import { auctionBids } from "~db/schema";
import { createAuctionParties, createAuctionRow } from "../../tests/support/auction-fixtures";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { createPostgresDatabase, databaseKinds } from "../../tests/support/test-database";
import { backupDatabase, restoreDatabase } from "./backup.server";

// `npm run db:backup` / `npm run db:restore` (interfaces.md, Operations): a backup taken while the app
// serves a burst of bids holds every bid it had accepted before the backup began, and restores into an
// empty database that opens with its migrations current.

const run = promisify(execFile);
const migrationCount = (JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] })
  .entries.length;

/** The real command, as an operator types it, on the embedded database in `pgliteDir`. */
function npmRun(script: "db:backup" | "db:restore", file: string, pgliteDir: string) {
  return run("npm", ["run", "--silent", script, "--", file], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PGLITE_DIR: pgliteDir },
    timeout: 120_000,
  });
}

/** What the command printed on a refusal (it exits 1 with one line on stderr). */
async function refusalOf(command: Promise<unknown>): Promise<string> {
  try {
    await command;
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error).trim();
  }
  throw new Error("the command was expected to refuse, and succeeded");
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

describe.each(databaseKinds)("backups on %s", (kind) => {
  let folder: string;
  let app: TestApp | undefined;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), "backup-"));
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  if (kind === "pglite") {
    it("copies a running app's database during a burst of bids, with every bid accepted before it", {
      timeout: 180_000,
    }, async () => {
      const dataDir = path.join(folder, "pglite");
      app = await startTestApp("pglite", { PGLITE_DIR: dataDir });
      const db = app.services.db;
      const { catalogue, buyer, sellers } = await createAuctionParties(db, 4);
      const auction = await createAuctionRow(db, {
        owner: buyer,
        ...catalogue,
        sellers,
        reserveCents: 10_000_000,
        decrement: { kind: "amount", value: 1_000 },
        softClose: { window: 0, extension: 0, cap: 0 },
      });
      const clients = [];
      for (const seller of sellers) {
        const client = createClient(app.baseURL);
        const signedIn = await client.request("/login", { form: { email: seller.email, password: seller.password } });
        expect(signedIn.status).toBe(302);
        clients.push(client);
      }

      // Each seller bids in a loop, every attempt a step below the last; an accepted bid is a redirect
      // to `done=placed`. Each is stamped with when its answer arrived.
      let nextCents = 9_999_000;
      let bidding = true;
      const accepted: { cents: number; answeredAt: number }[] = [];
      const bidders = clients.map(async (client) => {
        while (bidding) {
          const cents = nextCents;
          nextCents -= 1_000;
          const answer = await client.request(`/auctions/${auction.id}`, {
            form: { intent: "bid", amount: dollars(cents), confirm: "yes" },
          });
          if (answer.status === 302 && answer.headers.get("location")?.includes("done=placed")) {
            accepted.push({ cents, answeredAt: performance.now() });
          }
          await answer.body?.cancel();
        }
      });
      const waitForBids = async (count: number) => {
        while (accepted.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      };

      try {
        await waitForBids(20);
        // While the bids go on: the real command, from another process.
        const backupStartedAt = performance.now();
        const before = accepted.filter((bid) => bid.answeredAt < backupStartedAt).map((bid) => bid.cents);
        const countAtStart = accepted.length;
        const backup = await npmRun("db:backup", path.join(folder, "during-bids.backup"), dataDir);
        const backupEndedAt = performance.now();
        expect(backup.stdout).toContain("taken by the running app");
        // The burst went on around it: the app kept accepting bids while the copy was asked for and sent.
        await waitForBids(countAtStart + 5);
        const during = accepted.filter((bid) => bid.answeredAt > backupStartedAt && bid.answeredAt < backupEndedAt);
        expect(during.length).toBeGreaterThan(0);
        bidding = false;
        await Promise.all(bidders);

        // The directory is the app's alone: a second opening and a restore into it are refused.
        await expect(openDatabase({ pgliteDir: dataDir })).rejects.toThrow(
          `The embedded database in ${dataDir} is open in another process (pid ${process.pid}).`,
        );
        expect(await refusalOf(npmRun("db:restore", path.join(folder, "during-bids.backup"), dataDir))).toBe(
          `The embedded database in ${dataDir} is open in another process (pid ${process.pid}). Stop that process first, or use npm run db:backup while it runs.`,
        );

        const restoredDir = path.join(folder, "restored");
        const restored = await npmRun("db:restore", path.join(folder, "during-bids.backup"), restoredDir);
        expect(restored.stdout).toContain(`(${migrationCount} migrations applied;`);
        const copy = await openDatabase({ pgliteDir: restoredDir });
        try {
          const rows = await copy.db
            .select({ amountCents: auctionBids.amountCents })
            .from(auctionBids)
            .where(eq(auctionBids.auctionId, auction.id));
          const inCopy = new Set(rows.map((row) => row.amountCents));
          expect(before.length).toBeGreaterThanOrEqual(20);
          expect(before.filter((cents) => !inCopy.has(cents))).toEqual([]);
          // Migrations current: the copy has every migration of this checkout, and opens without more.
          const [{ count } = { count: 0 }] = (
            await copy.query("select count(*)::int as count from drizzle.__drizzle_migrations")
          ).rows as { count: number }[];
          expect(count).toBe(migrationCount);
          await copy.migrate();
        } finally {
          await copy.close();
        }
      } finally {
        bidding = false;
        await Promise.allSettled(bidders);
      }
    });

    it("backs up a directory no app holds, and refuses what it cannot do in one line each", {
      timeout: 120_000,
    }, async () => {
      await app?.stop();
      app = undefined;
      const dataDir = path.join(folder, "pglite");
      const file = path.join(folder, "stopped.backup");
      expect((await npmRun("db:backup", file, dataDir)).stdout).toContain("no app running");
      expect(await refusalOf(npmRun("db:backup", file, dataDir))).toBe(
        `${file} already exists: choose another name, or remove it first.`,
      );
      expect(await refusalOf(npmRun("db:restore", file, dataDir))).toBe(
        `${dataDir} (PGLITE_DIR) is not empty: restore only into an empty or new folder (move the current one aside first).`,
      );
      const nowhere = path.join(folder, "no-database");
      expect(await refusalOf(npmRun("db:backup", path.join(folder, "nothing.backup"), nowhere))).toBe(
        `There is no embedded database in ${nowhere} (PGLITE_DIR): nothing to back up.`,
      );
      const cut = path.join(folder, "cut.backup");
      writeFileSync(cut, readFileSync(file).subarray(0, 100_000));
      expect(await refusalOf(npmRun("db:restore", cut, path.join(folder, "from-cut")))).toBe(
        `${cut} is damaged or incomplete (it does not unpack).`,
      );
    });
  }

  if (kind === "postgres") {
    it("round-trips through pg_dump and pg_restore into an empty database, the same rows", {
      timeout: 120_000,
    }, async () => {
      const source = await createPostgresDatabase("app");
      const target = await createPostgresDatabase();
      try {
        const database = await openDatabase({ databaseUrl: source.url, pgliteDir: "" });
        try {
          const { catalogue, buyer, sellers } = await createAuctionParties(database.db, 2);
          const auction = await createAuctionRow(database.db, { owner: buyer, ...catalogue, sellers });
          for (const [index, cents] of [900_000, 890_000, 880_000].entries()) {
            const seller = sellers[index % 2];
            if (!seller) throw new Error("no seller");
            const outcome = await placeManualBid(database.db, {
              auctionId: auction.id,
              organizationId: seller.organizationId,
              userId: seller.userId,
              amountCents: cents,
            });
            expect(outcome.kind).toBe("accepted");
          }
        } finally {
          await database.close();
        }

        const file = path.join(folder, "postgres.backup");
        expect(await backupDatabase({ databaseUrl: source.url, pgliteDir: "" }, file)).toMatchObject({
          source: "postgres",
        });
        expect(readFileSync(file).subarray(0, 5).toString()).toBe("PGDMP");
        expect(await restoreDatabase({ databaseUrl: target.url, pgliteDir: "" }, file)).toEqual({
          into: new URL(target.url).pathname.slice(1),
          migrations: migrationCount,
        });
        expect(await everyRow(target.url)).toEqual(await everyRow(source.url));

        await expect(restoreDatabase({ databaseUrl: target.url, pgliteDir: "" }, file)).rejects.toThrow(
          /^The database \S+ \(DATABASE_URL\) is not empty \(it has [^)]+\): restore only into an empty database\.$/,
        );
        const embedded = path.join(folder, "embedded.backup");
        writeFileSync(embedded, gzipSync("not a database"));
        await expect(restoreDatabase({ databaseUrl: target.url, pgliteDir: "" }, embedded)).rejects.toThrow(
          `${embedded} is a backup of the embedded database: unset DATABASE_URL to restore it into PGLITE_DIR.`,
        );
      } finally {
        await source.drop();
        await target.drop();
      }
    });
  }
});

/** Every row of every table of the database (its own schemas), each table's rows sorted, as text. */
async function everyRow(url: string): Promise<Record<string, string[]>> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables = await client<{ name: string }[]>`
      select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1`;
    const contents: Record<string, string[]> = {};
    for (const { name } of tables) {
      const rows = await client.unsafe<{ row: string }[]>(`select t::text as row from ${name} t`);
      contents[name] = rows.map((entry) => entry.row).sort();
    }
    return contents;
  } finally {
    await client.end();
  }
}
