import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
        .optional(),
    ),
    PGLITE_DIR: z.string().default(".data/pglite"),
    APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    SESSION_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    SEED_STAFF_EMAIL: optionalText.pipe(z.email().optional()),
    SEED_STAFF_PASSWORD: optionalText.pipe(z.string().min(6, "must be at least 6 characters").optional()),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_FROM: optionalText,
    POSTMARK_SERVER_TOKEN: optionalText,
    MAIL_FROM: optionalText,
    STAFF_NOTIFICATION_EMAIL: optionalText.pipe(z.email().optional()),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    /** Used when staff approve a seller (the subscription starts then); optional until that is built. */
    STRIPE_SUBSCRIPTION_PRICE_ID: optionalText.pipe(
      z.string().startsWith("price_", "must be a Stripe price id (price_…)").optional(),
    ),
    STRIPE_PROCESSING_FEE_PRICE_ID: optionalText.pipe(
      z.string().startsWith("price_", "must be a Stripe price id (price_…)").optional(),
    ),
    STRIPE_GST_TAX_RATE_ID: optionalText.pipe(
      z.string().startsWith("txr_", "must be a Stripe tax rate id (txr_…)").optional(),
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

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/** Reads and validates the environment once; throws a one-line ConfigurationError when it is wrong. */
export function readEnvironment(source: NodeJS.ProcessEnv = process.env): Environment {
  const result = environmentSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "environment";
    return issue.code === "custom" && issue.message.includes(" must be set together")
      ? issue.message
      : `${name} ${issue.message}`;
  });
  throw new ConfigurationError(`Invalid configuration: ${problems.join("; ")}`);
}
