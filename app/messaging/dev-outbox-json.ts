import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/dev-outbox-json";
import { outboxOpen } from "./messaging.server";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(appServicesContext);
  const { messaging } = services;
  if (!outboxOpen(services)) {
    return Response.json({ errors: { form: "Not found." } }, { status: 404 });
  }
  const messages = await messaging.listOutbox();
  return Response.json({ messages }, { headers: { "Cache-Control": "no-store" } });
}
