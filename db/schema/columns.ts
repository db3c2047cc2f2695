import { type SQL, sql } from "drizzle-orm";
import { customType } from "drizzle-orm/pg-core";

// Pieces more than one schema file uses.

/** File contents kept in the database, so every app machine serves the same documents. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** "(2, 3, 4)": a list of codes for a check constraint, written out as the migrations have it. */
export const codeList = (codes: readonly number[]): SQL => sql.raw(`(${codes.join(", ")})`);
