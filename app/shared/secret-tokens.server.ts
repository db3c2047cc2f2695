import { createHash, randomBytes } from "node:crypto";

// Tokens that stand for someone in a link or a header (account links, registration access and
// change links, staff API tokens): random, and stored only as their hash.

/** SHA-256, hex: what we store for every token (the token itself exists only in the link). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 32 random bytes, base64url (43 characters): safe in a URL path. */
export function createRandomToken(): string {
  return randomBytes(32).toString("base64url");
}
