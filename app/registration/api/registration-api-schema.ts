import { z } from "zod";

// What the registration calls answer: the routes build their answers to these schemas, and the API
// description (app/api-description/) publishes them.

/** 2 buyer, 3 seller, 4 consultant. */
const organizationType = z.literal([2, 3, 4]);

export const codeSentAnswer = z.object({ mobileNumber: z.string().meta({ description: "The number in E.164" }) });
export const accessTokenAnswer = z.object({ accessToken: z.string() });
export const accessTokenStateAnswer = z.object({
  valid: z.literal(true),
  organizationType,
  privacyPolicyAccepted: z.boolean(),
  termsAccepted: z.boolean(),
});
export const privacyPolicyAcceptedAnswer = z.object({
  accepted: z.literal(true),
  version: z.string().meta({ description: "The version of the privacy policy accepted" }),
});
export const termsAcceptedAnswer = z.object({
  organizationType,
  version: z.string().meta({ description: "The version of the terms and conditions accepted" }),
});
export const registrationAnswer = z.object({
  registration: z.object({ id: z.int(), status: z.literal("submitted") }),
});
