import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/database.server";
import { users } from "~db/schema";
import { createPostgresDatabase, databaseKinds } from "../../../tests/support/test-database";
import { verifyPassword } from "../password.server";

// `npm run staff:create -- --email <e> --password <p>` (interfaces.md), run as a real process.

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");

describe.each(databaseKinds)("staff:create on %s", (kind) => {
  let environment: NodeJS.ProcessEnv;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    if (kind === "postgres") {
      const database = await createPostgresDatabase();
      environment = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url };
      cleanup = database.drop;
    } else {
      const folder = mkdtempSync(path.join(tmpdir(), "staff-cli-"));
      environment = { PATH: process.env.PATH, HOME: process.env.HOME, PGLITE_DIR: folder };
      cleanup = async () => rmSync(folder, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await cleanup?.();
  });

  const staffCreate = (...args: string[]) =>
    run(tsx, ["app/accounts/staff/staff-create-cli.ts", ...args], { env: environment, timeout: 60_000 });

  async function staffRow() {
    const database = await openDatabase({
      databaseUrl: environment.DATABASE_URL,
      pgliteDir: environment.PGLITE_DIR ?? "",
    });
    try {
      const [row] = await database.db.select().from(users).where(eq(users.email, "lead@upstream.example"));
      return row;
    } finally {
      await database.close();
    }
  }

  it("creates the staff user, then only re-sets the password when run again", { timeout: 120_000 }, async () => {
    const first = await staffCreate("--email", "Lead@Upstream.example", "--password", "first-password");
    expect(first.stdout).toContain("Staff user lead@upstream.example is ready.");
    const created = await staffRow();
    expect(created?.role).toBe(1);
    expect(await verifyPassword(created?.passwordHash ?? null, "first-password")).toBe(true);

    await staffCreate("--email", "lead@upstream.example", "--password", "second-password");
    const updated = await staffRow();
    expect(updated?.id).toBe(created?.id);
    expect(await verifyPassword(updated?.passwordHash ?? null, "second-password")).toBe(true);
    expect(await verifyPassword(updated?.passwordHash ?? null, "first-password")).toBe(false);
  });

  it("refuses a short password with the usage and exit code 2", async () => {
    const failure = await staffCreate("--email", "lead@upstream.example", "--password", "12345").catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr?: string }).stderr).toMatch(/Usage: npm run staff:create/);
  });
});
