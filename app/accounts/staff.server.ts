import { sql } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { users } from "~db/schema";
import { hashPassword } from "./password.server";
import { normalizeEmail } from "./schemas";
import { announceSessionChange } from "./signed-in-users.server";

export const STAFF_ROLE = 1;

/**
 * Makes sure a staff user (role 1) with this e-mail exists and has this password. Idempotent:
 * running it again only re-sets the password (and the role, should it have changed).
 */
export async function ensureStaffUser(db: Database, email: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  const [row] = await db
    .insert(users)
    .values({ email: normalizeEmail(email), passwordHash, role: STAFF_ROLE, passwordChangedAt: new Date() })
    .onConflictDoUpdate({
      target: users.email,
      set: { passwordHash: sql`excluded.password_hash`, role: STAFF_ROLE, passwordChangedAt: sql`now()` },
    })
    .returning({ id: users.id });
  if (!row) throw new Error("staff user was not written");
  await announceSessionChange(db, { userId: row.id });
  return row.id;
}
