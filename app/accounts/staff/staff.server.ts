import { sql } from "drizzle-orm";
import { announceSessionChange } from "~/sessions/signed-in-users.server";
import { Role } from "~/shared/roles";
import type { Database } from "~db/database.server";
import { users } from "~db/schema";
import { revokeUnusedAccountTokens } from "../account-tokens.server";
import { hashPassword } from "../password.server";
import { normalizeEmail } from "../schemas";

/**
 * Makes sure a staff user with this e-mail exists and has this password. Idempotent:
 * running it again only re-sets the password (and the role, should it have changed). A password set
 * here revokes the user's unused reset and set-password links, as one set through a link does.
 */
export async function ensureStaffUser(db: Database, email: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ email: normalizeEmail(email), passwordHash, role: Role.Staff, passwordChangedAt: new Date() })
      .onConflictDoUpdate({
        target: users.email,
        set: { passwordHash: sql`excluded.password_hash`, role: Role.Staff, passwordChangedAt: sql`now()` },
      })
      .returning({ id: users.id });
    if (!row) throw new Error("staff user was not written");
    await revokeUnusedAccountTokens(tx, row.id);
    await announceSessionChange(tx, { userId: row.id });
    return row.id;
  });
}
