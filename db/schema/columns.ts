import { customType } from "drizzle-orm/pg-core";

/** File contents kept in the database, so every app machine serves the same documents. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
