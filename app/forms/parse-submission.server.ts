import { parseWithZod } from "@conform-to/zod/v4";
import { refuseRequestBody } from "~/platform/request-body.server";

/**
 * Conform's parseWithZod for actions. Conform reads its own reserved fields (`__intent__`,
 * `__state__`) as JSON and throws on a tampered one: that is a body we cannot read (400 with the
 * error page), never a 500.
 */
export const parseSubmission = ((formData: FormData, options: Parameters<typeof parseWithZod>[1]) => {
  try {
    return parseWithZod(formData, options);
  } catch {
    throw refuseRequestBody(400);
  }
}) as typeof parseWithZod;
