import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { isOrganizationTypeCode, ORGANIZATION_TYPES } from "~/shared/roles";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { normalizeMobileNumber } from "./mobile-number";

// One schema per form, used by useForm in the browser and by the action on the server; the API
// payloads reuse the same fields.

const requiredText = (message: string, max = 200) =>
  textField({ error: message }).min(1, message).max(max, `Please use at most ${max} characters`);

export const MOBILE_NUMBER_REQUIRED = "Please enter your mobile number";
export const MOBILE_NUMBER_INVALID = "Please enter a valid mobile number, for example 780-555-1234";

/** Answers the number in E.164. */
export const mobileNumberField = textField({ error: MOBILE_NUMBER_REQUIRED })
  .min(1, MOBILE_NUMBER_REQUIRED)
  .max(40, MOBILE_NUMBER_INVALID)
  .transform((value, context) => {
    const normalized = normalizeMobileNumber(value);
    if (!normalized) {
      context.addIssue({ code: "custom", message: MOBILE_NUMBER_INVALID });
      return z.NEVER;
    }
    return normalized;
  });

const ORGANIZATION_TYPE_REQUIRED = "Please select an organization type";

/** An organization type code: a number from JSON, a string from a form. */
export const organizationTypeField = z
  .union([z.number(), z.string()], { error: ORGANIZATION_TYPE_REQUIRED })
  .transform((value, context) => {
    // Digits only: "0x3" or " 3e0" are not a type.
    const code = typeof value === "number" ? value : /^\s*\d\s*$/.test(value) ? Number(value) : Number.NaN;
    if (isOrganizationTypeCode(code)) return code;
    context.addIssue({ code: "custom", message: ORGANIZATION_TYPE_REQUIRED });
    return z.NEVER;
  });

const applicantFields = {
  name: requiredText("Please enter your name"),
  organizationName: requiredText("Please enter your organization name"),
  mobileNumber: mobileNumberField,
};

/** Step 1's form: the type comes from a select, as its code in digits ("3"). */
export const signupFormSchema = z.object({
  ...applicantFields,
  organizationType: z.enum(
    ORGANIZATION_TYPES.map((type) => String(type.code)),
    { error: ORGANIZATION_TYPE_REQUIRED },
  ),
});

export const requestCodePayload = z.object({ ...applicantFields, organizationType: organizationTypeField });

export const VERIFICATION_CODE_REQUIRED = "Please enter the verification code";

const verificationCodeText = textField({ error: VERIFICATION_CODE_REQUIRED })
  .min(1, VERIFICATION_CODE_REQUIRED)
  .max(20, VERIFICATION_CODE_REQUIRED);

export const verifyCodeFormSchema = z.object({ verificationCode: verificationCodeText });

/** The API also takes the code as a JSON number (leading zeros restored). */
export const verifyCodePayload = z.object({
  mobileNumber: mobileNumberField,
  verificationCode: z.union(
    [
      verificationCodeText,
      z
        .int()
        .min(0)
        .max(999_999)
        .transform((code) => String(code).padStart(6, "0")),
    ],
    { error: VERIFICATION_CODE_REQUIRED },
  ),
});

export const accessTokenPayload = z.object({
  accessToken: textField({ error: INVALID_ACCESS_TOKEN, trim: false })
    .min(1, INVALID_ACCESS_TOKEN)
    .max(200, INVALID_ACCESS_TOKEN),
});
