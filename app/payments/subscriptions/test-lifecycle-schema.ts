import { z } from "zod";

// The staff form that moves a test subscription through Stripe's lifecycle (issue 19), shared by the
// action and useForm. One button per step, each sending `step`.

export const TEST_LIFECYCLE_STEPS = ["trial-ends", "renewal-fails", "retries-exhausted", "renewal-recovers"] as const;
export type TestLifecycleStep = (typeof TEST_LIFECYCLE_STEPS)[number];

export const TEST_STEP_LABELS: Record<TestLifecycleStep, string> = {
  "trial-ends": "Trial ends soon",
  "renewal-fails": "Renewal fails",
  "retries-exhausted": "Retries exhausted (grace period ends)",
  "renewal-recovers": "Renewal recovers",
};

export const TEST_STEP_DONE: Record<TestLifecycleStep, string> = {
  "trial-ends": "The trial-ending reminder was sent.",
  "renewal-fails": "The renewal failed: the seller is past due and the grace period has started.",
  "retries-exhausted": "Stripe's retries are over: the seller can no longer bid or accept invitations.",
  "renewal-recovers": "The renewal was paid: the seller is active again.",
};

export const CHOOSE_A_STEP = "Please choose a step";

export const testLifecycleSchema = z.object({
  intent: z.literal("subscription-test"),
  step: z.enum(TEST_LIFECYCLE_STEPS, CHOOSE_A_STEP),
});

export const isTestStep = (value: string | null): value is TestLifecycleStep =>
  (TEST_LIFECYCLE_STEPS as readonly (string | null)[]).includes(value);
