import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { MessageServices } from "~/messaging/messaging.server";
import { type Notice, notifyOrganizations } from "~/notifications/notifications.server";
import { formatInZone } from "~/platform/zoned-time";
import type { Database, Transaction } from "~db/database.server";
import { auctionInvitations, auctionLots, auctionQuestions, auctions, organizations, users } from "~db/schema";
import type { Actor } from "../auction-changes.server";
import { logEvent } from "../auction-changes.server";
import { auctionLink, kindName } from "../auction-notices.server";
import { type AuctionRow, statusAt } from "../auction-rules";
import type { AuctionWithLots, Viewer } from "../auction-views.server";
import { inspectDocument } from "../documents/document-content.server";
import { lotName } from "../lots/lot-words";
import { MAX_QUESTIONS_PER_SELLER, QUESTION_MESSAGES } from "./question-schema";

// Questions and answers about an auction (issue 21). An invited seller asks from publication until
// bidding closes; the auction's side (its buyer or consultant organization, and the consultant named
// to evaluate it) answers, privately to the asker or for every invited seller. A seller reads its own
// questions and the published ones, never who asked those: the rows it receives carry no organization,
// user or attachment of another seller, and only ids of its own or published questions.

export type QuestionChange =
  | { kind: "done"; questionId: number }
  | { kind: "refused"; status: 400 | 403 | 404 | 409 | 413; message: string; field?: "attachment" | "answer" | "lot" };

const refused = (
  status: 400 | 403 | 404 | 409 | 413,
  message: string,
  field?: "attachment" | "answer" | "lot",
): QuestionChange => ({ kind: "refused", status, message, field });

/** Asking is open from publication until bidding closes (the sealed deadline). */
export const questionsOpen = (auction: AuctionRow, now = new Date()) => {
  const status = statusAt(auction, now);
  return status === "scheduled" || status === "open";
};

/** The auction's side that answers: the organization running it and its evaluating consultant. */
export const mayAnswer = (viewer: Viewer): viewer is Extract<Viewer, { kind: "owner" | "evaluator" }> =>
  viewer.kind === "owner" || viewer.kind === "evaluator";

/**
 * A practice auction (issue 21) has no questions: its buyer and competitors are simulated. Its
 * questions page, asking and answering are refused as for a seller not invited (404).
 */
export const hasQuestions = (auction: Pick<AuctionRow, "practice">) => !auction.practice;

/** The organizations that answer (and are told of new questions). */
const answeringOrganizations = (auction: AuctionRow) =>
  [auction.organizationId, auction.evaluatorOrganizationId].filter((id): id is number => id !== null);

async function invitedOrganizations(tx: Pick<Database, "select">, auctionId: number) {
  const rows = await tx
    .select({ organizationId: auctionInvitations.organizationId })
    .from(auctionInvitations)
    .where(eq(auctionInvitations.auctionId, auctionId));
  return rows.map((row) => row.organizationId);
}

const quoted = (text: string) => text.split("\n").map((line) => `> ${line}`);

/** A question from an invited seller, with its optional file; the auction's side is told. */
export async function askQuestion(
  services: MessageServices,
  auctionId: number,
  asker: Actor,
  input: {
    question: string;
    /** The lot it is about (issue 31), one of the auction's; none: the whole auction. */
    lotId?: number;
    file?: { name: string; bytes: Buffer };
  },
  now = new Date(),
): Promise<QuestionChange> {
  const inspected = input.file ? inspectDocument(input.file.name, input.file.bytes) : undefined;
  if (inspected && !inspected.ok) return refused(inspected.status, inspected.message, "attachment");
  return services.db.transaction(async (tx): Promise<QuestionChange> => {
    // A share lock: the auction's status cannot move (cancel, close) under the question, and bids
    // (which take the update lock only in their own rounds) are not held up longer than a read.
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("share");
    if (!auction) return refused(404, QUESTION_MESSAGES.gone);
    const invited = await invitedOrganizations(tx, auctionId);
    if (!hasQuestions(auction) || !invited.includes(asker.organizationId) || auction.status === "draft") {
      return refused(404, QUESTION_MESSAGES.notSeller);
    }
    if (!questionsOpen(auction, now)) return refused(409, QUESTION_MESSAGES.closedForQuestions);
    const [asked] = await tx
      .select({ count: count() })
      .from(auctionQuestions)
      .where(and(eq(auctionQuestions.auctionId, auctionId), eq(auctionQuestions.organizationId, asker.organizationId)));
    if ((asked?.count ?? 0) >= MAX_QUESTIONS_PER_SELLER) return refused(409, QUESTION_MESSAGES.tooMany);
    const [lot] = input.lotId
      ? await tx
          .select({ id: auctionLots.id, position: auctionLots.position, title: auctionLots.title })
          .from(auctionLots)
          .where(and(eq(auctionLots.id, input.lotId), eq(auctionLots.auctionId, auctionId)))
      : [];
    if (input.lotId && !lot) return refused(400, QUESTION_MESSAGES.lot, "lot");
    const file = inspected?.ok && input.file ? { ...inspected, bytes: input.file.bytes } : undefined;
    const [question] = await tx
      .insert(auctionQuestions)
      .values({
        auctionId,
        organizationId: asker.organizationId,
        askedByUserId: asker.userId,
        question: input.question,
        lotId: lot?.id ?? null,
        attachmentName: file?.fileName ?? null,
        attachmentType: file?.contentType ?? null,
        attachmentSizeBytes: file?.sizeBytes ?? null,
        attachment: file?.bytes ?? null,
        askedAt: now,
      })
      .returning({ id: auctionQuestions.id });
    if (!question) throw new Error("no question row");
    await logEvent(tx, auctionId, "question-asked", asker, { questionId: question.id });
    await notifyOrganizations(
      services,
      answeringOrganizations(auction),
      {
        kind: "question",
        auctionId,
        subject: `New question: ${auction.title}`,
        lines: [
          `An invited seller asked a question about the ${kindName(auction)} "${auction.title}"${lot ? `, ${lotName(lot)}` : ""}:`,
          "",
          ...quoted(input.question),
          "",
          "Answer it (to the seller alone, or for every invited seller) here:",
          `${auctionLink(services, auctionId)}#questions`,
        ],
      },
      tx,
    );
    return { kind: "done", questionId: question.id };
  });
}

/** The question of this auction, locked; undefined when it is not one of the auction's. */
async function lockQuestion(tx: Transaction, auctionId: number, questionId: number) {
  const [question] = await tx
    .select({
      id: auctionQuestions.id,
      organizationId: auctionQuestions.organizationId,
      question: auctionQuestions.question,
      answer: auctionQuestions.answer,
      answeredAt: auctionQuestions.answeredAt,
      publishedAt: auctionQuestions.publishedAt,
      termsChanged: auctionQuestions.termsChanged,
      lotPosition: auctionLots.position,
      lotTitle: auctionLots.title,
    })
    .from(auctionQuestions)
    .leftJoin(auctionLots, eq(auctionLots.id, auctionQuestions.lotId))
    .where(and(eq(auctionQuestions.id, questionId), eq(auctionQuestions.auctionId, auctionId)))
    .for("update", { of: auctionQuestions });
  return question;
}

/** The auction, when the actor's organization answers its questions and it is not cancelled. */
async function auctionToAnswer(tx: Transaction, auctionId: number, actor: Actor) {
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("share");
  if (!auction || !hasQuestions(auction) || !answeringOrganizations(auction).includes(actor.organizationId)) {
    return { refusal: refused(404, QUESTION_MESSAGES.gone) };
  }
  if (auction.status === "cancelled") return { refusal: refused(409, QUESTION_MESSAGES.cancelled) };
  return { auction };
}

/** The lot a question is about, in words ("Lot 2: Rig move"), or null for the whole auction. */
const questionLotName = (row: { lotPosition: number | null; lotTitle: string | null }) =>
  row.lotPosition === null ? null : lotName({ position: row.lotPosition, title: row.lotTitle ?? "" });

/** What every invited seller but the asker is told when an answer is published: never who asked. */
function publishedNotice(
  services: MessageServices,
  auction: AuctionRow,
  question: string,
  answer: string,
  termsChanged: boolean,
  lot: string | null,
): Notice {
  return {
    kind: "answer",
    auctionId: auction.id,
    subject: `Question answered for every seller: ${auction.title}`,
    lines: [
      `The buyer answered a question about the ${kindName(auction)} "${auction.title}" for every invited seller.`,
      "",
      lot ? `Question about ${lot}:` : "Question:",
      ...quoted(question),
      "",
      "Answer:",
      ...quoted(answer),
      ...(termsChanged ? ["", "The terms were changed because of this question: please read them again."] : []),
      "",
      auctionLink(services, auction.id),
    ],
  };
}

async function tellPublished(
  services: MessageServices,
  tx: Transaction,
  auction: AuctionRow,
  question: { organizationId: number; question: string; lotPosition: number | null; lotTitle: string | null },
  answer: string,
  termsChanged: boolean,
) {
  const others = (await invitedOrganizations(tx, auction.id)).filter((id) => id !== question.organizationId);
  await notifyOrganizations(
    services,
    others,
    publishedNotice(services, auction, question.question, answer, termsChanged, questionLotName(question)),
    tx,
  );
}

/** The answer of the auction's side: the asker is told; published, every other invited seller too. */
export async function answerQuestion(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  questionId: number,
  input: { answer: string; publish: boolean; termsChanged: boolean },
  now = new Date(),
): Promise<QuestionChange> {
  return services.db.transaction(async (tx): Promise<QuestionChange> => {
    const { auction, refusal } = await auctionToAnswer(tx, auctionId, actor);
    if (!auction) return refusal;
    const question = await lockQuestion(tx, auctionId, questionId);
    if (!question) return refused(404, QUESTION_MESSAGES.gone);
    if (question.answeredAt) return refused(409, QUESTION_MESSAGES.answered);
    await tx
      .update(auctionQuestions)
      .set({
        answer: input.answer,
        answeredByUserId: actor.userId,
        answeredAt: now,
        publishedAt: input.publish ? now : null,
        termsChanged: input.termsChanged,
      })
      .where(eq(auctionQuestions.id, questionId));
    await logEvent(tx, auctionId, "question-answered", actor, {
      questionId,
      published: input.publish,
      termsChanged: input.termsChanged,
    });
    await notifyOrganizations(
      services,
      [question.organizationId],
      {
        kind: "answer",
        auctionId,
        subject: `Your question is answered: ${auction.title}`,
        lines: [
          `The buyer answered your question about the ${kindName(auction)} "${auction.title}"${
            input.publish ? " for every invited seller (without saying who asked)" : ""
          }.`,
          "",
          "Your question:",
          ...quoted(question.question),
          "",
          "Answer:",
          ...quoted(input.answer),
          ...(input.termsChanged
            ? ["", "The terms were changed because of your question: please read them again."]
            : []),
          "",
          auctionLink(services, auctionId),
        ],
      },
      tx,
    );
    if (input.publish) await tellPublished(services, tx, auction, question, input.answer, input.termsChanged);
    return { kind: "done", questionId };
  });
}

/** An answer given to the asker alone, shown to every invited seller from now on (without the asker). */
export async function publishAnswer(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  questionId: number,
  now = new Date(),
): Promise<QuestionChange> {
  return services.db.transaction(async (tx): Promise<QuestionChange> => {
    const { auction, refusal } = await auctionToAnswer(tx, auctionId, actor);
    if (!auction) return refusal;
    const question = await lockQuestion(tx, auctionId, questionId);
    if (!question) return refused(404, QUESTION_MESSAGES.gone);
    if (question.answer === null) return refused(409, QUESTION_MESSAGES.notAnswered);
    // Published already: nothing to do, and nobody is told twice.
    if (question.publishedAt) return { kind: "done", questionId };
    await tx
      .update(auctionQuestions)
      .set({ publishedAt: now })
      .where(and(eq(auctionQuestions.id, questionId), isNull(auctionQuestions.publishedAt)));
    await logEvent(tx, auctionId, "answer-published", actor, { questionId });
    await tellPublished(services, tx, auction, question, question.answer, question.termsChanged);
    return { kind: "done", questionId };
  });
}

/** One question as a page shows it, times in the reader's zone. Asker and file only where the reader may see them. */
export type QuestionItem = {
  id: number;
  question: string;
  askedAt: string;
  askedAtText: string;
  /** The reader's own organization asked it (sellers only). */
  own: boolean;
  /** For the auction's side and staff: the asking organization and user. */
  askedBy: { organization: string; alias: string; user: string } | null;
  attachment: { fileName: string; sizeBytes: number } | null;
  answer: string | null;
  answeredAtText: string | null;
  published: boolean;
  termsChanged: boolean;
  /** The lot it is about (issue 31), in words; null: the whole auction. */
  lot: string | null;
};

export type QuestionsView = {
  items: QuestionItem[];
  /** An auction of several lots: the lots a question may be about (the ask form's choices); else none. */
  lots: { id: number; name: string }[];
  /** The reader may ask now (an invited seller while asking is open). */
  mayAsk: boolean;
  /** The reader answers (the auction's side, while it is not cancelled). */
  mayAnswer: boolean;
  /** The reader sees every question with who asked (the auction's side and staff). */
  readsAll: boolean;
};

const askerUsers = alias(users, "asker_users");

/**
 * The questions this viewer may read. The auction's side and staff: all of them with who asked,
 * unanswered first. A seller: its own and the published ones, oldest first; the others' rows are
 * read without organization, user or file, so they cannot reach the page.
 */
export async function questionsFor(
  db: Database,
  auction: AuctionWithLots,
  viewer: Viewer,
  timezone: string,
  now = new Date(),
): Promise<QuestionsView> {
  const readsAll = viewer.kind !== "seller";
  const when = (date: Date | null) => (date ? formatInZone(date, timezone) : null);
  const base = {
    id: auctionQuestions.id,
    question: auctionQuestions.question,
    askedAt: auctionQuestions.askedAt,
    answer: auctionQuestions.answer,
    answeredAt: auctionQuestions.answeredAt,
    publishedAt: auctionQuestions.publishedAt,
    termsChanged: auctionQuestions.termsChanged,
    lotId: auctionQuestions.lotId,
  };
  // Named from the auction's lots as read with it: no join.
  const lotNames = new Map(auction.lots.map((lot) => [lot.id, lotName(lot)]));
  const lotOf = (row: { lotId: number | null }) => (row.lotId === null ? null : (lotNames.get(row.lotId) ?? null));
  let items: QuestionItem[];
  if (readsAll) {
    const rows = await db
      .select({
        ...base,
        organization: organizations.name,
        alias: auctionInvitations.alias,
        firstName: askerUsers.firstName,
        lastName: askerUsers.lastName,
        attachmentName: auctionQuestions.attachmentName,
        attachmentSizeBytes: auctionQuestions.attachmentSizeBytes,
      })
      .from(auctionQuestions)
      .innerJoin(organizations, eq(organizations.id, auctionQuestions.organizationId))
      .leftJoin(
        auctionInvitations,
        and(
          eq(auctionInvitations.auctionId, auctionQuestions.auctionId),
          eq(auctionInvitations.organizationId, auctionQuestions.organizationId),
        ),
      )
      .leftJoin(askerUsers, eq(askerUsers.id, auctionQuestions.askedByUserId))
      .where(eq(auctionQuestions.auctionId, auction.id))
      .orderBy(
        sql`${auctionQuestions.answeredAt} is not null`,
        asc(auctionQuestions.askedAt),
        asc(auctionQuestions.id),
      );
    items = rows.map((row) => ({
      id: row.id,
      question: row.question,
      askedAt: row.askedAt.toISOString(),
      askedAtText: formatInZone(row.askedAt, timezone),
      own: false,
      askedBy: {
        organization: row.organization,
        alias: row.alias ?? "",
        user: [row.firstName, row.lastName].filter(Boolean).join(" "),
      },
      attachment:
        row.attachmentName && row.attachmentSizeBytes !== null
          ? { fileName: row.attachmentName, sizeBytes: row.attachmentSizeBytes }
          : null,
      answer: row.answer,
      answeredAtText: when(row.answeredAt),
      published: row.publishedAt !== null,
      termsChanged: row.termsChanged,
      lot: lotOf(row),
    }));
  } else {
    const own = viewer.organizationId;
    const [mine, published] = await Promise.all([
      db
        .select({
          ...base,
          attachmentName: auctionQuestions.attachmentName,
          attachmentSizeBytes: auctionQuestions.attachmentSizeBytes,
        })
        .from(auctionQuestions)
        .where(and(eq(auctionQuestions.auctionId, auction.id), eq(auctionQuestions.organizationId, own)))
        .orderBy(asc(auctionQuestions.askedAt), asc(auctionQuestions.id)),
      // The others' published questions: no organization, user or file is even read.
      db
        .select(base)
        .from(auctionQuestions)
        .where(
          and(
            eq(auctionQuestions.auctionId, auction.id),
            ne(auctionQuestions.organizationId, own),
            sql`${auctionQuestions.publishedAt} is not null`,
          ),
        )
        .orderBy(asc(auctionQuestions.publishedAt), asc(auctionQuestions.id)),
    ]);
    items = [
      ...mine.map((row) => ({
        id: row.id,
        question: row.question,
        askedAt: row.askedAt.toISOString(),
        askedAtText: formatInZone(row.askedAt, timezone),
        own: true,
        askedBy: null,
        attachment:
          row.attachmentName && row.attachmentSizeBytes !== null
            ? { fileName: row.attachmentName, sizeBytes: row.attachmentSizeBytes }
            : null,
        answer: row.answer,
        answeredAtText: when(row.answeredAt),
        published: row.publishedAt !== null,
        termsChanged: row.termsChanged,
        lot: lotOf(row),
      })),
      ...published.map((row) => ({
        id: row.id,
        question: row.question,
        // When it was published, not asked: the asking time would help tell who asked.
        askedAt: (row.publishedAt ?? row.askedAt).toISOString(),
        askedAtText: formatInZone(row.publishedAt ?? row.askedAt, timezone),
        own: false,
        askedBy: null,
        attachment: null,
        answer: row.answer,
        answeredAtText: when(row.answeredAt),
        published: true,
        termsChanged: row.termsChanged,
        lot: lotOf(row),
      })),
    ];
  }
  return {
    items,
    lots: auction.lots.length > 1 ? auction.lots.map((lot) => ({ id: lot.id, name: lotName(lot) })) : [],
    mayAsk: viewer.kind === "seller" && questionsOpen(auction, now),
    mayAnswer: mayAnswer(viewer) && auction.status !== "cancelled",
    readsAll,
  };
}

/** A question's file for this viewer: the auction's side, staff and the asking seller only. */
export async function questionAttachment(db: Database, auctionId: number, viewer: Viewer, questionId: number) {
  const [row] = await db
    .select({
      organizationId: auctionQuestions.organizationId,
      fileName: auctionQuestions.attachmentName,
      contentType: auctionQuestions.attachmentType,
      content: auctionQuestions.attachment,
    })
    .from(auctionQuestions)
    .where(and(eq(auctionQuestions.id, questionId), eq(auctionQuestions.auctionId, auctionId)));
  if (!row?.fileName || !row.contentType || !row.content) return undefined;
  if (viewer.kind === "seller" && viewer.organizationId !== row.organizationId) return undefined;
  return { fileName: row.fileName, contentType: row.contentType, content: row.content };
}
