import type { OutboxAttachment } from "~db/schema";
import { DeliveryError, isTransientStatus } from "./delivery-error";

export type PostmarkConfig = { serverToken: string; from: string; apiUrl?: string };

export const POSTMARK_DEFAULT_API_URL = "https://api.postmarkapp.com";

/** Sends plain-text e-mail (with any attachments) through Postmark's single-message endpoint. */
export function createPostmarkSender(config: PostmarkConfig, fetchImpl?: typeof fetch) {
  const url = `${(config.apiUrl ?? POSTMARK_DEFAULT_API_URL).replace(/\/+$/, "")}/email`;
  return {
    /** Answers Postmark's MessageID. */
    async send(to: string, subject: string, text: string, attachments?: OutboxAttachment[] | null): Promise<string> {
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, {
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
            ...(attachments?.length
              ? {
                  Attachments: attachments.map((attachment) => ({
                    Name: attachment.name,
                    Content: attachment.contentBase64,
                    ContentType: attachment.contentType,
                  })),
                }
              : {}),
          }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new DeliveryError(`Postmark unreachable: ${(error as Error).message}`, { permanent: false });
      }
      const body = (await response.json().catch(() => ({}))) as {
        ErrorCode?: number;
        Message?: string;
        MessageID?: string;
      };
      if (!response.ok || (body.ErrorCode ?? 0) !== 0) {
        const code = body.ErrorCode ? `, ErrorCode ${body.ErrorCode}` : "";
        throw new DeliveryError(
          `Postmark refused the message (${response.status}${code}): ${body.Message ?? "no detail"}`,
          // A 200 with an ErrorCode, or a 4xx (422 with an ErrorCode such as 300 invalid address or 406
          // inactive recipient): Postmark's answer for this message. 5xx and 429: try again later.
          { permanent: !isTransientStatus(response.status) },
        );
      }
      return body.MessageID ?? "";
    },
  };
}
