import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { countries, provinces } from "./reference-data";

// Catalogue (issue 5): the service hierarchy and the service areas sellers and buyers choose from.

/** Top group (depth 1) → sub-service (2) → sub-sub-service (3); never deeper. */
export const services = pgTable(
  "services",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    costAccountCode: text("cost_account_code"),
    parentId: integer("parent_id").references((): AnyPgColumn => services.id, { onDelete: "restrict" }),
    depth: smallint("depth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("services_depth_check", sql`${table.depth} between 1 and 3`),
    uniqueIndex("services_name_per_parent_idx").on(sql`coalesce(${table.parentId}, 0)`, sql`lower(${table.name})`),
    index("services_parent_id_idx").on(table.parentId),
  ],
);

export const serviceAreas = pgTable(
  "service_areas",
  {
    id: serial("id").primaryKey(),
    city: text("city").notNull(),
    provinceId: integer("province_id")
      .notNull()
      .references(() => provinces.id, { onDelete: "restrict" }),
    countryCode: text("country_code")
      .notNull()
      .references(() => countries.code),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("service_areas_city_per_province_idx").on(table.provinceId, sql`lower(${table.city})`)],
);

/** Bumped in every catalogue write transaction; app machines compare it to refresh their read caches. */
export const catalogueRevision = pgTable("catalogue_revision", {
  id: smallint("id").primaryKey(),
  revision: bigint("revision", { mode: "number" }).notNull(),
});
