import { describe, expect, it } from "vitest";
import { ConfigurationError, devDoorsOpen, isStagingCopy, PROVIDER_SETTINGS, readEnvironment } from "./env.server";

/** Every provider setting a production deploy needs, with made-up values of the right shape. */
const PROVIDERS = {
  TWILIO_ACCOUNT_SID: "AC123",
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_FROM: "+15875550100",
  POSTMARK_SERVER_TOKEN: "server-token",
  MAIL_FROM: "no-reply@upstream-marketplace.ca",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_PUBLISHABLE_KEY: "pk_live_123",
  STRIPE_SUBSCRIPTION_PRICE_ID: "price_yearly",
  STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
  STRIPE_GST_TAX_RATE_ID: "txr_gst",
  STRIPE_WEBHOOK_SECRET: "whsec_123",
} satisfies Record<(typeof PROVIDER_SETTINGS)[number], string>;
const PRODUCTION = { NODE_ENV: "production", SESSION_SECRET: "x".repeat(64) };

function refusal(source: NodeJS.ProcessEnv): string {
  try {
    readEnvironment(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("the configuration was accepted");
}

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

  it("reads the subscription grace period (default 7 days) and the webhook secret", () => {
    expect(readEnvironment({}).SUBSCRIPTION_GRACE_DAYS).toBe(7);
    expect(readEnvironment({ SUBSCRIPTION_GRACE_DAYS: "" }).SUBSCRIPTION_GRACE_DAYS).toBe(7);
    expect(readEnvironment({ SUBSCRIPTION_GRACE_DAYS: "0" }).SUBSCRIPTION_GRACE_DAYS).toBe(0);
    expect(() => readEnvironment({ SUBSCRIPTION_GRACE_DAYS: "seven" })).toThrow(/SUBSCRIPTION_GRACE_DAYS/);
    expect(() => readEnvironment({ STRIPE_WEBHOOK_SECRET: "sk_test_x" })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(readEnvironment({ STRIPE_WEBHOOK_SECRET: "whsec_abc" }).STRIPE_WEBHOOK_SECRET).toBe("whsec_abc");
  });

  it("reads the log level (default info) and names the known ones when it is not one", () => {
    expect(readEnvironment({}).LOG_LEVEL).toBe("info");
    expect(readEnvironment({ LOG_LEVEL: "" }).LOG_LEVEL).toBe("info");
    expect(readEnvironment({ LOG_LEVEL: "debug" }).LOG_LEVEL).toBe("debug");
    expect(refusal({ LOG_LEVEL: "verbose" })).toBe(
      "Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    );
  });

  it("serves metrics on METRICS_PORT (default 9091), or not at all with off", () => {
    expect(readEnvironment({}).METRICS_PORT).toBe(9091);
    expect(readEnvironment({ METRICS_PORT: "" }).METRICS_PORT).toBe(9091);
    expect(readEnvironment({ METRICS_PORT: "9100" }).METRICS_PORT).toBe(9100);
    expect(readEnvironment({ METRICS_PORT: "off" }).METRICS_PORT).toBe("off");
    for (const wrong of ["0", "65536", "nine", "9091.5"]) {
      expect(refusal({ METRICS_PORT: wrong })).toBe(
        "Invalid configuration: METRICS_PORT must be a port number (1 to 65535) or off",
      );
    }
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
      ...PRODUCTION,
      DATABASE_URL: "postgres://app:secret@db.internal:5432/market",
      ...PROVIDERS,
      GST_REGISTRATION_NUMBER: "123456789 RT0001",
    });
    expect(env.SESSION_SECRET).toBe("x".repeat(64));
    expect(env.DATABASE_URL).toBe("postgres://app:secret@db.internal:5432/market");
    expect(devDoorsOpen(env)).toBe(false);
    expect(isStagingCopy(env)).toBe(false);
  });
});

describe("production never opens the development doors by accident", () => {
  it.each(PROVIDER_SETTINGS)("refuses production without %s, naming it in one line", (name) => {
    const message = refusal({ ...PRODUCTION, ...PROVIDERS, [name]: "" });
    expect(message).toMatch(new RegExp(`^Invalid configuration: .*\\b${name} is required when NODE_ENV=production`));
    expect(message).toContain("DEV_OUTBOX=on");
    for (const other of PROVIDER_SETTINGS.filter((setting) => setting !== name)) expect(message).not.toContain(other);
  });

  it("refuses production without the GST registration number (every invoice carries it), but not a staging copy", () => {
    expect(refusal({ ...PRODUCTION, ...PROVIDERS })).toBe(
      "Invalid configuration: GST_REGISTRATION_NUMBER is required when NODE_ENV=production (it is printed on every invoice)",
    );
    expect(refusal({ ...PRODUCTION, ...PROVIDERS, GST_REGISTRATION_NUMBER: "12345" })).toBe(
      "Invalid configuration: GST_REGISTRATION_NUMBER must be a business number and its GST account, e.g. 123456789 RT0001",
    );
    expect(readEnvironment({ ...PRODUCTION, DEV_OUTBOX: "on" }).GST_REGISTRATION_NUMBER).toBeUndefined();
  });

  it("names every missing provider setting and SESSION_SECRET together", () => {
    const message = refusal({ NODE_ENV: "production" });
    expect(message).toContain("SESSION_SECRET is required when NODE_ENV=production");
    expect(message).toContain(`${PROVIDER_SETTINGS.join(", ")} are required when NODE_ENV=production`);
  });

  it("accepts production without providers when DEV_OUTBOX=on (a staging copy), but still needs SESSION_SECRET", () => {
    const env = readEnvironment({ ...PRODUCTION, DEV_OUTBOX: "on" });
    expect(devDoorsOpen(env)).toBe(true);
    expect(isStagingCopy(env)).toBe(true);
    expect(refusal({ NODE_ENV: "production", DEV_OUTBOX: "on" })).toBe(
      "Invalid configuration: SESSION_SECRET is required when NODE_ENV=production",
    );
  });

  it("keeps development and tests as they were: the doors open without providers unless DEV_OUTBOX=off", () => {
    expect(devDoorsOpen(readEnvironment({}))).toBe(true);
    expect(devDoorsOpen(readEnvironment({ NODE_ENV: "test" }))).toBe(true);
    expect(isStagingCopy(readEnvironment({ DEV_OUTBOX: "on" }))).toBe(false);
    expect(refusal({ DEV_OUTBOX: "off" })).toContain("are required when DEV_OUTBOX=off");
    expect(devDoorsOpen(readEnvironment({ DEV_OUTBOX: "off", ...PROVIDERS }))).toBe(false);
  });

  it.each([
    [{ DEV_OUTBOX: "yes" }, "DEV_OUTBOX must be on or off"],
    [{ TRUST_PROXY: "true" }, "TRUST_PROXY must be fly or off"],
    [{ TRUSTED_PROXY_HOPS: "0" }, "TRUSTED_PROXY_HOPS must be a whole number from 1 to 10"],
    [{ TRUSTED_PROXY_HOPS: "one" }, "TRUSTED_PROXY_HOPS must be a whole number from 1 to 10"],
    [{ TRUSTED_PROXY_HOPS: "1.5" }, "TRUSTED_PROXY_HOPS must be a whole number from 1 to 10"],
    [{ TRUST_PROXY: "fly", TRUSTED_PROXY_HOPS: "1" }, "TRUST_PROXY=fly and TRUSTED_PROXY_HOPS cannot both be set"],
  ])("refuses %o with one clear line", (source, message) => {
    expect(refusal(source)).toContain(message);
  });

  it("reads the proxy settings", () => {
    expect(readEnvironment({ TRUST_PROXY: "fly" }).TRUST_PROXY).toBe("fly");
    expect(readEnvironment({ TRUSTED_PROXY_HOPS: "2" }).TRUSTED_PROXY_HOPS).toBe(2);
    expect(readEnvironment({}).TRUSTED_PROXY_HOPS).toBeUndefined();
  });
});

describe("Stripe's settings", () => {
  const STRIPE_KEYS = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" };

  it.each([
    [{ STRIPE_API_URL: "localhost:12111" }, "STRIPE_API_URL"],
    [{ STRIPE_API_URL: "ftp://stripe.example" }, "STRIPE_API_URL"],
    [{ STRIPE_WEBHOOK_SECRET: "secret" }, "STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)"],
    [{ STRIPE_GST_TAX_RATE_ID: "gst" }, "STRIPE_GST_TAX_RATE_ID must be a Stripe tax rate id (txr_…)"],
  ])("refuses %o with one clear line", (source, message) => {
    expect(refusal(source)).toContain(message);
  });

  it("reads STRIPE_API_URL and STRIPE_WEBHOOK_SECRET", () => {
    const env = readEnvironment({ STRIPE_API_URL: "http://127.0.0.1:12111", STRIPE_WEBHOOK_SECRET: "whsec_abc" });
    expect(env.STRIPE_API_URL).toBe("http://127.0.0.1:12111");
    expect(env.STRIPE_WEBHOOK_SECRET).toBe("whsec_abc");
  });

  it("needs the prices, the tax rate and the webhook secret in a staging copy that uses Stripe, not in development", () => {
    expect(refusal({ ...PRODUCTION, DEV_OUTBOX: "on", ...STRIPE_KEYS })).toBe(
      "Invalid configuration: STRIPE_SUBSCRIPTION_PRICE_ID, STRIPE_PROCESSING_FEE_PRICE_ID, STRIPE_GST_TAX_RATE_ID, " +
        "STRIPE_WEBHOOK_SECRET are required with Stripe when NODE_ENV=production",
    );
    const stagingWithStripe = { ...PRODUCTION, DEV_OUTBOX: "on", ...PROVIDERS };
    expect(readEnvironment(stagingWithStripe).STRIPE_WEBHOOK_SECRET).toBe("whsec_123");
    expect(readEnvironment(STRIPE_KEYS).STRIPE_WEBHOOK_SECRET).toBeUndefined();
  });
});
