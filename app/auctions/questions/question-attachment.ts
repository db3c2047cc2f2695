import { data } from "react-router";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { requireAuction } from "../auction-access.server";
import { fileDownload } from "../documents/auction-documents.server";
import type { Route } from "./+types/question-attachment";
import { questionAttachment } from "./questions.server";

// GET /auctions/:auctionId/questions/:questionId/attachment: a question's file, for the auction's side,
// staff and the seller that asked; never for another seller (a published question keeps its file private,
// it could name the asker). Always a download, as auction documents are.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer } = await requireAuction(request, context, params.auctionId);
  const questionId = parseId(params.questionId);
  const { db } = context.get(appServicesContext);
  const file = questionId ? await questionAttachment(db, auction.id, viewer, questionId) : undefined;
  if (!file) throw data(null, { status: 404 });
  return fileDownload(file);
}
