import { DeliveryError } from "./delivery-error";

export type PostmarkConfig = { serverToken: string; from: string };

/** Sends plain-text e-mail through Postmark's single-message endpoint. */
export function createPostmarkSender(config: PostmarkConfig, fetchImpl?: typeof fetch) {
  return {
    async send(to: string, subject: string, text: string) {
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)("https://api.postmarkapp.com/email", {
          method: "POST",
          headers: {
            accept: "application/json",
            "content-type": "application/json",
            "x-postmark-server-token": config.serverToken,
          },
          body: JSON.stringify({
            From: config.from,
            To: to,
            Subject: subject,
            TextBody: text,
            MessageStream: "outbound",
          }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new DeliveryError(`Postmark unreachable: ${(error as Error).message}`);
      }
      const body = (await response.json().catch(() => ({}))) as { ErrorCode?: number; Message?: string };
      if (!response.ok || (body.ErrorCode ?? 0) !== 0) {
        throw new DeliveryError(`Postmark refused the message (${response.status}): ${body.Message ?? "no detail"}`);
      }
    },
  };
}
