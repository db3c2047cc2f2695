import { integer, pgTable, serial, text } from "drizzle-orm/pg-core";

// Reference data (spec section 3). Loaded idempotently by db/seed.ts at every start.

export const industries = pgTable("industries", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

export const countries = pgTable("countries", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const provinces = pgTable("provinces", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

export const usStates = pgTable("us_states", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const timezones = pgTable("timezones", {
  name: text("name").primaryKey(),
  offsetMinutes: integer("offset_minutes").notNull(),
  label: text("label").notNull(),
});

export const certificationOptions = pgTable("certification_options", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  position: integer("position").notNull(),
});
