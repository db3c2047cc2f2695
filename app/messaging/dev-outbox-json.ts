import { appServicesContext } from "~/platform/app-context";
import type { Route } from "./+types/dev-outbox-json";

export async function loader({ context }: Route.LoaderArgs) {
  const { messaging } = context.get(appServicesContext);
  if (messaging.outboxChannels.length === 0) {
    return Response.json({ errors: { form: "Not found." } }, { status: 404 });
  }
  const messages = await messaging.listOutbox();
  return Response.json({ messages }, { headers: { "Cache-Control": "no-store" } });
}
