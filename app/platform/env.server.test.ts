import { describe, expect, it } from "vitest";
import { ConfigurationError, readEnvironment } from "./env.server";

describe("readEnvironment", () => {
  it("runs with no variables at all, on the embedded database", () => {
    const env = readEnvironment({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "0.0.0.0",
      PGLITE_DIR: ".data/pglite",
      APP_URL: "http://localhost:3000",
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("derives APP_URL from PORT and drops a trailing slash", () => {
    expect(readEnvironment({ PORT: "8080" }).APP_URL).toBe("http://localhost:8080");
    expect(readEnvironment({ APP_URL: "https://market.example.ca/" }).APP_URL).toBe("https://market.example.ca");
  });

  it("treats empty values as unset", () => {
    expect(readEnvironment({ DATABASE_URL: "", TWILIO_ACCOUNT_SID: " " }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ NODE_ENV: "production" }, "Invalid configuration: SESSION_SECRET is required when NODE_ENV=production"],
    [{ SESSION_SECRET: "short" }, "Invalid configuration: SESSION_SECRET must be at least 32 characters"],
    [
      { DATABASE_URL: "mysql://db" },
      "Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://",
    ],
    [{ PORT: "eighty" }, "Invalid configuration: PORT"],
    [{ TWILIO_ACCOUNT_SID: "AC1" }, "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together"],
    [{ POSTMARK_SERVER_TOKEN: "token" }, "MAIL_FROM is required with POSTMARK_SERVER_TOKEN"],
    [{ STRIPE_SECRET_KEY: "sk_test_1" }, "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together"],
    [
      { STRIPE_SECRET_KEY: "pk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_2" },
      "STRIPE_SECRET_KEY must be a Stripe secret key",
    ],
    [{ STRIPE_SUBSCRIPTION_PRICE_ID: "prod_1" }, "STRIPE_SUBSCRIPTION_PRICE_ID must be a Stripe price id"],
  ])("refuses %o with one clear line", (source, message) => {
    let error: unknown;
    try {
      readEnvironment(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("accepts a complete production configuration", () => {
    const env = readEnvironment({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(64),
      DATABASE_URL: "postgres://app:secret@db.internal:5432/market",
      TWILIO_ACCOUNT_SID: "AC123",
      TWILIO_AUTH_TOKEN: "token",
      TWILIO_FROM: "+15875550100",
      POSTMARK_SERVER_TOKEN: "server-token",
      MAIL_FROM: "no-reply@upstream-marketplace.ca",
    });
    expect(env.SESSION_SECRET).toBe("x".repeat(64));
    expect(env.DATABASE_URL).toBe("postgres://app:secret@db.internal:5432/market");
  });
});
