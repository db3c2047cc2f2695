import { z } from "zod";
import { pluralOf } from "../shared/words";
import { LOG_LEVELS } from "./logger.server";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const METRICS_PORT_MESSAGE = "must be a port number (1 to 65535) or off";

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    /** Prometheus metrics at http://HOST:METRICS_PORT/metrics, apart from the public port; `off`: none. */
    METRICS_PORT: optionalText.pipe(
      z
        .union(
          [
            z.literal("off"),
            z.coerce
              .number<string>()
              .int(METRICS_PORT_MESSAGE)
              .min(1, METRICS_PORT_MESSAGE)
              .max(65535, METRICS_PORT_MESSAGE),
          ],
          METRICS_PORT_MESSAGE,
        )
        .default(9091),
    ),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
        .optional(),
    ),
    PGLITE_DIR: z.string().default(".data/pglite"),
    /** How much goes to standard output as JSON lines. */
    LOG_LEVEL: optionalText.pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info")),
    APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /**
     * Where the other app machines reach this one: they send it the bids of the auctions it takes
     * (decision 028). On Fly it is made from FLY_PRIVATE_IP and PORT; unset elsewhere, each machine
     * takes the bids it receives.
     */
    MACHINE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** Set by Fly on each machine. */
    FLY_MACHINE_ID: optionalText,
    FLY_PRIVATE_IP: optionalText,
    SESSION_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    SEED_STAFF_EMAIL: optionalText.pipe(z.email().optional()),
    SEED_STAFF_PASSWORD: optionalText.pipe(z.string().min(6, "must be at least 6 characters").optional()),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_FROM: optionalText,
    POSTMARK_SERVER_TOKEN: optionalText,
    /** Postmark's address (a fake provider on localhost in tests). */
    POSTMARK_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).default("https://api.postmarkapp.com")),
    /** Twilio's address (a fake provider on localhost in tests). */
    TWILIO_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).default("https://api.twilio.com")),
    MAIL_FROM: optionalText,
    STAFF_NOTIFICATION_EMAIL: optionalText.pipe(z.email().optional()),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    /**
     * Another address for Stripe's API (a fake Stripe on localhost in tests), given to the SDK as its
     * host, port and protocol; unset: https://api.stripe.com.
     */
    STRIPE_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** Verifies the events Stripe posts to /webhooks/stripe (whsec_…); unset, that address answers 404. */
    STRIPE_WEBHOOK_SECRET: optionalText.pipe(
      z.string().startsWith("whsec_", "must be a Stripe webhook signing secret (whsec_…)").optional(),
    ),
    /**
     * The prices and tax rate a seller's subscription starts with when staff approve it; checked at
     * start against app/payments/fees.ts. Required in production with Stripe.
     */
    STRIPE_SUBSCRIPTION_PRICE_ID: optionalText.pipe(
      z.string().startsWith("price_", "must be a Stripe price id (price_…)").optional(),
    ),
    STRIPE_PROCESSING_FEE_PRICE_ID: optionalText.pipe(
      z.string().startsWith("price_", "must be a Stripe price id (price_…)").optional(),
    ),
    STRIPE_GST_TAX_RATE_ID: optionalText.pipe(
      z.string().startsWith("txr_", "must be a Stripe tax rate id (txr_…)").optional(),
    ),
    /** Days a seller whose renewal failed may still bid and accept invitations. */
    SUBSCRIPTION_GRACE_DAYS: optionalText.pipe(
      z.coerce
        .number<string | undefined>("must be a whole number from 0 to 60")
        .int("must be a whole number from 0 to 60")
        .min(0, "must be a whole number from 0 to 60")
        .max(60, "must be a whole number from 0 to 60")
        .default(7),
    ),
    /**
     * The development doors (dev outbox, test card provider): `on` opens them even in production (a
     * staging copy, with a banner on every page), `off` keeps them shut even in development. Unset:
     * open outside production only.
     */
    DEV_OUTBOX: optionalText.pipe(z.enum(["on", "off"], "must be on or off").optional()),
    /** Who issues the buyers' invoices (app/invoices/invoice-issuer.ts holds the defaults). */
    INVOICE_ISSUER_NAME: optionalText.pipe(z.string().max(200).optional()),
    /** The issuer's postal address; lines separated by ";". */
    INVOICE_ISSUER_ADDRESS: optionalText.pipe(z.string().max(500).optional()),
    /** The issuer's GST registration: the business number and its GST account, e.g. 123456789 RT0001. */
    GST_REGISTRATION_NUMBER: optionalText.pipe(
      z
        .string()
        .regex(/^\d{9} ?RT ?\d{4}$/, "must be a business number and its GST account, e.g. 123456789 RT0001")
        .optional(),
    ),
    /** `fly`: the client's address is Fly-Client-IP (Fly's proxy sets it; clients cannot). */
    TRUST_PROXY: optionalText.pipe(
      z.enum(["fly", "off"], "must be fly or off (behind another proxy set TRUSTED_PROXY_HOPS)").optional(),
    ),
    /** How many proxies of ours append to X-Forwarded-For: the client is that many entries from the right. */
    TRUSTED_PROXY_HOPS: optionalText.pipe(
      z.coerce
        .number<string | undefined>("must be a whole number from 1 to 10")
        .int("must be a whole number from 1 to 10")
        .min(1, "must be a whole number from 1 to 10")
        .max(10, "must be a whole number from 1 to 10")
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required when NODE_ENV=production",
      });
    }
    if (!devDoorsOpen(env)) {
      const missing = PROVIDER_SETTINGS.filter((name) => !env[name]);
      if (missing.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: [],
          message:
            `${missing.join(", ")} ${pluralOf(missing.length, "is", "are")} required when ` +
            `${env.NODE_ENV === "production" ? "NODE_ENV=production" : "DEV_OUTBOX=off"} ` +
            "(real SMS, e-mail and card providers; for a staging copy with the dev outbox and test cards set DEV_OUTBOX=on)",
        });
      }
    } else {
      // With the doors open a provider is optional, but all of its settings or none.
      const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM];
      if (twilio.some(Boolean) && !twilio.every(Boolean)) {
        ctx.addIssue({
          code: "custom",
          path: ["TWILIO_ACCOUNT_SID"],
          message: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together",
        });
      }
      if (env.POSTMARK_SERVER_TOKEN && !env.MAIL_FROM) {
        ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "is required with POSTMARK_SERVER_TOKEN" });
      }
      if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PUBLISHABLE_KEY)) {
        ctx.addIssue({
          code: "custom",
          path: ["STRIPE_SECRET_KEY"],
          message: "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together",
        });
      }
      // A staging copy that does use Stripe charges like production does.
      if (env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY) {
        const missing = STRIPE_PRODUCTION_SETTINGS.filter((name) => !env[name]);
        if (missing.length > 0) {
          ctx.addIssue({
            code: "custom",
            path: [],
            message: `${missing.join(", ")} ${pluralOf(missing.length, "is", "are")} required with Stripe when NODE_ENV=production`,
          });
        }
      }
    }
    // Every invoice carries it (a GST invoice without one is not one); a staging copy prints a placeholder.
    if (env.NODE_ENV === "production" && !isStagingCopy(env) && !env.GST_REGISTRATION_NUMBER) {
      ctx.addIssue({
        code: "custom",
        path: ["GST_REGISTRATION_NUMBER"],
        message: "is required when NODE_ENV=production (it is printed on every invoice)",
      });
    }
    if (env.TRUST_PROXY === "fly" && env.TRUSTED_PROXY_HOPS !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message:
          "TRUST_PROXY=fly and TRUSTED_PROXY_HOPS cannot both be set: choose the one proxy rule in front of the app",
      });
    }
    if (env.STRIPE_SECRET_KEY && !/^(sk|rk)_(test|live)_/.test(env.STRIPE_SECRET_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message: "must be a Stripe secret key (sk_test_… or sk_live_…)",
      });
    }
    if (env.STRIPE_PUBLISHABLE_KEY && !/^pk_(test|live)_/.test(env.STRIPE_PUBLISHABLE_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_PUBLISHABLE_KEY"],
        message: "must be a Stripe publishable key (pk_test_… or pk_live_…)",
      });
    }
  })
  .transform((env) => ({
    ...env,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    // Outside production a fixed secret keeps local sessions working across restarts.
    SESSION_SECRET: env.SESSION_SECRET ?? "development-only-session-secret-not-for-production",
  }));

export type Environment = z.infer<typeof environmentSchema>;

/**
 * What Stripe needs in production besides its keys: the prices and tax rate a seller's approval starts
 * the subscription with (the fee table's amounts, checked at start), and the webhook signing secret.
 */
const STRIPE_PRODUCTION_SETTINGS = [
  "STRIPE_SUBSCRIPTION_PRICE_ID",
  "STRIPE_PROCESSING_FEE_PRICE_ID",
  "STRIPE_GST_TAX_RATE_ID",
  "STRIPE_WEBHOOK_SECRET",
] as const;

/**
 * What a deploy without the development doors needs: real SMS, e-mail and card providers, with
 * Stripe's production settings.
 */
export const PROVIDER_SETTINGS = [
  "TWILIO_ACCOUNT_SID",
  "TWILIO_AUTH_TOKEN",
  "TWILIO_FROM",
  "POSTMARK_SERVER_TOKEN",
  "MAIL_FROM",
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  ...STRIPE_PRODUCTION_SETTINGS,
] as const;

/**
 * The one decision on the development doors (the dev outbox, which shows every SMS code and link,
 * and the test card provider): open outside production, or where the operator said DEV_OUTBOX=on.
 * Messaging, payments and the outbox pages all ask this, so nothing else can open them.
 */
export function devDoorsOpen(env: Pick<Environment, "NODE_ENV" | "DEV_OUTBOX">): boolean {
  return env.DEV_OUTBOX === undefined ? env.NODE_ENV !== "production" : env.DEV_OUTBOX === "on";
}

/** A production process with the development doors open on purpose: every page says so. */
export const isStagingCopy = (env: Pick<Environment, "NODE_ENV" | "DEV_OUTBOX">) =>
  env.NODE_ENV === "production" && env.DEV_OUTBOX === "on";

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/** Reads and validates the environment once; throws a one-line ConfigurationError when it is wrong. */
export function readEnvironment(source: NodeJS.ProcessEnv = process.env): Environment {
  const result = environmentSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    // A rule over several variables names them itself.
    if (issue.code === "custom" && (issue.path.length === 0 || issue.message.includes(" must be set together"))) {
      return issue.message;
    }
    return `${issue.path.join(".") || "environment"} ${issue.message}`;
  });
  throw new ConfigurationError(`Invalid configuration: ${problems.join("; ")}`);
}
