import { and, desc, eq, lt } from "drizzle-orm";
import type { AppServices } from "~/server/app-context";
import type { Database } from "~db/database.server";
import { outboxMessages } from "~db/schema";
import { queueMessage } from "../delivery/outbox.server";
import type { MessageState } from "./staff-messages-schema";

// /staff/messages (issue 19): every e-mail and SMS with its delivery state, newest first, and a
// resend that queues a copy (the original row keeps its history). Bodies are never read here: they
// hold one-time links.

export const MESSAGES_PER_PAGE = 50;

/** One page, newest first: `before` is the last id of the previous page. */
export async function listMessages(db: Database, filter: { status?: MessageState; before?: number }) {
  const rows = await db
    .select({
      id: outboxMessages.id,
      createdAt: outboxMessages.createdAt,
      channel: outboxMessages.channel,
      kind: outboxMessages.kind,
      to: outboxMessages.to,
      subject: outboxMessages.subject,
      status: outboxMessages.status,
      provider: outboxMessages.provider,
      attempts: outboxMessages.attempts,
      lastError: outboxMessages.lastError,
      resendOf: outboxMessages.resendOf,
    })
    .from(outboxMessages)
    .where(
      and(
        filter.status ? eq(outboxMessages.status, filter.status) : undefined,
        filter.before ? lt(outboxMessages.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(outboxMessages.id))
    .limit(MESSAGES_PER_PAGE + 1);
  return {
    messages: rows.slice(0, MESSAGES_PER_PAGE).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    older: rows.length > MESSAGES_PER_PAGE ? rows[MESSAGES_PER_PAGE - 1]?.id : undefined,
  };
}

/**
 * Queues a copy of a sent or failed message as a new row that names the original; the delivery is
 * woken by the commit. Answers the copy's id, or undefined when the message cannot be resent.
 */
export async function resendMessage(services: Pick<AppServices, "db" | "messaging">, id: number) {
  return services.db.transaction(async (tx) => {
    const [original] = await tx.select().from(outboxMessages).where(eq(outboxMessages.id, id)).for("update");
    if (!original || (original.status !== "sent" && original.status !== "failed")) return undefined;
    const copy = await queueMessage(
      tx,
      services.messaging,
      original.channel === "email"
        ? {
            channel: "email",
            kind: original.kind,
            to: original.to,
            subject: original.subject ?? "",
            text: original.text,
            attachments: original.attachments ?? undefined,
          }
        : { channel: "sms", kind: original.kind, to: original.to, text: original.text },
      { resendOf: original.id },
    );
    return copy.id;
  });
}
